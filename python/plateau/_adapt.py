"""What the ecosystem adapters (``plateau.openspiel``, ``plateau.pettingzoo``,
``plateau.gymnasium``) share, once for every game: the possible results of a variant (from the
registry alone), rendering and the masks kept in place (``reuse_masks=True``). Imports no
optional package."""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from plateau.checks import check_int
from plateau.errors import InvalidActionError, InvalidArgumentError
from plateau.registry import GameSpec, spec_of

if TYPE_CHECKING:
    import numpy.typing as npt

    from plateau.state import GameState

#: the render modes of the environments
RENDER_MODES = ("ansi", "rgb_array")


def _read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    view = array.view()
    view.flags.writeable = False
    return view


#: the legal action ids of an agent that is not to act: empty, int64, read-only, shared
NO_ACTIONS: npt.NDArray[np.int64] = _read_only(np.zeros(0, dtype=np.int64))


class ReusedMask:
    """One agent's legal-action mask kept by an environment and updated in place (the
    environments' ``reuse_masks=True``): :meth:`show` clears the entries of the ids it set last
    time and sets the new ones, so a step writes twice the number of legal actions, not
    ``num_distinct_actions`` entries (372,417 in Empire Plateau), and allocates nothing.

    What it hands out is one read-only view of the buffer (a write raises, so that nothing can
    put the buffer out of step with the ids it remembers); it is overwritten at the next
    :meth:`show` or :meth:`clear`.

    >>> m = ReusedMask(6, np.int8)
    >>> m.show(np.array([1, 4])).tolist(), m.show(np.array([2])).tolist(), m.clear().tolist()
    ([0, 1, 0, 0, 1, 0], [0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 0])
    """

    __slots__ = ("_array", "_set", "view")

    def __init__(self, size: int, dtype: npt.DTypeLike) -> None:
        self._array: npt.NDArray[Any] = np.zeros(size, dtype=dtype)
        #: the ids set now (an array only this object holds)
        self._set: npt.NDArray[np.int64] = NO_ACTIONS
        #: the read-only view handed out
        self.view: npt.NDArray[Any] = _read_only(self._array)

    def __getstate__(self) -> tuple[npt.NDArray[Any], npt.NDArray[np.int64]]:
        # (a copy or pickle keeps the buffer and the ids; the view is made again from the
        # copied buffer: copied as a slot, it would be an array of its own that ``show`` never
        # writes, and the copy would hand out a mask frozen at the copy)
        return self._array, self._set

    def __setstate__(self, state: Any) -> None:
        if isinstance(state, tuple) and len(state) == 2 and isinstance(state[1], dict):
            # (a pickle made before this method: (None, its slots), the view among them)
            array, ids = state[1]["_array"], state[1]["_set"]
        else:
            array, ids = state
        self._array = np.array(array, copy=True)
        self._set = np.array(ids, dtype=np.int64, copy=True)
        self.view = _read_only(self._array)

    def show(self, legal: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
        """The mask of ``legal`` (ids in range, an array the caller will not change)."""
        a = self._array
        if len(self._set):
            a[self._set] = 0
        a[legal] = 1
        self._set = legal
        return self.view

    def clear(self) -> npt.NDArray[Any]:
        """The mask of no action (all zeros)."""
        if len(self._set):
            self._array[self._set] = 0
            self._set = NO_ACTIONS
        return self.view


class ResetNeeded(RuntimeError):
    """An environment was stepped before its first ``reset()`` or after its episode ended;
    the refused step changed nothing."""


def action_id(action: object, num_actions: int) -> int:
    """``action`` as an ``int`` after checking that it is an id of the action space, by the
    library's one integer rule (:func:`plateau.checks.check_int`: an ``int``, a numpy integer
    or a 0-d integer array, as a policy may return one; not a bool, float or string) in
    ``[0, num_actions)``; InvalidActionError otherwise. Environments call it before they
    change anything.

    >>> import numpy as np
    >>> action_id(np.array(7), 10)
    7
    >>> action_id(1.0, 10)
    Traceback (most recent call last):
    plateau.errors.InvalidActionError: action must be an int in [0, 10), got 1.0
    """
    try:
        return check_int(action, "action", 0, num_actions)
    except ValueError as e:
        raise InvalidActionError(str(e)) from None


def rankings(n: int) -> Iterator[list[list[int]]]:
    """Every final ranking of ``n`` players (ordered partitions into tied groups).

    >>> len(list(rankings(2))), len(list(rankings(3))), len(list(rankings(4)))
    (3, 13, 75)
    """
    players = list(range(n))
    for labels in itertools.product(range(n), repeat=n):
        used = sorted(set(labels))
        if used != list(range(len(used))):
            continue  # count each ordered partition once: groups numbered 0..k-1 densely
        yield [[p for p in players if labels[p] == g] for g in used]


@dataclass(frozen=True)
class Outcomes:
    """What the returns of a finished game of one variant can be."""

    num_players: int
    min_utility: float
    max_utility: float
    #: the sum of the returns when it is the same for every result, else None
    utility_sum: float | None


@cache
def _outcomes(spec: GameSpec) -> Outcomes:
    s = spec.new_game()
    results = [s.points_for(r) for r in rankings(s.num_players)]
    sums = {round(sum(r), 9) for r in results}
    return Outcomes(
        num_players=s.num_players,
        min_utility=min(min(r) for r in results),
        max_utility=max(max(r) for r in results),
        utility_sum=sums.pop() if len(sums) == 1 else None,
    )


def outcomes(game: str | GameSpec, variant: str | None = None, **options: Any) -> Outcomes:
    """The :class:`Outcomes` of a variant (a name with its variant and options, or a
    :class:`plateau.GameSpec`), from ``points_for`` over every possible ranking (so a game's
    own scoring of ties counts, as ``returns()`` gives it).

    >>> outcomes("albea-plateau", "standard")  # a draw scores 1/2 each
    Outcomes(num_players=2, min_utility=0.0, max_utility=1.0, utility_sum=1.0)
    >>> outcomes("plateau-x", "standard")  # players who share places split their points
    Outcomes(num_players=4, min_utility=0.0, max_utility=4.0, utility_sum=7.0)
    """
    return _outcomes(spec_of(game, variant, options))


def tie_returns(state: GameState) -> list[float]:
    """The returns of a game stopped before its end by an adapter's length cap: every player
    tied (a draw), so that a constant-sum game stays constant-sum."""
    return state.points_for([list(range(state.num_players))])


def render_state(state: GameState, mode: str | None) -> str | npt.NDArray[np.uint8] | None:
    """What an environment's ``render()`` returns in ``mode``: ``"ansi"`` the diagram
    (``str(state)``, the whole truth, as a spectator sees it), ``"rgb_array"`` the picture of
    ``plateau.render.rgb_array`` (imported only then), None without a mode."""
    if mode is None:
        return None
    if mode == "ansi":
        return str(state)
    # the renderer (and its imaging dependency) loads only when a picture is asked for
    render = importlib.import_module("plateau.render")
    picture: npt.NDArray[np.uint8] = render.rgb_array(state)
    return picture


def check_render_mode(mode: object) -> str | None:
    """``mode`` after checking it is None or one of :data:`RENDER_MODES`."""
    # (isinstance first: a numpy array of one string compares element-wise, and passed)
    if mode is not None and (not isinstance(mode, str) or mode not in RENDER_MODES):
        raise InvalidArgumentError(
            f"render_mode must be None or one of {RENDER_MODES}, got {mode!r}"
        )
    if mode == "rgb_array":  # (said when the environment is made, not at its first picture)
        try:
            importlib.import_module("plateau.render").check_png()
        except ImportError as e:
            raise ImportError(f"render_mode='rgb_array': {e}") from None
    return None if mode is None else str(mode)
