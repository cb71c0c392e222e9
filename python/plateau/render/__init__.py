"""Pictures of positions: SVG for every registered game, PNG and RGB arrays through cairosvg.

Each game draws itself by the ``draw`` function of the ``picture`` module of its package
(:attr:`plateau.registry.GameInfo.render`, ``plateau/games/<game>/picture.py``); this module
only dispatches, checks arguments and converts. A game without one is drawn as its text
diagram.

>>> import plateau
>>> from plateau.render import svg
>>> s = plateau.new_game("plateau-x", "mini")
>>> s.apply("T@c3d3c4")
>>> svg(s).startswith("<svg")
True
"""

from __future__ import annotations

import importlib
import io
import re
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from plateau.checks import check_flag, check_state
from plateau.errors import InvalidArgumentError
from plateau.registry import game_info
from plateau.render.drawing import Drawing

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from plateau.state import GameState

__all__ = ["check_png", "frames", "last_action", "png", "rgb_array", "svg"]

#: the picture :func:`frames` is drawing: ``(state, viewer, caption)``, which
#: :func:`last_action` gives back instead of writing out the history again for each picture
#: (which made a page quadratic in the game's length)
_DRAWING: ContextVar[tuple[GameState, int | None, str | None] | None] = ContextVar(
    "_DRAWING", default=None
)


def svg(state: GameState, viewer: int | None = None, last: bool = True) -> str:
    """The position as an SVG document (text). ``viewer``: the player whose view is drawn
    (None: the full truth, as ``str(state)``; in a game with hidden information a player sees
    only what :meth:`~plateau.GameState.observation` gives them); ``last``: mark the last
    action."""
    check_state(state, "svg draws")
    if viewer is not None:
        viewer = state._check_player(viewer, "viewer")
    hook = game_info(state.game).render
    if hook is None:
        return _text_picture(state, viewer)
    return hook(state, viewer, check_flag(last, "last"))


def last_action(state: GameState, viewer: int | None) -> str | None:
    """The last action as ``viewer`` saw it (None: as played), or None at the start of the
    history (a determinization has none). Costs the same at any ply, but for a player's view
    of a game with hidden information outside :func:`frames` (the whole history's notation)."""
    perfect = game_info(state.game).perfect_information
    drawing = _DRAWING.get()
    if drawing is not None and drawing[0] is state and (perfect or drawing[1] == viewer):
        return drawing[2]
    if viewer is None or perfect:
        # the action as played is written in the position before it: one undo on a clone
        # (which shares the history), not the whole history in notation
        before = state.clone()
        try:
            action = before.undo()
        except IndexError:  # the start of the history
            return None
        return before.action_to_string(action)
    if not state.history:
        return None
    return state.history_strings(viewer)[-1]


def _import_png(module: str, why: str) -> Any:
    """``module`` of the ``render`` extra, imported; ImportError saying what to install if it
    is missing, or if a system library it loads is (cairosvg without the cairo library
    raises OSError as it is imported)."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(f"{why}: pip install 'plateau[render]' ({e})") from None
    except OSError as e:
        raise ImportError(
            f"{why}, which could not load a system library it needs (install the cairo "
            f"library, e.g. libcairo2 on Debian and Ubuntu, cairo on Homebrew) ({e})"
        ) from None


def check_png() -> None:
    """ImportError unless :func:`png` and :func:`rgb_array` can draw: the ``render`` extra
    is installed, with the system's cairo library (the environments made with
    ``render_mode="rgb_array"`` check this when they are made)."""
    _import_png("cairosvg", "PNG pictures need cairosvg")
    _import_png("PIL.Image", "pictures as arrays need Pillow")


def png(
    state: GameState, viewer: int | None = None, last: bool = True, scale: float = 1.0
) -> bytes:
    """The picture of :func:`svg` as PNG bytes, ``scale`` times its size in pixels
    (InvalidArgumentError if that is under one pixel; needs the ``render`` extra:
    ``pip install "plateau[render]"``)."""
    cairosvg = _import_png("cairosvg", "PNG pictures need cairosvg")
    if isinstance(scale, bool) or not (isinstance(scale, (int, float)) and 0 < scale <= 16):
        raise InvalidArgumentError(f"scale must be a number in (0, 16], got {scale!r}")
    text = svg(state, viewer, last)
    size = re.match(r'<svg [^>]*?width="([0-9.]+)" height="([0-9.]+)"', text)
    if size is None:  # (svg() writes the picture's width and height first)
        raise RuntimeError("the picture has no width and height")
    width, height = float(size[1]), float(size[2])
    # (cairosvg makes a picture of int(size * scale) pixels, or round(...) in some releases,
    # and fails on one of 0 with "ValueError: The SVG size is undefined": under one pixel
    # is refused, whichever it does)
    if width * scale < 1 or height * scale < 1:
        raise InvalidArgumentError(
            f"scale {scale!r} makes the picture smaller than a pixel: {width:g} x {height:g} "
            f"px at scale 1, {width * scale:.3g} x {height * scale:.3g} px at this scale"
        )
    out: bytes = cairosvg.svg2png(bytestring=text.encode("utf-8"), scale=float(scale))
    return out


def rgb_array(
    state: GameState, viewer: int | None = None, last: bool = True, scale: float = 1.0
) -> npt.NDArray[np.uint8]:
    """The picture of :func:`png` as a ``uint8`` array of shape ``(height, width, 3)`` (what
    ``render_mode="rgb_array"`` environments return), on a white background."""
    import numpy as np

    Image = _import_png("PIL.Image", "pictures as arrays need Pillow")

    with Image.open(io.BytesIO(png(state, viewer, last, scale))) as im:
        rgba = im.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        rgb = Image.alpha_composite(background, rgba).convert("RGB")
        return np.asarray(rgb, dtype=np.uint8).copy()


def frames(state: GameState, viewer: int | None = None) -> list[tuple[str, str]]:
    """``(caption, svg)`` after each number of actions of the game of ``state``, from the
    start of its history (a set-up position, for a game from one) to ``state`` itself;
    ``state`` is left as it was. A caption is the action that led to its picture, as
    ``viewer`` saw it (``"start"`` for the first). Linear in the game's length: the captions
    are written once, and each picture's drawing is given its own (see :func:`last_action`)."""
    check_state(state, "frames draws")
    probe = state.clone()
    actions = probe.history
    for _ in actions:
        probe.undo()
    texts = state.history_strings(viewer)
    out = []
    for i, text in enumerate([None, *texts]):
        if i:
            probe.apply(actions[i - 1])
        token = _DRAWING.set((probe, viewer, text))
        try:
            out.append((text or "start", svg(probe, viewer)))
        finally:
            _DRAWING.reset(token)
    return out


def _text_picture(state: GameState, viewer: int | None) -> str:
    """The fallback for a game without a drawing of its own: the text diagram in an SVG (the
    player's observation text with a viewer)."""
    text = str(state) if viewer is None else state.observation_string(viewer)
    lines = text.splitlines() or [""]
    width = 16 + 7.3 * max(len(line) for line in lines)
    d = Drawing(width, 16 + 16 * len(lines), title=f"{state.game} {state.variant}")
    d.rect(0, 0, d.width, d.height, cls="board", fill="#fbf8ef")
    for i, line in enumerate(lines):
        d.text(8, 16 + 16 * i, line, size=12, anchor="start", font_family="DejaVu Sans Mono",
               xml_space="preserve")  # fmt: skip
    return d.to_svg()
