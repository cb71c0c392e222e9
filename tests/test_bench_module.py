"""The `plateau bench` machinery, for every registered game: its positions and counts are the
test data's, a quick run through the command line reports every workload and fills the
yardstick column from the yardsticks a game declares, and a wrong count stops it. Timings are
never asserted here."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import json
import os
import re
import stat
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import plateau
import plateau.bench as bench
from plateau.bench_spec import BenchPosition, BenchSpec, Yardstick
from plateau.cli import main
from plateau.registry import GameInfo

GAMES = plateau.games()
TESTS = Path(__file__).parent


def spec_of(game: str) -> BenchSpec:
    spec = plateau.game_info(game).bench
    assert spec is not None, f"{game} registers no benchmark"
    return spec


def with_spec(monkeypatch: pytest.MonkeyPatch, game: str, **changes: Any) -> GameInfo:
    """``game`` with its bench spec (``BENCH`` of its package's ``bench`` module) changed, for
    this test only."""
    info = plateau.game_info(game)
    module = importlib.import_module(f"{info.package}.bench")
    monkeypatch.setattr(module, "BENCH", dataclasses.replace(spec_of(game), **changes))
    return info


def small_position(game: str) -> BenchPosition:
    """The start of ``game`` at depth 2, with its true counts."""
    start = plateau.new_game(game)
    nodes, quick_nodes = start.perft(2), start.perft(1)
    return BenchPosition("tiny start", lambda: plateau.new_game(game), 2, nodes, quick_nodes)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_registers_a_benchmark(game: str) -> None:
    spec = spec_of(game)
    plies = {p.label: p.build().ply for p in spec.positions}
    assert 0 in plies.values(), "perft at the start"
    assert plies[spec.midgame] > 0, "a midgame position"
    assert all(p.depth >= 1 and p.nodes >= p.quick_nodes >= 0 for p in spec.positions)
    assert all(y.name for y in spec.yardsticks)


def perft_data() -> list[dict[str, Any]]:
    out = []
    for path in sorted(TESTS.glob("*/perft.json")):  # each game's folder
        out += json.loads(path.read_text())["positions"]
    return out


@pytest.mark.parametrize(
    ("game", "label"), [(g, p.label) for g in GAMES for p in spec_of(g).positions]
)
def test_bench_positions_are_the_tests_positions(game: str, label: str) -> None:
    pos = spec_of(game).position(label)
    state = pos.build()
    actions = state.history_strings()
    matches = [
        p
        for p in perft_data()
        if p["actions"] == actions
        and p.get("variant", state.variant) == state.variant
        and p["depth"].get(str(pos.depth)) == pos.nodes
        and p["depth"].get(str(pos.depth - 1)) == pos.quick_nodes
    ]
    assert matches, f"{game} {label}: no perft data with these actions and counts"


def fake_yardstick() -> Yardstick:
    def perft(path: str | None, state: plateau.GameState, depth: int) -> tuple[int, float]:
        return state.perft(depth), 0.5

    return Yardstick(
        name="fake yardstick",
        available=lambda _path: True,
        perft=perft,
        playouts=lambda _path, _variant, _n, _seed: 1000.0,
        python_loop=lambda _seconds: 2000.0,
    )


@pytest.mark.parametrize("game", GAMES)
def test_quick_run_reports_every_workload(
    game: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through the command line, with the game's yardsticks replaced by one that measures
    everything a yardstick may (and --yardstick given, which no yardstick of it runs)."""
    info = with_spec(monkeypatch, game, yardsticks=(fake_yardstick(),))
    spec = spec_of(game)
    rows: list[bench.Row] = []
    real_run = bench.run
    monkeypatch.setattr(bench, "run", lambda **kw: rows.extend(real_run(**kw)) or rows)
    assert main(["bench", "--game", game, "--quick", "--yardstick", "/no/such/program"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"plateau bench --game {game} --quick on ")
    assert "| measure | plateau | yardstick | ratio | target | verdict |" in out
    assert out.count("\n| ") == 1 + len(rows)  # the header line and the rows
    assert f"plateau: warning: {game} has no yardstick program: --yardstick /no/such/program" in err
    by_workload: dict[str, list[bench.Row]] = {}
    for r in rows:
        by_workload.setdefault(r.workload.split(" ")[0], []).append(r)
    expected = {"perft", "apply-undo", "legal", "clone", "playouts", "python-loop", "memory"}
    expected |= {"python-fast"}
    expected |= {"batch-1", "batch-2"} if info.batch is not None else set()
    expected |= {"batch-masks"} if info.batch is not None and spec.batch_masks else set()
    expected |= {"determinizer"} if not info.perfect_information else set()
    assert set(by_workload) == expected
    assert len(by_workload["perft"]) == len(spec.positions)
    assert all(r.ours > 0 for r in rows if r.workload != "memory")
    # the yardstick column: the fake one where it measures, the engine's own figures elsewhere
    loops = by_workload["python-loop"] + by_workload["python-fast"]
    for r in by_workload["perft"] + by_workload["playouts"] + loops:
        assert r.yardstick == "fake yardstick" and r.theirs and r.ratio
    # both loops against the yardstick's one loop, the fast one saying so
    assert loops[0].theirs == loops[1].theirs
    assert any("no such fast path" in n for n in loops[1].notes)
    assert by_workload["clone"][0].yardstick == "apply() + undo()"
    if info.batch is not None:
        assert by_workload["batch-1"][0].theirs == 1000.0
        assert by_workload["batch-1"][0].yardstick == "fake yardstick playouts"
        assert by_workload["batch-2"][0].yardstick == "the 1-thread figure"
    if "batch-masks" in by_workload:  # with masks, against the same batch without them
        assert by_workload["batch-masks"][0].theirs == by_workload["batch-1"][0].ours
    # targets: the game's, then those every game shares
    for r in rows:
        general = r.workload.split(" ")[0]
        wanted = spec.targets.get(r.workload, spec.targets.get(general))
        assert r.target == (wanted or bench.DEFAULT_TARGETS.get(general, ""))
        # every row with a target has a verdict, and says how busy the machine was
        assert (r.verdict != "") == (r.target != "")
        assert r.verdict in ("", "met", "missed", "missed (busy)", "not judged")
        assert r.others is None or r.others >= 0.0
    assert "Other processes used" in out


@pytest.mark.parametrize("game", GAMES)
def test_yardsticks_that_cannot_run_leave_a_note(game: str) -> None:
    missing = Yardstick(
        name="absent",
        available=lambda _path: False,
        missing_note="absent: install it",
        python_loop=lambda _seconds: 1.0,
    )
    info = plateau.game_info(game)
    sticks = bench._Yardsticks.of(dataclasses.replace(spec_of(game), yardsticks=(missing,)), None)
    rows = bench.bench_python_loop(info, quick=True, sticks=sticks)
    assert [r.workload for r in rows] == ["python-loop", "python-fast"]
    for row in rows:
        assert row.theirs is None and row.notes == ["absent: install it"]
        assert "(absent: install it)" in bench.format_table([row])


@pytest.mark.parametrize("game", GAMES)
def test_a_wrong_count_stops_the_benchmark(game: str) -> None:
    good = small_position(game)
    for bad, pattern in (
        (dataclasses.replace(good, nodes=good.nodes + 1), f"expected {good.nodes + 1}"),
        (dataclasses.replace(good, quick_nodes=good.quick_nodes - 1), "expected"),
    ):
        spec = dataclasses.replace(spec_of(game), positions=(bad,), midgame=bad.label)
        with pytest.raises(bench.BenchError, match=pattern):
            bench.bench_perft(spec, quick=False)
    # a yardstick that counts otherwise stops it too: the program the user named is wrong
    # (InvalidArgumentError: one line on the command line, where BenchError, a bug of the
    # library's, shows its traceback)
    liar = dataclasses.replace(fake_yardstick(), perft=lambda _p, _s, _d: (good.nodes - 1, 1.0))
    spec = dataclasses.replace(spec_of(game), positions=(good,), midgame=good.label)
    sticks = bench._Yardsticks.of(dataclasses.replace(spec, yardsticks=(liar,)), None)
    with pytest.raises(plateau.InvalidArgumentError, match=r"fake yardstick: .* not count the"):
        bench.bench_perft(spec, quick=False, sticks=sticks)


def test_a_bench_spec_needs_its_midgame_position() -> None:
    pos = small_position(GAMES[0])
    with pytest.raises(ValueError, match="midgame"):
        BenchSpec(positions=(pos,), midgame="no such position")
    with pytest.raises(ValueError, match="distinct labels"):
        BenchSpec(positions=(pos, pos), midgame=pos.label)


PROGRAM = """#!{python}
# a stand-in for a native yardstick program: the yardstick protocol, answered by the engine
import sys
import plateau

command, variant, *rest = sys.argv[1:]
if command == "perft":
    s = plateau.new_game({game!r}, variant)
    s.apply_all(rest[1:])
    print(f"nodes={{s.perft(int(rest[0]))}} seconds=0.25")
else:
    print("plies_per_s=5000")
"""


@pytest.mark.parametrize(
    "game", [g for g in GAMES if any(y.uses_path for y in spec_of(g).yardsticks)]
)
def test_a_yardstick_program_speaks_the_protocol(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    program = tmp_path / "yardstick"
    program.write_text(PROGRAM.format(python=sys.executable, game=game))
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    native = next(y for y in spec_of(game).yardsticks if y.uses_path)
    spec = dataclasses.replace(spec_of(game), yardsticks=(native,))
    assert not bench._Yardsticks.of(spec, None).ready  # no path: no figures
    sticks = bench._Yardsticks.of(spec, str(program))
    mid = spec.position(spec.midgame)
    small = dataclasses.replace(mid, depth=2, nodes=mid.build().perft(2))
    small = dataclasses.replace(small, quick_nodes=small.build().perft(1))
    (row,) = bench.bench_perft(dataclasses.replace(spec, positions=(small,)), False, sticks)
    assert row.yardstick == native.name and row.theirs == small.nodes / 0.25
    info = with_spec(monkeypatch, game, yardsticks=(native,))
    assert bench.bench_playouts(info, quick=True, sticks=sticks).theirs == 5000.0


@pytest.mark.parametrize(
    "script,pattern",
    [
        # (each was a traceback: CalledProcessError, KeyError, ValueError, OverflowError,
        # UnicodeDecodeError; or no error at all)
        ("echo broken >&2; exit 3", "perft: exit status 3: 'broken'"),
        ("echo seconds=0.25", r"nodes= is not a whole number in its output 'seconds=0.25\\n'$"),
        ("echo nodes=abc seconds=0.25", "nodes= is not a whole number"),
        ("echo nodes=1e999 seconds=0.25", "nodes= is not a whole number"),
        ("echo nodes=" + "9" * 5000 + " seconds=0.25", "nodes= is not a whole number"),
        ("echo nodes=20 seconds=1e999", "seconds= is not a finite number >= 0"),
        ("echo nodes=20 seconds=nan", "seconds= is not a finite number >= 0"),
        ("echo nodes=20 seconds=-1", "seconds= is not a finite number >= 0"),
        ("printf 'nodes=20 \\377\\033[2J'", r"seconds= is not .* 'nodes=20 \ufffd\\x1b\[2J'$"),
        ("exec sleep 30", "perft: no answer in 0.5 s"),
    ],
)
def test_a_misbehaving_yardstick_program_is_named_in_one_line(
    script: str,
    pattern: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from plateau import yardsticks

    program = tmp_path / "yardstick"
    program.write_text(f"#!/bin/sh\n{script}\n")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setattr(yardsticks, "TIMEOUT", 0.5)
    native = yardsticks.program()
    assert native.perft is not None
    with pytest.raises(plateau.InvalidArgumentError, match=re.escape(f"--yardstick '{program}'")):
        native.perft(str(program), plateau.new_game("plateau-x"), 1)
    with pytest.raises(plateau.InvalidArgumentError, match=pattern):
        native.perft(str(program), plateau.new_game("plateau-x"), 1)
    # through the command line: one line, exit status 2
    small = small_position("plateau-x")
    with_spec(monkeypatch, "plateau-x", positions=(small,), midgame=small.label)
    assert main(["bench", "--game", "plateau-x", "--quick", "--yardstick", str(program)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith(f"plateau: error: --yardstick '{program}'")
    assert not any("Traceback" in line for line in err)


def test_a_yardstick_program_that_cannot_run_is_named(tmp_path: Path) -> None:
    from plateau import yardsticks

    native = yardsticks.program()
    assert native.playouts is not None
    with pytest.raises(plateau.InvalidArgumentError, match="playouts: cannot run it"):
        native.playouts(str(tmp_path / "absent"), "standard", 10, 1)
    program = tmp_path / "yardstick"
    program.write_text("#!/bin/sh\necho plies_per_s=inf\n")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    with pytest.raises(plateau.InvalidArgumentError, match="plies_per_s= is not a finite"):
        native.playouts(str(program), "standard", 10, 1)


@pytest.mark.parametrize(
    "target,ours,ratio,verdict",
    [
        (">= 0.5x", 10.0, 0.52, "met"),
        (">= 0.5x", 10.0, 0.48, "missed"),
        ("<= 3x", 10.0, 2.9, "met"),
        ("<= 3x", 10.0, 3.1, "missed"),
        (">= 1.0x", 10.0, None, "no yardstick"),
        (">= 300,000 plies/s", 300_001.0, None, "met"),
        (">= 300,000 plies/s", 299_999.0, 5.0, "missed"),
        (">= 46 M/s (perft(3) of the start in <= 5 s)", 47e6, None, "met"),
        (">= 46 M/s (perft(3) of the start in <= 5 s)", 45e6, None, "missed"),
        ("flat", 0.0, None, "met"),
        ("flat", 4096.0, None, "missed"),
        ("", 1.0, 1.0, ""),
        ("a target in words", 1.0, 1.0, "not judged"),
    ],
)
def test_each_row_has_a_verdict_against_its_target(
    target: str, ours: float, ratio: float | None, verdict: str
) -> None:
    theirs = None if ratio is None else ours / ratio
    row = bench.Row("m", ours, "u", theirs=theirs, target=target)
    assert row.verdict == verdict
    # a missed target on a busy machine says so; a met one does not need to
    row.others = float(os.cpu_count() or 1)
    assert row.verdict == (verdict + " (busy)" if verdict == "missed" else verdict)


def test_a_busy_machine_is_seen_and_reported() -> None:
    cores = os.cpu_count() or 1
    quiet = bench.Row("one thread", 1.0, "u", theirs=2.0, target=">= 1.0x", others=0.05)
    two = bench.Row(
        "two threads", 1.0, "u", theirs=2.0, target=">= 1.7x", threads=2, others=cores - 1.5
    )
    assert not quiet.busy and two.busy == (cores - 1.5 > cores - 2 + 0.1)
    text = bench.format_table([quiet, two])
    assert "| missed |" in text or "| missed (busy) |" in text
    assert f"of the {cores} cores while the rows ran" in text
    # the load is measured: spinning a thread of our own is not counted as others' load
    load = bench._Load()
    end = time.monotonic() + 0.3
    while time.monotonic() < end:
        pass
    others = load.others()
    if others is not None:  # Linux
        assert 0.0 <= others <= cores


def _icount() -> Any:
    """bench/icount.py (a script, not a package module), loaded from its file."""
    path = Path(__file__).resolve().parent.parent / "bench" / "icount.py"
    spec = importlib.util.spec_from_file_location("icount", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("second, code", [(1000, 0), (1200, 1)])
def test_instruction_counts_measure_a_game_again_after_a_rise(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    second: int,
    code: int,
) -> None:
    """A rise is measured again and each workload keeps its lower count: a count inflated once
    passes, a rise that comes back fails."""
    icount = _icount()
    env = {k: "x" for k in icount.ENV_KEYS}
    base = tmp_path / "icount.json"
    base.write_text(json.dumps({"environment": env, "counts": {"g": {"perft": 1000}}}))
    runs = iter([{"perft": 1200}, {"perft": second}])
    monkeypatch.setattr(icount, "BASELINE", base)
    monkeypatch.setattr(icount, "environment", lambda: env)
    monkeypatch.setattr(icount, "measure", lambda game: next(runs))
    assert icount.main(["--game", "g"]) == code
    out = capsys.readouterr().out
    assert "measured again after a rise over 3.0%: g" in out
    assert next(runs, None) is None  # measured twice, no more


def test_instruction_counts_fail_only_on_a_rise_over_the_tolerance() -> None:
    icount = _icount()
    baseline = {"counts": {"g": {"perft": 1000, "list": 1000, "loop": 1000}}}
    counts = {"g": {"perft": 1031, "list": 1029, "loop": 900, "new": 5}}
    lines, rises = icount.compare(counts, baseline, 3.0)
    assert len(lines) == 4 and "(no baseline)" in lines[3]
    assert [r.split()[1] for r in rises] == ["perft"]
    assert "+3.10%" in rises[0] and "-10.00%" in lines[2]
    # the committed baseline covers every game that has a bench spec, each workload counted
    data = json.loads(Path(icount.BASELINE).read_text())
    assert set(icount.ENV_KEYS) <= set(data["environment"])
    benched = {g for g in plateau.games() if plateau.game_info(g).bench is not None}
    assert set(data["counts"]) == benched
    for works in data["counts"].values():
        assert {"perft", "generate", "apply-undo", "python-loop"} <= set(works)
        assert all(isinstance(n, int) and n > 0 for n in works.values())


def test_throughput_curves_measure_and_draw(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    points = bench.batch_curve("plateau-x", sizes=(1, 8), threads=(1, 2), seconds=0.01, warm_up=3)
    assert [(p.size, p.threads) for p in points] == [(1, 1), (1, 2), (8, 1), (8, 2)]
    assert all(p.game == "plateau-x" and p.steps > 0 for p in points)
    table = bench.format_curve(points)
    assert table.splitlines()[0] == "| game | batch size | 1 thread | 2 threads |"
    assert len(table.splitlines()) == 4
    more = points + [bench.CurvePoint("albea-plateau", s, 1, 1000.0 * s) for s in (1, 8)]
    svg = ET.fromstring(bench.curve_svg(more, "a <title>"))
    lines = svg.findall("{http://www.w3.org/2000/svg}polyline")
    assert len(lines) == 3  # plateau-x on 1 and 2 threads, albea-plateau on 1
    assert len(lines[0].get("points", "").split()) == 2
    with pytest.raises(plateau.InvalidArgumentError):
        bench.curve_svg([])
    with pytest.raises(plateau.InvalidArgumentError, match="size"):
        bench.batch_curve("plateau-x", sizes=(0,))


def test_the_plot_command_writes_the_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench, "BATCH_SIZES", (1, 2, 4, 8, 16, 32))
    out = tmp_path / "curves.svg"
    assert main(["bench", "--plot", str(out), "--quick"]) == 0
    text = capsys.readouterr().out
    assert "game-steps per second" in text and f"drawn to {out}" in text
    batched = [g for g in plateau.games() if plateau.game_info(g).batch is not None]
    for g in batched:
        assert f"| {g} | 1 |" in text and f"| {g} | 32 |" in text
    assert out.read_text().count("<polyline") == 2 * len(batched)


def test_the_plot_command_refuses_a_missing_folder_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "--plot", str(tmp_path / "nowhere" / "c.svg"), "--quick"]) == 2
    out, err = capsys.readouterr()
    assert "no such folder" in err and "running" not in err and out == ""


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("fast", [False, True])
def test_the_python_loop_starts_a_new_game_at_its_cap(game: str, fast: bool) -> None:
    """Its games stop at ``ply_cap`` plies (400 by default, as playouts and batches), so that
    a game that never ends (a random Empire Plateau game without a turn limit can go on for
    ever) is not what the row times; each game still replays."""
    rate, state = bench.python_loop(0.05, game, fast=fast, ply_cap=5)
    assert rate > 0 and 0 <= state.ply <= 5
    replay = plateau.new_game(game)
    replay.apply_all(state.history)
    assert replay.hash == state.hash
    assert bench.LOOP_PLY_CAP == 400
