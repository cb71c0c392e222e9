"""Hidden information in Plateau (Albea): views, determinization, per-player data, and bots
that only ever see a determinization."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

import plateau
from plateau import AlbeaPlateauState, arena
from plateau.arena import play_game
from plateau.bots import Bot, make_bot
from plateau.bots.base import BOTS
from plateau.games.albea.state import COUNT, ORIENTED, TYPES
from plateau.play import play


def random_state(seed: int, plies: int) -> AlbeaPlateauState:
    rng = random.Random(seed)
    s = AlbeaPlateauState()
    while not s.is_terminal() and s.ply < plies:
        s.apply(int(rng.choice(s.legal_actions().tolist())))
    return s


def without_history(obs: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in obs.items() if k != "history"}


def material(s: AlbeaPlateauState, p: int) -> Counter[str]:
    """Player p's 12 pieces, wherever they are (board, reserve, held by the opponent)."""
    c: Counter[str] = Counter()
    for st in s.board():
        for pc in st:
            if pc["owner"] == p:
                c[pc["type"]] += 1
    c.update(s.reserve(p))
    c.update(s.prisoners(1 - p))
    return c


POSITIONS = [(seed, plies) for seed in range(12) for plies in (2, 9, 25, 60)]


@pytest.mark.parametrize("seed,plies", POSITIONS)
def test_determinization_keeps_what_the_viewer_knows(seed: int, plies: int) -> None:
    s = random_state(seed, plies)
    for viewer in (0, 1):
        d = s.resample_hidden(viewer, seed * 7 + viewer)
        assert d.is_determinization and d.history == []
        assert without_history(d.observation(viewer)) == without_history(s.observation(viewer))
        assert np.array_equal(d.observation_tensor(viewer), s.observation_tensor(viewer))
        truth, guess = s.board(), d.board()
        for st_t, st_g in zip(truth, guess):
            assert [pc["owner"] for pc in st_t] == [pc["owner"] for pc in st_g]
            for pt, pg in zip(st_t, st_g):
                if pt["owner"] == viewer:
                    assert pt == pg
                # every face the viewer has seen is the same face in the sample
                for seen_t, seen_g, face_t, face_g in (
                    (
                        pt["shown"][pt["up"]],
                        pg["shown"][pg["up"]],
                        pt["type"][pt["up"]],
                        pg["type"][pg["up"]],
                    ),
                    (
                        pt["shown"][1 - pt["up"]],
                        pg["shown"][1 - pg["up"]],
                        pt["type"][1 - pt["up"]],
                        pg["type"][1 - pg["up"]],
                    ),
                ):
                    assert seen_t == seen_g
                    if seen_t:
                        assert face_t == face_g
        for p in (0, 1):
            assert material(d, p) == Counter(COUNT)
            assert sum(d.reserve(p).values()) == sum(s.reserve(p).values())
            assert d.prisoners(p) == s.prisoners(p)
        assert d.reserve(viewer) == s.reserve(viewer)
        if s.current_player == viewer:
            assert d.legal_actions().tolist() == s.legal_actions().tolist()
            assert d.legal_action_strings() == s.legal_action_strings()


def test_same_seed_same_world_and_worlds_vary() -> None:
    s = random_state(3, 12)
    a = s.resample_hidden(0, 99)
    b = s.resample_hidden(0, 99)
    assert a.position_dict() == b.position_dict()
    assert a.hash == b.hash
    hashes = {s.resample_hidden(0, seed).hash for seed in range(40)}
    assert len(hashes) > 5
    # random.Random and numpy generators are accepted too
    assert s.resample_hidden(0, random.Random(5)).is_determinization
    assert s.resample_hidden(0, np.random.default_rng(5)).is_determinization
    with pytest.raises(ValueError):
        s.resample_hidden(0, "five")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        s.resample_hidden(2, 1)


def test_determinization_is_not_a_game_record() -> None:
    d = random_state(4, 10).resample_hidden(1, 0)
    with pytest.raises(ValueError, match="determinization"):
        d.to_json()
    with pytest.raises(IndexError, match="determinization"):
        d.undo()
    # but it plays on like any state, and its clones stay determinizations
    c = d.clone()
    assert c.is_determinization
    c.apply(int(c.legal_actions()[0]))
    assert c.history != [] and c.is_determinization


def _brute_force_worlds(s: AlbeaPlateauState, viewer: int) -> Counter[tuple[Any, ...]]:
    """Every consistent world, by enumeration: the oriented types of the opponent's
    unidentified pieces (in board order) plus the opponent's reserve."""
    opp = 1 - viewer
    obs = s.observation(viewer)
    pool = Counter(COUNT)
    pool.subtract(s.prisoners(viewer))
    slots = []
    for st in obs["board"]:
        for pc in st:
            if pc["owner"] != opp:
                continue
            if pc["type"] is not None:
                pool[pc["type"]] -= 1
            else:
                up, down = pc["faces"]
                slots.append(
                    [code for code in ORIENTED if up in ("?", code[0]) and down in ("?", code[1])]
                )
    worlds: Counter[tuple[Any, ...]] = Counter()
    for combo in itertools.product(*slots):
        rest = Counter(pool)
        rest.subtract(ORIENTED[c][0] for c in combo)
        if min(rest.values()) >= 0:
            worlds[(combo, tuple(rest[t] for t in TYPES))] += 1
    return worlds


def _world_of(d: AlbeaPlateauState, viewer: int, truth_obs: dict[str, Any]) -> tuple[Any, ...]:
    opp = 1 - viewer
    combo = []
    for st_obs, st in zip(truth_obs["board"], d.board()):
        for po, pc in zip(st_obs, st):
            if po["owner"] == opp and po["type"] is None:
                combo.append(pc["type"] if pc["up"] == 0 else pc["type"][::-1])
    return tuple(combo), tuple(d.reserve(opp).get(t, 0) for t in TYPES)


def test_sampling_is_uniform_over_consistent_worlds() -> None:
    # Black sees: a1 = White ?? under White b?, b1 = White r?; White's 9 reserve pieces unseen
    s = AlbeaPlateauState.from_position({"a1": "Wxx Wbb", "b1": "Wrx", "d4": "Bxx"}, to_move=0)
    worlds = _brute_force_worlds(s, 0)
    assert all(n == 1 for n in worlds.values())
    det = s.determinizer(0)
    assert det.worlds == len(worlds)
    n = 30 * len(worlds)
    rng = random.Random(2024)
    truth_obs = s.observation(0)
    counts = Counter(_world_of(det.sample(rng), 0, truth_obs) for _ in range(n))
    assert set(counts) <= set(worlds)  # never an inconsistent world
    expected = n / len(worlds)
    chi2 = sum((counts.get(w, 0) - expected) ** 2 / expected for w in worlds)
    df = len(worlds) - 1
    # far beyond the 99.99% quantile (about df + 5.3 sqrt(2 df) here): a biased sampler
    # (e.g. one that picks a candidate type uniformly per slot) lands well above it
    assert chi2 < df + 6 * math.sqrt(2 * df), (chi2, df)


def test_deduced_types_are_not_resampled() -> None:
    # a Twister seen orange-up is known; a captured-then-returned piece is bare in the reserve
    s = AlbeaPlateauState.from_position({"a1": "Wox", "b2": "Bxx"}, to_move=0)
    assert s.observation(0)["board"][0] == [{"owner": 1, "faces": "o?", "type": "ox"}]
    for seed in range(20):
        d = s.resample_hidden(0, seed)
        assert d.stack("a1") == s.stack("a1")
        assert "ox" not in d.reserve(1)


def test_opponent_views_redact_openings_and_onboards() -> None:
    s = plateau.new_game("albea-plateau")
    s.apply_all(["xx,rb@a1", "ox,bx@d4", "rr@a1/2"])
    black, white = s.observation(0), s.observation(1)
    assert black["history"] == ["xx,rb@a1", "??,b?@d4", "rr@a1/2"]
    assert white["history"] == ["??,r?@a1", "ox,bx@d4", "r?@a1/2"]
    assert white["board"][0][0] == {"owner": 0, "faces": "??", "type": None}
    assert white["board"][0][1] == {"owner": 0, "faces": "r?", "type": None}
    text = s.observation_string(1)
    assert "a1: B?? Br? Brr" not in text and "a1: B?? Br? Br?" in text
    assert "xx" not in text.split("reserve:")[0]
    record = json.loads(s.to_json(viewer=1))
    assert record["viewer"] == 1 and record["actions"] == white["history"]


def test_observation_tensor_layout() -> None:
    s = plateau.new_game("albea-plateau")
    s.apply_all(["xx,rb@a1", "bx,ox@d4"])
    t0, t1 = s.observation_tensor(0), s.observation_tensor(1)
    assert t0.shape == s.observation_shape == (276, 4, 4) and t0.dtype == np.float32
    # level 0 and 1 of a1 (row 0, col 0): Black's own pieces in Black's view, fully known
    assert t0[0, 0, 0] == 1 and t0[10, 0, 0] == 1 and t0[1, 0, 0] == 0
    assert t0[2 + 0, 0, 0] == 1 and t0[6 + 0, 0, 0] == 1  # xx: up x, down x
    assert t0[10 + 2 + 2, 0, 0] == 1 and t0[10 + 6 + 1, 0, 0] == 1  # rb: up r, down b
    # White's view of the same pieces: opponent planes, bottom unseen, top's up face only
    assert t1[1, 0, 0] == 1 and t1[2:10, 0, 0].sum() == 0
    assert t1[11, 0, 0] == 1 and t1[10 + 2 + 2, 0, 0] == 1 and t1[10 + 6 : 10 + 10, 0, 0].sum() == 0
    # the Twister on top of d4 (row 3, col 3) is seen orange-up by Black: its type is
    # deduced, so its blank down face is known too; the Blue Mask under it is unseen
    assert t0[11, 3, 3] == 1 and t0[10 + 2 + 3, 3, 3] == 1 and t0[10 + 6 + 0, 3, 3] == 1
    assert t0[1, 3, 3] == 1 and t0[2:10, 3, 3].sum() == 0
    # constant planes: Black to act, opponent reserve count 10/12
    assert np.all(t0[240 + 35] == 1) and np.all(t1[240 + 35] == 0)
    assert np.allclose(t0[240 + 7], 10 / 12)
    assert np.array_equal(s.observation_tensor(), t0)  # default: the player to act


class SpyBot(Bot):
    """Records what it is handed, then plays the first legal action."""

    name = "spy"
    seen: ClassVar[list[tuple[bool, list[int], int, dict[str, Any], dict[str, Any]]]] = []

    def select_action(self, state: plateau.GameState) -> int:
        assert isinstance(state, AlbeaPlateauState)
        me = state.current_player
        SpyBot.seen.append(
            (
                state.is_determinization,
                state.history,
                state.ply,
                state.position_dict(),
                without_history(state.observation(me)),
            )
        )
        return int(state.legal_actions()[0])


def test_arena_hands_bots_determinizations_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "spy", SpyBot)
    monkeypatch.setattr(SpyBot, "seen", [])
    result = play_game("albea-plateau", "standard", ["spy", "random"], index=0, seed=5)
    assert result.forfeit is None and SpyBot.seen
    assert all(det and hist == [] for det, hist, *_ in SpyBot.seen)
    # replay the referee's record: each view agrees with the truth on what the spy may know,
    # and at least one differs from the truth in a hidden piece
    truth = plateau.new_game("albea-plateau")
    differs = 0
    actions = result.record["actions"]
    for _, _, ply, position, obs in SpyBot.seen:
        while truth.ply < ply:
            truth.apply(actions[truth.ply])
        assert without_history(truth.observation(truth.current_player)) == obs
        differs += position["board"] != truth.position_dict()["board"]
    assert differs > 0


@pytest.mark.parametrize(
    "spec",
    ["random", "greedy", "mcts:iters=60", "alphabeta:depth=1", "mcts:iters=80,determinizations=4"],
)
def test_bots_play_legal_actions_on_views(spec: str) -> None:
    s = random_state(8, 20)
    bot = make_bot(spec, seed=3)
    for _ in range(4):
        if s.is_terminal():
            break
        a = bot.select_action(s.view_for(s.current_player, seed=s.ply))
        assert s.is_legal(a)
        s.apply(a)


def test_arena_runs_plateau_and_scores_a_stopped_game_as_a_draw(tmp_path: Path) -> None:
    out = tmp_path / "arena.jsonl"
    res = arena.run("albea-plateau", "standard", ["greedy", "random"], games=4, seed=2, out=out)
    assert len(res.results) == 4
    for r in res.results:
        assert sorted(r.returns) == [0.0, 1.0] and not r.truncated
        replayed = plateau.from_json(json.dumps(r.record))
        assert replayed.is_terminal() and replayed.returns() == r.returns
    greedy = res.stats()[0]
    assert greedy.games == 4 and greedy.points == greedy.wins
    # a game cut at the ply limit is scored by its ranking "if it ended now": a draw
    cut = arena.run("albea-plateau", "standard", ["random", "random"], games=2, seed=2, ply_cap=6)
    assert all(r.truncated and r.returns == [0.5, 0.5] for r in cut.results)
    resumed = arena.run(
        "albea-plateau", "standard", ["greedy", "random"], games=6, seed=2, out=out, resume=True
    )
    assert [r.index for r in resumed.results][:4] == [r.index for r in res.results]
    assert len(resumed.results) == 6


def test_terminal_play_shows_only_the_human_s_view() -> None:
    lines = iter(["xx,rb@a1", "?", "quit"])
    written: list[str] = []

    def read(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    s = plateau.new_game("albea-plateau")
    play(s, [0], {1: make_bot("random", seed=4)}, read=read, write=written.append)
    text = "\n".join(written)
    assert s.ply == 2 and "(seen by Black)" in text
    white_opening = s.history_strings()[1]
    square = white_opening.split("@")[1]
    assert f"plays {s.history_strings(viewer=0)[1]}" in text  # the redacted form
    assert white_opening not in text
    seen = [ln for ln in text.splitlines() if ln.startswith(f"{square}: ")]
    assert seen and all("W??" in ln for ln in seen)  # White's bottom piece stays hidden
