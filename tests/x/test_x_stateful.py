"""Stateful property tests: a state driven by apply / undo / clone / JSON round trips always
equals a model (the list of applied actions replayed on a fresh game); and Zobrist hashes
depend on the position only."""

from __future__ import annotations

import copy
import pickle
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import plateau
from support import observe

VARIANTS = ["standard", "triple", "mini", "double"]
MACHINE_SETTINGS = settings(
    max_examples=25,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


class PlateauMachine(RuleBasedStateMachine):
    """Drives one game; the model is the list of actions applied so far."""

    variant = "mini"

    def __init__(self) -> None:
        super().__init__()
        self.first = 0
        self.state: Any = None
        self.model: list[int] = []

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        players = plateau.new_game("plateau-x", self.variant).num_players
        self.first = data.draw(st.integers(0, players - 1), label="first_player")
        self.state = plateau.new_game("plateau-x", self.variant, first_player=self.first)
        self.model = []

    def replay(self) -> Any:
        fresh = plateau.new_game("plateau-x", self.variant, first_player=self.first)
        for a in self.model:
            fresh.apply(a)
        return fresh

    # -- rules ------------------------------------------------------------------------------

    @precondition(lambda self: not self.state.is_terminal())
    @rule(index=st.integers(0, 10**6), prefer_end=st.booleans())
    def apply_random_legal(self, index: int, prefer_end: bool) -> None:
        s = self.state
        legal = s.legal_actions()
        assert len(legal) > 0
        end = s.spec_layout["base_end"]
        a = end if prefer_end and end in legal else int(legal[index % len(legal)])
        before = observe(s)
        mask = s.legal_actions_mask()
        assert mask[a]
        s.apply(a)
        assert s.ply == before[5] + 1 and s.history[-1] == a
        # apply then undo restores hash and legal actions exactly
        assert s.undo() == a
        assert observe(s) == before
        assert (s.legal_actions_mask() == mask).all()
        s.apply(a)
        self.model.append(a)

    @rule(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 40))
    def apply_many_random_legal(self, seed: int, count: int) -> None:
        """A fast-forward, so that finished games are reached often."""
        rng = random.Random(seed)
        s = self.state
        for _ in range(count):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            a = int(legal[rng.randrange(len(legal))])
            s.apply(a)
            self.model.append(a)

    @rule()
    def undo(self) -> None:
        if not self.model:
            with pytest.raises(IndexError):
                self.state.undo()
            return
        assert self.state.undo() == self.model.pop()

    @rule(switch=st.booleans(), index=st.integers(0, 10**6))
    def clone(self, switch: bool, index: int) -> None:
        twin = self.state.clone()
        assert twin is not self.state
        assert observe(twin) == observe(self.state)
        before = observe(self.state)
        # changing the clone leaves the original alone
        if twin.is_terminal():
            if twin.ply:
                twin.undo()
                assert observe(twin) != before
                twin.apply(self.model[-1])
        else:
            legal = twin.legal_actions()
            twin.apply(int(legal[index % len(legal)]))
            assert observe(self.state) == before
            twin.undo()
        assert observe(self.state) == before
        assert observe(twin) == before
        if switch:
            self.state = twin

    @rule(via=st.sampled_from(["json", "pickle", "deepcopy"]))
    def round_trip(self, via: str) -> None:
        text = self.state.to_json()
        if via == "json":
            loaded = plateau.from_json(text)
        elif via == "pickle":
            loaded = pickle.loads(pickle.dumps(self.state))
        else:
            loaded = copy.deepcopy(self.state)
        assert loaded is not self.state
        assert observe(loaded) == observe(self.state)
        assert loaded.to_json() == text
        self.state = loaded

    @rule()
    def finished_game_refuses_everything(self) -> None:
        s = self.state
        if not s.is_terminal():
            return
        assert s.current_player == -1 and len(s.legal_actions()) == 0
        before = observe(s)
        for a in ("end", 0, s.num_distinct_actions - 1):
            with pytest.raises(plateau.IllegalActionError, match="game is over"):
                s.apply(a)
        assert observe(s) == before

    # -- invariants -------------------------------------------------------------------------

    @invariant()
    def matches_the_model(self) -> None:
        if self.state is None:
            return
        s = self.state
        fresh = self.replay()
        assert observe(s) == observe(fresh)
        assert s.history == self.model
        assert s.ply == len(self.model)
        assert s.variant == self.variant and s.first_player == self.first
        if s.is_terminal():
            event("at a finished game")

    @invariant()
    def legal_actions_are_consistent(self) -> None:
        if self.state is None:
            return
        s = self.state
        legal = s.legal_actions()
        assert legal.dtype.name == "int64"
        assert legal.tolist() == sorted(set(legal.tolist()))
        assert s.legal_actions_mask().nonzero()[0].tolist() == legal.tolist()
        strings = s.legal_action_strings()
        assert [s.string_to_action(t) for t in strings] == legal.tolist()
        assert s.is_terminal() == (len(legal) == 0)
        # End is legal exactly when no build is
        if not s.is_terminal():
            builds = [t for t in strings if re.match(r"[SDT]@", t)]
            assert ("end" in strings) == (not builds)
            assert s.perft(1) == len(legal)

    @invariant()
    def ranking_is_a_partition(self) -> None:
        if self.state is None:
            return
        ranking = self.state.ranking()
        flat = [p for group in ranking for p in group]
        assert sorted(flat) == list(range(self.state.num_players))
        assert all(group == sorted(group) and group for group in ranking)


class StandardMachine(PlateauMachine):
    variant = "standard"


class TripleMachine(PlateauMachine):
    variant = "triple"


class MiniMachine(PlateauMachine):
    variant = "mini"


class DoubleMachine(PlateauMachine):
    variant = "double"


TestStandardMachine = StandardMachine.TestCase
TestTripleMachine = TripleMachine.TestCase
TestMiniMachine = MiniMachine.TestCase
TestDoubleMachine = DoubleMachine.TestCase
TestStandardMachine.settings = MACHINE_SETTINGS
TestTripleMachine.settings = MACHINE_SETTINGS
TestMiniMachine.settings = MACHINE_SETTINGS
TestDoubleMachine.settings = MACHINE_SETTINGS


# -- hashes of transpositions ------------------------------------------------------------------

MINI = 6


def squares_of(s: Any, a: int) -> set[int]:
    """The squares an action covers or enters (from its canonical notation)."""
    text = s.action_to_string(a)
    return {plateau.square_index(q, MINI) for q in re.findall(r"[a-f][1-6]", text)}


@st.composite
def transposition(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    """[A, x, B, y] and [B, x, A, y] in mini: A and B are builds of player 0 of the same kind
    on disjoint squares, x and y are player 1's builds or enters on squares apart from A, B and
    each other (so every action is legal in both orders and the positions are equal)."""
    s = plateau.new_game("plateau-x", "mini")
    kind = draw(st.sampled_from(["S", "T"]))
    own = [int(a) for a in s.legal_actions() if s.action_to_string(int(a)).startswith(kind)]
    a1 = draw(st.sampled_from(own))
    rest = [b for b in own if not squares_of(s, b) & squares_of(s, a1)]
    b1 = draw(st.sampled_from(rest))
    used = squares_of(s, a1) | squares_of(s, b1)
    start = [int(a) for a in s.legal_actions() if s.action_to_string(int(a)) != "end"]
    x = draw(st.sampled_from([a for a in start if not squares_of(s, a) & used]))
    x_text = s.action_to_string(x)
    used |= squares_of(s, x)

    def fits(a: int) -> bool:
        t = s.action_to_string(a)
        if squares_of(s, a) & used:
            return False
        if t.startswith("P@") and x_text.startswith("P@"):
            return False  # one piece each in mini
        return not (t.startswith("D@") and x_text.startswith("D@"))  # one double each

    y = draw(st.sampled_from([a for a in start if fits(a)]))
    return [a1, x, b1, y], [b1, x, a1, y]


@settings(max_examples=60, deadline=None)
@given(transposition())
def test_transposed_orders_give_equal_hashes(orders: tuple[list[int], list[int]]) -> None:
    first, second = orders
    assert first != second
    games = []
    for order in (first, second):
        s = plateau.new_game("plateau-x", "mini")
        for a in order:
            assert s.is_legal(a), (s.action_to_string(a), s.history_strings())
            s.apply(a)
        games.append(s)
    g1, g2 = games
    assert g1.history != g2.history
    assert g1.hash == g2.hash
    assert g1.legal_actions().tolist() == g2.legal_actions().tolist()
    assert g1.levels() == g2.levels() and g1.ranking() == g2.ranking()
    # and the intermediate positions (after one of A, B only) differ
    h1 = plateau.new_game("plateau-x", "mini")
    h2 = plateau.new_game("plateau-x", "mini")
    h1.apply(first[0])
    h2.apply(second[0])
    assert h1.hash != h2.hash


@pytest.mark.parametrize("variant", VARIANTS)
def test_different_first_actions_give_different_hashes(variant: str) -> None:
    s = plateau.new_game("plateau-x", variant)
    start = s.hash
    hashes = {}
    for a in s.legal_actions().tolist():
        s.apply(a)
        h = s.hash
        assert 0 <= h < 2**64
        hashes[a] = h
        assert s.undo() == a
        assert s.hash == start
    assert len(set(hashes.values())) == len(hashes)
    assert start not in hashes.values()


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    picks=st.lists(st.integers(0, 10**6), min_size=2, max_size=2, unique=True),
    depth=st.integers(1, 3),
)
def test_different_two_ply_positions_give_different_hashes(
    variant: str, picks: list[int], depth: int
) -> None:
    """Two lines that differ in the first action lead to different positions when the first
    actions are different builds on the bare board (the tile stays); their hashes differ."""
    s = plateau.new_game("plateau-x", variant)
    builds = [a for a in s.legal_actions().tolist() if s.action_to_string(a)[0] in "SDT"]
    a, b = (builds[p % len(builds)] for p in picks)
    assume(a != b)
    lines = []
    for first in (a, b):
        g = plateau.new_game("plateau-x", variant)
        g.apply(first)
        for _ in range(depth - 1):
            legal = g.legal_actions()
            g.apply(int(legal[len(legal) // 2]))
        lines.append(g)
    g1, g2 = lines
    # with at most three plies, lines whose multisets of actions differ cannot meet again: a tile
    # is never removed, and a piece's owner and square follow from the actions alone
    assume(sorted(g1.history) != sorted(g2.history))
    assert g1.hash != g2.hash
    assert (g1.levels(), g1.piece_squares(), g1.supply) != (
        g2.levels(),
        g2.piece_squares(),
        g2.supply,
    ) or [g1.stock(p) for p in range(g1.num_players)] != [
        g2.stock(p) for p in range(g2.num_players)
    ]


@pytest.mark.parametrize("variant", VARIANTS)
def test_hash_depends_on_the_player_to_move(variant: str) -> None:
    s = plateau.new_game("plateau-x", variant)
    n = s.num_players
    starts = {plateau.new_game("plateau-x", variant, first_player=p).hash for p in range(n)}
    assert len(starts) == n
