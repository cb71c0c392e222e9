"""Empire Plateau as a picture: the polar board drawn from its tables (the red centre, every
link between dots as a spoke segment or a ring arc, the dots, the bases), the armies in their
Empires' colours marked with their type, coordinates round the rim, the last action marked,
and the Empires' standing under the board. A board without polar coordinates is drawn with
its dots round one circle."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable

from plateau.games.empire.board import CW, EMPIRE_NAMES, EMPIRES, OUT, spoke_letters
from plateau.games.empire.state import EmpirePlateauState
from plateau.render import last_action
from plateau.render.drawing import Drawing

if TYPE_CHECKING:
    from plateau.state import GameState

SIZE, RIM = 640, 275
#: the Empires' colours (the rules page: Babylonian gold, Greek bronze, Median Persian silver,
#: Roman iron) and the ink of the type written on their armies
FILL = {"B": "#e0b12a", "G": "#b8733a", "M": "#c9ccd1", "R": "#4b5159"}
INK = {"B": "#2b2100", "G": "#ffffff", "M": "#1c1c1c", "R": "#ffffff"}
LAST = "#d62728"


def draw(state: GameState, viewer: int | None, last: bool) -> str:
    """The SVG of an Empire Plateau position (perfect information: ``viewer`` changes
    nothing)."""
    s: EmpirePlateauState = state  # type: ignore[assignment]
    board = s.board
    n = len(board)
    panel = 40 + 18 * 4
    d = Drawing(SIZE, SIZE + panel, f"Empire Plateau {s.variant} on {board.name}")
    d.rect(0, 0, d.width, d.height, fill="#ffffff")
    cx = cy = SIZE / 2
    polar = board.polar if board.spokes and board.rings else None
    spokes, rings = board.spokes or n, board.rings or 1
    # ring 1's radius: dots as far apart round it as along a spoke, so that every army gets
    # the same room on any number of spokes and rings
    centre = RIM * spokes / (2 * math.pi * max(rings - 1, 1) + spokes)
    step = (RIM - centre) / max(rings - 1, 1)

    def radius(ring: int) -> float:
        return centre + (ring - 1) * step

    def angle(spoke: float) -> float:
        return 2 * math.pi * spoke / spokes  # from North, clockwise

    def at(r: float, a: float) -> tuple[float, float]:
        return cx + r * math.sin(a), cy - r * math.cos(a)

    pos = [at(radius(p[1]), angle(p[0])) for p in polar] if polar else [
        at(RIM, angle(i)) for i in range(n)]  # fmt: skip
    d.circle(cx, cy, RIM + 30, cls="board", fill="#f6efdc", stroke="#8c7648", stroke_width=2)
    d.circle(cx, cy, centre - 14, fill="#c0392b", stroke="#7b241c", stroke_width=1.5)
    # the links of the board table: out along a spoke, cw along a ring (each link once), all
    # in one path, and the dots as one path of zero-length round-capped strokes
    links = []
    for i, row in enumerate(board.neighbours):
        for direction in (OUT, CW):
            j = row[direction]
            if j < 0:
                continue
            (x1, y1), (x2, y2) = pos[i], pos[j]
            if polar and direction == CW and polar[i][1] == polar[j][1]:
                r = radius(polar[i][1])
                links.append(f"M{x1:.1f} {y1:.1f}A{r:.1f} {r:.1f} 0 0 1 {x2:.1f} {y2:.1f}")
            else:
                links.append(f"M{x1:.1f} {y1:.1f}L{x2:.1f} {y2:.1f}")
    d.path("".join(links), cls="edges", fill="none", stroke="#a8946a", stroke_width=1.2)
    d.path("".join(f"M{x:.1f} {y:.1f}h0" for x, y in pos), cls="dots", stroke="#6f5d3a",
           stroke_width=4.4, stroke_linecap="round")  # fmt: skip
    # coordinates: spoke letters outside the rim, ring numbers between spokes a and b
    if polar:
        for k in range(spokes):
            x, y = at(RIM + 21, angle(k))
            d.text(x, y, spoke_letters(k), size=13, fill="#444444", cls="coord")
        for ring in range(1, rings + 1):
            x, y = at(radius(ring), angle(0.5))
            d.text(x, y, str(ring), size=8, fill="#8c7648", cls="coord")
    # bases: squares in their Empire's colour (crossed once conquered); an Empire not in play
    # has no base (its dot is an ordinary dot)
    conquered = s.conquered()
    army_r = min(11.0, 0.45 * step) if polar else 9.0
    for dot, e in board.base_of.items():
        if s.owner(e) is None:
            continue
        x, y = pos[dot]
        h = army_r + 5
        d.rect(x - h, y - h, 2 * h, 2 * h, cls="base", data={"empire": e, "at": board.dots[dot]},
               fill=FILL[e], fill_opacity=0.35, stroke=FILL[e], stroke_width=2.5)  # fmt: skip
        if e in conquered:
            d.line(x - h, y - h, x + h, y + h, stroke="#7b241c", stroke_width=2)
            d.line(x - h, y + h, x + h, y - h, stroke="#7b241c", stroke_width=2)
    # the last action's dots, under the armies
    text = last_action(s, None) if last else None
    marked = _dots_of(text, board.index)
    for dot in marked:
        x, y = pos[dot]
        d.circle(x, y, army_r + 4, cls="last", data={"at": board.dots[dot]}, fill="none",
                 stroke=LAST, stroke_width=2.5, stroke_dasharray="4 2")  # fmt: skip
    # armies
    for name, army in s.armies().items():
        dot = board.index(name)
        x, y = pos[dot]
        e, t = army[0], army[1]
        with d.group(cls="piece", data={"player": s.owner(e), "at": name, "army": army}):
            d.circle(x, y, army_r, fill=FILL[e], stroke="#1a1a1a",
                     stroke_width=2.5 if t == "E" else 1)  # fmt: skip
            d.text(x, y + 0.5, t, size=army_r * 1.15, fill=INK[e], font_weight="bold")
    if len(marked) == 2:
        (x1, y1), (x2, y2) = pos[marked[0]], pos[marked[1]]
        d.arrow(x1, y1, x2, y2, LAST, width=2.5, cls="last-move")
    # the panel: state of play, last action, the Empires
    top = SIZE + 4
    if s.is_terminal():
        status = "game over: " + (
            "a draw" if s.result == "draw" else f"player {s.ranking()[0][0]} wins"
        )
    else:
        e = s.current_empire or ""
        b = s.budget()
        status = (
            f"{EMPIRE_NAMES[e]} ({e}, player {s.current_player}) to act, "
            f"{b['total']} of 12 steps taken"
        )
    d.text(24, top + 8, f"ply {s.ply}, {status}", size=13, anchor="start", cls="status")
    d.text(24, top + 26, f"last: {text or '-'}", size=13, anchor="start", cls="last-action",
           fill=LAST if text else "#444444")  # fmt: skip
    counts = {e: 0 for e in EMPIRES}
    for army in s.armies().values():
        counts[army[0]] += 1
    for i, e in enumerate(EMPIRES):
        owner = s.owner(e)
        y = top + 46 + 18 * i
        d.circle(30, y, 6, fill=FILL[e], stroke="#1a1a1a")
        where = "not in play" if owner is None else f"player {owner}, {counts[e]} armies"
        fallen = ", conquered" if e in conquered else ""
        d.text(42, y, f"{e} {EMPIRE_NAMES[e]}: {where}{fallen}", size=12, anchor="start")
    return d.to_svg()


def _dots_of(text: str | None, lookup: Callable[[str], int]) -> list[int]:
    """The dots an action names (``lookup``: a dot's index by name): ``from-to:n`` both,
    ``+T@dot`` one, ``end`` none."""
    if not text or text == "end":
        return []
    if text.startswith("+"):
        return [lookup(text.partition("@")[2])]
    f, _, rest = text.partition("-")
    return [lookup(f), lookup(rest.partition(":")[0])]
