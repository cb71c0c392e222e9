"""Pictures of known positions per game (pieces where the position has them, the last action,
hidden faces), the SVG builder, the commands ``plateau render`` and ``plateau view``, PNG and
RGB arrays (marker ``render``) and the HTML viewer in a real headless chromium (marker
``browser``)."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import re
import subprocess
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import plateau
from plateau import registry
from plateau.arena import GameResult
from plateau.cli import main
from plateau.record import to_record
from plateau.render import frames, svg
from plateau.render.drawing import Drawing
from plateau.render.viewer import viewer_html
from plateau.state import GameState
from support import random_game, require_extra


def classes(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def picture(state: Any, viewer: int | None = None, last: bool = True) -> ET.Element:
    return ET.fromstring(svg(state, viewer, last))


def pieces(root: ET.Element) -> list[tuple[int, str]]:
    return [(int(e.get("data-player", -1)), e.get("data-at", "")) for e in classes(root, "piece")]


# -- the pieces of each game, at every ply of a random game of every variant -------------------


def x_pieces(s: Any) -> list[tuple[int, str]]:
    n, ppp = s.board_size, s.pieces_per_player
    return sorted(
        (q // ppp, plateau.notation.square_name(sq, n))
        for q, sq in enumerate(s.piece_squares())
        if sq is not None
    )


@pytest.mark.parametrize("variant", plateau.variants("plateau-x"))
def test_plateau_x_draws_each_piece_in_play_on_its_square(variant: str) -> None:
    game = random_game("plateau-x", variant, 7, 10_000)
    s = plateau.new_game("plateau-x", variant)
    for action in game.history:
        s.apply(action)
        assert sorted(pieces(picture(s))) == x_pieces(s)
    assert x_pieces(s)


def test_plateau_x_shades_levels_and_outlines_tiles() -> None:
    s = plateau.new_game("plateau-x", "standard")
    s.apply_all(["T@c3d3c4", "P@a1", "S@c3"])
    root = picture(s)
    levels = {e.get("data-at"): int(e.get("data-level", -1)) for e in classes(root, "space")}
    assert len(levels) == 49
    assert (levels["c3"], levels["d3"], levels["c4"], levels["a1"]) == (2, 1, 1, 0)
    assert sum(levels.values()) == 4
    # one footprint per visible tile: the single on c3 hides the triple there
    tiles = {
        (g.get("data-kind"), g.get("data-level")): sorted(
            e.get("data-at", "") for e in g if e.get("class") == "space"
        )
        for g in classes(root, "tile")
    }
    assert tiles == {("T", "1"): ["c4", "d3"], ("S", "2"): ["c3"]}
    fills = {e.get("data-at"): e.get("fill") for e in classes(root, "space")}
    assert len({fills["a1"], fills["d3"], fills["c3"]}) == 3  # a shade per level
    assert pieces(root) == [(1, "a1")]
    assert [e.get("data-at") for e in classes(root, "last")] == ["c3"]
    (caption,) = classes(root, "last-action")
    assert caption.text == "last: S@c3"


def test_plateau_x_marks_a_move_with_an_arrow() -> None:
    s = plateau.new_game("plateau-x", "mini")
    s.apply_all(["P@a1", "P@f6", "S@b1", "S@e6"])
    move = next(t for t in s.legal_action_strings() if t.startswith("a1-"))
    s.apply(move)
    root = picture(s)
    assert sorted(e.get("data-at", "") for e in classes(root, "last")) == sorted(move.split("-"))
    assert len(classes(root, "last-move")) == 1
    assert not classes(picture(s, last=False), "last-move")


def test_albea_draws_each_stack_bottom_to_top_with_its_faces() -> None:
    s = random_game("albea-plateau", None, 5, 40)
    root = picture(s)
    drawn = [(e.get("data-at"), int(e.get("data-player", -1)), e.get("data-faces"))
             for e in classes(root, "piece")]  # fmt: skip
    truth = [
        (plateau.notation.square_name(q, 4), pc["owner"],
         pc["type"][::-1] if pc["up"] else pc["type"])
        for q, stack in enumerate(s.board()) for pc in stack
    ]  # fmt: skip
    assert drawn == truth and len(drawn) > 4


def test_albea_hidden_faces_do_not_reach_the_opponents_picture() -> None:
    s = plateau.new_game("albea-plateau")
    s.apply("xx,rb@a1")  # Black's opening: White sees only the Ace's red face
    truth = svg(s)
    assert 'data-faces="rb"' in truth and 'data-faces="xx"' in truth
    for_white = svg(s, 1)
    stack = [(e.get("data-faces"), e.get("data-type")) for e in classes(picture(s, 1), "piece")]
    assert stack == [("??", None), ("r?", None)]
    assert "xx,rb" not in for_white and "data-type" not in for_white
    assert "last: ??,r?@a1" in for_white
    assert "last: xx,rb@a1" in svg(s, 0)
    # Black's own reserve is Black's business: White sees a count
    assert "reserve 10 discs, unseen" in for_white


def test_empire_draws_every_army_and_base() -> None:
    for variant, empires in (("two", 4), ("four", 4), ("duel", 2)):
        s = plateau.new_game("empire-plateau", variant)
        root = picture(s)
        armies = {e.get("data-at"): e.get("data-army") for e in classes(root, "piece")}
        assert armies == s.armies() and len(armies) == 19 * empires
        owners = {int(e.get("data-player", -1)) for e in classes(root, "piece")}
        assert owners == set(range(s.num_players))
        assert len(classes(root, "base")) == empires
    s = random_game("empire-plateau", "four", 3, 300)
    root = picture(s)
    assert {e.get("data-at"): e.get("data-army") for e in classes(root, "piece")} == s.armies()


def test_empire_marks_the_last_move() -> None:
    s = plateau.new_game("empire-plateau")
    s.apply("m5-a5:4")
    root = picture(s)
    assert sorted(e.get("data-at", "") for e in classes(root, "last")) == ["a5", "m5"]
    assert len(classes(root, "last-move")) == 1
    while "end" not in s.legal_action_strings():
        s.apply(next(t for t in s.legal_action_strings() if t != "end"))
    s.apply("end")
    root = picture(s)
    assert not classes(root, "last") and classes(root, "last-action")[0].text == "last: end"


def test_empire_boards_without_polar_coordinates_are_drawn_too() -> None:
    from plateau.games.empire.board import board_to_json, polar_board

    data = json.loads(board_to_json(polar_board("flat", 16, 11)))
    for key in ("spokes", "rings"):
        data.pop(key, None)
    for dot in data["dots"]:
        dot.pop("at", None)
    s = plateau.new_game("empire-plateau", "duel", board=json.dumps(data))
    assert s.board.polar is None
    root = picture(s)
    assert len(classes(root, "piece")) == 38


def test_a_game_without_a_drawing_is_drawn_as_its_diagram(monkeypatch: pytest.MonkeyPatch) -> None:
    info = registry.game_info("plateau-x")
    monkeypatch.setitem(registry._GAMES, "plateau-x", dataclasses.replace(info, package=""))
    s = plateau.new_game("plateau-x", "mini")
    s.apply("T@c3d3c4")
    root = picture(s)
    lines = [e.text for e in root.iter() if e.tag.endswith("text")]
    assert lines == str(s).splitlines()


def test_the_builder_escapes_text_and_attributes() -> None:
    d = Drawing(10, 10, title='<&"title">')
    d.text(1, 2, "a < b & c", data={"at": '"q"<'})
    with d.group(cls="g"):
        d.circle(1, 1, 1.23456, fill="red")
    root = ET.fromstring(d.to_svg())
    texts = [e for e in root.iter() if e.tag.endswith("text")]
    assert texts[0].text == "a < b & c" and texts[0].get("data-at") == '"q"<'
    assert root[0].text == '<&"title">'
    assert [e.get("r") for e in root.iter() if e.tag.endswith("circle")] == ["1.23"]
    with d.group(), pytest.raises(RuntimeError):
        d.to_svg()


# -- the commands ---------------------------------------------------------------------------------


@pytest.fixture
def record_file(tmp_path: Path) -> tuple[Path, Any]:
    s = random_game("albea-plateau", None, 11, 12)
    path = tmp_path / "game.json"
    path.write_text(s.to_json(), encoding="utf-8")
    return path, s


def test_render_writes_the_position_after_n_actions(
    record_file: tuple[Path, Any], tmp_path: Path
) -> None:
    path, s = record_file
    out = tmp_path / "pos.svg"
    assert main(["render", "--record", str(path), "--ply", "5", "--out", str(out)]) == 0
    probe = s.clone()
    for _ in range(len(s.history) - 5):
        probe.undo()
    assert out.read_text(encoding="utf-8") == svg(probe)
    assert main(["render", "--record", str(path), "--viewer", "1", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == svg(s, 1)


def test_render_from_actions_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "--game", "plateau-x", "--variant", "mini", "P@a1", "--no-last"]) == 0
    s = plateau.new_game("plateau-x", "mini")
    s.apply("P@a1")
    assert capsys.readouterr().out == svg(s, last=False) + "\n"


def test_render_refuses_bad_plies_and_viewers(
    record_file: tuple[Path, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = record_file
    assert main(["render", "--record", str(path), "--ply", "13"]) == 2
    assert "the game has 12 actions" in capsys.readouterr().err
    assert main(["render", "--record", str(path), "--viewer", "2"]) == 2
    assert "viewer must be an int in [0, 2), got 2" in capsys.readouterr().err


def frames_of(page: str) -> list[list[str]]:
    m = re.search(r'<script id="frames" type="application/json">(.*?)</script>', page, re.S)
    assert m is not None
    data = json.loads(m.group(1))
    return [[caption, "".join(data["pieces"][k] for k in ks)] for caption, ks in data["frames"]]


def assert_self_contained(page: str) -> None:
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    # the only URL is the SVG namespace, which is a name, not a request
    urls = set(re.findall(r"[a-z]+://[^\s\"'<>\\]+", page))
    assert urls <= {"http://www.w3.org/2000/svg"}
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\(", page)
    assert page.count("</script>") == 2


def test_view_writes_every_picture_of_a_record(
    record_file: tuple[Path, Any], tmp_path: Path
) -> None:
    path, s = record_file
    out = tmp_path / "viewer.html"
    assert main(["view", str(path), "--out", str(out), "--viewer", "0"]) == 0
    page = out.read_text(encoding="utf-8")
    assert_self_contained(page)
    assert frames_of(page) == [list(f) for f in frames(s, 0)]
    assert len(frames_of(page)) == 13
    assert page.count("<li>") == 13


def arena_file(tmp_path: Path, games: list[GameState], order: list[int]) -> Path:
    """An arena JSON-lines file of ``games`` (random vs greedy), game ``i`` with index ``i``,
    written in ``order`` (a game stopped early scored as the arena scores it: the points of its
    ranking then)."""
    lines = [
        GameResult(index=i, game=g.game, variant=g.variant, seed=i, seats=["random", "greedy"],
                   ranking=g.ranking(), returns=g.points_for(g.ranking()), plies=g.ply,
                   seconds=0.1,
                   record=to_record(g)).to_line()
        for i, g in enumerate(games)
    ]  # fmt: skip
    path = tmp_path / "arena.jsonl"
    path.write_text("\n".join(lines[i] for i in order) + "\n", encoding="utf-8")
    return path


def test_view_of_an_arena_file_picks_a_game_by_index(tmp_path: Path) -> None:
    games = [random_game("empire-plateau", "duel", seed, 8) for seed in range(3)]
    path = arena_file(tmp_path, games, [2, 0, 1])
    out = tmp_path / "viewer.html"
    assert main(["view", str(path), "--game-index", "1", "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert_self_contained(page)
    assert frames_of(page)[-1][1] == svg(games[1])
    assert "arena game 1, empire-plateau duel (0: random, 1: greedy)" in page
    assert main(["view", str(path), "--out", str(out)]) == 0  # the file's first game
    assert frames_of(out.read_text(encoding="utf-8"))[-1][1] == svg(games[2])
    assert main(["view", str(path), "--game-index", "9", "--out", str(out)]) == 2


def test_show_of_an_arena_file_picks_a_game_by_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = [random_game("empire-plateau", "duel", seed, 8) for seed in range(2)]
    path = arena_file(tmp_path, games, [0, 1])
    capsys.readouterr()
    assert main(["show", "--record", str(path), "--game-index", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("arena game 1, empire-plateau duel (0: random, 1: greedy)")
    assert "\n".join(out[1:-1]) == str(games[1])
    assert out[-1] == f"ranking: {games[1].ranking()}  hash: {games[1].hash:016x}"
    assert main(["show", "--record", str(path), "--game-index", "5"]) == 2
    assert "no game with index 5" in capsys.readouterr().err


def test_the_viewer_page_survives_script_like_text() -> None:
    s = plateau.new_game("plateau-x", "mini")
    page = viewer_html(s, title="</script><script>alert(1)</script>")
    assert_self_contained(page)
    assert "&lt;/script&gt;" in page


# -- PNG and RGB arrays (the render extra) --------------------------------------------------------


@pytest.mark.render
def test_png_and_rgb_array_of_a_known_position() -> None:
    require_extra("cairosvg", "render")
    from plateau.render import png, rgb_array

    s = plateau.new_game("plateau-x", "mini")
    s.apply_all(["P@a1", "P@f6"])
    data = png(s)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    root = picture(s)
    a = rgb_array(s)
    assert a.dtype.name == "uint8" and a.shape == (int(root.get("height", 0)),
                                                   int(root.get("width", 0)), 3)  # fmt: skip
    assert a.std() > 20  # not blank
    # the pieces in their colours, at the centres of their circles
    for e in classes(root, "piece"):
        x, y = round(float(e.get("cx", 0))), round(float(e.get("cy", 0)))
        colour = tuple(int(v) for v in a[y, x])
        fill = e.get("fill", "#000000")
        want = tuple(int(fill[i : i + 2], 16) for i in (1, 3, 5))
        assert max(abs(c - w) for c, w in zip(colour, want)) <= 3, (e.get("data-at"), colour)
    big = rgb_array(s, scale=2)
    assert big.shape[:2] == (2 * a.shape[0], 2 * a.shape[1])
    with pytest.raises(ValueError, match="scale"):
        png(s, scale=0)


@pytest.mark.render
def test_render_writes_png(record_file: tuple[Path, Any], tmp_path: Path) -> None:
    require_extra("cairosvg", "render")
    path, _ = record_file
    out = tmp_path / "pos.png"
    assert main(["render", "--record", str(path), "--out", str(out), "--scale", "0.5"]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")


@pytest.mark.render
def test_a_png_smaller_than_a_pixel_is_refused(
    record_file: tuple[Path, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # (cairosvg failed inside with "ValueError: The SVG size is undefined")
    require_extra("cairosvg", "render")
    from plateau.render import png, rgb_array

    s = plateau.new_game("plateau-x")  # 444 x 564 px at scale 1 (0.444 wide rounds to 0)
    with pytest.raises(plateau.InvalidArgumentError, match=r"smaller than a pixel: 444 x 564 px"):
        png(s, scale=0.001)
    with pytest.raises(plateau.InvalidArgumentError, match=r"0\.444 x 0\.564 px at this scale"):
        rgb_array(s, scale=0.001)
    # 0.74 x 0.94 px: under a pixel, though it rounds to one (cairosvg truncates the size)
    with pytest.raises(plateau.InvalidArgumentError, match="smaller than a pixel"):
        png(s, scale=1 / 600)
    assert rgb_array(s, scale=1 / 400).shape == (1, 1, 3)  # 1.11 x 1.41 px: one pixel
    path, _ = record_file
    out = tmp_path / "pos.png"
    assert main(["render", "--record", str(path), "--out", str(out), "--scale", "0.001"]) == 2
    assert capsys.readouterr().err.count("\n") == 1 and not out.exists()


# -- the viewer in a real browser -----------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"


def chromium() -> str:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("PLATEAU_REQUIRE_EXTRAS") == "1":
            pytest.fail(f"PLATEAU_REQUIRE_EXTRAS=1 but {CHROMIUM} is missing")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    return CHROMIUM


def run_chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tmp_path / "profile"
    profile.mkdir(exist_ok=True)
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", f"--user-data-dir={profile}", *args]  # fmt: skip
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=True)


@pytest.fixture
def viewer_file(tmp_path: Path) -> tuple[Path, Any]:
    s = random_game("plateau-x", "mini", 3, 12)
    path = tmp_path / "viewer.html"
    path.write_text(viewer_html(s), encoding="utf-8")
    return path, s


@pytest.mark.browser
def test_the_viewer_loads_and_steps_in_chromium(
    viewer_file: tuple[Path, Any], tmp_path: Path
) -> None:
    path, s = viewer_file
    texts = s.history_strings()
    doms = {}
    for ply in (0, 3, 12):
        dom = run_chromium(tmp_path, "--dump-dom", f"{path.as_uri()}#ply={ply}").stdout
        assert f'data-ply="{ply}"' in dom
        caption = re.findall(r'class="last-action"[^>]*>([^<]*)<', dom)
        assert caption == [f"last: {texts[ply - 1]}" if ply else "last: -"]
        doms[ply] = re.search(r'<div id="frame">(.*?)</div>', dom, re.S)
    pictures = {ply: m.group(1) for ply, m in doms.items() if m}
    assert len(set(pictures.values())) == 3  # stepping changes the picture


@pytest.mark.browser
def test_a_screenshot_of_the_viewer_is_not_blank(
    viewer_file: tuple[Path, Any], tmp_path: Path
) -> None:
    np = pytest.importorskip("numpy")
    image = require_extra("PIL.Image", "render")
    path, _ = viewer_file
    shot = tmp_path / "shot.png"
    run_chromium(tmp_path, f"--screenshot={shot}", "--window-size=800,700",
                 "--hide-scrollbars", f"{path.as_uri()}#ply=6")  # fmt: skip
    with image.open(shot) as im:
        a = np.asarray(im.convert("RGB"), dtype=np.float64)
    assert a.shape[:2] == (700, 800)
    assert a.std() > 20
    # the board's shades and a piece's colour are on screen, not just text on white
    pixels = a[::7, ::7].reshape(-1, 3)
    # the bare board's shade (level 0), give or take a browser's colour rounding
    assert (np.abs(pixels - (244, 238, 223)).max(axis=1) <= 3).any()
    assert len({tuple(int(c) for c in px) for px in pixels}) > 50


class WebDriver:
    """A W3C WebDriver session with Debian's chromedriver, over its local HTTP API (stdlib
    only): enough to click, press keys, run a script and take a screenshot."""

    def __init__(self, tmp_path: Path) -> None:
        import socket

        driver = "/usr/bin/chromedriver"
        chromium()
        if not os.path.exists(driver):
            if os.environ.get("PLATEAU_REQUIRE_EXTRAS") == "1":
                pytest.fail(f"PLATEAU_REQUIRE_EXTRAS=1 but {driver} is missing")
            pytest.skip(f"{driver} is missing (apt-get install chromium-driver)")
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        self.proc = subprocess.Popen(
            [driver, f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        self.session = ""
        deadline = time.monotonic() + 30
        while True:
            try:
                if self.call("GET", "/status")["ready"]:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.close()
                pytest.fail("chromedriver did not start within 30 s")
            time.sleep(0.1)
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=900,800",
                 f"--user-data-dir={tmp_path / 'driver-profile'}"]  # fmt: skip
        caps = {"browserName": "chrome",
                "goog:chromeOptions": {"binary": CHROMIUM, "args": flags}}  # fmt: skip
        self.session = self.call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})[
            "sessionId"
        ]

    def call(self, method: str, path: str, body: object = None) -> Any:
        import urllib.request

        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())["value"]

    def s(self, path: str) -> str:
        return f"/session/{self.session}{path}"

    def open(self, url: str) -> None:
        self.call("POST", self.s("/url"), {"url": url})

    def script(self, js: str) -> Any:
        return self.call("POST", self.s("/execute/sync"), {"script": js, "args": []})

    def click(self, css: str) -> None:
        found = self.call("POST", self.s("/element"), {"using": "css selector", "value": css})
        element = next(iter(found.values()))
        self.call("POST", self.s(f"/element/{element}/click"), {})

    def press(self, key: str) -> None:
        keys = [{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]
        self.call("POST", self.s("/actions"),
                  {"actions": [{"type": "key", "id": "keyboard", "actions": keys}]})  # fmt: skip

    def screenshot(self) -> bytes:
        import base64

        return base64.b64decode(self.call("GET", self.s("/screenshot")))

    def close(self) -> None:
        try:
            if self.session:
                self.call("DELETE", self.s(""))
        finally:
            self.proc.terminate()
            self.proc.wait(timeout=30)


ARROW_LEFT, ARROW_RIGHT, HOME, END = "\ue012", "\ue014", "\ue011", "\ue010"


@pytest.mark.browser
def test_the_viewer_steps_with_buttons_and_keys_in_chromium(
    viewer_file: tuple[Path, Any], tmp_path: Path
) -> None:
    path, s = viewer_file
    last = len(s.history)
    texts = ["-", *s.history_strings()]
    browser = WebDriver(tmp_path)
    try:
        browser.open(path.as_uri())

        def where() -> tuple[int, str, str]:
            ply, caption, hash_ = browser.script(
                "return [document.body.dataset.ply,"
                " document.querySelector('#frame .last-action').textContent, location.hash]"
            )
            return int(ply), caption, hash_

        assert where() == (0, "last: -", "#ply=0")
        first = browser.screenshot()
        browser.click("#next")
        browser.click("#next")
        assert where() == (2, f"last: {texts[2]}", "#ply=2")
        browser.press(ARROW_RIGHT)
        assert where()[0] == 3
        browser.press(ARROW_LEFT)
        browser.press(ARROW_LEFT)
        assert where() == (1, f"last: {texts[1]}", "#ply=1")
        browser.press(END)
        assert where() == (last, f"last: {texts[last]}", f"#ply={last}")
        browser.press(ARROW_RIGHT)  # stays at the end
        assert where()[0] == last
        assert browser.screenshot() != first  # the picture on screen changed
        browser.click("#prev")
        assert where()[0] == last - 1
        browser.press(HOME)
        assert where()[0] == 0
        browser.click("#last")
        browser.click("#first")
        assert where()[0] == 0
        browser.click("#moves li:nth-child(5)")  # the move list: the picture after 4 actions
        assert where() == (4, f"last: {texts[4]}", "#ply=4")
        # no request left the page (only the file itself was loaded)
        urls = browser.script("return performance.getEntriesByType('resource').map(e => e.name)")
        assert urls == []
    finally:
        browser.close()


@pytest.mark.parametrize("game", [g for g in plateau.games() if plateau.game_info(g).from_setup])
def test_frames_of_a_game_from_a_set_up_position_start_there(game: str) -> None:
    s = random_game(game, None, 2, 15)
    t = plateau.game_info(game).from_setup(s.variant, s.position_dict(), **s.options)
    rng = random.Random(4)
    for _ in range(5):
        t.apply(int(rng.choice(t.legal_actions())))
    u = plateau.from_json(t.to_json())
    pictures = frames(u)
    assert [c for c, _ in pictures] == ["start", *u.history_strings()]
    assert pictures[0][1] == svg(plateau.game_info(game).from_setup(s.variant, s.position_dict(),
                                                                    **s.options))  # fmt: skip
    assert pictures[-1][1] == svg(u) and u.ply == 20


def test_png_without_the_render_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    from plateau.render import png

    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import cairosvg now fails
    with pytest.raises(ImportError, match=r"pip install 'plateau\[render\]'"):
        png(plateau.new_game("plateau-x", "mini"))
    out = tmp_path / "pos.png"
    assert main(["render", "--game", "plateau-x", "--out", str(out)]) == 2
    assert "pip install 'plateau[render]'" in capsys.readouterr().err
    assert not out.exists()
