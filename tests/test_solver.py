"""The solver against brute force (plain minimax over the whole tree, written apart from it) on
small positions of every two-player game, its budget, its refusals and its command line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import plateau
from plateau.cli import main
from plateau.errors import InvalidArgumentError
from plateau.solver import Solver, solve
from plateau.state import GameState


def _brute(state: GameState, root: int, depth: int, unfinished: int) -> tuple[int, int]:
    """(outcome for ``root``: 1, 0 or -1; actions to it) by plain minimax over every line of
    at most ``depth`` actions, a line still unfinished there scoring ``unfinished`` for
    ``root``: the winner takes its fastest win, the loser its slowest loss.

    With ``unfinished`` = -1 a win means ``root`` forces a win within ``depth``; with +1 a loss
    means the other player does; a draw either way means it forces at least a draw."""
    if state.is_terminal():
        first = state.ranking()[0]
        if root in first:
            return (1 if len(first) == 1 else 0), 0
        return -1, 0
    if depth == 0:
        return unfinished, 0
    maximizing = state.current_player == root
    best: tuple[int, int] | None = None
    best_key: tuple[int, int] = (0, 0)
    for a in state.legal_actions().tolist():
        child = state.clone()
        child.apply(a)
        outcome, dist = _brute(child, root, depth - 1, unfinished)
        mine = outcome if maximizing else -outcome  # the mover's view
        dist += 1
        key = (mine, -dist if mine > 0 else dist if mine < 0 else 0)
        if best is None or key > best_key:
            best, best_key = (outcome, dist), key
    assert best is not None
    return best


def _check_value(state: GameState, value: str, distance: int | None, searched: int) -> None:
    """The solver's claim about ``state`` (for its player to move), checked by brute force at
    the claimed distance and one less (a win or loss is exactly that far: no nearer)."""
    me = state.current_player
    if value == "win":
        assert distance is not None
        assert _brute(state, me, distance, -1) == (1, distance)
        assert distance == 1 or _brute(state, me, distance - 1, -1)[0] != 1
    elif value == "loss":
        assert distance is not None
        assert _brute(state, me, distance, +1) == (-1, distance)
        assert distance == 1 or _brute(state, me, distance - 1, +1)[0] != -1
    else:
        assert value == "draw"
        assert _brute(state, me, searched, -1)[0] >= 0  # the mover forces at least a draw
        assert _brute(state, me, searched, +1)[0] <= 0  # and so does the other player


def _near_the_end(game: str, variant: str, seed: int, back: int, **options: object) -> GameState:
    """A position ``back`` actions before the end of a seeded random game."""
    rng = random.Random(seed)
    state = plateau.new_game(game, variant, **options)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions().tolist()))
    for _ in range(back):
        state.undo()
    return state


#: each case: a game, its variant, how the position is made, the seed of its random game,
#: how many actions before the end, and the deepest distance solved and checked (the brute
#: force's trees grow as the branching to this power: Albea's has 100-170 actions a position,
#: Empire's hundreds)
CASES = [
    *[("plateau-x", "mini", "end", seed, back, 5) for seed in range(5) for back in (1, 2, 3, 4)],
    *[("plateau-x", "double", "end", seed, back, 5) for seed in range(3) for back in (1, 2, 3)],
    # a move limit two actions after the position keeps every line finite and short
    *[
        ("albea-plateau", "standard", "limit", seed, back, 2)
        for seed in range(5)
        for back in (1, 2)
    ],
    # the turn limit reached by the End of the turn under way
    *[("empire-plateau", "duel", "limit", seed, back, 3) for seed in range(4) for back in (1, 2)],
]


def _case(game: str, variant: str, how: str, seed: int, back: int) -> GameState:
    if game == "albea-plateau":
        ply = _near_the_end(game, variant, seed, back).ply
        return _near_the_end(game, variant, seed, back, max_plies=ply + 2)
    if game == "empire-plateau":
        return _cut_empire(seed, back)
    return _near_the_end(game, variant, seed, back)


@pytest.mark.parametrize("game,variant,how,seed,back,limit", CASES)
def test_the_solver_agrees_with_brute_force(
    game: str, variant: str, how: str, seed: int, back: int, limit: int
) -> None:
    state = _case(game, variant, how, seed, back)
    if state.is_terminal():
        pytest.skip("the game ended there")
    before = state.to_json()
    sol = solve(state, max_distance=limit)
    assert state.to_json() == before  # left unchanged
    if not sol.proven:
        pytest.skip(f"not proven within {limit} actions: {sol}")
    assert sol.player == state.current_player
    _check_value(state, sol.value, sol.distance, sol.no_win_within)
    # each first action: solved on its own, its value checked by brute force, and its place
    # in the lists consistent with it (undecided: when no line of `limit` actions decides it, as
    # where Plateau X's pieces may walk on for ever)
    me = state.current_player
    fastest = []
    for a in state.legal_actions().tolist():
        child = state.clone()
        child.apply(a)
        if child.is_terminal():
            first = child.ranking()[0]
            outcome = (1 if first == [me] else 0) if me in first else -1
            after = 0
        else:
            got = solve(child, max_distance=limit)
            assert got.proven == (a not in sol.undecided_actions), f"{a}: {got}"
            if not got.proven:
                continue
            _check_value(child, got.value, got.distance, got.no_win_within)
            sign = 1 if child.current_player == me else -1
            outcome = {"win": sign, "loss": -sign, "draw": 0}[got.value]
            after = got.distance or 0
        assert (a in sol.winning_actions) == (outcome == 1)
        if sol.value == "draw":
            assert (a in sol.drawing_actions) == (outcome == 0)
        if outcome == 1 and after + 1 == sol.distance:
            fastest.append(a)
    assert sol.best_actions == fastest


def _cut_empire(seed: int, back: int) -> GameState:
    """An Empire duel a few random turns in, under a turn limit that the End of the turn under
    way reaches, ``back`` actions before that turn runs out of moves: a small tree with real
    choices."""
    rng = random.Random(seed)
    probe = plateau.new_game("empire-plateau", "duel")
    turns = 0
    while turns < 4 + seed:
        legal = probe.legal_actions().tolist()
        ends = [a for a in legal if probe.action_to_string(a) == "end"]
        if ends and (rng.random() < 0.4 or len(legal) == 1):
            probe.apply(ends[0])
            turns += 1
        else:
            probe.apply(rng.choice([a for a in legal if a not in ends]))
    while True:  # the last turn: moves until only End is left
        moves = [a for a in probe.legal_actions().tolist() if probe.action_to_string(a) != "end"]
        if not moves:
            break
        probe.apply(rng.choice(moves))
    state = plateau.new_game("empire-plateau", "duel", turn_limit=turns + 1)
    for a in probe.history[: len(probe.history) - back]:
        state.apply(a)
    return state


def test_a_win_in_one_is_found_with_every_winning_action() -> None:
    # search the random games of Plateau X mini for a position with an immediate win
    for seed in range(40):
        state = _near_the_end("plateau-x", "mini", seed, 1)
        sol = solve(state)
        if sol.value == "win":
            assert sol.distance == 1 and sol.best_actions
            for a in sol.best_actions:
                child = state.clone()
                child.apply(a)
                assert child.is_terminal() and child.ranking()[0] == [state.current_player]
            return
    pytest.fail("no win in one in 40 games")


def test_a_budget_that_runs_out_says_not_proven() -> None:
    state = plateau.new_game("plateau-x", "mini")
    sol = solve(state, nodes=500)
    assert not sol.proven and not sol.complete and sol.value == "unknown"
    assert sol.distance is None and sol.winning_actions == [] and sol.nodes == 500
    assert str(sol).startswith("not proven for player 0 (500 nodes")
    assert "neither player forces a win within" in str(sol)
    timed = solve(state, seconds=0.2)
    assert not timed.proven and timed.seconds < 5.0


def test_the_solver_refuses_what_it_cannot_solve() -> None:
    with pytest.raises(InvalidArgumentError, match="two-player positions"):
        solve(plateau.new_game("plateau-x", "standard"))
    over = _near_the_end("plateau-x", "mini", 0, 0)
    with pytest.raises(InvalidArgumentError, match="the game is over"):
        solve(over)
    with pytest.raises(InvalidArgumentError, match="game state"):
        solve("plateau-x")  # type: ignore[arg-type]
    for bad in (
        {"nodes": 0},
        {"nodes": 1.5},
        {"seconds": -1.0},
        {"seconds": float("nan")},
        {"seconds": float("inf")},
        {"max_distance": 0},
    ):
        with pytest.raises(InvalidArgumentError):
            Solver(**bad)  # type: ignore[arg-type]


def test_a_solver_reused_over_positions_keeps_its_table() -> None:
    solver = Solver()
    state = _near_the_end("plateau-x", "mini", 1, 5)
    first = solver.solve(state)
    again = solver.solve(state)
    assert (again.value, again.distance, again.winning_actions) == (
        first.value,
        first.distance,
        first.winning_actions,
    )
    assert again.nodes < first.nodes


def test_the_command_line_solves_a_record_at_a_ply_and_actions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = _near_the_end("plateau-x", "mini", 2, 0)
    path = tmp_path / "game.json"
    path.write_text(state.to_json())
    ply = state.ply - 3
    assert main(["solve", "--record", str(path), "--ply", str(ply), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = solve(_near_the_end("plateau-x", "mini", 2, 3))
    assert (data["value"], data["distance"], data["ply"]) == (
        expected.value,
        expected.distance,
        ply,
    )
    assert data["winning_actions"] == expected.winning_actions and data["proven"] is True
    # the same position from its actions in notation
    names = _near_the_end("plateau-x", "mini", 2, 3).history_strings()
    assert main(["solve", "--game", "plateau-x", "--variant", "mini", *names]) == 0
    out = capsys.readouterr().out
    assert f"after {ply} actions" in out and str(expected).split(" (")[0] in out
    # a ply beyond the record, and --ply without a record
    assert main(["solve", "--record", str(path), "--ply", str(state.ply + 1)]) == 2
    assert "the record has" in capsys.readouterr().err
    assert main(["solve", "--game", "plateau-x", "--variant", "mini", "--ply", "3"]) == 2
    assert "--ply picks a position of a --record" in capsys.readouterr().err


@pytest.mark.parametrize("seed", range(6))
def test_within_lists_the_first_actions_that_win_that_soon(seed: int) -> None:
    # brute force decides each first action: a forced win within the remaining actions or not
    checked = 0
    for back in (1, 2, 3, 4):
        state = _near_the_end("plateau-x", "mini", seed, back)
        sol = solve(state, max_distance=5, within=3)
        if sol.value != "win" or (sol.distance or 0) > 3:
            continue
        checked += 1
        assert sol.within == 3 and not sol.undecided_actions and sol.complete
        me = state.current_player
        for a in state.legal_actions().tolist():
            child = state.clone()
            child.apply(a)
            wins = _brute(child, me, 2, -1)[0] == 1
            assert (a in sol.winning_actions) == wins, a
        assert set(sol.best_actions) <= set(sol.winning_actions)
        assert "winning actions within 3:" in str(sol)
        # without within, a slower win counts too: a superset
        assert set(sol.winning_actions) <= set(solve(state, max_distance=7).winning_actions)
    assert checked >= 1


def test_within_decides_a_game_without_a_move_limit() -> None:
    # Albea's Plateau has no move limit by default: a slower win cannot be told from no win
    found = 0
    for seed in range(8):
        state = _near_the_end("albea-plateau", "standard", seed, 1)
        if state.winning_actions().size == 0:
            continue
        sol = solve(state, nodes=100_000, within=1)
        assert (sol.value, sol.distance, sol.within) == ("win", 1, 1)
        assert sol.complete and sol.winning_actions == state.winning_actions().tolist()
        assert sol.best_actions == sol.winning_actions
        found += 1
    assert found >= 4
    with pytest.raises(ValueError, match="within"):
        Solver(within=0)
