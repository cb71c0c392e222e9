"""The state API contract on seeded positions of every game and variant: types and shapes of
legal actions and masks, players, returns and rankings, hashes, observations, notation round
trips, and the registry entries themselves."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import numpy as np
import pytest
from plateau_core._common import GameCore

import plateau
from plateau import GameState, IllegalActionError
from plateau.bots import make_bot
from support import GAME_VARIANTS, Case, random_history, seed_of, snapshot


def assert_ranking_is_a_partition(s: GameState, ranking: list[list[int]]) -> None:
    assert isinstance(ranking, list) and ranking
    for group in ranking:
        assert isinstance(group, list) and group, ranking
        assert all(type(p) is int for p in group), ranking
        assert group == sorted(group), f"players inside a group ascend: {ranking}"
    assert sorted(p for g in ranking for p in g) == list(range(s.num_players)), ranking


def assert_cheap_invariants(s: GameState) -> None:
    """What must hold at every ply, checked cheaply."""
    n = s.num_distinct_actions
    legal = s.legal_actions()
    assert legal.dtype == np.int64 and legal.ndim == 1
    assert np.all(np.diff(legal) > 0)
    assert len(legal) == 0 or (legal[0] >= 0 and legal[-1] < n)
    assert np.array_equal(np.flatnonzero(s.legal_actions_mask()), legal)
    assert s.num_legal_actions() == len(legal) == s.perft(1)
    assert s.is_terminal() == (len(legal) == 0)
    if s.is_terminal():
        assert s.current_player == -1
    else:
        assert 0 <= s.current_player < s.num_players
        assert s.returns() == [0.0] * s.num_players
    assert s.ply == len(s.history)
    assert 0 <= s.hash < 2**64
    assert_ranking_is_a_partition(s, s.ranking())


# -- the registry ----------------------------------------------------------------------------------


def test_registry_lists() -> None:
    names = plateau.games()
    assert names and len(set(names)) == len(names)
    assert all(isinstance(g, str) and g for g in names)
    names.append("not-a-game")  # a copy: the registry is not changed through it
    assert "not-a-game" not in plateau.games()
    for g in plateau.games():
        vs = plateau.variants(g)
        assert vs and len(set(vs)) == len(vs)
        vs.clear()
        assert plateau.variants(g)


def test_error_classes() -> None:
    """Two kinds of refused action, as python-chess has InvalidMoveError and IllegalMoveError:
    neither is the other, both are ActionError and so ValueError (``except ValueError`` keeps
    catching bad input)."""
    invalid, illegal = plateau.InvalidActionError, plateau.IllegalActionError
    assert not issubclass(invalid, illegal) and not issubclass(illegal, invalid)
    for cls in (invalid, illegal, plateau.InvalidRecordError):
        assert issubclass(cls, ValueError)
    assert issubclass(invalid, plateau.ActionError) and issubclass(illegal, plateau.ActionError)
    assert not issubclass(plateau.InvalidRecordError, plateau.ActionError)


def test_registry_entry(game_variant: tuple[str, str]) -> None:
    game, variant = game_variant
    info = plateau.game_info(game)
    assert info.name == game and isinstance(info.title, str) and info.title
    assert info.default_variant in info.variants
    assert isinstance(info.perfect_information, bool)
    s = plateau.new_game(game, variant)
    assert isinstance(s, GameState)
    assert (s.game, s.variant) == (game, variant)
    assert type(s).game == game
    assert s.options == info.options  # a new game has the default options
    assert not s.is_determinization and s.setup_position() is None
    assert s.ply == 0 and s.history == [] and not s.is_terminal()
    assert s.num_players >= 1 and s.num_distinct_actions >= 1
    points = s.points_by_place()
    assert len(points) == s.num_players
    assert list(points) == sorted(points, reverse=True)
    # the default variant and explicit defaults give the same game
    d = plateau.new_game(game)
    assert d.variant == info.default_variant
    assert plateau.new_game(game, None).variant == info.default_variant
    assert plateau.new_game(game, variant, **info.options).hash == s.hash
    # a new game is the same every time
    assert snapshot(plateau.new_game(game, variant)) == snapshot(s)


# -- legal actions ---------------------------------------------------------------------------------


def test_legal_actions_and_mask(case: Case) -> None:
    s = case.state()
    n = s.num_distinct_actions
    legal = s.legal_actions()
    assert isinstance(legal, np.ndarray)
    assert legal.dtype == np.int64 and legal.ndim == 1
    assert np.all(np.diff(legal) > 0), "ascending and unique"
    if len(legal):
        assert int(legal[0]) >= 0 and int(legal[-1]) < n
    mask = s.legal_actions_mask()
    assert isinstance(mask, np.ndarray)
    assert mask.dtype == np.bool_ and mask.shape == (n,)
    assert np.array_equal(np.flatnonzero(mask), legal)
    count = s.num_legal_actions()
    assert type(count) is int and count == len(legal)
    assert s.is_terminal() == (count == 0)
    # the arrays are fresh copies: writing to them changes nothing in the state
    kept = legal.copy()
    legal[:] = -1
    mask[:] = not mask.any()
    assert np.array_equal(s.legal_actions(), kept)
    assert int(s.legal_actions_mask().sum()) == len(kept)


def test_is_legal_agrees_with_the_mask(case: Case) -> None:
    s = case.state()
    n = s.num_distinct_actions
    mask = s.legal_actions_mask()
    rng = random.Random(case.seed)
    legal = s.legal_actions().tolist()  # (cached: is_legal looks ids up in the list)
    near = {a + k for a in legal for k in (-2, -1, 1, 2) if 0 <= a + k < n}
    sample = set(legal) | near | {0, n - 1} | {rng.randrange(n) for _ in range(300)}
    for a in sorted(sample):
        assert s.is_legal(a) is bool(mask[a]), a
    for a in (-1, n, 2**64, -(2**63)):
        assert s.is_legal(a) is False


def test_legality_without_the_cached_list(case: Case) -> None:
    """``is_legal`` and ``apply`` on states that never listed their actions (clones, and after
    ``undo``) answer as the list does: a game may check one action without listing them all."""
    s = case.state()
    legal = s.legal_actions().tolist()
    allowed = set(legal)
    n = s.num_distinct_actions
    rng = random.Random(case.seed + 1)
    near = {a + k for a in legal for k in (-3, -2, -1, 1, 2, 3)}
    sample = near | allowed | {0, n - 1} | {rng.randrange(n) for _ in range(300)}
    fresh = s.clone()
    for a in sorted(a for a in sample if 0 <= a < n):
        assert fresh.is_legal(a) is (a in allowed), a
    for a in rng.sample(legal, min(len(legal), 10)):
        c = s.clone()
        c.apply(a)
        assert c.undo() == a
        c.apply(a)  # again, after undo
        assert c.history[-1] == a and c.ply == s.ply + 1
    before = snapshot(s)
    for a in rng.sample(sorted(near - allowed), min(len(near - allowed), 10)):
        if 0 <= a < n:
            c = s.clone()
            with pytest.raises(IllegalActionError):
                c.apply(a)
            assert snapshot(c) == before
    assert snapshot(s) == before


# -- players, returns, ranking ---------------------------------------------------------------------


def test_players_returns_and_ranking(case: Case) -> None:
    s = case.state()
    cp = s.current_player
    assert type(cp) is int
    if s.is_terminal():
        assert cp == -1
    else:
        assert 0 <= cp < s.num_players
    ret = s.returns()
    assert isinstance(ret, list) and len(ret) == s.num_players
    assert all(type(x) is float for x in ret)
    ranking = s.ranking()
    assert_ranking_is_a_partition(s, ranking)
    assert s.winners() == ranking[0]
    if not s.is_terminal():
        assert ret == [0.0] * s.num_players
    else:
        assert ret == s.points_for(ranking)
        assert math.isclose(sum(ret), sum(s.points_by_place()))
        assert max(ret) == ret[ranking[0][0]]
        for better, worse in zip(ranking, ranking[1:]):
            assert ret[better[0]] > ret[worse[0]], (ranking, ret)


def test_heuristic(case: Case) -> None:
    s = case.state()
    before = snapshot(s)
    values = [s.heuristic(p) for p in range(s.num_players)]
    assert all(type(v) is float and math.isfinite(v) for v in values)
    if s.num_players == 2:  # negamax (alphabeta) relies on it
        assert values[0] == -values[1]
    assert snapshot(s) == before


# -- hash, observation, text -----------------------------------------------------------------------


def test_hash_observation_and_text(case: Case) -> None:
    s = case.state()
    h = s.hash
    assert type(h) is int and 0 <= h < 2**64
    assert s.hash == h
    shape = s.observation_shape
    assert isinstance(shape, tuple) and all(type(d) is int and d > 0 for d in shape)
    obs = s.observation_tensor()
    assert isinstance(obs, np.ndarray) and obs.dtype == np.float32 and obs.shape == shape
    assert np.all(np.isfinite(obs))
    assert np.array_equal(s.observation_tensor(), obs)
    obs[...] = 12345.0  # a fresh array too
    assert not np.array_equal(s.observation_tensor(), obs)
    text = str(s)
    assert isinstance(text, str) and text.strip()
    r = repr(s)
    assert s.game in r and s.variant in r and f"ply={s.ply}" in r


# -- what each player observes ---------------------------------------------------------------------


def test_observations_of_every_player(case: Case) -> None:
    s = case.state()
    before = snapshot(s)
    n = s.num_players
    if not s.is_terminal():  # the default viewer is the player to move
        mover = s.current_player
        assert np.array_equal(s.observation_tensor(), s.observation_tensor(mover))
        assert s.observation() == s.observation(mover)
        assert s.observation_string() == s.observation_string(mover)
    tensors, views = [], []
    for p in range(n):
        t = s.observation_tensor(p)
        assert t.dtype == np.float32 and t.shape == s.observation_shape
        assert np.all(np.isfinite(t)) and np.array_equal(s.observation_tensor(p), t)
        tensors.append(t)
        obs = s.observation(p)
        assert isinstance(obs, dict) and obs["player"] == p
        assert (obs["ply"], obs["current_player"]) == (s.ply, s.current_player)
        assert obs["history"] == s.history_strings(viewer=p)
        assert json.loads(json.dumps(obs)) == obs  # plain data
        views.append({k: v for k, v in obs.items() if k != "player"})
        text = s.observation_string(p)
        assert isinstance(text, str) and text.strip()
    if plateau.game_info(case.game).perfect_information:
        assert all(v == views[0] for v in views)  # everything is public
    if case.label == "midgame" and n > 1:  # each player's planes are drawn from their side
        assert any(not np.array_equal(tensors[0], t) for t in tensors[1:])
    assert snapshot(s) == before


# -- equality --------------------------------------------------------------------------------------


def test_states_compare_by_position(case: Case) -> None:
    s = case.state()
    twin = s.clone()
    assert s == twin
    assert (s != twin) is False
    assert plateau.from_json(s.to_json()) == s
    assert s != "a state" and s != None  # noqa: E711
    with pytest.raises(TypeError, match="unhashable"):
        hash(s)
    if s.ply:
        assert s != plateau.new_game(case.game, case.variant)
        twin.undo()
        assert s != twin
        twin.apply(s.history[-1])
        assert s == twin
    if not s.is_terminal():
        twin.apply(int(twin.legal_actions()[0]))
        assert s != twin
    other = [v for v in plateau.variants(case.game) if v != case.variant]
    for v in other:
        assert plateau.new_game(case.game, v) != plateau.new_game(case.game, case.variant)


def test_equal_positions_reached_two_ways(game_variant: tuple[str, str]) -> None:
    """Equality ignores the history: swapping two moves of one player that do not interact
    (searched with a seeded generator from a few positions) reaches an equal state with the same
    hash, by another history."""
    game, variant = game_variant
    rng = random.Random(f"transpose/{game}/{variant}")
    found = 0
    for label in ("start", "opening", "midgame"):
        base = Case(game, variant, label).state()
        n = base.num_players
        for _ in range(60):
            s = base.clone()
            moves = []
            for _ in range(n + 1):  # p, the others, p again
                if s.is_terminal():
                    break
                moves.append(int(rng.choice(s.legal_actions().tolist())))
                s.apply(moves[-1])
            if len(moves) < n + 1:
                continue
            # the first and the last action; or the first two (a turn of several actions, as in
            # Empire Plateau, where the last is mostly another player's)
            for i, j in ((0, n), (0, 1)):
                if moves[i] == moves[j]:
                    continue
                swapped = list(moves)
                swapped[i], swapped[j] = moves[j], moves[i]
                t = base.clone()
                try:
                    t.apply_all(swapped)
                except plateau.IllegalActionError:
                    continue
                assert t.history != s.history
                if t == s:  # equal positions have equal hashes, unequal ones different hashes
                    assert t.hash == s.hash
                    found += 1
                else:
                    assert t.hash != s.hash
    assert found > 0, "no transposition found: nothing was checked"


# -- notation --------------------------------------------------------------------------------------


def test_action_strings_round_trip(case: Case) -> None:
    s = case.state()
    legal = s.legal_actions().tolist()
    strings = s.legal_action_strings()
    assert strings == [s.action_to_string(a) for a in legal]
    assert len(set(strings)) == len(strings), "canonical names are distinct"
    for a, text in zip(legal, strings):
        assert isinstance(text, str) and text
        assert s.string_to_action(text) == a
        assert s.parse_action(text) == a
        assert s.action_id(text) == a
    # notation is read in either letter case, with surrounding blanks
    for a, text in list(zip(legal, strings))[:: max(1, len(legal) // 25)]:
        for spelling in (text.upper(), text.lower(), f" {text} ", f"\t{text}\n"):
            assert s.string_to_action(spelling) == a, spelling
    # every id has a name that parses back to it, legal here or not
    rng = random.Random(case.seed)
    n = s.num_distinct_actions
    for a in {0, n - 1} | {rng.randrange(n) for _ in range(200)}:
        assert s.parse_action(s.action_to_string(a)) == a


def test_every_id_has_a_distinct_name_that_parses_back(game_variant: tuple[str, str]) -> None:
    s = plateau.new_game(*game_variant)
    strings = [s.action_to_string(a) for a in range(s.num_distinct_actions)]
    assert all(isinstance(t, str) and t and t == t.strip() for t in strings)
    assert len(set(strings)) == len(strings)
    for a, text in enumerate(strings):
        assert s.parse_action(text) == a
        assert s.parse_action(text.upper()) == a
    for a in range(0, len(strings), 7):
        assert s.parse_action(f"  {strings[a]}\n") == a
        assert s.action_to_string(np.int64(a)) == strings[a]


def test_the_state_api_is_declared_once_on_the_compiled_base(game_variant: tuple[str, str]) -> None:
    # ply, hash and observation_shape are GameCore's, read through its hooks: no game's core nor
    # the Python mixin declares them again
    s = plateau.new_game(*game_variant)
    for name in ("ply", "hash", "observation_shape", "apply", "_apply_other"):
        owners = [k for k in type(s).__mro__ if name in vars(k)]
        # the mixin's apply hook is set on each state class too (a state lists its core first)
        expected = [type(s), GameCore, GameState] if name == "_apply_other" else [GameCore]
        assert owners == expected, (name, owners)
    assert type(s.ply) is int and type(s.hash) is int
    assert s.observation_tensor().shape == s.observation_shape


def test_the_compiled_core_applies_and_refuses_without_the_python_layer(live_case: Case) -> None:
    # the core's own apply hook (what a state's class overrides): any integer type's legal id,
    # typed refusals for the rest, notation included (reading it is the Python layer's job)
    s = live_case.state()
    legal = s.legal_actions()
    illegal = np.setdiff1d(np.arange(s.num_distinct_actions), legal)
    before = snapshot(s)
    refused: list[tuple[object, type[Exception]]] = [
        (s.action_to_string(int(legal[0])), plateau.InvalidActionError),
        (1.0, plateau.InvalidActionError),
        (np.True_, plateau.InvalidActionError),
        (-1, plateau.InvalidActionError),
        (np.int16(-1), plateau.InvalidActionError),
        (s.num_distinct_actions, plateau.InvalidActionError),
    ]
    if len(illegal):
        refused.append((np.uint32(illegal[0]), plateau.IllegalActionError))
    for action, error in refused:
        with pytest.raises(error):
            GameCore._apply_other(s, action)
        assert snapshot(s) == before, action
    GameCore._apply_other(s, np.int32(legal[-1]))
    expected = live_case.state()
    expected.apply(int(legal[-1]))
    assert snapshot(s) == snapshot(expected)


def test_apply_by_string_equals_apply_by_id(live_case: Case) -> None:
    s = live_case.state()
    legal = s.legal_actions().tolist()
    rng = random.Random(live_case.seed)
    for a in rng.sample(legal, min(6, len(legal))):
        by_id, by_text = s.clone(), s.clone()
        by_id.apply(a)
        by_text.apply(s.action_to_string(a))
        assert snapshot(by_text) == snapshot(by_id)
        assert by_id.history == [*s.history, a]
        assert by_id.ply == s.ply + 1


def test_apply_index_applies_that_entry_of_the_legal_list(live_case: Case) -> None:
    s = live_case.state()
    legal = s.legal_actions().tolist()
    before = snapshot(s)
    for bad in (len(legal), -1, 2**70, True, 1.0, "0", np.int64(len(legal))):
        with pytest.raises(plateau.InvalidArgumentError, match="legal actions"):
            s.apply_index(bad)  # type: ignore[arg-type]
        assert snapshot(s) == before, bad
    rng = random.Random(live_case.seed)
    for k in {0, len(legal) - 1, rng.randrange(len(legal))}:
        via_index, via_id = s.clone(), s.clone()
        for index in (k, np.int32(k)):  # any integral type
            got = via_index.apply_index(index)
            assert got == legal[k] and type(got) is int
            via_id.apply(legal[k])
            assert snapshot(via_index) == snapshot(via_id)
            via_index.undo()
            via_id.undo()


def test_apply_index_plays_whole_games(game_variant: tuple[str, str]) -> None:
    # the fast path of the Python loop plays the same game as legal_actions + apply
    fast, slow = plateau.new_game(*game_variant), plateau.new_game(*game_variant)
    r1, r2 = random.Random(5), random.Random(5)
    while not slow.is_terminal() and slow.ply < 400:
        legal = slow.legal_actions()
        slow.apply(int(legal[r1.randrange(len(legal))]))
        fast.apply_index(r2.randrange(fast.num_legal_actions()))
        assert fast.hash == slow.hash
    assert snapshot(fast) == snapshot(slow)
    if fast.is_terminal():
        with pytest.raises(IllegalActionError, match="game is over"):
            fast.apply_index(0)


def test_history_strings_replay(case: Case) -> None:
    s = case.state()
    texts = s.history_strings()
    assert len(texts) == len(s.history)
    fresh = plateau.new_game(case.game, case.variant)
    for text, a in zip(texts, s.history):
        assert fresh.string_to_action(text) == a
        fresh.apply(text)
    assert snapshot(fresh) == snapshot(s)


def test_winning_actions_match_their_definition(live_case: Case) -> None:
    s = live_case.state()
    before = snapshot(s)
    wins = s.winning_actions()
    assert isinstance(wins, np.ndarray) and wins.dtype == np.int64 and wins.ndim == 1
    # the game's own implementation agrees with GameState's apply-and-look definition
    assert wins.tolist() == GameState.winning_actions(s).tolist()
    assert set(wins.tolist()) <= set(s.legal_actions().tolist())
    assert snapshot(s) == before


class _Interrupt(BaseException):
    """As KeyboardInterrupt, which would end the pytest session if it escaped."""


def test_winning_actions_and_greedy_leave_the_state_on_an_interrupt(
    live_case: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An interrupt in the middle of ``winning_actions`` (its default tries each action) or of
    the greedy bot leaves the state as it was: the actions are tried on a copy (Ctrl-C
    between an apply and its undo left the action played)."""
    s = live_case.state()
    before = snapshot(s)

    def interrupted(self: GameState) -> bool:
        raise _Interrupt

    for query in (
        lambda: GameState.winning_actions(s),
        lambda: make_bot("greedy").select_action(s),
    ):
        monkeypatch.setattr(type(s), "is_terminal", interrupted)
        with pytest.raises(_Interrupt):
            query()
        monkeypatch.undo()
        assert snapshot(s) == before


# -- every ply of a whole game ---------------------------------------------------------------------


def test_invariants_at_every_ply(game_variant: tuple[str, str]) -> None:
    """A second seeded game, checked at every ply: the invariants, perft(2) bulk and not, the
    action's notation, apply/undo of it, and the record of the position."""
    game, variant = game_variant
    history = random_history(game, variant, seed_of("walk", game, variant))
    s = plateau.new_game(game, variant)
    for a in history:
        assert_cheap_invariants(s)
        assert s.perft(2) == s.perft(2, bulk=False)
        assert s.is_legal(a)
        assert s.string_to_action(s.action_to_string(a)) == a
        assert plateau.from_json(s.to_json()).hash == s.hash
        h = s.hash
        s.apply(a)
        after = s.hash
        assert s.undo() == a and s.hash == h
        s.apply(a)
        assert s.hash == after
    assert_cheap_invariants(s)
    assert s.is_terminal()


# -- random playouts in the core -------------------------------------------------------------------


PLAYOUT_FIELDS = ("games", "plies", "ended", "draws", "wins")
PLAYOUT_KEYS = sorted(PLAYOUT_FIELDS)


def assert_playout_counts(out: dict[str, Any], players: int, n: int, cap: int) -> None:
    """The documented result of ``random_playouts``: the same keys in every game, and counts
    that add up (wins and draws are about the games that ended; a shared first place counts
    in ``wins`` for each of its 2..players players and once in ``draws``)."""
    assert sorted(out) == PLAYOUT_KEYS
    games, plies, ended, draws, wins = (out[k] for k in PLAYOUT_FIELDS)
    assert all(type(x) is int for x in (games, plies, ended, draws))
    assert isinstance(wins, list) and len(wins) == players
    assert all(type(w) is int and 0 <= w <= ended for w in wins)
    assert games == n and 0 <= draws <= ended <= n
    assert ended <= plies <= n * cap
    assert ended + draws <= sum(wins) <= ended + (players - 1) * draws


def test_module_random_playouts(game_variant: tuple[str, str]) -> None:
    game, variant = game_variant
    players = plateau.new_game(game, variant).num_players
    out = plateau.random_playouts(game, variant, n=20, seed=5)
    assert_playout_counts(out, players, 20, 400)
    assert plateau.random_playouts(game, variant, n=20, seed=5) == out
    # the seed matters (whole games: with a cap, games that never end look alike)
    whole = [plateau.random_playouts(game, variant, n=5, seed=k, ply_cap=None) for k in (5, 6)]
    assert all(w["ended"] == 5 for w in whole) and whole[0] != whole[1]
    zero = plateau.random_playouts(game, variant, n=0, seed=5)
    assert (zero["games"], zero["plies"], zero["ended"]) == (0, 0, 0)
    info = plateau.game_info(game)
    assert plateau.random_playouts(game, variant, n=20, seed=5, **info.options) == out
    assert plateau.random_playouts(game, variant, n=1, seed=2**64 - 1, ply_cap=2**31 - 1)


def test_random_playouts_cut_short(game_variant: tuple[str, str]) -> None:
    """Games cut short at ``ply_cap`` count in neither ``wins`` nor ``draws``: with a cap of
    a few plies, few or none end, and the counts still add up."""
    game, variant = game_variant
    players = plateau.new_game(game, variant).num_players
    whole = plateau.random_playouts(game, variant, n=50, seed=3)
    for cap in (1, 2, 5):
        out = plateau.random_playouts(game, variant, n=50, seed=3, ply_cap=cap)
        assert_playout_counts(out, players, 50, cap)
        assert out["ended"] <= whole["ended"] and out["draws"] <= out["ended"]


def test_every_variant_is_covered() -> None:
    assert {gv[0] for gv in GAME_VARIANTS} == set(plateau.games())


def test_observation_bounds_hold_over_whole_games(game_variant: tuple[str, str]) -> None:
    """``observation_bounds()`` bounds every viewer's tensor at every ply of random games, and
    does not depend on the position."""
    game, variant = game_variant
    start = plateau.new_game(game, variant)
    low, high = start.observation_bounds()
    for a in (low, high):
        assert a.dtype == np.float32 and a.shape == start.observation_shape
        assert np.all(np.isfinite(a))
    assert np.all(low <= high)
    for k in range(2):
        s = plateau.new_game(game, variant)
        for a in random_history(game, variant, seed_of("bounds", game, variant, k)):
            for p in range(s.num_players):
                t = s.observation_tensor(p)
                where = np.argwhere((t < low) | (t > high))
                bad = f"{t[tuple(where[0])]} at {where[0]}" if len(where) else ""
                assert not bad, f"ply {s.ply}, viewer {p}: {bad}"
            s.apply(a)
        later_low, later_high = s.observation_bounds()
        assert np.array_equal(later_low, low) and np.array_equal(later_high, high)
