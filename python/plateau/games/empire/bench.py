"""What ``plateau bench`` times for Empire Plateau: perft positions with their counts, its
yardstick and targets (found here by the registry's convention: ``GameInfo.bench``)."""

from __future__ import annotations

from plateau import yardsticks
from plateau.bench_spec import BenchPosition, BenchSpec
from plateau.games.empire.state import EmpirePlateauState

#: the actions from the start of ``two`` to the "turn start (seed 1, ply 9)" position of
#: tests/empire/perft.json (a test keeps the counts below equal to that file's)
_PLY_9 = (
    "m6-p7:4", "m7-o7:2", "end", "a7-c9:4", "a6-p7:2", "end", "e8-h9:4", "d10-c9:2", "end",
)  # fmt: skip


def _ply_9() -> EmpirePlateauState:
    state = EmpirePlateauState("two")
    state.apply_all(_PLY_9)
    return state


#: what ``plateau bench`` times; the targets are those of docs/empire-plateau.md (Speed), and
#: the Python loop's is the speed goal of docs/performance.md (ahead of OpenSpiel's loop)
BENCH = BenchSpec(
    positions=(
        BenchPosition("two start", lambda: EmpirePlateauState("two"), 3, 306_197, 11_323),
        BenchPosition("two ply 9", _ply_9, 3, 288_190, 10_928),
    ),
    midgame="two ply 9",
    batch_masks=False,  # hundreds of thousands of ids a game: a learner uses legal_lists
    yardsticks=(yardsticks.OPENSPIEL_BREAKTHROUGH,),
    targets={
        "perft two start": ">= 3.1 M/s (perft(3) of the start in < 0.1 s)",
        "playouts": ">= 200,000 actions/s",
        "python-loop": ">= 1.0x",
        "clone": "<= 3x",
    },
)
