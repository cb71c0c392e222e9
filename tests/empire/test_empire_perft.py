"""Empire Plateau perft: the start counts of the rules page, and every position of
``tests/empire/perft.json`` (counted by the independent pure-Python reference), reached by
replaying its actions and again loaded from its position dict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import plateau
from plateau import EmpirePlateauState

DATA = json.loads((Path(__file__).parent / "perft.json").read_text())
POSITIONS: list[dict[str, Any]] = DATA["positions"]


def pid(p: dict[str, Any]) -> str:
    return f"{p['variant']}/{p['board']}/{p['name']}"


@pytest.mark.parametrize(
    ("variant", "counts"),
    [
        ("two", (133, 11_323, 306_197)),
        ("duel", (151, 15_663, 492_451)),
        ("three", (133, 11_323, 306_197)),
    ],
)
def test_perft_from_the_start(variant: str, counts: tuple[int, ...]) -> None:
    s = plateau.new_game("empire-plateau", variant)
    assert tuple(s.perft(d) for d in (1, 2, 3)) == counts
    assert s.perft(2, bulk=False) == counts[1]


def test_perft_of_four_and_of_ep24_from_the_start() -> None:
    for p in POSITIONS:
        if p["name"] == "start":
            s = plateau.new_game("empire-plateau", p["variant"], board=p["board"])
            assert s.perft(1) == p["depth"]["1"] and s.perft(2) == p["depth"]["2"], pid(p)


@pytest.mark.parametrize("p", POSITIONS, ids=pid)
def test_perft_of_the_reference_positions(p: dict[str, Any]) -> None:
    s = plateau.new_game("empire-plateau", p["variant"], board=p["board"])
    s.apply_all(p["actions"])
    assert s.position_dict() == {**p["position"], "ply": len(p["actions"])}
    loaded = EmpirePlateauState.from_position_dict(p["position"])
    assert loaded == s and loaded.hash == s.hash
    for depth, count in p["depth"].items():
        assert s.perft(int(depth)) == count, (pid(p), depth)
        assert loaded.perft(int(depth)) == count, (pid(p), depth)
