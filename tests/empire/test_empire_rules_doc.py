"""The project's rules doc ``docs/rules/empire-plateau.md`` against the rules page and the engine:
its worked examples must describe positions in which what it claims holds, and its counts must be
the page's (the page's "Notes for implementers" and worked check 5, as corrected on 2026-12-01)."""

from __future__ import annotations

import re
from pathlib import Path

from plateau import EmpirePlateauState, new_game

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "empire-plateau.md"
LETTER = {"Babylonian": "B", "Greek": "G", "Median Persian": "M", "Roman": "R"}
TYPE = {"2": "2", "4": "4", "6": "6", "Emblem": "E"}


def section(title: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(title)
    end = text.find("\n### ", start + 1)
    return text[start:end]


def test_doc_perft_table_has_the_page_counts_under_the_six_step_rule() -> None:
    rows = {}
    for line in section("### 11.11").splitlines():
        m = re.match(r"\|\s*`(\w+)`\s*\|([^|]+)\|([^|]+)\|([^|]+)\|", line)
        if m:
            rows[m.group(1)] = [int(x.strip().replace(",", "")) for x in m.groups()[1:]]
    # the page: two 133 / 11,323 / 306,197 and duel 151 / 15,663 / 492,451
    assert rows["two"] == [133, 11_323, 306_197]
    assert rows["duel"] == [151, 15_663, 492_451]
    for variant, counts in rows.items():
        g = new_game("empire-plateau", variant=variant)
        assert [g.perft(d) for d in (1, 2, 3)] == counts, variant


def test_doc_jump_example_is_the_page_position_and_its_claims_hold() -> None:
    text = section("### 11.5")
    armies = {
        dot: LETTER[empire] + TYPE[kind]
        for empire, kind, dot in re.findall(
            r"(Babylonian|Greek|Median Persian|Roman) (2|4|6|Emblem) on `([a-p]\d+)`", text
        )
    }
    # the page's worked check 5 has a B Emblem (on k8): without it the jump c3-e3:2 is illegal
    # by the six-step rule, and the 4 has 20 moves, not 45
    s = EmpirePlateauState.from_position_dict({"variant": "two", "armies": armies})
    moves = {a for a in s.legal_action_strings() if a.startswith("c3-")}
    assert {"c3-e3:2", "c3-e3:4", "c3-f3:3"} <= moves
    assert len(moves) == 45
