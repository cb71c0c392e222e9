"""Albea's Plateau as a picture: each square's stack in profile, bottom to top, every disc a
slab in its owner's colour between its down face (below) and its up face (above). With a
viewer, the discs are drawn from :meth:`observation` alone: a face the viewer has not seen is
grey with a ``?``, and nothing else of it reaches the picture."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from plateau.games.albea.state import AlbeaPlateauState, multiset_text
from plateau.notation import square_index, square_name
from plateau.render import last_action
from plateau.render.drawing import Drawing

if TYPE_CHECKING:
    from plateau.state import GameState

CELL_W, CELL_H, MARGIN = 110, 150, 26
DISC_W, DISC_MAX_H = 78, 18
OWNER_FILL = ("#262626", "#f7f7f2")
OWNER_STROKE = ("#000000", "#6b6b6b")
OWNER_NAME = ("Black", "White")
#: face marks: blank, blue, red, orange, and a face the viewer has not seen
FACE_FILL = {"x": "#d9ceb2", "b": "#1f66cc", "r": "#d62728", "o": "#ff8f1f", "?": "#9a9a9a"}
FACE_NAME = {"x": "blank", "b": "blue", "r": "red", "o": "orange", "?": "unseen"}
LAST = "#d62728"
_SQUARE = re.compile(r"[a-z][1-9]")


def _stacks(s: AlbeaPlateauState, viewer: int | None) -> list[list[dict[str, Any]]]:
    """Per square, bottom..top: ``{owner, faces (up face first, ? unseen), type or None}``,
    the full truth without a viewer, else exactly what ``observation(viewer)`` shows."""
    if viewer is not None:
        # (without the history, which observation() would write out again for each picture)
        board: list[list[dict[str, Any]]] = s._observed_now(viewer)["board"]
        return board
    out = []
    for stack in s.board():
        out.append(
            [
                {
                    "owner": pc["owner"],
                    "faces": pc["type"][::-1] if pc["up"] else pc["type"],
                    "type": pc["type"],
                }
                for pc in stack
            ]
        )
    return out


def draw(state: GameState, viewer: int | None, last: bool) -> str:
    """The SVG of an Albea's Plateau position, as ``viewer`` sees it (None: the full truth)."""
    s: AlbeaPlateauState = state  # type: ignore[assignment]
    width = 4 * CELL_W + 2 * MARGIN
    panel = 128
    seen_by = "the full truth" if viewer is None else f"seen by {OWNER_NAME[viewer]}"
    d = Drawing(width, 4 * CELL_H + 2 * MARGIN + panel, f"Plateau (Albea), {seen_by}")
    d.rect(0, 0, d.width, d.height, fill="#ffffff")
    d.rect(MARGIN, MARGIN, 4 * CELL_W, 4 * CELL_H, cls="board", fill="#efe3c8")

    def xy(sq: int) -> tuple[float, float]:
        r, c = divmod(sq, 4)
        return MARGIN + c * CELL_W, MARGIN + (3 - r) * CELL_H

    for q in range(16):
        x, y = xy(q)
        r, c = divmod(q, 4)
        d.rect(x, y, CELL_W, CELL_H, cls="space", data={"at": square_name(q, 4)},
               fill="#efe3c8" if (r + c) % 2 else "#e2d1ab", stroke="#8c7648",
               stroke_width=1)  # fmt: skip
        d.text(x + 6, y + 10, square_name(q, 4), size=10, anchor="start", fill="#8c7648")
    d.rect(MARGIN, MARGIN, 4 * CELL_W, 4 * CELL_H, fill="none", stroke="#5a4a2a", stroke_width=3)
    for c in range(4):
        x = MARGIN + c * CELL_W + CELL_W / 2
        d.text(x, MARGIN + 4 * CELL_H + MARGIN / 2, "abcd"[c], size=13, fill="#444444",
               cls="coord")  # fmt: skip
    for r in range(4):
        y = MARGIN + (3 - r) * CELL_H + CELL_H / 2
        d.text(MARGIN / 2, y, str(r + 1), size=13, fill="#444444", cls="coord")

    text = last_action(s, viewer) if last else None
    marked = [square_index(m, 4) for m in _SQUARE.findall(text or "")]
    for q in dict.fromkeys(marked):
        x, y = xy(q)
        d.rect(x + 3, y + 3, CELL_W - 6, CELL_H - 6, cls="last", data={"at": square_name(q, 4)},
               fill="none", stroke=LAST, stroke_width=3, stroke_dasharray="6 3")  # fmt: skip

    for q, stack in enumerate(_stacks(s, viewer)):
        if stack:
            _draw_stack(d, q, stack, *xy(q))
    if text is not None and len(marked) >= 2 and marked[0] != marked[-1]:
        (x1, y1), (x2, y2) = xy(marked[0]), xy(marked[-1])
        d.arrow(x1 + CELL_W / 2, y1 + 24, x2 + CELL_W / 2, y2 + 24, LAST, width=3,
                cls="last-move")  # fmt: skip

    # the panel: state of play, reserves, prisoners, the face colours
    top = 4 * CELL_H + 2 * MARGIN + 4
    if viewer is None:
        status = s._status()
        reserves = [_counts(s.reserve(p)) for p in (0, 1)]
    else:
        obs = s._observed_now(viewer)
        status = _status(obs)
        reserves = ["", ""]
        reserves[viewer] = _counts(obs["my_reserve"])
        reserves[1 - viewer] = f"{obs['opponent_reserve_count']} discs, unseen"
    d.text(MARGIN, top + 8, f"ply {s.ply}, {s.phase}, {status} ({seen_by})", size=13,
           anchor="start", cls="status")  # fmt: skip
    d.text(MARGIN, top + 26, f"last: {text or '-'}", size=13, anchor="start", cls="last-action",
           fill=LAST if text else "#444444")  # fmt: skip
    for p in (0, 1):
        y = top + 46 + 18 * p
        d.rect(MARGIN, y - 6, 12, 12, fill=OWNER_FILL[p], stroke=OWNER_STROKE[p])
        held = multiset_text(s.prisoners(p)) or "-"
        d.text(MARGIN + 18, y, f"{OWNER_NAME[p]}: reserve {reserves[p] or '-'}; prisoners "
               f"{held}", size=12, anchor="start")  # fmt: skip
    if s.tender is not None:
        d.text(MARGIN, top + 86, f"offer by {OWNER_NAME[s.offerer or 0]}: "
               f"{multiset_text(s.tender)}", size=12, anchor="start")  # fmt: skip
    x = MARGIN
    for mark, name in FACE_NAME.items():
        d.rect(x, top + 100, 14, 10, fill=FACE_FILL[mark], stroke="#555555", stroke_width=0.5)
        d.text(x + 18, top + 105, name, size=11, anchor="start")
        x += 24 + 7 * len(name) + 14
    return d.to_svg()


def _draw_stack(d: Drawing, q: int, stack: list[dict[str, Any]], x: float, y: float) -> None:
    """The discs of square ``q`` in profile, bottom disc at the bottom of the cell."""
    n = len(stack)
    h = min(DISC_MAX_H, (CELL_H - 30) / n)
    band = h * 0.3
    left = x + (CELL_W - DISC_W) / 2
    bottom = y + CELL_H - 6
    name = square_name(q, 4)
    for i, pc in enumerate(stack):
        top = bottom - (i + 1) * h
        owner, faces = pc["owner"], pc["faces"]
        data = {"player": owner, "at": name, "faces": faces, "type": pc["type"]}
        with d.group(cls="piece", data=data):
            d.rect(left, top, DISC_W, h, rx=min(3, h / 3), fill=OWNER_FILL[owner],
                   stroke=OWNER_STROKE[owner], stroke_width=1)  # fmt: skip
            d.rect(left + 4, top + 0.5, DISC_W - 8, band, fill=FACE_FILL[faces[0]])
            d.rect(left + 4, top + h - band - 0.5, DISC_W - 8, band, fill=FACE_FILL[faces[1]])
            if "?" in faces and h >= 12:
                d.text(left + DISC_W + 6, top + h / 2, "?", size=min(11, h), anchor="start",
                       fill="#555555")  # fmt: skip


def _counts(ms: dict[str, int]) -> str:
    return " ".join(f"{t}{k}" for t, k in ms.items() if k)


def _status(obs: dict[str, Any]) -> str:
    """The state of play from an observation (what every player knows)."""
    if obs["result"] == "draw":
        return "drawn"
    if obs["winner"] is not None:
        return f"{OWNER_NAME[obs['winner']]} won"
    return f"{OWNER_NAME[obs['current_player']]} to act"
