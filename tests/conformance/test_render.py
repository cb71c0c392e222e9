"""Pictures of every registered game and variant (``plateau.render.svg``): well-formed SVG for
every viewer, the conventions tools rely on (pieces, the last action), nothing a viewer may
not see, and the state left as it was."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import plateau
from plateau.render import svg
from support import Case, snapshot

SVG = "{http://www.w3.org/2000/svg}"


def classes(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def test_every_game_draws_itself() -> None:
    for game in plateau.games():
        assert plateau.game_info(game).render is not None, f"{game} has no drawing"


def test_pictures_are_well_formed(case: Case) -> None:
    s = case.state()
    before = snapshot(s)
    for viewer in [None, *range(s.num_players)]:
        text = svg(s, viewer)
        root = ET.fromstring(text)
        assert root.tag == f"{SVG}svg"
        w, h = float(root.get("width", 0)), float(root.get("height", 0))
        assert 100 <= w <= 2000 and 100 <= h <= 2000
        assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
        assert len(classes(root, "board")) == 1
        for e in classes(root, "piece"):  # their number: per game, in tests/test_render.py
            assert 0 <= int(e.get("data-player", -1)) < s.num_players
            assert e.get("data-at")
        assert svg(s, viewer) == text  # deterministic
    assert s._repr_svg_() == svg(s)
    assert snapshot(s) == before


def test_the_last_action_is_marked(case: Case) -> None:
    s = case.state()
    for viewer in [None, *range(s.num_players)]:
        root = ET.fromstring(svg(s, viewer))
        (caption,) = classes(root, "last-action")
        if s.history:
            assert caption.text == f"last: {s.history_strings(viewer)[-1]}"
        else:
            assert caption.text == "last: -"
            assert not classes(root, "last") and not classes(root, "last-move")
        unmarked = ET.fromstring(svg(s, viewer, last=False))
        assert not classes(unmarked, "last") and not classes(unmarked, "last-move")
        assert [e.text for e in classes(unmarked, "last-action")] == ["last: -"]


def test_a_viewer_sees_no_more_than_their_observation(hidden_case: Case) -> None:
    # a determinization agrees with the truth on everything the player may see, and on
    # nothing else: the player's picture (without the last action, which a determinization
    # has no history for) must be the same in both
    s = hidden_case.state()
    for p in range(s.num_players):
        mine = svg(s, p, last=False)
        for seed in range(3):
            assert svg(s.view_for(p, seed), p, last=False) == mine


def test_with_perfect_information_every_viewer_sees_the_truth(perfect_case: Case) -> None:
    s = perfect_case.state()
    truth = svg(s)
    for p in range(s.num_players):
        assert svg(s, p) == truth


def test_a_bad_viewer_is_refused(game_variant: tuple[str, str]) -> None:
    s = plateau.new_game(*game_variant)
    for bad in (-1, s.num_players, "0", 1.5, True):
        with pytest.raises(ValueError, match="viewer"):
            svg(s, bad)  # type: ignore[arg-type]
