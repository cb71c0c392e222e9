"""The public API beyond the rules: registry, properties, action ids and notation, clones,
returns, tournaments, random playouts, the text diagram and the command line."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import plateau
import plateau.cli
import x.reference as ref
from support import random_game

VARIANTS = ["standard", "triple", "mini", "double"]
# from the rules page's variant table: players, board side, pieces each, singles, doubles, points
TABLE = {
    "standard": (4, 7, 1, 2, 1, (4, 2, 1, 0)),
    "triple": (3, 7, 1, 2, 1, (3, 1, 0)),
    "mini": (2, 6, 1, 3, 1, (1, 0)),
    "double": (2, 7, 2, 3, 1, (1, 0)),
}
# from the rules page's notes for implementers
PERFT = {
    "standard": (326, 98_308),
    "triple": (326, 98_308),
    "mini": (232, 48_408),
    "double": (326, 98_308),
}
COLOURS = ("black", "yellow", "orange", "green")


def count_actions(n: int) -> dict[str, int]:
    """Action ids by kind for an n x n board, counted from the rules: every single placement,
    both domino orientations, four L orientations per 2x2 block, an enter per space, a move per
    ordered pair of different spaces, and End."""
    return {
        "S": n * n,
        "D": 2 * n * (n - 1),
        "T": 4 * (n - 1) ** 2,
        "P": n * n,
        "M": n * n * (n * n - 1),
        "end": 1,
    }


# -- registry and defaults ---------------------------------------------------------------------


def test_games_and_variants() -> None:
    assert plateau.games() == ["albea-plateau", "empire-plateau", "plateau-x"]
    assert plateau.variants("plateau-x") == VARIANTS
    # the lists are copies
    plateau.games().append("chess")
    plateau.variants("plateau-x").clear()
    assert plateau.games() == ["albea-plateau", "empire-plateau", "plateau-x"]
    assert plateau.variants("plateau-x") == VARIANTS
    info = plateau.game_info("plateau-x")
    assert info.default_variant == "standard" and info.options == {"first_player": 0}


def test_new_game_defaults() -> None:
    s = plateau.new_game("plateau-x")
    assert isinstance(s, plateau.PlateauXState) and isinstance(s, plateau.GameState)
    assert (s.game, s.variant, s.first_player, s.options) == (
        "plateau-x",
        "standard",
        0,
        {"first_player": 0},
    )
    assert s.current_player == 0 and s.ply == 0 and s.history == []
    assert not s.is_terminal()
    assert s.hash == plateau.new_game("plateau-x", "standard", first_player=0).hash
    assert s.hash == plateau.new_game("plateau-x", variant=None).hash


@pytest.mark.parametrize("variant", VARIANTS)
def test_properties(variant: str) -> None:
    players, n, ppp, singles, doubles, _ = TABLE[variant]
    s = plateau.new_game("plateau-x", variant)
    assert s.num_players == players
    assert s.board_size == n
    assert s.pieces_per_player == ppp
    assert s.num_distinct_actions == sum(count_actions(n).values())
    assert s.num_distinct_actions == {7: 2679, 6: 1493}[n]
    assert s.supply == 37
    assert [s.stock(p) for p in range(players)] == [{"single": singles, "double": doubles}] * (
        players
    )
    assert s.piece_squares() == [None] * (players * ppp)
    assert s.stamps() == [None] * (players * ppp)
    assert s.levels() == [[0] * n for _ in range(n)]
    assert s.ranking() == [list(range(players))]  # nobody in play: all share first place
    assert s.returns() == [0.0] * players
    assert s.perft(0) == 1
    assert (s.perft(1), s.perft(2)) == PERFT[variant]
    assert s.perft(2, bulk=False) == PERFT[variant][1]
    for first in range(players):
        t = plateau.new_game("plateau-x", variant, first_player=first)
        assert t.current_player == first and t.first_player == first
        assert t.perft(1) == PERFT[variant][0]


# -- legal actions -----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_legal_actions_agree_with_the_reference(variant: str) -> None:
    """The engine and the plain reference implementation list the same actions, rank the
    same and score the same, along random games."""
    players = TABLE[variant][0]
    for seed in range(2):
        rng = random.Random(seed)
        first = rng.randrange(players)
        s = plateau.new_game("plateau-x", variant, first_player=first)
        r = ref.RefState(variant, first_player=first)
        while True:
            strings = s.legal_action_strings()
            assert sorted(strings) == r.legal()
            assert s.current_player == r.current_player
            assert s.ranking() == r.ranking()
            assert s.returns() == r.returns()
            assert s.is_terminal() == r.is_over()
            assert s.piece_squares() == r.piece_space
            if s.is_terminal():
                break
            a = rng.choice(strings)
            s.apply(a)
            r.play(a)


# -- notation ----------------------------------------------------------------------------------

CANONICAL = re.compile(
    r"(?P<kind>[SDT])@(?P<sqs>(?:[a-g][1-7]){1,3})|P@[a-g][1-7]|[a-g][1-7]-[a-g][1-7]|end"
)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_id_has_a_canonical_string_that_parses_back(variant: str) -> None:
    s = plateau.new_game("plateau-x", variant)
    n = s.board_size
    strings = [s.action_to_string(a) for a in range(s.num_distinct_actions)]
    assert len(set(strings)) == len(strings)
    by_kind: dict[str, int] = {}
    for a, text in enumerate(strings):
        m = CANONICAL.fullmatch(text)
        assert m, text
        kind = "end" if text == "end" else ("M" if "-" in text else text[0])
        by_kind[kind] = by_kind.get(kind, 0) + 1
        assert s.parse_action(text) == a
        assert s.parse_action(text.upper()) == a
        assert s.parse_action(f"  {text}\n") == a
        assert s.action_to_string(np.int64(a)) == text
        if m.group("kind"):
            sqs = [plateau.square_index(q, n) for q in re.findall(r"[a-g][1-7]", text[2:])]
            assert sqs == sorted(sqs)  # canonical: ascending square index
            assert s.parse_action(text[:2] + "".join(reversed(re.findall(r"..", text[2:])))) == a
            assert text == ref_name(m.group("kind"), sqs, n)
    assert by_kind == count_actions(n)
    # the reference's list of placements has exactly the build strings
    for kind in "SDT":
        expected = {ref_name(kind, list(p), n) for p in ref.placements(kind, n)}
        assert expected == {t for t in strings if t.startswith(kind + "@")}


def ref_name(kind: str, sqs: list[int], n: int) -> str:
    return kind + "@" + "".join(ref.square_name(q, n) for q in sorted(sqs))


def test_examples_from_the_rules_page() -> None:
    s = plateau.new_game("plateau-x", "standard")
    assert s.action_to_string(s.parse_action("t@c4D3c3")) == "T@c3d3c4"
    assert s.action_to_string(s.parse_action("D@D3C3")) == "D@c3d3"
    assert s.action_to_string(s.parse_action("C3-E5")) == "c3-e5"
    assert s.action_to_string(s.parse_action("END")) == "end"
    # square index = row * N + col: a1 = 0, b1 = 1, a2 = N
    assert s.parse_action("S@a1") == 0 and s.parse_action("S@b1") == 1
    assert s.parse_action("S@a2") == 7
    assert plateau.new_game("plateau-x", "mini").parse_action("S@a2") == 6
    assert plateau.square_index("a2", board_size=7) == 7
    assert plateau.square_name(6, board_size=6) == "a2"
    for n in (6, 7):
        assert [plateau.square_index(plateau.square_name(i, n), n) for i in range(n * n)] == list(
            range(n * n)
        )


def test_history_strings() -> None:
    s = plateau.new_game("plateau-x", "double", first_player=1)
    given = ["d@C3d3", "S@a7", "p@b3", "S@g7", "B3-c3", "S@g1", "P@E3"]
    for a in given:
        s.apply(a)
    assert s.history_strings() == ["D@c3d3", "S@a7", "P@b3", "S@g7", "b3-c3", "S@g1", "P@e3"]
    assert s.history == [s.parse_action(a) for a in given]
    assert all(type(a) is int for a in s.history)
    # history is a copy
    s.history.append(0)
    assert len(s.history) == len(given)
    # in the double variant pieces enter lowest-numbered first
    assert s.piece_squares() == [None, None, 16, 18]  # c3 = 2 * 7 + 2, e3 = 2 * 7 + 4
    assert s.piece_at("c3") == 1 and s.piece_at("e3") == 1 and s.piece_at("d3") is None
    assert s.stamps() == [None, None, 4, 6]
    assert s.level("c3") == 1 and s.plateau("c3") == [16, 17]
    assert s.plateau("a1") == [] and s.plateau(plateau.square_index("a7")) == [42]


# -- returns -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_returns_are_zero_until_the_end(variant: str) -> None:
    players, *_, points = TABLE[variant]
    rng = random.Random(variant)
    s = plateau.new_game("plateau-x", variant)
    while not s.is_terminal():
        assert s.returns() == [0.0] * players
        legal = s.legal_actions()
        s.apply(int(legal[rng.randrange(len(legal))]))
    ret = s.returns()
    assert all(type(x) is float for x in ret)
    # points by place, players who share places splitting their points
    expected = [0.0] * players
    place = 0
    for group in s.ranking():
        for p in group:
            expected[p] = sum(points[place : place + len(group)]) / len(group)
        place += len(group)
    assert ret == pytest.approx(expected)
    assert sum(ret) == pytest.approx(sum(points))
    assert max(ret) == points[0]
    assert s.winners() == s.ranking()[0]


# -- tournaments -------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_tournament_points_by_place(variant: str) -> None:
    players, *_, points = TABLE[variant]
    t = plateau.Tournament("plateau-x", variant)
    assert t.points == [0.0] * players and t.wins == [0] * players
    order = list(range(players))
    gained = t.add([[p] for p in order])
    assert gained == [float(x) for x in points]
    reverse = list(reversed(order))
    gained = t.add([[p] for p in reverse])
    assert gained == [float(points[players - 1 - p]) for p in order]
    assert t.points == [float(points[p] + points[players - 1 - p]) for p in order]
    assert t.wins == [1] + [0] * (players - 2) + [1]
    # everyone tied: the points of all places split, and nobody wins the round
    gained = t.add([order])
    assert gained == pytest.approx([sum(points) / players] * players)
    assert t.wins == [1] + [0] * (players - 2) + [1]
    assert len(t.rounds) == 3


def test_tournament_tied_places_in_standard() -> None:
    t = plateau.Tournament("plateau-x", "standard")
    # players who share places split their points; a shared first place wins no round
    assert t.add([[2], [0], [1, 3]]) == [2.0, 0.5, 4.0, 0.5]
    assert t.add([[0, 1], [2], [3]]) == [3.0, 3.0, 1.0, 0.0]
    assert t.add([[3], [0, 1, 2]]) == [1.0, 1.0, 1.0, 4.0]
    assert t.points == [6.0, 4.5, 6.0, 4.5]
    assert t.wins == [0, 0, 1, 1]
    assert t.standings() == [[2], [0], [3], [1]]


def test_tournament_equal_sums_broken_by_wins() -> None:
    t = plateau.Tournament("plateau-x", "standard")
    t.add([[0], [1], [2], [3]])  # 4 2 1 0
    t.add([[2], [1], [3], [0]])  # 0 2 4 1
    assert t.points == [4.0, 4.0, 5.0, 1.0]
    assert t.wins == [1, 0, 1, 0]
    # players 0 and 1 have 4 points each; 0 won a round, 1 did not
    assert t.standings() == [[2], [0], [1], [3]]


def test_tournament_grouped_standings() -> None:
    t = plateau.Tournament("plateau-x", "mini")
    t.add([[1], [0]])
    t.add([[0], [1]])
    assert t.points == [1.0, 1.0] and t.wins == [1, 1]
    assert t.standings() == [[0, 1]]
    t.add([[0, 1]])
    assert t.standings() == [[0, 1]]
    t.add([[1], [0]])
    assert t.standings() == [[1], [0]]
    # the docstring's example
    t = plateau.Tournament("plateau-x", "triple")
    t.add([[1], [0], [2]])
    t.add([[2], [0], [1]])
    assert t.points == [2.0, 3.0, 3.0] and t.wins == [0, 1, 1]
    assert t.standings() == [[1, 2], [0]]


def test_tournament_with_finished_games() -> None:
    t = plateau.Tournament("plateau-x", "mini")
    total = [0.0, 0.0]
    wins = [0, 0]
    for seed in range(4):
        s = random_game("plateau-x", "mini", seed)
        gained = t.add(s)
        assert gained == s.returns()
        total = [a + b for a, b in zip(total, gained)]
        for p in s.ranking()[0]:
            wins[p] += 1
    assert t.points == total and t.wins == wins


@pytest.mark.parametrize(
    "ranking",
    [
        [[0], [1], [2]],  # a player missing
        [[0], [1], [2], [3], [4]],  # a player too many
        [[0], [0], [1], [2]],  # twice
        [[0, 1], [], [2, 3]],  # an empty group
        [[0, 1, 2, 5]],  # out of range
        [[-1], [0], [1], [2]],
        [["0"], ["1"], ["2"], ["3"]],
        [],
    ],
)
def test_tournament_malformed_rankings(ranking: Any) -> None:
    t = plateau.Tournament("plateau-x", "standard")
    t.add([[0], [1], [2], [3]])
    before = (list(t.points), list(t.wins), list(t.rounds))
    with pytest.raises(ValueError, match=r"a ranking must place each of players 0\.\.3 once"):
        t.add(ranking)
    assert (t.points, t.wins, t.rounds) == before


@pytest.mark.parametrize("ranking", [[[0.0], [1]], [[True], [0]], [0, 1]])
def test_tournament_rankings_of_non_int_players(ranking: Any) -> None:
    t = plateau.Tournament("plateau-x", "mini")
    with pytest.raises(ValueError, match="a ranking must place"):
        t.add(ranking)
    assert t.points == [0.0, 0.0]


def test_tournament_refuses_unfinished_or_foreign_games() -> None:
    t = plateau.Tournament("plateau-x", "mini")
    with pytest.raises(ValueError, match="only a finished game"):
        t.add(random_game("plateau-x", "mini", seed=1, plies=5))
    with pytest.raises(ValueError, match="only a finished game"):
        t.add(plateau.new_game("plateau-x", "mini"))
    with pytest.raises(ValueError, match="plateau-x/double game cannot score"):
        t.add(random_game("plateau-x", "double", seed=1))
    assert t.points == [0.0, 0.0] and t.wins == [0, 0] and t.rounds == []
    with pytest.raises(ValueError, match="unknown variant"):
        plateau.Tournament("plateau-x", "huge")
    with pytest.raises(ValueError, match="unknown game"):
        plateau.Tournament("chess", "standard")


# -- random playouts ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_playouts_with_another_first_player(variant: str) -> None:
    # the result's keys and counts in every game: tests/conformance/test_api.py
    players = TABLE[variant][0]
    r = plateau.random_playouts("plateau-x", variant, n=50, seed=3)
    r1 = plateau.random_playouts("plateau-x", variant, n=50, seed=3, first_player=players - 1)
    assert r1["games"] == 50 and len(r1["wins"]) == players
    # game by game (a two-player variant's totals may come out the same: each game seeded
    # 3 + i is the mirror image of the other first player's)
    winners = [plateau.random_playouts("plateau-x", variant, n=1, seed=3 + i)["wins"]
               for i in range(10)]  # fmt: skip
    winners1 = [
        plateau.random_playouts("plateau-x", variant, n=1, seed=3 + i, first_player=players - 1)[
            "wins"
        ]
        for i in range(10)
    ]
    assert winners1 != winners
    # first place is shared only when nobody has a piece in play at the end (the rules, section
    # 6), which none of these random games reaches
    assert r["draws"] == r1["draws"] == 0 and sum(r["wins"]) == r["ended"]


def test_random_playouts_edges() -> None:
    assert plateau.random_playouts("plateau-x", "mini", n=0) == {
        "games": 0,
        "plies": 0,
        "ended": 0,
        "wins": [0, 0],
        "draws": 0,
    }
    r = plateau.random_playouts("plateau-x", "mini", n=7, ply_cap=0)
    assert r == {"games": 7, "plies": 0, "ended": 0, "wins": [0, 0], "draws": 0}
    r = plateau.random_playouts("plateau-x", "mini", n=7, ply_cap=3)
    assert r["plies"] == 21 and r["ended"] == 0  # nobody can end within three plies
    r = plateau.random_playouts("plateau-x", n=3)
    assert len(r["wins"]) == 4  # the default variant is standard
    assert plateau.random_playouts("plateau-x", "mini", n=2, seed=2**64 - 1)["games"] == 2


@pytest.mark.parametrize(
    "kwargs,pattern",
    [
        ({"n": -1}, r"n must be an int in \[0, 4611686018427387904\), got -1"),
        ({"n": 1.5}, "n must be an int in"),
        ({"n": True}, "n must be an int in"),
        ({"n": "10"}, "n must be an int in"),
        ({"seed": -1}, r"seed must be an int in \[0, 2\*\*64\), got -1"),
        ({"seed": 2**64}, "seed must be an int in"),
        ({"seed": None}, "seed must be"),
        ({"ply_cap": -1}, "ply_cap must be an int in"),
        ({"ply_cap": 2.0}, "ply_cap must be"),
        ({"variant": "huge"}, "unknown variant 'huge'"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"first_player": 2}, r"first_player must be an int in \[0, 2\), got 2"),
        ({"first_player": -1}, r"first_player must be an int in \[0, 2\), got -1"),
    ],
)
def test_random_playouts_bad_arguments(kwargs: dict[str, Any], pattern: str) -> None:
    args = {"game": "plateau-x", "variant": "mini", "n": 2, **kwargs}
    with pytest.raises(ValueError, match=pattern):
        plateau.random_playouts(**args)


def test_random_playouts_unknown_option() -> None:
    with pytest.raises(ValueError, match="unknown option"):
        plateau.random_playouts("plateau-x", "mini", n=1, players=3)


def test_random_playouts_huge_ply_cap_is_refused() -> None:
    with pytest.raises(ValueError, match=r"ply_cap must be an int in \[0, 2147483648\)"):
        plateau.random_playouts("plateau-x", "mini", n=1, ply_cap=2**31)
    assert plateau.random_playouts("plateau-x", "mini", n=1, ply_cap=None)["ended"] == 1


# -- the text diagram --------------------------------------------------------------------------


def parse_diagram(text: str, n: int) -> tuple[list[list[int]], dict[int, str], list[str]]:
    lines = text.splitlines()
    files = "".join(f"{chr(ord('a') + c):>3}" for c in range(n))
    assert lines[0].strip() == files.strip() and lines[n + 1].strip() == files.strip()
    levels = [[0] * n for _ in range(n)]
    marks = {}
    for i, line in enumerate(lines[1 : n + 1]):
        row = n - 1 - i
        assert line.startswith(f"{row + 1:>2} ") and line.endswith(f"  {row + 1}")
        cells = line[3 : 3 + 3 * n]
        for col in range(n):
            cell = cells[3 * col : 3 * col + 3]
            lvl = cell[:2].strip()
            levels[row][col] = 0 if lvl == "." else int(lvl)
            if cell[2] != " ":
                marks[row * n + col] = cell[2]
    return levels, marks, lines[n + 2 :]


@pytest.mark.parametrize("variant", VARIANTS)
def test_str_shows_levels_pieces_stocks_and_player_to_move(variant: str) -> None:
    for plies in (0, 6, 30, None):
        s = random_game("plateau-x", variant, seed=21, plies=plies, first_player=1)
        n = s.board_size
        levels, marks, rest = parse_diagram(str(s), n)
        assert levels == s.levels()
        assert levels == [[s.level(r * n + c) for c in range(n)] for r in range(n)]
        expected_marks = {
            sq: COLOURS[q // s.pieces_per_player][0].upper()
            for q, sq in enumerate(s.piece_squares())
            if sq is not None
        }
        assert marks == expected_marks
        for sq, mark in marks.items():
            assert COLOURS[s.piece_at(sq)][0].upper() == mark
        assert rest[0] == f"supply: {s.supply} triples"
        for p in range(s.num_players):
            line = rest[1 + p]
            stock = s.stock(p)
            assert line.startswith(f"{p} {COLOURS[p]}")
            assert f"singles {stock['single']} doubles {stock['double']}" in line
            own = s.piece_squares()[p * s.pieces_per_player : (p + 1) * s.pieces_per_player]
            where = " ".join("off" if q is None else plateau.square_name(q, n) for q in own)
            assert where in line
            assert ("<- to move" in line) == (p == s.current_player)
        last = rest[1 + s.num_players]
        assert f"plateau-x {variant}, ply {s.ply}" in last
        if s.is_terminal():
            assert "game over" in last
        else:
            assert f"player {s.current_player} to move" in last
        assert repr(s).startswith(f"<PlateauXState plateau-x/{variant} ply={s.ply}")
        assert f"hash={s.hash:016x}" in repr(s)


# -- the command line --------------------------------------------------------------------------


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = plateau.cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_demo(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        capsys, "demo", "--quiet", "--variant", "mini", "--perft-depth", "2", "--seed", "5"
    )
    assert code == 0 and err == ""
    assert "variant 'mini', seed 5" in out
    moves = re.findall(r"ply (\d+): player (\d) plays (\S+)", out)
    assert moves and [int(m[0]) for m in moves] == list(range(len(moves)))
    # replaying the printed moves gives the printed result
    s = plateau.new_game("plateau-x", "mini")
    for _, player, text in moves:
        assert s.current_player == int(player)
        s.apply(text)
    assert s.is_terminal() and moves[-1][2] == "end"
    assert f"final ranking (best first): {s.ranking()}" in out
    assert f"points: {s.returns()}" in out
    assert re.search(r"depth 1:\s+232\b", out)
    assert re.search(r"depth 2:\s+48,408\b", out)
    assert "depth 3" not in out
    # the same seed prints the same game
    code2, out2, _ = run_cli(
        capsys, "demo", "--quiet", "--variant", "mini", "--perft-depth", "0", "--seed", "5"
    )
    assert code2 == 0
    assert re.findall(r"ply \d+: player \d plays \S+", out2) == re.findall(
        r"ply \d+: player \d plays \S+", out
    )


def test_cli_demo_ply_cap_and_not_quiet(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(
        capsys, "demo", "--variant", "double", "--ply-cap", "3", "--perft-depth", "1"
    )
    assert code == 0
    assert len(re.findall(r"ply \d+: player", out)) == 3
    assert out.count("supply:") == 4  # the start and after each of the three plies
    assert re.search(r"depth 1:\s+326\b", out)


def test_cli_perft(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "perft", "--variant", "mini", "2")
    assert code == 0 and err == ""
    assert re.fullmatch(r"depth=2 nodes=48408 seconds=\d+\.\d+\n", out)
    code, out, _ = run_cli(capsys, "perft", "--variant", "triple", "--all", "--no-bulk", "2")
    assert re.findall(r"depth=(\d) nodes=(\d+)", out) == [("1", "326"), ("2", "98308")]
    actions = ["S@c3", "P@c3", "D@a1b1"]  # P@c3 is illegal after S@c3 ...
    code, out, err = run_cli(capsys, "perft", "--variant", "mini", "1", *actions)
    assert code == 2 and out == "" and "P@c3" in err and "not at level 0" in err
    actions = ["S@c3", "P@c4", "D@a1b1"]
    code, out, _ = run_cli(capsys, "perft", "--variant", "mini", "2", *actions)
    s = plateau.new_game("plateau-x", "mini")
    for a in actions:
        s.apply(a)
    assert code == 0 and f"nodes={s.perft(2)} " in out


def test_cli_legal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "legal", "--variant", "mini")
    assert code == 0
    lines = out.splitlines()
    assert lines == sorted(ref.RefState("mini").legal())
    assert len(lines) == 232
    code, out, _ = run_cli(capsys, "legal", "--variant", "double", "P@a1", "S@a2", "P@b2")
    r = ref.RefState("double")
    for a in ("P@a1", "S@a2", "P@b2"):
        r.play(a)
    assert out.splitlines() == r.legal()


def test_cli_show(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run_cli(capsys, "show", "--variant", "mini", "T@a1b1a2", "P@c3")
    s = plateau.new_game("plateau-x", "mini")
    s.apply_all(["T@a1b1a2", "P@c3"])
    assert code == 0
    assert out == f"{s}\nranking: {s.ranking()}  hash: {s.hash:016x}\n"
    # from a record
    g = random_game("plateau-x", "triple", seed=9, plies=14, first_player=2)
    path = tmp_path / "game.json"
    path.write_text(g.to_json(), encoding="utf-8")
    code, out, _ = run_cli(capsys, "show", "--record", str(path))
    assert code == 0
    assert out == f"game.json: plateau-x triple\n{g}\nranking: {g.ranking()}  hash: {g.hash:016x}\n"
    # a corrupt record is a message, not a traceback
    path.write_text(g.to_json()[:-5], encoding="utf-8")
    code, out, err = run_cli(capsys, "show", "--record", str(path))
    assert code == 2 and out == "" and err.startswith("plateau: error:") and "JSON" in err


def test_cli_show_missing_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run_cli(capsys, "show", "--record", str(tmp_path / "missing.json"))
    assert code == 2 and "missing.json" in err


def test_cli_playouts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "playouts", "--variant", "mini", "--games", "20", "--seed", "4")
    assert code == 0
    m = re.search(r"games=(\d+) plies=(\d+) ended=(\d+) wins=\[(\d+), (\d+)\]", out)
    assert m
    r = plateau.random_playouts("plateau-x", "mini", n=20, seed=4)
    assert [int(x) for x in m.groups()] == [20, r["plies"], r["ended"], *r["wins"]]


@pytest.mark.parametrize(
    "argv,fragment",
    [
        (["legal", "--variant", "mini", "S@z9"], "'S@z9': square 'z9' is off the 6x6 board"),
        (["show", "--variant", "mini", "end"], "'end' is illegal"),
        (["perft", "--variant", "mini", "1", "S@a1", "S@a1"], "action 1 of the sequence"),
        (["perft", "--variant", "mini", "-1"], "perft depth must be an int in"),
        (["demo", "--variant", "huge", "--perft-depth", "0"], "unknown variant 'huge'"),
    ],
)
def test_cli_errors_exit_2_with_a_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and "Traceback" not in out
    assert err.startswith("plateau: error: ") and fragment in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["playouts", "--games", "-1"], "argument --games: must be at least 1, got -1"),
        (
            ["arena", "--bots", "random,random", "--jobs", "0"],
            "argument --jobs: must be at least 1",
        ),
        (["arena", "--bots", "random,random", "--games", "x"], "'x' is not an integer"),
        (["arena", "--bots", "random,random", "--move-timeout", "0"], "positive number"),
        (["demo", "--seed", "-3"], "argument --seed: must be at least 0"),
    ],
)
def test_cli_refuses_impossible_numbers(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    with pytest.raises(SystemExit) as info:
        plateau.cli.main(argv)
    assert info.value.code == 2
    assert fragment in capsys.readouterr().err


def _refused_arguments(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """What the command line's parser prints refusing ``argv`` (it must exit with status 2)."""
    with pytest.raises(SystemExit) as info:
        plateau.cli.build_parser().parse_args(argv)
    assert info.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(
    ("depth", "fragment"),
    [
        ("64", "argument --perft-depth: must be an int in [0, 64), got 64"),
        ("-1", "argument --perft-depth: must be an int in [0, 64), got -1"),
        ("9" * 30, f"argument --perft-depth: must be an int in [0, 64), got {'9' * 30}"),
        ("9" * 5000, "argument --perft-depth: '99999"),  # (int() refuses it: shown cut)
    ],
)
def test_demo_refuses_a_perft_depth_perft_refuses(
    capsys: pytest.CaptureFixture[str], depth: str, fragment: str
) -> None:
    # (the rule of GameState.perft, refused as the arguments are parsed: the demo counted
    # depths 1, 2, ... up to it, which never ends; parsed alone so the old code cannot hang)
    err = _refused_arguments(capsys, ["demo", "--perft-depth", depth])
    assert fragment in err and len(err) < 1000
    parser = plateau.cli.build_parser()
    assert parser.parse_args(["demo", "--perft-depth", "63"]).perft_depth == 63


@pytest.mark.parametrize("value", ["9" * 5000, "-" + "9" * 4000])
def test_a_count_argument_too_long_to_print_is_shown_cut(
    capsys: pytest.CaptureFixture[str], value: str
) -> None:
    # (int_at_least's error quoted the whole argument)
    err = _refused_arguments(capsys, ["arena", "--jobs", value])
    assert "--jobs" in err and len(err) < 1000


def test_cli_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        plateau.cli.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"plateau {plateau.__version__}"
    # the installed metadata's version is read from the same place
    from importlib.metadata import version

    assert version("plateau") == plateau.__version__
    changelog = (Path(__file__).resolve().parent.parent / "CHANGELOG.md").read_text("utf-8")
    assert f"## {plateau.__version__}" in changelog, "CHANGELOG.md has no entry for this version"


def test_every_cli_option_has_help() -> None:
    import argparse

    parser = plateau.cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = [
        f"{name} {action.dest}"
        for name, p in sub.choices.items()
        for action in p._actions
        if not isinstance(action, argparse._HelpAction) and not action.help
    ]
    assert missing == []


def test_show_into_a_closed_pipe_exits_quietly() -> None:
    # `plateau show | head -1`: the reader leaves early; no BrokenPipeError traceback
    proc = subprocess.run(
        f"{sys.executable} -m plateau show --game plateau-x --variant double | head -1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0
    assert len(proc.stdout.splitlines()) == 1
    assert proc.stderr == ""


def test_cli_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        plateau.cli.main(["frobnicate"])
    assert info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
    # an unknown game is the registry's error: one line
    assert plateau.cli.main(["perft", "--game", "chess", "1"]) == 2
    err = capsys.readouterr().err
    assert (
        err
        == "plateau: error: unknown game 'chess'; known games: " + ", ".join(plateau.games()) + "\n"
    )


def test_python_dash_m_plateau() -> None:
    env = dict(os.environ)
    argv = ["demo", "--quiet", "--variant", "mini", "--perft-depth", "1"]
    proc = subprocess.run(
        [sys.executable, "-m", "plateau", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"depth 1:\s+232\b", proc.stdout)
    assert "final ranking" in proc.stdout


# -- argument checks shared by every game (GameState) ----------------------------------------------


@pytest.mark.parametrize("game", plateau.games())
def test_a_batch_too_big_for_memory_says_so(game: str) -> None:
    with pytest.raises(MemoryError, match=r"no memory for a batch of 1,000,000,000 games"):
        plateau.StateBatch(game, n=10**9)


# -- numpy integers everywhere, equality by position ------------------------------------------


def test_numpy_integers_are_taken_wherever_an_int_is() -> None:
    s = plateau.new_game("plateau-x", first_player=np.int64(2))
    assert s.current_player == 2
    assert s.heuristic(np.int64(1)) == s.heuristic(1)
    assert s.stock(np.int32(1)) == s.stock(1) and s.standing(np.uint8(3)) == s.standing(3)
    assert s.history_strings(viewer=np.int64(1)) == []
    b = plateau.StateBatch("plateau-x", "mini", n=np.int64(4), seed=np.uint64(3))
    assert b.num_envs == 4
    r = plateau.random_playouts("plateau-x", "mini", n=np.int64(3), seed=np.int64(2))
    assert r["games"] == 3
    a = plateau.new_game("albea-plateau", max_plies=np.int64(50))
    assert a.max_plies == 50 and a.perft(np.int8(1)) == 1260
    for bad in (True, 2.0, "1"):
        with pytest.raises(ValueError, match="must be an int"):
            s.heuristic(bad)  # type: ignore[arg-type]


def test_a_transposition_gives_equal_states() -> None:
    a = plateau.new_game("plateau-x", "mini")
    b = a.clone()
    a.apply_all(["S@a1", "S@f6", "S@b1", "S@e6"])
    b.apply_all(["S@b1", "S@e6", "S@a1", "S@f6"])
    assert a == b and a.history != b.history and a.hash == b.hash


def test_from_position_names_a_bad_stack_value() -> None:
    with pytest.raises(ValueError, match=r"the stack on 'b1' must be a string .* got None"):
        plateau.AlbeaPlateauState.from_position({"b1": None}, 0)  # type: ignore[dict-item]


@pytest.mark.parametrize(
    "ranking",
    [
        [[1], [0]],
        ((1,), (0,)),
        [{1}, frozenset({0})],
        np.array([[1], [0]]),
        [np.array([np.int32(1)]), [np.uint8(0)]],
    ],
)
def test_rankings_are_checked_alike_everywhere(ranking: Any) -> None:
    """A ranking is read by one check wherever it is given (``points_for`` and
    ``Tournament.add``): lists, tuples, sets and numpy arrays of integral players."""
    state = plateau.new_game("plateau-x", "mini")
    t = plateau.Tournament("plateau-x", "mini")
    assert state.points_for(ranking) == t.add(ranking) == state.points_for([[1], [0]])
    assert t.rounds == [[[1], [0]]] and t.wins == [0, 1]


@pytest.mark.parametrize(
    "ranking",
    [
        {1: 0, 0: 1},
        iter([[1], [0]]),
        [[1], "0"],
        [[1], {0: 0}],
        [[np.bool_(1)], [0]],
        "10",
        np.array(1),
        [np.array(1), [0]],
    ],
)
def test_rankings_refused_alike_everywhere(ranking: Any) -> None:
    state = plateau.new_game("plateau-x", "mini")
    t = plateau.Tournament("plateau-x", "mini")
    for score in (state.points_for, t.add):
        with pytest.raises(plateau.InvalidArgumentError, match="a ranking must place"):
            score(ranking)
    assert t.rounds == []
