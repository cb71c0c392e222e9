"""The exact solver's search in the compiled core (``GameCore.solver_forces``) against its
pure-Python reference (``Solver(core=False)``): the same answers, first actions, node counts
and budget cut-offs on positions of every two-player variant; how the core scores a finished
game; and its refusals. Every game and variant."""

from __future__ import annotations

import dataclasses

import pytest
from plateau_core._common import SOLVER_MAX_DEPTH, SolverTable

import plateau
from plateau.solver import Solver
from support import GAME_VARIANTS, Case, gv_id, random_history, replay

_TWO = [gv for gv in GAME_VARIANTS if plateau.new_game(*gv).num_players == 2]


def test_the_core_scores_a_finished_game_as_its_returns(finished_case: Case) -> None:
    s = finished_case.state()
    assert s._final_points() == pytest.approx(s.returns())
    for seed in (1, 2, 3):
        done = replay(s.game, s.variant, random_history(s.game, s.variant, seed))
        assert done._final_points() == pytest.approx(done.returns()), seed


def _positions(game: str, variant: str) -> list[plateau.GameState]:
    """Positions 1 to 8 actions before the end of two seeded random games, and one midgame."""
    out = []
    for seed in (3, 4):
        history = random_history(game, variant, seed)
        for back in (1, 2, 3, 5, 8, len(history) // 2):
            s = replay(game, variant, history[: len(history) - back])
            if not s.is_terminal():
                out.append(s)
    return out


#: budgets that prove some positions and run out on others, a table small enough to be
#: emptied during a search, and the "within" question
_SETTINGS = [
    {"nodes": 1500, "max_distance": 6},
    {"nodes": 4000, "within": 2},
    {"nodes": 4000, "table_size": 1000},
]


@pytest.mark.parametrize(("game", "variant"), _TWO, ids=[gv_id(*gv) for gv in _TWO])
def test_the_core_search_is_the_python_reference(game: str, variant: str) -> None:
    proven = 0
    for s in _positions(game, variant):
        before = s.to_json()
        for settings in _SETTINGS:
            got = Solver(**settings).solve(s)  # type: ignore[arg-type]
            want = Solver(core=False, **settings).solve(s)  # type: ignore[arg-type]
            a, b = dataclasses.asdict(got), dataclasses.asdict(want)
            a.pop("seconds"), b.pop("seconds")
            assert a == b, (s.history_strings(), settings)
            proven += got.proven
        assert s.to_json() == before
    assert proven > 0  # the positions are not all out of reach of the budgets


@pytest.mark.parametrize(("game", "variant"), _TWO, ids=[gv_id(*gv) for gv in _TWO])
def test_a_reused_solver_gives_the_reference_answers(game: str, variant: str) -> None:
    # one solver, and so one table, kept over every position in turn
    core, reference = Solver(nodes=3000), Solver(nodes=3000, core=False)
    for s in _positions(game, variant):
        got, want = core.solve(s), reference.solve(s)
        assert (got.value, got.distance, got.winning_actions, got.nodes) == (
            want.value,
            want.distance,
            want.winning_actions,
            want.nodes,
        )


def test_solver_forces_refuses_bad_input_and_changes_nothing(live_case: Case) -> None:
    s = live_case.state()
    before = s.to_json(), s.hash, s.ply
    table = SolverTable(1000)
    n = s.num_players
    for d, who, goal in [
        (-1, 0, 1),
        (SOLVER_MAX_DEPTH + 1, 0, 1),
        (1.5, 0, 1),
        (True, 0, 1),
        (1, n, 1),
        (1, -1, 0),
        (1, 0, 2),
        (1, 0, None),
    ]:
        with pytest.raises((ValueError, TypeError)):
            s.solver_forces(d, who, goal, table)
    with pytest.raises(TypeError):
        s.solver_forces(1, 0, 1, None)
    with pytest.raises(TypeError):
        s.solver_forces(1, 0, 1, {})
    for bad in (0, -5, 2.0, "9"):
        with pytest.raises((ValueError, TypeError)):
            SolverTable(bad)
    for kwargs in (
        {"max_nodes": -1},
        {"deadline": 0},
        {"deadline": float("nan")},
        {"deadline": "1"},
    ):
        with pytest.raises((ValueError, TypeError)):
            table.budget(**kwargs)  # type: ignore[arg-type]
    assert (s.to_json(), s.hash, s.ply) == before
    assert len(table) == 0 and table.nodes == 0


def test_solver_forces_answers_and_keeps_the_state(live_case: Case) -> None:
    s = live_case.state()
    before = s.to_json(), s.hash
    table = SolverTable(10_000)
    table.budget(max_nodes=2000)
    me = s.current_player
    # within 0 actions nobody wins a game still running; the answer is not kept in the table
    assert s.solver_forces(0, me, 1, table) is False
    assert table.nodes == 0
    got = s.solver_forces(3, me, 0, table)
    assert got in (True, False, None)
    assert 0 < table.nodes <= 2000
    if got is None:  # the budget ran out: it stays out
        assert s.solver_forces(3, me, 0, table) is None
    assert (s.to_json(), s.hash) == before
    table.clear()
    assert len(table) == 0
    with pytest.raises(ValueError):
        Solver(max_distance=SOLVER_MAX_DEPTH + 1)
    with pytest.raises(ValueError):
        Solver(core=1)  # type: ignore[arg-type]
