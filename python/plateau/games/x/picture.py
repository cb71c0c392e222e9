"""Plateau X as a picture: spaces shaded by level (the level written in a corner), each visible
tile's footprint outlined, pieces in their players' colours, coordinates, the last action
marked, and the stocks under the board."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from plateau.games.x.state import COLOURS, PlateauXState
from plateau.notation import square_index, square_name
from plateau.render import last_action
from plateau.render.drawing import Drawing

if TYPE_CHECKING:
    from plateau.state import GameState

CELL = 56
MARGIN = 26
#: the players' colours (``plateau.games.x.COLOURS``: black, yellow, orange, green)
PIECE_FILL = ("#1f1f1f", "#f4c20d", "#ef7d1a", "#2e9e4f")
PIECE_STROKE = ("#f5f5f5", "#5c4a00", "#5a2a00", "#0d3b1c")
#: level 0 (the bare board) to 6; higher levels take the last shade
LEVEL_FILL = ("#f4eedf", "#dccaa2", "#c4a673", "#a7834f", "#86663c", "#654b2c", "#48341f")
LAST = "#d62728"
_SQUARE = re.compile(r"[a-z][1-9][0-9]?")


def draw(state: GameState, viewer: int | None, last: bool) -> str:
    """The SVG of a Plateau X position (perfect information: ``viewer`` changes nothing)."""
    s: PlateauXState = state  # type: ignore[assignment]
    n = s.board_size
    players = s.num_players
    board_px = n * CELL
    panel = 30 + 18 * (players + 1)
    d = Drawing(board_px + 2 * MARGIN, board_px + 2 * MARGIN + panel, f"Plateau X {s.variant}")
    d.rect(0, 0, d.width, d.height, fill="#ffffff")

    def xy(sq: int) -> tuple[float, float]:
        r, c = divmod(sq, n)
        return MARGIN + c * CELL, MARGIN + (n - 1 - r) * CELL

    levels = [s.level(q) for q in range(n * n)]
    tops = [s.top_tile(q) for q in range(n * n)]
    tiles = s.tiles()
    d.rect(MARGIN, MARGIN, board_px, board_px, cls="board", fill=LEVEL_FILL[0])
    # spaces, grouped by the tile that lies on top of them (the footprints)
    visible = sorted({t for t in tops if t is not None})
    for t in [None, *visible]:
        info = {} if t is None else {"kind": tiles[t]["kind"], "level": tiles[t]["level"]}
        with d.group(cls="bare" if t is None else "tile", data=info):
            for q in range(n * n):
                if tops[q] != t:
                    continue
                x, y = xy(q)
                lvl = levels[q]
                fill = LEVEL_FILL[min(lvl, len(LEVEL_FILL) - 1)]
                d.rect(x, y, CELL, CELL, cls="space", data={"at": square_name(q, n),
                       "level": lvl}, fill=fill)  # fmt: skip
                if lvl:
                    ink = "#ffffff" if lvl >= 3 else "#3b2c12"
                    d.text(x + 9, y + 10, str(lvl), size=11, fill=ink, font_weight="bold")
    # footprint edges: thick between spaces under different top tiles, thin inside a tile
    with d.group(cls="edges", stroke_linecap="square"):
        for q in range(n * n):
            r, c = divmod(q, n)
            x, y = xy(q)
            for nb, (x1, y1, x2, y2) in (
                (q + 1 if c + 1 < n else None, (x + CELL, y, x + CELL, y + CELL)),
                (q + n if r + 1 < n else None, (x, y, x + CELL, y)),
            ):
                if nb is None:
                    continue
                split = tops[q] != tops[nb]
                d.line(x1, y1, x2, y2, stroke="#3b2c12" if split else "#b9a57e",
                       stroke_width=3 if split else 0.8)  # fmt: skip
    d.rect(MARGIN, MARGIN, board_px, board_px, fill="none", stroke="#3b2c12", stroke_width=3)
    # coordinates
    for c in range(n):
        x = MARGIN + c * CELL + CELL / 2
        for y in (MARGIN / 2, MARGIN + board_px + MARGIN / 2):
            d.text(x, y, chr(ord("a") + c), size=13, fill="#444444", cls="coord")
    for r in range(n):
        y = MARGIN + (n - 1 - r) * CELL + CELL / 2
        for x in (MARGIN / 2, MARGIN + board_px + MARGIN / 2):
            d.text(x, y, str(r + 1), size=13, fill="#444444", cls="coord")
    # the last action's spaces, under the pieces
    text = last_action(s, None) if last else None
    marked = [square_index(m, n) for m in _SQUARE.findall(text or "")]
    for q in dict.fromkeys(marked):
        x, y = xy(q)
        d.rect(x + 3, y + 3, CELL - 6, CELL - 6, cls="last", data={"at": square_name(q, n)},
               fill="none", stroke=LAST, stroke_width=3, stroke_dasharray="6 3")  # fmt: skip
    # pieces
    ppp = s.pieces_per_player
    for piece, where in enumerate(s.piece_squares()):
        if where is None:
            continue
        p, q = piece // ppp, where
        x, y = xy(q)
        d.circle(x + CELL / 2, y + CELL / 2 + 2, CELL * 0.28, cls="piece",
                 data={"player": p, "at": square_name(q, n)}, fill=PIECE_FILL[p],
                 stroke=PIECE_STROKE[p], stroke_width=2.5)  # fmt: skip
    if text is not None and "-" in text and len(marked) == 2:
        (x1, y1), (x2, y2) = xy(marked[0]), xy(marked[1])
        h = CELL / 2
        d.arrow(x1 + h, y1 + h, x2 + h, y2 + h, LAST, width=3, cls="last-move")
    # the panel: state of play, last action, stocks
    top = board_px + 2 * MARGIN + 4
    if s.is_terminal():
        status = "game over, winners: " + ", ".join(COLOURS[p] for p in s.winners())
    else:
        status = f"{COLOURS[s.current_player]} to move"
    d.text(MARGIN, top + 8, f"ply {s.ply}, {status}", size=13, anchor="start", cls="status")
    d.text(MARGIN, top + 26, f"last: {text or '-'}", size=13, anchor="start",
           cls="last-action", fill=LAST if text else "#444444")  # fmt: skip
    d.text(board_px + MARGIN, top + 26, f"supply {s.supply} triples", size=12, anchor="end")
    for p in range(players):
        y = top + 44 + 18 * p
        stock = s.stock(p)
        off = sum(q is None for q in s.piece_squares()[p * ppp : (p + 1) * ppp])
        d.circle(MARGIN + 6, y, 6, fill=PIECE_FILL[p], stroke=PIECE_STROKE[p], stroke_width=1.5)
        mark = "  \u25c0 to move" if p == s.current_player and not s.is_terminal() else ""
        d.text(MARGIN + 18, y, f"{p} {COLOURS[p]}: singles {stock['single']}, doubles "
               f"{stock['double']}, {off} off board{mark}", size=12,
               anchor="start")  # fmt: skip
    return d.to_svg()
