"""The `plateau bench` machinery: its positions match the perft data, and a quick run
produces a complete report (timings are never asserted here)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import plateau.bench as bench
from plateau.cli import main

DATA = json.loads((Path(__file__).parent / "data" / "x_perft.json").read_text())


@pytest.mark.parametrize("entry", bench.PERFT_POSITIONS, ids=lambda e: e[0])
def test_bench_positions_are_the_tests_positions(
    entry: tuple[str, str, list[str], int, int, int],
) -> None:
    _label, variant, actions, depth, before, count = entry
    matches = [p for p in DATA["positions"] if p["variant"] == variant and p["actions"] == actions]
    assert len(matches) == 1
    assert matches[0]["depth"][str(depth - 1)] == before
    assert matches[0]["depth"][str(depth)] == count


def test_quick_run_reports_every_measure() -> None:
    rows = bench.run(quick=True)
    names = [r.measure for r in rows]
    assert sum("perft" in n for n in names) == len(bench.PERFT_POSITIONS)
    assert any("playouts" in n for n in names)
    assert any("Python loop" in n for n in names)
    assert sum("StateBatch" in n for n in names) == 2
    assert any("clone()" in n for n in names)
    assert any("memory" in n for n in names)
    assert all(r.ours > 0 for r in rows if "memory" not in r.measure)
    table = bench.format_table(rows)
    assert table.count("\n") == len(rows) + 1


def test_a_wrong_count_stops_the_benchmark(monkeypatch: pytest.MonkeyPatch) -> None:
    bad = [("mini start", "mini", [], 2, 232, 48_409)]
    monkeypatch.setattr(bench, "PERFT_POSITIONS", bad)
    with pytest.raises(bench.BenchError, match="expected 48409"):
        bench.bench_perft(None, quick=False)


def test_cli_bench_quick(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "| measure | plateau | yardstick | ratio | target |" in out
    assert "perft" in out and "StateBatch" in out


def test_quick_run_of_empire_plateau() -> None:
    rows = bench.run(quick=True, game="empire-plateau")
    names = [r.measure for r in rows]
    assert sum("perft" in n for n in names) == 2
    assert any("playouts" in n for n in names) and any("StateBatch" in n for n in names)
    assert all(r.ours > 0 for r in rows)
