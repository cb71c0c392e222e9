"""What a game declares for ``plateau bench`` (in ``bench.BENCH`` of its package): perft
positions with their known counts, checks of its random games, yardsticks and targets.
Plain data, apart from ``plateau.bench`` (which runs it) so that the registry and the games
can name it without importing the benchmark itself."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from plateau.errors import InvalidArgumentError

if TYPE_CHECKING:
    from plateau.state import GameState

__all__ = ["BenchPosition", "BenchSpec", "Yardstick"]


@dataclass(frozen=True)
class BenchPosition:
    """A position ``plateau bench`` times perft at, with its known leaf counts (checked before
    and after timing: a wrong count stops the benchmark)."""

    #: shown in the report, e.g. ``"standard ply 10"``
    label: str
    #: builds the position (a new state each call)
    build: Callable[[], GameState]
    #: the perft depth timed here
    depth: int
    #: perft(depth) of the position
    nodes: int
    #: perft(depth - 1): checked before timing, and the depth ``--quick`` times
    quick_nodes: int


@dataclass(frozen=True)
class Yardstick:
    """Another implementation ``plateau bench`` times in the same run, so that the report can
    give ratios on shared, noisy machines. It may measure any of the workloads below (None:
    not that one); its figures fill the yardstick column of the rows of the same workload."""

    #: shown in the yardstick column, e.g. ``"native yardstick"``
    name: str
    #: ``available(path)``: whether it can run here (``path``: ``--yardstick PATH`` or None)
    available: Callable[[str | None], bool]
    #: a note for its rows when it cannot run ("" for none)
    missing_note: str = ""
    #: True if it runs the program named by ``--yardstick PATH``
    uses_path: bool = False
    #: ``perft(path, state, depth) -> (leaves, seconds)`` at the position of ``state``
    perft: Callable[[str | None, GameState, int], tuple[int, float]] | None = None
    #: ``playouts(path, variant, n, seed) -> plies per second`` of uniformly random games
    playouts: Callable[[str | None, str, int, int], float] | None = None
    #: ``python_loop(seconds) -> steps per second`` of the bench's Python loop (legal actions,
    #: random pick, apply) on its own game
    python_loop: Callable[[float], float] | None = None


@dataclass(frozen=True)
class BenchSpec:
    """What ``plateau bench`` needs of a game besides the state API: positions with known
    perft counts, checks of the random games, and optional yardsticks and targets."""

    #: perft positions: the start and at least one midgame position
    positions: tuple[BenchPosition, ...]
    #: the label of the position where generation, apply/undo and clones are timed
    midgame: str
    #: bounds of the mean length of a random game of the default variant (plies), a check of
    #: the playouts before timing them (None: no check)
    playout_plies: tuple[float, float] | None = None
    #: whether the StateBatch rows fill the legal masks every step, as a learner with a masked
    #: policy does (False where the masks are too wide for that: such a learner uses
    #: ``legal_lists``)
    batch_masks: bool = True
    #: ``(bytes of a state without history, bytes per ply of history)``, noted in the report
    state_size: tuple[int, int] | None = None
    #: other implementations timed for ratios
    yardsticks: tuple[Yardstick, ...] = ()
    #: the targets shown in the report, by workload: ``perft`` (every position) or
    #: ``perft <label>``, ``legal``, ``apply-undo``, ``clone``, ``playouts``, ``batch-1``,
    #: ``batch-2``, ``python-loop``, ``python-fast``, ``memory``, ``determinizer``
    #: (``plateau.bench`` sets those every game shares)
    targets: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        labels = [p.label for p in self.positions]
        if len(set(labels)) != len(labels) or self.midgame not in labels:
            raise InvalidArgumentError(
                f"bench positions need distinct labels and must include the midgame "
                f"{self.midgame!r}, got {labels}"
            )

    def position(self, label: str) -> BenchPosition:
        """The position labelled ``label``."""
        return next(p for p in self.positions if p.label == label)
