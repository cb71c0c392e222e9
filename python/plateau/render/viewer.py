"""A self-contained HTML viewer of a game: every ply's SVG picture embedded in one page, stepped
through with buttons, a slider, the list of moves or the keyboard (arrow keys, Home, End). It
needs no server and makes no network request (its Content-Security-Policy forbids any); the
address ``viewer.html#ply=N`` opens it at ply N, and stepping keeps that address current."""

from __future__ import annotations

import json
import re
from html import escape
from typing import TYPE_CHECKING

from plateau.render import frames

if TYPE_CHECKING:
    from plateau.state import GameState

#: where an SVG document is cut into pieces: between two tags
_PIECES = re.compile(r"(?<=>)(?=<)")
#: the placeholders of the page template
_PLACEHOLDER = re.compile(r"__(TITLE|MAX|MOVES|FRAMES)__")

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy"
 content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
body { font-family: DejaVu Sans, Verdana, sans-serif; margin: 12px; color: #222; }
h1 { font-size: 17px; margin: 0 0 8px; }
#controls { display: flex; gap: 6px; align-items: center; margin-bottom: 8px; }
#controls button { font-size: 15px; min-width: 40px; }
#slider { flex: 0 1 260px; }
#label { font-size: 14px; }
#main { display: flex; gap: 16px; align-items: flex-start; }
#moves { font-size: 13px; max-height: 760px; overflow-y: auto; margin: 0; padding-left: 44px; }
#moves li { cursor: pointer; padding: 1px 4px; }
#moves li.current { background: #ffe08a; }
</style>
</head>
<body data-ply="0">
<h1>__TITLE__</h1>
<div id="controls">
<button id="first" title="start (Home)">|&#x25C0;</button>
<button id="prev" title="back (left arrow)">&#x25C0;</button>
<button id="next" title="forward (right arrow)">&#x25B6;</button>
<button id="last" title="end (End)">&#x25B6;|</button>
<input id="slider" type="range" min="0" max="__MAX__" value="0" aria-label="ply">
<span id="label"></span>
</div>
<div id="main"><div id="frame"></div><ol id="moves" start="0">__MOVES__</ol></div>
<script id="frames" type="application/json">__FRAMES__</script>
<script>
"use strict";
// pictures are stored as lists of indices into a table of distinct SVG pieces (elements):
// the board and most pieces repeat from one ply to the next
const data = JSON.parse(document.getElementById("frames").textContent);
const frames = data.frames.map((f) => [f[0], f[1].map((k) => data.pieces[k]).join("")]);
const frame = document.getElementById("frame");
const slider = document.getElementById("slider");
const label = document.getElementById("label");
const moves = document.querySelectorAll("#moves li");
let current = -1;
function show(i) {
  i = Math.max(0, Math.min(frames.length - 1, i | 0));
  if (i !== current) {
    current = i;
    frame.innerHTML = frames[i][1];
    slider.value = String(i);
    label.textContent = i + " / " + (frames.length - 1) + ": " + frames[i][0];
    document.body.dataset.ply = String(i);
    moves.forEach((li, k) => li.classList.toggle("current", k === i));
    if (moves[i]) moves[i].scrollIntoView({ block: "nearest" });
  }
  if (location.hash !== "#ply=" + i) {
    try { history.replaceState(null, "", "#ply=" + i); } catch (e) { /* file: URLs */ }
  }
}
function fromHash() {
  const m = /^#ply=(\\d+)$/.exec(location.hash);
  return m ? parseInt(m[1], 10) : 0;
}
document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(current - 1);
document.getElementById("next").onclick = () => show(current + 1);
document.getElementById("last").onclick = () => show(frames.length - 1);
slider.oninput = () => show(parseInt(slider.value, 10));
moves.forEach((li, k) => { li.onclick = () => show(k); });
document.addEventListener("keydown", (e) => {
  const step = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0,
                 End: frames.length - 1 }[e.key];
  if (step !== undefined && e.target !== slider) { e.preventDefault(); show(step); }
});
window.addEventListener("hashchange", () => show(fromHash()));
show(fromHash());
</script>
</body>
</html>
"""


def viewer_html(state: GameState, title: str | None = None, viewer: int | None = None) -> str:
    """The HTML page of the game of ``state``, from the start of its history to ``state``,
    as ``viewer`` sees it (None: the full truth). The pictures are stored as indices into one
    table of their distinct elements, which keeps a page of a thousand plies to a few MB."""
    pictures = frames(state, viewer)
    if title is None:
        title = f"{state.game} {state.variant}, {state.ply} plies"
        if viewer is not None:
            title += f", seen by player {viewer}"
    table: dict[str, int] = {}
    packed = [
        [caption, [table.setdefault(piece, len(table)) for piece in _PIECES.split(picture)]]
        for caption, picture in pictures
    ]
    data = json.dumps({"pieces": list(table), "frames": packed}, separators=(",", ":"))
    # inside <script>, "</" could close the element: JSON lets "/" be written "\/"
    data = data.replace("</", "<\\/")
    items = "".join(f"<li>{escape(caption)}</li>" for caption, _ in pictures)
    values = {
        "TITLE": escape(title),
        "MAX": str(len(pictures) - 1),
        "MOVES": items,
        "FRAMES": data,
    }
    return _fill(values)


def _fill(values: dict[str, str]) -> str:
    """The page with its placeholders replaced in one pass over the template: a value is
    never read again, so a title or caption that spells a placeholder stays text."""
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], _PAGE)
