"""``--option KEY=VALUE`` on the command line and ``options=`` of the arena, on Empire
Plateau's ``ep24`` board (the conformance suite checks every game's options generically); and
``plateau play --load``, whose bots are checked against the loaded game."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import plateau
from plateau import arena
from plateau.cli import main, parse_option
from plateau.record import from_record

#: perft of the start of variant two on ep24 (tests/empire/perft.json)
EP24_PERFT = {1: 151, 2: 15607}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_option_values_are_json_where_they_parse() -> None:
    assert parse_option("max_plies=200") == ("max_plies", 200)
    assert parse_option("flag=true") == ("flag", True)
    assert parse_option("board=ep24") == ("board", "ep24")
    assert parse_option("board=my_board.json") == ("board", "my_board.json")
    assert parse_option("board=a=b") == ("board", "a=b")
    for bad in ("board", "=ep24", ""):
        with pytest.raises(ValueError, match="KEY=VALUE"):
            parse_option(bad)


def test_perft_on_ep24(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "perft", "--game", "empire-plateau", "--option", "board=ep24", "--all", "2"
    )
    assert code == 0
    counts = [int(line.split()[1].split("=")[1]) for line in out.splitlines()]
    assert counts == [EP24_PERFT[1], EP24_PERFT[2]]
    assert counts != [plateau.new_game("empire-plateau").perft(d) for d in (1, 2)]


def test_a_board_file_of_the_user(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from plateau.games.empire.board import load_board, save_board

    path = tmp_path / "my_board.json"
    save_board(load_board("ep24"), path)  # ep24's dots under a file name
    text = path.read_text().replace('"ep24"', '"mine"')
    path.write_text(text)
    code, out, _ = run(capsys, "perft", "--game", "empire-plateau", f"--option=board={path}", "2")
    assert code == 0 and f"nodes={EP24_PERFT[2]}" in out


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("bord=ep24", "unknown option(s) 'bord' for 'empire-plateau'; known options: board"),
        ("board=ep99", "no board 'ep99'"),
        ("board=3", "the board option is"),
        ("board", "expected KEY=VALUE"),
    ],
)
def test_bad_options_exit_2_in_one_line(
    option: str, message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for command in (
        ["perft", "--game", "empire-plateau", "--option", option, "1"],
        ["arena", "--game", "empire-plateau", "--option", option, "--bots", "random,random",
         "--games", "1", "--no-progress"],
        ["openings", "--game", "empire-plateau", "--option", option, "--count", "1",
         "--plies", "1", "--out", str(tmp_path / "o.jsonl")],
    ):  # fmt: skip
        code, _, err = run(capsys, *command)
        assert code == 2 and err.count("\n") == 1, (command, err)
        assert err.startswith("plateau: error: ") and message in err, (command, err)


def test_an_arena_on_ep24_replays_on_ep24(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "duel.jsonl"
    code, table, _ = run(
        capsys, "arena", "--game", "empire-plateau", "--variant", "duel", "--option",
        "board=ep24", "--bots", "random,random", "--games", "2", "--jobs", "1",
        "--ply-cap", "40", "--no-progress", "--out", str(out),
    )  # fmt: skip
    assert code == 0 and "2 games of empire-plateau/duel (board=ep24)" in table
    results = arena.read_results(out)
    ep24 = {"board": "ep24", "turn_limit": 0}  # every option, as the spec resolves them
    assert [(r.variant, r.options) for r in results] == [("duel", ep24)] * 2
    for r in results:
        state = from_record(r.record)
        assert state.board.name == "ep24" and state.ply == r.plies
        code, shown, _ = run(capsys, "show", "--record", str(out), "--game-index", str(r.index))
        assert code == 0 and "  x" in shown.splitlines()[1]  # ep24 has 24 columns, a to x
    page = tmp_path / "game.html"
    code, _, _ = run(capsys, "view", str(out), "--game-index", "1", "--out", str(page))
    assert code == 0 and "ep24" in page.read_text()


def test_arena_run_with_options_plays_on_ep24() -> None:
    result = arena.run(
        "empire-plateau", "duel", ["random", "random"], games=2, ply_cap=20,
        options={"board": "ep24"},
    )  # fmt: skip
    assert result.options == {"board": "ep24", "turn_limit": 0}
    for r in result.results:
        assert r.options == {"board": "ep24", "turn_limit": 0}
        assert from_record(r.record).board.name == "ep24"
    spec = plateau.resolve("empire-plateau", "duel", board="ep24")
    again = arena.run(spec, None, ["random", "random"], games=2, ply_cap=20)
    assert [r.record for r in again.results] == [r.record for r in result.results]


def test_resume_refuses_other_options(tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl"
    arena.run("empire-plateau", "duel", ["random", "random"], games=2, ply_cap=4, out=out)
    with pytest.raises(ValueError, match="another arena setup"):
        arena.run(
            "empire-plateau", "duel", ["random", "random"], games=3, ply_cap=4, out=out,
            resume=True, options={"board": "ep24"},
        )  # fmt: skip


def test_play_load_checks_the_bots_against_the_loaded_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--game`` defaults to Plateau X (four players in its standard variant): a loaded
    two-player game is what alphabeta must be checked against."""
    state = plateau.new_game("albea-plateau")
    state.apply(int(state.legal_actions()[0]))
    path = tmp_path / "albea.json"
    path.write_text(state.to_json())
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))  # the session's one command
    code, _out, err = run(capsys, "play", "--load", str(path), "--bots", "alphabeta:depth=1")
    assert code == 0, err
    assert "plays two-player games only" not in err
    # and a bot that cannot play the loaded game is still refused, before the first move
    x = plateau.new_game("plateau-x")
    path.write_text(x.to_json())
    code, _, err = run(capsys, "play", "--load", str(path), "--bots", "alphabeta")
    assert code == 2 and "two-player games only; this one has 4 players" in err
    assert json.loads(path.read_text())["game"] == "plateau-x"


def test_play_load_gives_the_game_and_nothing_is_silently_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loaded record gives the game: ``--game``, ``--variant`` or ``--option`` beside
    ``--load`` are refused (they were ignored without a word), before the session starts."""
    state = plateau.new_game("albea-plateau")
    path = tmp_path / "albea.json"
    path.write_text(state.to_json())
    for extra in (
        ["--game", "empire-plateau"],
        ["--game", "plateau-x"],
        ["--variant", "standard"],
        ["--option", "max_plies=10"],
    ):
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        code, out, err = run(capsys, "play", "--load", str(path), *extra, "--bots", "random")
        assert code == 2 and not out, (extra, err)
        assert f"--load gives the game, its variant and options: {extra[0]} cannot" in err
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, out, err = run(capsys, "play", "--load", str(path), "--bots", "random")
    assert code == 0 and out, err


@pytest.mark.parametrize("command", ["show", "render"])
def test_a_record_gives_the_game_and_nothing_is_silently_ignored(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = plateau.new_game("empire-plateau", "duel", board="ep24")
    s.apply(s.legal_actions()[0])
    record = tmp_path / "game.json"
    record.write_text(s.to_json(), encoding="utf-8")
    code, out, _ = run(capsys, command, "--record", str(record))
    assert code == 0 and out
    extras = (
        ["--option", "board=ep16"],
        ["--variant", "two"],
        ["--game", "albea-plateau"],
        ["--game", "plateau-x"],  # (the default game, named: given all the same)
        ["c3-c4:1"],
    )
    for extra in extras:
        code, out, err = run(capsys, command, "--record", str(record), *extra)
        assert code == 2 and not out
        assert "cannot go with it" in err and err.count("\n") == 1
    code, out, err = run(capsys, command, "--game-index", "0")
    assert code == 2 and "needs --record" in err and not out


def test_a_library_error_is_one_line_and_a_bug_shows_its_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import plateau.cli.perft as perft_command

    def refused(args: object) -> int:
        raise plateau.InvalidArgumentError("depth is refused")

    monkeypatch.setattr(perft_command, "run", refused)
    assert main(["perft", "1"]) == 2
    assert capsys.readouterr().err == "plateau: error: depth is refused\n"

    def bug(args: object) -> int:
        raise ValueError("a bug, not bad input")  # a plain ValueError is no library error

    monkeypatch.setattr(perft_command, "run", bug)
    with pytest.raises(ValueError, match="a bug"):
        main(["perft", "1"])


def test_render_refuses_a_format_it_does_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--out x.gif`` wrote SVG text into a .gif and exited 0: now refused, nothing written."""
    out = tmp_path / "x.gif"
    assert main(["render", "--variant", "mini", "--out", str(out)]) == 2
    assert "not GIF" in capsys.readouterr().err and not out.exists()
    for name in ("x.svg", "x.SVG", "x", "x.out"):  # SVG, under any other name
        assert main(["render", "--variant", "mini", "--out", str(tmp_path / name)]) == 0
        assert (tmp_path / name).read_text().startswith("<svg")


def test_perft_all_of_depth_0_prints_depth_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--variant", "mini", "--all", "0"]) == 0
    assert capsys.readouterr().out.startswith("depth=0 nodes=1 ")
    assert main(["perft", "--variant", "mini", "--all", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split()[0] for ln in lines] == ["depth=1", "depth=2"]


#: numbers int() and float() read that no command line or spec writes: other scripts' digits
#: (Arabic-Indic and full-width 3, 10) and underscores
ODD_NUMBERS = ["\u0663", "\uff13", "\u0661\u0660", "1_0"]


@pytest.mark.parametrize("odd", ODD_NUMBERS)
def test_numbers_are_read_in_ascii_digits_only(
    odd: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every number of the command line, a bot spec, a time control, SPRT and adjudication
    settings is ASCII digits (as notation is): each of these ran with the odd number read."""
    from plateau.adjudication import Adjudication
    from plateau.bots import make_bot
    from plateau.clock import TimeControl
    from plateau.sprt import SPRT

    arena = ["arena", "--game", "plateau-x", "--variant", "mini", "--bots", "random,random"]
    for argv in (
        [*arena, "--games", odd],
        [*arena, "--games", "2", "--seed", odd],
        [*arena, "--games", "2", "--tc", f"{odd}+0"],
        [*arena, "--games", "2", "--sprt", f"elo1={odd}"],
        [*arena, "--games", "2", "--resign", f"movecount={odd} score=600"],
        ["perft", "--game", "plateau-x", "--variant", "mini", odd],
        ["render", "--game", "plateau-x", "--variant", "mini", "--out", "x.svg", "--scale", odd],
        ["demo", "--game", "plateau-x", "--variant", "mini", "--perft-depth", odd],
    ):
        try:
            code, out, err = run(capsys, *argv)
        except SystemExit as stop:  # (argparse's own exit for a bad argument)
            code = stop.code  # type: ignore[assignment]
            out, err = capsys.readouterr()
        assert code == 2 and not out, (argv, err)
        assert "error:" in err and odd in err, (argv, err)  # (named in the message)
    for spec in (f"mcts:iters={odd}", f"alphabeta:depth={odd}", f"mcts:seconds=0.{odd}"):
        with pytest.raises(plateau.InvalidArgumentError):
            make_bot(spec)
    for call in (
        lambda: TimeControl.parse(f"10+{odd}"),
        lambda: SPRT.parse(f"alpha=0.0{odd}"),
        lambda: Adjudication.parse(resign=f"score={odd}"),
        lambda: Adjudication.parse(draw=f"movenumber={odd} movecount=8 score=10"),
    ):
        with pytest.raises(plateau.InvalidArgumentError, match=r"number|BASE"):
            call()


def test_negative_zero_is_zero() -> None:
    """-0 reads as 0 where zero is allowed (it was kept, and echoed: ``Time control 10+-0``,
    ``resign at score -0``)."""
    from plateau.adjudication import Adjudication
    from plateau.bots import make_bot
    from plateau.clock import TimeControl
    from plateau.sprt import SPRT

    assert TimeControl.parse("10+-0").describe() == "10+0"
    assert TimeControl.parse("10+-0.0").inc == 0.0
    assert str(Adjudication.parse(resign="score=-0.0").resign_score) == "0.0"
    assert str(make_bot("mcts:c=-0.0").params["c"]) == "0.0"
    assert str(SPRT.parse("elo0=-0 elo1=10").elo0) == "0.0"
