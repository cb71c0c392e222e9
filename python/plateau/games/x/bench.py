"""What ``plateau bench`` times for Plateau X: perft positions with their counts (those of
tests/x/perft.json: a test keeps them equal), the checks of its random games, and its
yardsticks (found here by the registry's convention: ``GameInfo.bench``)."""

from __future__ import annotations

from typing import Callable

from plateau_core.x import core as _x

from plateau import yardsticks
from plateau.bench_spec import BenchPosition, BenchSpec
from plateau.games.x.state import PlateauXState
from plateau.state import GameState


def _position(variant: str, actions: str = "") -> Callable[[], GameState]:
    def build() -> GameState:
        state = PlateauXState(variant)
        state.apply_all(actions.split())
        return state

    return build


#: what ``plateau bench`` times: the positions and counts of tests/x/perft.json (a test
#: keeps them equal; every count agrees with the native yardstick, which it is timed against)
BENCH = BenchSpec(
    positions=(
        BenchPosition("mini start", _position("mini"), 4, 1_266_430_336, 8_244_664),
        BenchPosition("standard start", _position("standard"), 4, 7_123_071_092, 27_464_460),
        BenchPosition(
            "standard ply 10",
            _position(
                "standard", "P@e6 T@d1d2e2 D@d3d4 P@g4 T@a5a6b6 P@d5 P@c5 D@a4b4 T@f5g5f6 T@b1c1c2"
            ),
            4,
            97_823_101,
            816_060,
        ),
        BenchPosition(
            "standard ply 24",
            _position(
                "standard",
                "P@e6 P@e5 P@b4 P@d7 D@b5c5 T@g2f3g3 S@e3 T@f1g1f2 S@a1 S@b6 S@f2 D@f5g5 T@a2a3b3 "
                "e5-g2 b4-a5 S@g1 T@c3c4d4 D@a6a7 a5-a2 T@b3c3c4 T@c6d6c7 S@b7 D@c3c4 S@b5",
            ),
            5,
            104_068_448,
            2_303_845,
        ),
        BenchPosition(
            "double ply 10",
            _position("double", "T@a6b6b7 P@d4 P@d7 P@e2 P@d1 D@c6c7 d7-c7 T@f2e3f3 T@a1b1a2 S@e5"),
            4,
            169_890_651,
            1_843_021,
        ),
    ),
    midgame="standard ply 24",
    playout_plies=(40, 60),  # the rules page: a random standard game lasts about 50 plies
    state_size=(_x.STATE_NBYTES, _x.HISTORY_NBYTES_PER_PLY),
    yardsticks=(yardsticks.program("native yardstick"), yardsticks.OPENSPIEL_BREAKTHROUGH),
    targets={
        "perft": ">= 1.0x",
        "playouts": ">= 1.2x",
        "python-loop": ">= 2.0x",
    },
)
