"""A small SVG builder shared by every game's drawing code: elements with escaped attributes
and text, nested groups, and the few conventions the tests and the viewer rely on.

Conventions (every game's picture keeps them, so that tests and tools need no per-game code):

- a piece (a disc, a pawn, an army) is an element of class ``piece`` with ``data-player``
  (the player it belongs to) and ``data-at`` (its square or dot);
- the last action's squares or dots carry the class ``last`` (a move's arrow: ``last-move``),
  and one text element of class ``last-action`` reads ``last: <the action as the viewer saw
  it>``, or ``last: -`` with no action to mark;
- the board's background has the class ``board``.

>>> d = Drawing(40, 20, title="a <test>")
>>> d.circle(10, 10, 5, fill="red", cls="piece", data={"player": 0, "at": "a1"})
>>> print(d.to_svg())  # doctest: +NORMALIZE_WHITESPACE
<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20"
 font-family="DejaVu Sans, Verdana, sans-serif"><title>a &lt;test&gt;</title><circle cx="10"
 cy="10" r="5" fill="red" class="piece" data-player="0" data-at="a1"/></svg>
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Union
from xml.sax.saxutils import escape, quoteattr

#: an attribute value: numbers are written compactly (at most two decimals)
Value = Union[str, int, float, None]

FONT = "DejaVu Sans, Verdana, sans-serif"


def _num(v: float) -> str:
    if isinstance(v, int):
        return str(v)
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _attrs(attrs: Mapping[str, Value]) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = str(value).lower()
        text = _num(value) if isinstance(value, (int, float)) else value
        parts.append(f" {key}={quoteattr(text)}")
    return "".join(parts)


class Drawing:
    """An SVG picture under construction: element methods append to the current group (the
    root, or the innermost :meth:`group` being built); :meth:`to_svg` writes the document."""

    def __init__(self, width: float, height: float, title: str = "") -> None:
        self.width, self.height = width, height
        self._stack: list[list[str]] = [[]]
        if title:
            self._stack[0].append(f"<title>{escape(title)}</title>")

    def _add(
        self,
        tag: str,
        attrs: Mapping[str, Value],
        cls: str | None,
        data: Mapping[str, Value] | None,
        text: str | None = None,
    ) -> None:
        full: dict[str, Value] = dict(attrs)
        full["class"] = cls
        for key, value in (data or {}).items():
            full[f"data-{key}"] = value
        if text is None:
            self._stack[-1].append(f"<{tag}{_attrs(full)}/>")
        else:
            self._stack[-1].append(f"<{tag}{_attrs(full)}>{escape(text)}</{tag}>")

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        cls: str | None = None,
        data: Mapping[str, Value] | None = None,
        **style: Value,
    ) -> None:
        """A rectangle; ``style`` keywords are SVG attributes (``stroke_width`` is written
        ``stroke-width``)."""
        self._add("rect", {"x": x, "y": y, "width": w, "height": h, **_style(style)}, cls, data)

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        cls: str | None = None,
        data: Mapping[str, Value] | None = None,
        **style: Value,
    ) -> None:
        """A circle."""
        self._add("circle", {"cx": cx, "cy": cy, "r": r, **_style(style)}, cls, data)

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        cls: str | None = None,
        data: Mapping[str, Value] | None = None,
        **style: Value,
    ) -> None:
        """A straight line."""
        self._add("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, **_style(style)}, cls, data)

    def polygon(
        self,
        points: Iterable[tuple[float, float]],
        cls: str | None = None,
        data: Mapping[str, Value] | None = None,
        **style: Value,
    ) -> None:
        """A closed polygon through ``points``."""
        pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in points)
        self._add("polygon", {"points": pts, **_style(style)}, cls, data)

    def path(
        self,
        d: str,
        cls: str | None = None,
        data: Mapping[str, Value] | None = None,
        **style: Value,
    ) -> None:
        """A path with the path data ``d``."""
        self._add("path", {"d": d, **_style(style)}, cls, data)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float = 12,
        anchor: str = "middle",
        cls: str | None = None,
        data: Mapping[str, Value] | None = None,
        **style: Value,
    ) -> None:
        """Text at ``(x, y)`` (the baseline's anchor point; ``anchor`` start, middle or
        end), vertically centred on ``y`` when ``dominant_baseline`` is not given."""
        attrs: dict[str, Value] = {"x": x, "y": y, "font-size": size, "text-anchor": anchor}
        attrs["dominant-baseline"] = "central"
        attrs.update(_style(style))
        self._add("text", attrs, cls, data, text)

    def arrow(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        colour: str,
        width: float = 3,
        cls: str | None = None,
    ) -> None:
        """A straight arrow from ``(x1, y1)`` to ``(x2, y2)``, its head drawn as a polygon
        (no marker definitions, so pictures stay independent when several share a page)."""
        dx, dy = x2 - x1, y2 - y1
        length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
        ux, uy = dx / length, dy / length
        head = 4 * width
        bx, by = x2 - ux * head, y2 - uy * head
        with self.group(cls=cls):
            self.line(x1, y1, bx, by, stroke=colour, stroke_width=width, stroke_linecap="round")
            self.polygon(
                [(x2, y2), (bx - uy * head / 2, by + ux * head / 2),
                 (bx + uy * head / 2, by - ux * head / 2)],
                fill=colour,
            )  # fmt: skip

    @contextmanager
    def group(
        self, cls: str | None = None, data: Mapping[str, Value] | None = None, **style: Value
    ) -> Iterator[None]:
        """A ``<g>`` holding what is drawn inside the ``with`` block."""
        self._stack.append([])
        try:
            yield
        finally:
            body = "".join(self._stack.pop())
            full: dict[str, Value] = dict(_style(style))
            full["class"] = cls
            for key, value in (data or {}).items():
                full[f"data-{key}"] = value
            self._stack[-1].append(f"<g{_attrs(full)}>{body}</g>")

    def to_svg(self) -> str:
        """The SVG document (no XML declaration, so it can be inlined in HTML)."""
        if len(self._stack) != 1:
            raise RuntimeError("to_svg() inside an open group")
        w, h = _num(self.width), _num(self.height)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}" font-family="{FONT}">' + "".join(self._stack[0]) + "</svg>"
        )


def _style(style: Mapping[str, Value]) -> dict[str, Value]:
    """Keyword names as SVG attribute names: ``stroke_width`` -> ``stroke-width``."""
    return {key.replace("_", "-"): value for key, value in style.items()}
