"""Every registered bot finishes a game of every variant it can play (with a small budget), handed
only ``view_for`` of the real game as the arena does, choosing legal actions and leaving what it
is given unchanged; and the arena plays every variant in-process."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import plateau
from plateau import GameState, arena
from plateau.bots import BOTS, bot_names, make_bot
from plateau.openings import OpeningSource, write_openings
from plateau.record import from_record, to_record
from support import GAME_VARIANTS, seed_of, snapshot

MAX_PLIES = 10_000  # a random game of Empire Plateau (six steps a turn) may pass 3,000 plies

#: the library's registered bots (other test modules register deliberately broken bots of their
#: own, such as bots that crash or return illegal actions for the arena's forfeit tests)
LIBRARY_BOTS = sorted(n for n, cls in BOTS.items() if cls.__module__.startswith("plateau."))


def small_spec(name: str) -> str:
    """The bot with a small budget: few iterations, depth 1, narrow beams."""
    small = {"iters": 20, "depth": 1, "beam": 2, "replies": 2, "reply_beam": 1}
    params = [f"{k}={v}" for k, v in small.items() if k in BOTS[name].defaults]
    return name + (":" + ",".join(params) if params else "")


def can_play(name: str, state: GameState) -> bool:
    """False if the bot declares, through ``Bot.check_game``, that it cannot play this game."""
    try:
        make_bot(small_spec(name)).check_game(state)
    except ValueError:
        return False
    return True


_PAIRS = [
    (name, g, v, can_play(name, plateau.new_game(g, v)))
    for name in LIBRARY_BOTS
    for g, v in GAME_VARIANTS
]
PLAYS = [(name, g, v) for name, g, v, ok in _PAIRS if ok]
DECLINES = [(name, g, v) for name, g, v, ok in _PAIRS if not ok]


def view_snapshot(s: GameState) -> tuple[Any, ...]:
    return s.hash, s.ply, s.history, s.current_player, s.legal_actions().tolist()


def play(name: str, game: str, variant: str, seed: int) -> GameState:
    state = plateau.new_game(game, variant)
    bots = [make_bot(small_spec(name), seed=seed + p) for p in range(state.num_players)]
    for bot in bots:
        bot.reset()
    while not state.is_terminal():
        p = state.current_player
        view = state.view_for(p, seed=seed ^ state.ply)
        before = view_snapshot(view)
        action = bots[p].select_action(view)
        assert type(action) is int, type(action)
        assert view_snapshot(view) == before, "select_action changed the state it was given"
        assert state.is_legal(action), state.action_to_string(action)
        state.apply(action)
        assert state.ply < MAX_PLIES, "the game does not end"
    return state


@pytest.mark.parametrize(("name", "game", "variant"), PLAYS, ids=["/".join(c) for c in PLAYS])
def test_bot_finishes_a_game(name: str, game: str, variant: str) -> None:
    seed = seed_of("bot", name, game, variant) % 2**31
    state = play(name, game, variant, seed)
    assert state.is_terminal() and state.ply > 0
    loaded = plateau.from_json(state.to_json())
    assert loaded.returns() == state.returns()
    # seeded: the same seeds give the same game
    assert play(name, game, variant, seed).history == state.history


@pytest.mark.parametrize(
    ("name", "game", "variant"), DECLINES, ids=["/".join(c) for c in DECLINES] or None
)
def test_bot_that_declines_refuses_to_move(name: str, game: str, variant: str) -> None:
    state = plateau.new_game(game, variant)
    before = snapshot(state)
    with pytest.raises(ValueError):
        make_bot(small_spec(name)).select_action(state)
    assert snapshot(state) == before
    players = state.num_players
    with pytest.raises(ValueError):  # the arena asks before the first game
        arena.run(game, variant, [small_spec(name)] * players, games=1, jobs=1)


@pytest.mark.parametrize("name", LIBRARY_BOTS)
def test_no_bot_moves_in_a_finished_game(name: str) -> None:
    for game, variant in GAME_VARIANTS:
        state = play("random", game, variant, 1)
        if can_play(name, state):
            with pytest.raises(ValueError, match="over"):
                make_bot(small_spec(name)).select_action(state)


@pytest.mark.parametrize("name", LIBRARY_BOTS)
def test_bot_specs_round_trip(name: str) -> None:
    assert make_bot(name).describe() == name
    bot = make_bot(small_spec(name), seed=3)
    assert make_bot(bot.describe()).params == bot.params
    with pytest.raises(ValueError, match="unknown parameter"):
        make_bot(f"{name}:not_a_parameter=1")


def test_every_bot_plays_something() -> None:
    assert LIBRARY_BOTS and set(LIBRARY_BOTS) <= set(bot_names())
    assert {name for name, _, _ in PLAYS} == set(LIBRARY_BOTS)


# -- the arena -------------------------------------------------------------------------------------


def arena_bots(players: int) -> list[str]:
    return [("greedy", "random")[seat % 2] for seat in range(players)]


def test_arena_runs_in_process(game_variant: tuple[str, str]) -> None:
    game, variant = game_variant
    players = plateau.new_game(game, variant).num_players
    bots = arena_bots(players)
    seed = seed_of("arena", game, variant) % 2**31
    res = arena.run(game, variant, bots, games=2, jobs=1, seed=seed)
    assert isinstance(res, arena.ArenaResult)
    assert (res.game, res.variant, res.bots) == (game, variant, bots)
    assert [r.index for r in res.results] == [0, 1]
    for r in res.results:
        assert r.forfeit is None and not r.truncated
        assert r.seats == [bots[b] for b in arena.seat_order(r.index, players)]
        assert sorted(p for group in r.ranking for p in group) == list(range(players))
        replayed = plateau.from_json(json.dumps(r.record))
        assert replayed.is_terminal() and replayed.ply == r.plies
        assert replayed.ranking() == r.ranking and replayed.returns() == r.returns
    stats = res.stats()
    assert [st.bot for st in stats] == bots and all(st.games == 2 for st in stats)
    assert sum(st.wins for st in stats) >= 2
    assert all(spec in res.format_table() for spec in bots)
    # seeded: the same arena again plays the same games
    again = arena.run(game, variant, bots, games=2, jobs=1, seed=seed)
    assert [r.record for r in again.results] == [r.record for r in res.results]


def test_arena_scores_games_cut_at_the_ply_limit(game_variant: tuple[str, str]) -> None:
    game, variant = game_variant
    players = plateau.new_game(game, variant).num_players
    res = arena.run(game, variant, ["random"] * players, games=2, jobs=1, seed=3, ply_cap=3)
    for r in res.results:
        assert r.truncated and r.plies == 3
        replayed = plateau.from_json(json.dumps(r.record))
        assert not replayed.is_terminal()
        assert r.ranking == replayed.ranking()
        assert r.returns == replayed.points_for(replayed.ranking())


def test_arena_plays_every_seat_rotation_from_one_opening(
    game_variant: tuple[str, str], tmp_path: Path
) -> None:
    game, variant = game_variant
    players = plateau.new_game(game, variant).num_players
    bots = arena_bots(players)
    seed = seed_of("openings", game, variant) % 2**31
    res = arena.run(game, variant, bots, players, seed=seed, openings=OpeningSource(random_plies=4))
    opening = OpeningSource(random_plies=4).book(game, variant, seed).opening(0).record
    for r in res.results:
        assert r.forfeit is None and r.opening == 0 and r.opening_plies == 4
        assert r.record["actions"][:4] == opening["actions"]
        replayed = plateau.from_json(json.dumps(r.record))
        assert replayed.ply == r.plies and replayed.ranking() == r.ranking
    # an opening file: a set-up position (where the game has them) and a game from the start
    start = from_record(opening)
    lines = [opening]
    info = plateau.game_info(game)
    position_dict = getattr(start, "position_dict", None)
    if info.from_setup is not None and callable(position_dict):
        lines.insert(0, to_record(info.from_setup(variant, position_dict())))
    path = tmp_path / "openings.jsonl"
    write_openings(path, lines)
    res = arena.run(
        game, variant, bots, players * len(lines), seed=seed, openings=OpeningSource(path=path)
    )
    for r in res.results:
        assert r.forfeit is None and r.opening == r.index // players
        line = lines[r.opening]
        assert r.record.get("setup") == line.get("setup") and r.opening_plies == len(
            line["actions"]
        )
        assert r.record["actions"][: r.opening_plies] == line["actions"]
        replayed = plateau.from_json(json.dumps(r.record))
        assert replayed.ply == r.plies and replayed.ranking() == r.ranking
        scored = replayed.points_for(r.ranking) if r.truncated else replayed.returns()
        assert scored == r.returns
