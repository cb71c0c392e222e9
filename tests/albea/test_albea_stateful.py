"""Stateful property tests for Plateau (Jim Albea): several live games driven by apply / undo /
clone / JSON and pickle round trips always equal a model (the list of actions each one has
applied, replayed through its record); pieces are conserved; hashes depend on the position
only; and a determinization agrees with everything its viewer knows."""

from __future__ import annotations

import json
import pickle
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import plateau

# the material table of the rules page (type -> pieces per player)
MATERIAL = {"xx": 4, "bb": 2, "rr": 2, "bx": 1, "rx": 1, "ox": 1, "rb": 1}
PIECES = 12
MAX_GAMES = 4
MACHINE_SETTINGS = settings(
    max_examples=25,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


# -- helpers -----------------------------------------------------------------------------------


def material(s: Any, p: int) -> Counter[str]:
    """Player ``p``'s pieces by type: on the board, in reserve and held by the opponent."""
    got: Counter[str] = Counter()
    for stack in s.board():
        for pc in stack:
            if pc["owner"] == p:
                got[pc["type"]] += 1
    got.update(s.reserve(p))
    got.update(s.prisoners(1 - p))
    return got


def assert_conserved(s: Any) -> None:
    for p in (0, 1):
        got = material(s, p)
        assert sum(got.values()) == PIECES, (p, got)
        assert dict(got) == MATERIAL, (p, got)


def position_key(s: Any) -> str:
    """The position as the hash sees it: position_dict without shown flags and ply."""
    pd = s.position_dict()
    pd.pop("ply")
    pd["board"] = [
        [{k: v for k, v in pc.items() if k != "shown"} for pc in stack] for stack in pd["board"]
    ]
    return json.dumps(pd, sort_keys=True)


def snapshot(s: Any) -> tuple[Any, ...]:
    return (s.hash, s.history, s.position_dict())


def assert_agree(a: Any, b: Any) -> None:
    """Everything the brief lists, plus the tensors and the end state."""
    assert a.hash == b.hash
    assert a.legal_actions().tolist() == b.legal_actions().tolist()
    assert a.position_dict() == b.position_dict()
    for p in (0, 1):
        assert a.observation(p) == b.observation(p)
        assert np.array_equal(a.observation_tensor(p), b.observation_tensor(p))
    assert a.is_terminal() == b.is_terminal()
    assert a.returns() == b.returns()


def assert_observation_matches_truth(s: Any, viewer: int) -> None:
    """Own pieces in full; an opponent piece shows exactly the faces flagged as shown, and its
    type only when both faces were shown or an orange face was."""
    obs = s.observation(viewer)
    board = s.board()
    assert len(obs["board"]) == 16
    for seen, true in zip(obs["board"], board):
        assert len(seen) == len(true)
        for o, pc in zip(seen, true):
            assert o["owner"] == pc["owner"]
            faces = [pc["type"][pc["up"]], pc["type"][1 - pc["up"]]]
            shown = [pc["shown"][pc["up"]], pc["shown"][1 - pc["up"]]]
            if pc["owner"] == viewer:
                assert o["faces"] == "".join(faces) and o["type"] == pc["type"]
            else:
                want = "".join(f if sh else "?" for f, sh in zip(faces, shown))
                assert o["faces"] == want
                known = all(shown) or any(f == "o" and sh for f, sh in zip(faces, shown))
                assert o["type"] == (pc["type"] if known else None)
    assert obs["my_reserve"] == s.reserve(viewer)
    assert obs["opponent_reserve_count"] == sum(s.reserve(1 - viewer).values())
    assert [Counter(x) for x in obs["prisoners"]] == [Counter(s.prisoners(q)) for q in (0, 1)]


def check_determinization(truth: Any, viewer: int, seed: int) -> Any:
    """``truth.resample_hidden(viewer, seed)`` against what ``viewer`` knows of ``truth``."""
    before = snapshot(truth)
    det = truth.resample_hidden(viewer, seed)
    assert snapshot(truth) == before
    assert det.is_determinization and not truth.is_determinization
    assert det.history == []
    assert det.ply == truth.ply
    with pytest.raises(ValueError):
        det.to_json()
    with pytest.raises(IndexError):
        det.undo()
    assert_conserved(det)
    seen = det.observation(viewer)
    want = truth.observation(viewer)
    assert seen.pop("history") == []
    want.pop("history")
    assert seen == want
    assert np.array_equal(det.observation_tensor(viewer), truth.observation_tensor(viewer))
    # the viewer's own pieces, reserve and both prisoner sets are untouched
    for d_stack, t_stack in zip(det.board(), truth.board()):
        assert [pc for pc in d_stack if pc["owner"] == viewer] == [
            pc for pc in t_stack if pc["owner"] == viewer
        ]
    assert det.reserve(viewer) == truth.reserve(viewer)
    assert [det.prisoners(q) for q in (0, 1)] == [truth.prisoners(q) for q in (0, 1)]
    if not truth.is_terminal() and truth.current_player == viewer:
        assert det.legal_actions().tolist() == truth.legal_actions().tolist()
    return det


# -- the machine -------------------------------------------------------------------------------


class AlbeaMachine(RuleBasedStateMachine):
    """Up to MAX_GAMES live games (clones of one another); each one's model is the list of
    actions it has applied."""

    max_plies = 0

    def __init__(self) -> None:
        super().__init__()
        self.games: list[tuple[Any, list[int]]] = []
        # position key -> hash and hash -> position key, over every position visited
        self.hash_of: dict[str, int] = {}
        self.key_of: dict[int, str] = {}

    @initialize()
    def start(self) -> None:
        self.games = [(self.fresh(), [])]

    def fresh(self) -> Any:
        return plateau.new_game("albea-plateau", max_plies=self.max_plies)

    def replay(self, actions: list[int]) -> Any:
        s = self.fresh()
        for a in actions:
            s.apply(a)
        return s

    def pick(self, which: int) -> tuple[Any, list[int]]:
        return self.games[which % len(self.games)]

    def others(self, s: Any) -> list[tuple[Any, tuple[Any, ...]]]:
        return [(g, snapshot(g)) for g, _ in self.games if g is not s]

    @staticmethod
    def assert_untouched(others: list[tuple[Any, tuple[Any, ...]]]) -> None:
        for g, snap in others:
            assert snapshot(g) == snap

    def any_running(self) -> bool:
        return any(not g.is_terminal() for g, _ in self.games)

    # -- rules ------------------------------------------------------------------------------

    @precondition(lambda self: self.any_running())
    @rule(which=st.integers(0, 10**6), index=st.integers(0, 10**6))
    def apply_legal(self, which: int, index: int) -> None:
        running = [(g, m) for g, m in self.games if not g.is_terminal()]
        s, model = running[which % len(running)]
        legal = s.legal_actions()
        assert len(legal) > 0
        a = int(legal[index % len(legal)])
        others = self.others(s)
        before = snapshot(s)
        s.apply(a)
        assert s.history == [*model, a] and s.ply == len(model) + 1
        # apply then undo restores everything
        assert s.undo() == a
        assert snapshot(s) == before
        assert s.legal_actions().tolist() == legal.tolist()
        s.apply(a)
        model.append(a)
        self.assert_untouched(others)

    @rule(which=st.integers(0, 10**6), seed=st.integers(0, 2**32 - 1), count=st.integers(1, 40))
    def apply_many(self, which: int, seed: int, count: int) -> None:
        """A fast-forward, so that finished games are reached often."""
        s, model = self.pick(which)
        others = self.others(s)
        rng = random.Random(seed)
        for _ in range(count):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            a = int(legal[rng.randrange(len(legal))])
            s.apply(a)
            model.append(a)
        self.assert_untouched(others)

    @rule(which=st.integers(0, 10**6))
    def undo(self, which: int) -> None:
        s, model = self.pick(which)
        others = self.others(s)
        if not model:
            with pytest.raises(IndexError):
                s.undo()
            assert s.history == []
            return
        previous = self.replay(model[:-1])
        assert s.undo() == model.pop()
        assert s.hash == previous.hash
        assert s.position_dict() == previous.position_dict()
        assert s.history == model
        self.assert_untouched(others)

    @rule(which=st.integers(0, 10**6), slot=st.integers(0, 10**6), index=st.integers(0, 10**6))
    def clone(self, which: int, slot: int, index: int) -> None:
        s, model = self.pick(which)
        twin = s.clone()
        assert twin is not s
        assert_agree(twin, s)
        assert twin.history == s.history
        before = snapshot(s)
        # changing the twin leaves the original alone, and the other way round
        if twin.is_terminal():
            if model:
                twin.undo()
                assert twin.hash != before[0] or twin.position_dict() != before[2]
                assert snapshot(s) == before
                twin.apply(model[-1])
        else:
            legal = twin.legal_actions()
            a = int(legal[index % len(legal)])
            twin.apply(a)
            assert snapshot(s) == before
            s.apply(a)
            assert snapshot(twin) == snapshot(s)
            assert s.undo() == a
            assert twin.history == [*model, a]
            assert twin.undo() == a
        assert snapshot(s) == before
        assert snapshot(twin) == before
        entry = (twin, list(model))
        if len(self.games) < MAX_GAMES:
            self.games.append(entry)
        else:
            self.games[slot % len(self.games)] = entry

    @rule(which=st.integers(0, 10**6), via=st.sampled_from(["json", "pickle"]))
    def round_trip(self, which: int, via: str) -> None:
        i = which % len(self.games)
        s, model = self.games[i]
        text = s.to_json()
        loaded = plateau.from_json(text) if via == "json" else pickle.loads(pickle.dumps(s))
        assert loaded is not s
        assert type(loaded) is type(s)
        assert_agree(loaded, s)
        assert loaded.history == model
        assert loaded.to_json() == text
        self.games[i] = (loaded, model)

    @rule(which=st.integers(0, 10**6), viewer=st.integers(0, 1), seed=st.integers(0, 2**32 - 1))
    def resample(self, which: int, viewer: int, seed: int) -> None:
        s, _ = self.pick(which)
        others = self.others(s)
        det = check_determinization(s, viewer, seed)
        assert det.resample_hidden(viewer, seed).position_dict() == det.position_dict()
        self.assert_untouched(others)

    @rule(which=st.integers(0, 10**6), seed=st.integers(0, 2**32 - 1))
    def from_position(self, which: int, seed: int) -> None:
        """The position rebuilt from position_dict has the same hash, and so does one with
        other shown flags and ply (the hash leaves both out); legality does not read them."""
        s, _ = self.pick(which)
        pd = s.position_dict()
        same = plateau.AlbeaPlateauState.from_position_dict(pd)
        assert same.hash == s.hash
        assert same.position_dict() == pd
        assert same.legal_actions().tolist() == s.legal_actions().tolist()
        rng = random.Random(seed)
        for stack in pd["board"]:
            for pc in stack:
                pc["shown"] = [rng.random() < 0.5, rng.random() < 0.5]
        pd["ply"] = rng.randrange(1000)
        other = plateau.AlbeaPlateauState.from_position_dict(pd)
        assert other.position_dict() == pd
        assert other.hash == s.hash
        assert other.legal_actions().tolist() == s.legal_actions().tolist()

    # -- invariants -------------------------------------------------------------------------

    @invariant()
    def matches_the_record(self) -> None:
        for s, model in self.games:
            assert s.history == model
            assert s.ply == len(model)
            assert not s.is_determinization
            assert_agree(s, plateau.from_json(s.to_json()))
            if s.is_terminal():
                event("a finished game")

    @invariant()
    def pieces_are_conserved(self) -> None:
        for s, _ in self.games:
            assert_conserved(s)

    @invariant()
    def legal_actions_are_consistent(self) -> None:
        for s, _ in self.games:
            legal = s.legal_actions()
            assert legal.dtype == np.int64
            assert legal.tolist() == sorted(set(legal.tolist()))
            assert s.legal_actions_mask().nonzero()[0].tolist() == legal.tolist()
            assert s.is_terminal() == (len(legal) == 0)

    @invariant()
    def returns_follow_the_result(self) -> None:
        for s, _ in self.games:
            r = s.returns()
            assert len(r) == 2
            if not s.is_terminal():
                assert r == [0.0, 0.0]
                assert s.result is None and s.winner is None
            else:
                assert sum(r) == 1.0
                if s.winner is None:
                    assert s.result == "draw" and r == [0.5, 0.5]
                else:
                    assert r[s.winner] == 1.0 and r[1 - s.winner] == 0.0

    @invariant()
    def observations_tell_the_truth(self) -> None:
        for s, _ in self.games:
            for p in (0, 1):
                assert_observation_matches_truth(s, p)

    @invariant()
    def hash_is_a_function_of_the_position(self) -> None:
        for s, _ in self.games:
            key = position_key(s)
            h = s.hash
            assert self.hash_of.setdefault(key, h) == h, "equal positions, different hashes"
            # the converse holds but for 64-bit collisions: a clash means a field left out
            assert self.key_of.setdefault(h, key) == key, "different positions, equal hashes"


class CappedMachine(AlbeaMachine):
    """With the max_plies option: drawn endings, and the option through every round trip."""

    max_plies = 30


TestAlbeaMachine = AlbeaMachine.TestCase
TestCappedMachine = CappedMachine.TestCase
TestAlbeaMachine.settings = MACHINE_SETTINGS
TestCappedMachine.settings = MACHINE_SETTINGS


# -- determinization ---------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(
    game_seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 120),
    seed=st.integers(0, 2**32 - 1),
    other=st.integers(0, 1),
)
def test_resample_hidden_agrees_with_the_viewer(
    game_seed: int, plies: int, seed: int, other: int
) -> None:
    rng = random.Random(game_seed)
    s = plateau.new_game("albea-plateau")
    while not s.is_terminal() and s.ply < plies:
        legal = s.legal_actions()
        s.apply(int(legal[rng.randrange(len(legal))]))
    viewer = other if s.is_terminal() else s.current_player
    det = check_determinization(s, viewer, seed)
    assert det.is_terminal() == s.is_terminal()
    if not s.is_terminal():
        assert det.current_player == viewer
        assert len(det.legal_actions()) > 0
