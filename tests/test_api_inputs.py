"""Bad input to the public API's helpers is a typed error that changes nothing (cases a
stranger's audit of the API found, 2026-12-05): every refusal here was a TypeError,
AttributeError, ZeroDivisionError or a silent wrong answer before."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

import plateau
import plateau.record
from plateau import arena, openings, rating, render
from plateau.errors import InvalidArgumentError, InvalidRecordError, PlateauError
from plateau.gymnasium import SingleAgentEnv
from plateau.tournament import Tournament

X, MINI = "plateau-x", "mini"
TWO = ["random", "random"]


def midgame() -> plateau.GameState:
    s = plateau.new_game(X, MINI)
    s.apply_all(["P@c4", "S@f6", "T@b3a4b4"])
    return s


CASES: list[tuple[str, Callable[[], Any], str]] = [
    ("to_json indent huge", lambda: midgame().to_json(indent=10**7), "indent must be an int"),
    ("to_json indent float", lambda: midgame().to_json(indent=2.0), "indent must be an int"),
    ("to_json of no state", lambda: plateau.to_json(5), "to_json takes a game state"),
    ("svg of no state", lambda: render.svg(5), "svg draws a game state"),
    ("frames of no state", lambda: render.frames(5), "frames draws a game state"),
    ("ranking of a str", lambda: Tournament(X, MINI).add("x"), "a ranking must"),
    ("ranking of bools", lambda: midgame().points_for([[True], [False]]), "a ranking is"),
    ("wilson p", lambda: rating.wilson(1.5, 3), "p must be a number in"),
    ("elo of a str", lambda: rating.elo_of_score("x"), "score must be a number"),
    ("square_name size", lambda: plateau.square_name(5, -3), "board_size must be an int"),
    ("square_name size 30", lambda: plateau.square_name(29, 30), "board_size must be an int"),
    ("square_index size", lambda: plateau.square_index("a1", 2.0), "board_size must be an int"),
    ("arena options", lambda: arena.run(X, MINI, TWO, 1, options="x"), "options are a mapping"),
    ("arena bots", lambda: arena.run(X, MINI, None, 1), "bots is a list"),
    ("arena out", lambda: arena.run(X, MINI, TWO, 1, out=5), "out is a path"),
    ("opening plies", lambda: openings.random_opening(X, MINI, -5, 1), "plies must be"),
    ("opening plies nan", lambda: openings.random_opening(X, MINI, math.nan, 1), "plies must be"),
    ("opening seed", lambda: openings.random_opening(X, MINI, 3, None), "seed must be"),
    (
        "opening group",
        lambda: openings.OpeningSource(random_plies=2).book(X, MINI, 0).opening(-1),
        "group must be",
    ),
    (
        "book seed",
        lambda: openings.OpeningSource(random_plies=2).book(X, MINI, "2"),
        "seed must be",
    ),
    ("opening path", lambda: openings.OpeningSource(path=-1), "path is a path"),
    ("max_eval", lambda: openings.make_openings(X, MINI, 2, 2, max_eval="x"), "max_eval must be"),
    ("spread", lambda: openings.evaluation_spread(5), "evaluation_spread takes"),
    (
        "reward -inf",
        lambda: SingleAgentEnv(X, MINI, illegal_reward=-math.inf),
        "illegal_reward must be a finite",
    ),
]


@pytest.mark.parametrize(("case", "call", "words"), CASES, ids=[c[0] for c in CASES])
def test_a_bad_argument_is_a_typed_error_saying_so(
    case: str, call: Callable[[], Any], words: str
) -> None:
    with pytest.raises(PlateauError, match=words):
        call()


def test_what_the_checks_still_take() -> None:
    assert json.loads(midgame().to_json(indent=16))["actions"] == ["P@c4", "S@f6", "T@b3a4b4"]
    assert plateau.square_name(np.int64(3)) == "d1"  # any integer type, as elsewhere
    assert plateau.square_name(675, 26) == "z26" and plateau.square_index("z26", 26) == 675
    t = Tournament(X, MINI)
    assert t.add([[np.int64(0)], [np.int64(1)]]) == [1.0, 0.0]
    assert rating.wilson(0.5, 0) == (0.0, 1.0)  # no game: no information
    assert rating.elo_interval(0.5, 0)[1:] == (-math.inf, math.inf)
    assert rating.wilson(np.float64(0.5), np.int64(4)) == rating.wilson(0.5, 4)
    assert len(openings.random_opening(X, MINI, 0, 5)["actions"]) == 0
    assert SingleAgentEnv(X, MINI, illegal_reward=-1e9).illegal_reward == -1e9


def test_a_failing_iterable_of_actions_leaves_the_state_as_it_was() -> None:
    s = plateau.new_game(X, MINI)
    legal = [int(a) for a in s.legal_actions()]

    def actions() -> Any:
        yield legal[0]
        raise KeyboardInterrupt  # (Ctrl-C between two actions, or the iterator's own error)

    with pytest.raises(KeyboardInterrupt):
        s.apply_all(actions())
    assert s.ply == 0 and s.history == []


def test_write_openings_writes_only_what_read_openings_reads(tmp_path: Path) -> None:
    path = tmp_path / "o.jsonl"
    good = plateau.record.to_record(midgame())
    over = plateau.new_game(X, MINI)
    while not over.is_terminal():
        over.apply(int(over.legal_actions()[0]))
    for records, words in (
        ([good, None, 5], "record 1: not a game record"),
        ([good, plateau.record.to_record(over)], "record 1: the game is over"),
        ("2", "records is a list"),
        ([], "no openings to write"),
    ):
        with pytest.raises(InvalidRecordError, match=words):
            openings.write_openings(path, records)
        assert not path.exists()
    assert openings.write_openings(path, [good, good]) == 2
    assert openings.read_openings(path, X, MINI) == [good, good]


def test_an_invalid_argument_changes_no_tournament() -> None:
    t = Tournament(X, MINI)
    t.add([[0], [1]])
    before = (list(t.points), list(t.wins), list(t.rounds))
    with pytest.raises(InvalidArgumentError):
        t.add([[0.0], [1]])
    assert (t.points, t.wins, t.rounds) == before
