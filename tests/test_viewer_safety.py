"""The HTML viewer (``plateau view``) from text of other people: a title or seat label that
spells a placeholder of the page template stays text, every value is escaped as before; and a
page costs work linear in the game's length (games that never end are valid on some boards), with
the same pictures as before (issue 21)."""

from __future__ import annotations

import html
import inspect
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import plateau
from plateau.cli import main
from plateau.render import frames, last_action, svg
from plateau.render import viewer as viewer_module
from plateau.render.viewer import viewer_html
from plateau.state import GameState
from test_render import arena_file, assert_self_contained, frames_of

PLACEHOLDERS = ["__TITLE__", "__MAX__", "__MOVES__", "__FRAMES__"]


def played(game: str, variant: str, seed: int, plies: int) -> GameState:
    """Random legal play with a fixed seed, for ``plies`` plies or to the end."""
    rng = random.Random(seed)
    s = plateau.new_game(game, variant)
    while s.ply < plies and not s.is_terminal():
        legal = s.legal_actions()
        s.apply(int(legal[rng.randrange(len(legal))]))
    return s


def parts(page: str) -> dict[str, Any]:
    """What the template's placeholders became: the title, heading, slider bound, move list
    and frame data, each read where the template puts it."""
    m = re.fullmatch(
        r"(?s).*<title>(.*?)</title>.*<h1>(.*?)</h1>.*max=\"(.*?)\".*"
        r"<ol id=\"moves\" start=\"0\">(.*?)</ol>.*"
        r"<script id=\"frames\" type=\"application/json\">(.*?)</script>.*",
        page,
    )
    assert m is not None, "the page lost its shape"
    title, h1, top, moves, data = m.groups()
    return {"title": title, "h1": h1, "max": top, "moves": moves, "data": json.loads(data)}


# -- the template is filled in one pass ------------------------------------------------------


@pytest.mark.parametrize(
    "title",
    [*PLACEHOLDERS, "".join(PLACEHOLDERS), "x__FRAMES__y __MOVES__ <b>&amp;</b> \"'", "____"],
)
def test_a_title_that_spells_a_placeholder_stays_text(title: str) -> None:
    s = played("plateau-x", "mini", 1, 6)
    page = viewer_html(s, title=title)
    plain = viewer_html(s, title="plain")
    got, want = parts(page), parts(plain)
    assert got["title"] == got["h1"] == html.escape(title)
    assert html.unescape(got["title"]) == title
    assert (got["max"], got["moves"], got["data"]) == (want["max"], want["moves"], want["data"])
    assert len(page) - len(plain) == 2 * (len(html.escape(title)) - len("plain"))
    assert_self_contained(page)


def test_seat_labels_that_spell_placeholders_stay_text_in_plateau_view(tmp_path: Path) -> None:
    game = played("empire-plateau", "duel", 0, 6)
    path = arena_file(tmp_path, [game], [0])
    text = path.read_text(encoding="utf-8").replace('"random"', '"__FRAMES__ </script>"')
    path.write_text(text.replace('"greedy"', '"__TITLE____MOVES__"'), encoding="utf-8")
    out = tmp_path / "viewer.html"
    assert main(["view", str(path), "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert_self_contained(page)
    got = parts(page)
    assert got["title"] == got["h1"]
    assert "(0: __FRAMES__ &lt;/script&gt;, 1: __TITLE____MOVES__)" in got["title"]
    assert frames_of(page) == [list(f) for f in frames(game)]
    assert page.count("<li>") == game.ply + 1


def test_every_value_is_escaped_in_its_own_way(monkeypatch: pytest.MonkeyPatch) -> None:
    # captions come from notation, which cannot spell these: stand-ins show each value's escape
    captions = ["start", "__TITLE__", "</script><script>alert(1)</script>", "a&b <li>", "\u2028"]
    pictures = [(c, f"<svg><text>{html.escape(c)}</text></svg>") for c in captions]
    monkeypatch.setattr(viewer_module, "frames", lambda state, viewer: pictures)
    page = viewer_html(plateau.new_game("plateau-x", "mini"), title="__MOVES__")
    assert_self_contained(page)
    got = parts(page)
    assert got["title"] == "__MOVES__" and got["max"] == str(len(captions) - 1)
    assert got["moves"] == "".join(f"<li>{html.escape(c)}</li>" for c in captions)
    assert frames_of(page) == [list(p) for p in pictures]


def test_the_template_has_each_placeholder_where_it_belongs() -> None:
    # (a placeholder the filling does not know would be left in the page)
    names = re.findall(r"__([A-Z]+)__", viewer_module._PAGE)
    assert sorted(names) == ["FRAMES", "MAX", "MOVES", "TITLE", "TITLE"]
    assert sorted(set(names)) == sorted(viewer_module._PLACEHOLDER.pattern[3:-3].split("|"))


# -- a page is linear in the game's length, with the same pictures ---------------------------


class HistoryCounter:
    """Counts the action ids that a game's history hands out (``state.history``, which
    ``history_strings`` and the notation of the history read too): the work of writing out
    the history, wherever it is asked for."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, cls: type) -> None:
        self.read = 0
        base = inspect.getattr_static(cls, "history")

        def history(state: Any) -> list[int]:
            out: list[int] = base.__get__(state, type(state))
            self.read += len(out)
            return out

        monkeypatch.setattr(cls, "history", property(history))

    def work(self, fn: Any) -> int:
        self.read = 0
        fn()
        return self.read


GAMES = [("empire-plateau", "two", 5, 240), ("albea-plateau", "standard", 2, 60)]
GAMES += [("plateau-x", "standard", 4, 60)]


@pytest.mark.parametrize(("game", "variant", "seed", "plies"), GAMES)
@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_the_viewer_reads_the_history_a_linear_number_of_times(
    monkeypatch: pytest.MonkeyPatch, game: str, variant: str, seed: int, plies: int,
    viewer: int | None,
) -> None:  # fmt: skip
    # each picture wrote out the whole history again (last_action's history_strings, Albea's
    # observation): 8,000 plies took minutes; now twice the game is at most twice the work
    full = played(game, variant, seed, plies)
    n = full.ply
    assert n >= 40, "a game too short to tell"
    half = full.clone()
    for _ in range(n - n // 2):
        half.undo()
    counter = HistoryCounter(monkeypatch, type(full))
    small = counter.work(lambda: viewer_html(half, viewer=viewer))
    large = counter.work(lambda: viewer_html(full, viewer=viewer))
    assert large <= 2 * small + 8, (small, large)
    assert large <= 6 * n, (n, large)


def test_a_page_is_linear_in_size() -> None:
    full = played("empire-plateau", "two", 5, 240)
    half = full.clone()
    for _ in range(full.ply - full.ply // 2):
        half.undo()
    small, large = len(viewer_html(half)), len(viewer_html(full))
    assert large <= 2 * small + 50_000, (small, large)


@pytest.mark.parametrize("game", plateau.games())
def test_the_pictures_are_those_of_each_position(game: str) -> None:
    # frames() hands each picture its caption: the pictures are still those svg() draws of the
    # position after each number of actions, and last_action that of the history's notation
    for variant in plateau.variants(game)[:2]:
        s = played(game, variant, 3, 24)
        for viewer in (None, *range(s.num_players)):
            texts = s.history_strings(viewer)
            positions = [s.clone()]
            while positions[-1].history:
                positions.append(positions[-1].clone())
                positions[-1].undo()
            positions.reverse()
            want = [("start", svg(positions[0], viewer))]
            want += [(t, svg(p, viewer)) for t, p in zip(texts, positions[1:])]
            assert frames(s, viewer) == want
            for i, p in enumerate(positions):
                assert last_action(p, viewer) == (texts[i - 1] if i else None)
