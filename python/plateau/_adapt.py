"""What the ecosystem adapters (``plateau.openspiel``, ``plateau.pettingzoo``,
``plateau.gymnasium``) share, once for every game: the possible results of a variant (from the
registry alone) and rendering. Imports no optional package."""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from plateau.checks import check_int
from plateau.errors import InvalidActionError, InvalidArgumentError
from plateau.registry import GameSpec, spec_of

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from plateau.state import GameState

#: the render modes of the environments
RENDER_MODES = ("ansi", "rgb_array")


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
    if mode is not None and mode not in RENDER_MODES:
        raise InvalidArgumentError(
            f"render_mode must be None or one of {RENDER_MODES}, got {mode!r}"
        )
    return None if mode is None else str(mode)
