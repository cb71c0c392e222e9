"""Game clocks in the arena (--tc): parsing, losses on time for bots and engines, increments,
the budget of bots that search by time, and the clock fields engines are sent."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, ClassVar

import pytest

import plateau
from plateau import arena
from plateau.bots import Bot
from plateau.cli import main
from plateau.clock import TimeControl, held_to_budget, move_budget
from plateau.engine import BotEngine, EngineProcess, engine_spec
from test_engine import _unreliable, needs_sh


class _Sleeper(Bot):
    """Thinks 0.05 s a move, then plays its first legal action."""

    name: ClassVar[str] = "test-sleeper"

    def select_action(self, state: plateau.GameState) -> int:
        time.sleep(0.05)
        return int(state.legal_actions()[0])


def test_time_control_parsing_and_budget() -> None:
    assert TimeControl.parse("10+0.1") == TimeControl(10.0, 0.1)
    assert TimeControl.parse(" 60 ") == TimeControl(60.0, 0.0)
    assert TimeControl.parse("0.5+0").describe() == "0.5+0"
    # describe() reads back exactly (``:g`` wrote 1e+06, whose + is the separator, and kept six
    # digits: 123.456789 came back as 123.457, another time control)
    for tc in [TimeControl(1e6), TimeControl(123.456789, 1e-7), TimeControl(1 / 3, 0.1)]:
        assert TimeControl.parse(tc.describe()) == tc
    assert TimeControl(1e6, 2.5).describe() == "1000000+2.5"
    for bad, message in [
        ("ten", "not BASE\\+INC"),
        ("10+x", "not BASE\\+INC"),
        ("0+1", "base must be > 0"),
        ("10+-1", ">= 0"),
        ("inf", "at most 1,000,000 seconds"),
        ("1+1e12", "inc must be >= 0 and at most 1,000,000"),  # (a wait that overflowed)
        ("1e7", "base must be >= 0 and at most"),
    ]:
        with pytest.raises(ValueError, match=message):
            TimeControl.parse(bad)
    assert move_budget(30.0, 0.0) == pytest.approx(1.0)
    assert move_budget(30.0, 0.5) == pytest.approx(1.5)
    assert move_budget(0.2, 5.0) == pytest.approx(0.1)  # never more than half the clock
    assert held_to_budget(0.3, 30.0, 0.0) == pytest.approx(0.3)
    assert held_to_budget(3.0, 30.0, 0.0) == pytest.approx(1.0)


def test_a_bot_whose_clock_runs_out_loses_on_time(tmp_path: Path) -> None:
    out = tmp_path / "tc.jsonl"
    tc = TimeControl(0.3, 0.0)  # at most six moves of 0.05 s fit: it loses on time
    res = arena.run("plateau-x", "mini", [_Sleeper, "random"], 2, seed=1, out=out, tc=tc)
    for r in res.results:
        seat = arena.seat_order(r.index, 2).index(0)
        assert r.forfeit is not None and r.forfeit["reason"] == "time"
        assert r.forfeit["seat"] == seat and r.ranking == [[1 - seat], [seat]]
        assert "lost on time" in r.forfeit["error"]
        assert r.tc == "0.3+0"
        # every move played is measured, the sleeper's at 0.05 s or more, within its clock
        assert len(r.move_seconds) == r.plies
        mine = r.move_seconds[seat::2]
        assert len(mine) <= 5 and all(s >= 0.05 for s in mine) and sum(mine) <= 0.3
    table = res.format_table()
    assert "Time control 0.3+0: 2 games lost on time." in table
    assert res.stats()[0].forfeits == 2
    assert arena.report(out).format_table() == table
    with pytest.raises(ValueError, match="another arena setup"):
        arena.run("plateau-x", "mini", [_Sleeper, "random"], 2, seed=1, out=out, resume=True)


def test_the_increment_keeps_a_bot_on_time() -> None:
    tc = TimeControl(0.5, 0.1)  # each move gives back more than it takes
    res = arena.run("plateau-x", "mini", [_Sleeper, "random"], 1, seed=1, tc=tc)
    (r,) = res.results
    assert r.forfeit is None and not r.truncated and r.plies > 6
    assert len(r.move_seconds) == r.plies


class _Timed(Bot):
    """A bot that searches by time: notes the ``seconds`` it is given for each move."""

    name: ClassVar[str] = "test-timed"
    defaults: ClassVar[dict[str, Any]] = {"seconds": 5.0}
    given: ClassVar[list[float]] = []

    def select_action(self, state: plateau.GameState) -> int:
        _Timed.given.append(float(self.params["seconds"]))
        return int(state.legal_actions()[0])


def test_a_bot_that_searches_by_time_keeps_to_its_clock_budget() -> None:
    tc = TimeControl(1.5, 0.1)
    _Timed.given.clear()
    res = arena.run("plateau-x", "mini", [_Timed, "random"], 1, seed=2, tc=tc)
    (r,) = res.results
    assert r.forfeit is None and _Timed.given
    # each move's budget comes from the clock as it stood (the bot's own 5 s never fit;
    # move_seconds keeps 4 decimals)
    clock = 1.5
    for given, spent in zip(_Timed.given, r.move_seconds[0::2]):
        assert given == pytest.approx(held_to_budget(5.0, clock, 0.1), abs=1e-4)
        clock += 0.1 - spent
    # mcts by time with 5 s a move would lose its first move on a 1.5 s clock without them
    res = arena.run("plateau-x", "mini", ["mcts:seconds=5", "random"], 1, seed=2, tc=tc)
    assert res.results[0].forfeit is None
    # bots by iterations are only measured
    res = arena.run("plateau-x", "mini", ["mcts:iters=50", "random"], 1, seed=2, tc=tc)
    assert res.results[0].forfeit is None


def test_engines_are_sent_the_clocks(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[str] = []
    real_send = EngineProcess.send

    def spy(self: EngineProcess, line: str, deadline: float | None = None) -> None:
        sent.append(line)
        real_send(self, line, deadline)

    monkeypatch.setattr(EngineProcess, "send", spy)
    spec = engine_spec(["plateau", "engine", "--bot", "greedy"], name="greedy")
    tc = TimeControl(5.0, 0.25)
    res = arena.run("plateau-x", "mini", [spec, "random"], 1, seed=3, tc=tc)
    (r,) = res.results
    assert r.forfeit is None and len(r.move_seconds) == r.plies
    gos = [line.split() for line in sent if line.startswith("go ")]
    assert gos and gos[0] == ["go", "movetime", "0", "inc", "250", "time0", "5000", "time1", "5000"]
    for go in gos:
        fields = dict(zip(go[1::2], go[2::2]))
        assert fields["inc"] == "250" and 0 < int(fields["time0"]) <= 5000 + 250 * r.plies
    # the engine's clock moved: what it spent, less the increments
    assert len({go[6] for go in gos}) > 1


@needs_sh
def test_an_engine_that_hangs_loses_on_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _unreliable(tmp_path, "good,hang", monkeypatch)  # the check, then game 0 hangs
    res = arena.run("plateau-x", "mini", [spec, "random"], 1, seed=2, tc=TimeControl(0.5))
    (r,) = res.results
    assert r.forfeit is not None and r.forfeit["reason"] == "time"
    assert r.forfeit["stderr"] == ["unreliable: hanging on purpose"]


def test_plateau_engine_keeps_a_timed_bot_to_the_clock() -> None:
    engine = BotEngine("mcts:seconds=5")
    engine.handle("plateau-engine 1")
    engine.handle("game plateau-x mini")
    engine.handle("position start")
    answer = engine.handle("go movetime 0 inc 100 time0 3000 time1 3000") or []
    assert answer[-1].startswith("bestaction ")
    assert engine.bot.params["seconds"] == pytest.approx(held_to_budget(5.0, 3.0, 0.1))


def test_cli_tc(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--game", "plateau-x", "--variant", "mini", "--bots", "greedy,random"]
    argv += ["--games", "2", "--jobs", "1", "--no-progress"]
    assert main([*argv, "--tc", "30+0.1"]) == 0
    assert "Time control 30+0.1: 0 games lost on time." in capsys.readouterr().out
    assert main([*argv, "--tc", "fast"]) == 2
    assert "is not BASE+INC" in capsys.readouterr().err


def test_a_plateau_engine_process_keeps_a_time_searching_bot_to_the_clock() -> None:
    # mcts by time with 5 s a move, served over the protocol: without the clocks sent with
    # every go it would lose its first move on a 3 s clock
    spec = engine_spec(["plateau", "engine", "--bot", "mcts:seconds=5"], name="mcts")
    tc = TimeControl(3.0, 0.1)
    res = arena.run("plateau-x", "mini", [spec, "random"], 2, seed=4, tc=tc)
    for r in res.results:
        assert r.forfeit is None, r.forfeit
        seat = next(i for i, spec in enumerate(r.seats) if spec.startswith("engine:"))
        s = plateau.new_game("plateau-x", "mini")
        spent = []
        for action, seconds in zip(r.record["actions"], r.move_seconds):
            if s.current_player == seat:
                spent.append(seconds)
            s.apply(action)
        assert spent and max(spent) < 1.0
        assert sum(spent) < 3.0 + 0.1 * len(spent)
