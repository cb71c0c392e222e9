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
from plateau import arena, openings, rating, render, sprt
from plateau.adjudication import Adjudication
from plateau.bots import make_bot
from plateau.bots.ismcts import ISMCTSBot
from plateau.bots.mcts import MCTSBot
from plateau.clock import TimeControl
from plateau.errors import InvalidArgumentError, InvalidRecordError, PlateauError
from plateau.solver import Solver
from plateau.sprt import SPRT
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
    ("ranking of bools", lambda: midgame().points_for([[True], [False]]), "a ranking must"),
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
]


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


def test_the_gymnasium_environments_take_finite_rewards_and_bool_flags() -> None:
    gym = pytest.importorskip("plateau.gymnasium")  # (the gymnasium extra)
    with pytest.raises(InvalidArgumentError, match="illegal_reward must be a finite"):
        gym.SingleAgentEnv(X, MINI, illegal_reward=-math.inf)
    assert gym.SingleAgentEnv(X, MINI, illegal_reward=-1e9).illegal_reward == -1e9
    for make in (
        lambda: gym.SingleAgentEnv(X, MINI, reuse_masks="no"),
        lambda: gym.BatchEnv(X, MINI, num_envs=2, reuse_masks="no"),
    ):
        with pytest.raises(InvalidArgumentError, match="reuse_masks must be True or False"):
            make()


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


PARSED: list[tuple[str, Callable[[], Any], str]] = [
    ("bot spec twice", lambda: make_bot("mcts:iters=5,iters=6"), "'iters' given twice"),
    ("sprt twice", lambda: SPRT.parse("elo0=1 elo0=2"), "elo0 given twice"),
    ("sprt of None", lambda: SPRT.parse(None), "SPRT settings are text"),
    ("resign twice", lambda: Adjudication.parse(resign="score=3 score=4"), "score given twice"),
    ("resign of an int", lambda: Adjudication.parse(resign=5), "settings are text"),
    ("tc 1++1", lambda: TimeControl.parse("1++1"), "is not BASE\\+INC"),
    ("tc +1+1", lambda: TimeControl.parse("+1+1"), "is not BASE\\+INC"),
    ("tc huge int", lambda: TimeControl(2**2000), "at most 1,000,000"),
    ("solver nodes", lambda: Adjudication(solver_nodes=2**63), "solver_nodes must be an int"),
    ("resign moves", lambda: Adjudication(resign_score=5, resign_moves=2**70), "resign_moves"),
    ("resign score", lambda: Adjudication(resign_score=2**2000), "resign_score must be"),
    ("Solver nodes", lambda: Solver(nodes=2**62), "nodes must be an int"),
    ("llr counts", lambda: SPRT().llr([1e300] * 5), "cannot be negative or above"),
    ("llr of None", lambda: SPRT().llr(None), "counts are 3"),
    ("llr of strs", lambda: SPRT().llr(["a"] * 5), "counts are 3"),
    ("llr elo", lambda: sprt.llr([1, 1, 1], 2**70, 10), "at most 2000"),
    ("decision of a str", lambda: SPRT().decision("x"), "an LLR is a number"),
    ("expected score", lambda: sprt.expected_score("x"), "elo must be"),
]


@pytest.mark.parametrize(
    ("case", "call", "words"), CASES + PARSED, ids=[c[0] for c in CASES + PARSED]
)
def test_a_bad_argument_is_a_typed_error_saying_so(
    case: str, call: Callable[[], Any], words: str
) -> None:
    # (PARSED: the last of two equal keys won silently; bounds were found only at first use)
    with pytest.raises(PlateauError, match=words):
        call()


def test_what_the_parsers_and_bounds_still_take() -> None:
    assert TimeControl.parse("1e3+0.5") == TimeControl(1000.0, 0.5)
    assert sprt.expected_score(-(2**70)) == pytest.approx(0.0)
    assert sprt.expected_score(2**70) == 1.0
    assert sprt.expected_score(-2500) == pytest.approx(1 / (1 + 10**6.25))
    a = Adjudication(resign_score=5, resign_moves=np.int64(4), solver_nodes=np.int64(100))
    assert json.loads(json.dumps(a.to_dict()))["resign_moves"] == 4  # (a numpy int was kept)
    assert Solver(nodes=2**62 - 1).max_nodes == 2**62 - 1
    assert make_bot("mcts:iters=5").params["iters"] == 5


def test_a_flag_is_a_bool_not_any_value_with_a_truth() -> None:
    # ("no" and [0] are true: sensible_end="no" played the sensible end)
    s = midgame()
    for bad in ("no", [0], 1, None):
        with pytest.raises(PlateauError, match="bulk must be True or False"):
            s.perft(2, bulk=bad)
        with pytest.raises(PlateauError, match="sensible_end must be True or False"):
            s.random_playout(1, 40, sensible_end=bad)
    assert s.perft(2, bulk=np.bool_(False)) == s.perft(2, bulk=True)
    assert s.random_playout(1, 40, sensible_end=np.bool_(True)) == s.random_playout(1, 40, True)
    batch = plateau.StateBatch(X, MINI, n=4, seed=1)
    with pytest.raises(PlateauError, match="update must be True or False"):
        batch.legal_masks(update="no")
    with pytest.raises(PlateauError, match="resume must be True or False"):
        arena.run(X, MINI, TWO, 1, resume="no")
    with pytest.raises(PlateauError, match="progress must be True or False"):
        arena.run(X, MINI, TWO, 1, progress="2")
    pz = pytest.importorskip("plateau.pettingzoo")
    with pytest.raises(PlateauError, match="reuse_masks must be True or False"):
        pz.env(game=X, variant=MINI, reuse_masks="yes")


def test_a_cross_table_and_its_fit_take_only_what_they_can_read() -> None:
    # (an IndexError, a KeyError and numpy's LinAlgError before)
    for games in (
        [([0, 5], [[0], [1]])],
        [([0, 1], [[0]])],
        [([True, 0], [[0], [1]])],
        [([0, 1], [[0, 1], [1]])],  # a seat twice (it counted once)
        [([0, 1], [[True], [0]])],  # a bool seat (it was seat 1)
        [([0, 1], [[0], [], [1]])],  # an empty place
    ):
        with pytest.raises(InvalidArgumentError, match=r"game 0: a game is \(players, ranking\)"):
            rating.CrossTable.of(2, games)
    table = rating.CrossTable.of(2, [([0, 1], [[0], [1]]), ([1, 0], [[1], [0]])])
    assert table.points[0][1] == 2.0 and table.games[0][1] == 2
    with pytest.raises(InvalidArgumentError, match="virtual_draws must be a finite number"):
        rating.bradley_terry(table, virtual_draws=math.nan)
    assert [r.bot for r in rating.bradley_terry(table)] == [0, 1]


def test_what_a_review_of_these_checks_found() -> None:
    # the same fix where it also applies: flags, huge ints, games that are no pairs
    s = midgame()
    from plateau.render import svg

    for make in (
        lambda: svg(s, last="no"),
        lambda: Solver(core="no"),
    ):
        with pytest.raises(InvalidArgumentError, match="must be True or False"):
            make()
    assert Solver(core=np.bool_(False)).core is False
    assert svg(s, last=np.bool_(True)) == svg(s)
    for call in (lambda: rating.wilson(10**400, 3), lambda: rating.elo_of_score(10**400)):
        with pytest.raises(InvalidArgumentError, match="must be a number in"):
            call()
    with pytest.raises(InvalidArgumentError, match="an LLR is a number"):
        SPRT().decision(float("nan"))
    assert SPRT().decision(10**400) == "H1"
    for game in ((["1", 0], [[0], [1]]), (None, [[0], [1]]), ([0, 1],), ([0, 1], [[[0]], [1]])):
        with pytest.raises(InvalidArgumentError, match="game 0: a game is"):
            rating.CrossTable.of(2, [game])
    t = rating.CrossTable.of(2, [([np.int64(0), np.int64(1)], [[0], [1]])])
    assert t.points[0][1] == 1.0
    with pytest.raises(InvalidArgumentError, match="move_timeout must be"):
        arena.play_game(X, MINI, TWO, 0, move_timeout="2")
    with pytest.raises(InvalidArgumentError, match="ply_cap must be"):
        arena.play_game(X, MINI, TWO, 0, ply_cap="9")
    assert arena.play_game(X, MINI, TWO, 0, ply_cap=4).ply_cap == 4


def test_an_option_given_as_json_with_a_key_twice_is_refused_not_taken_for_a_name() -> None:
    from plateau.cli.common import parse_option

    assert parse_option("board=ep24") == ("board", "ep24")
    assert parse_option('x={"a": 1}') == ("x", {"a": 1})
    with pytest.raises(InvalidArgumentError, match="--option board: key 'a' given twice"):
        parse_option('board={"a": 1, "a": 2}')


def test_the_pairings_take_game_indexes_and_seat_counts_only() -> None:
    from plateau.pairings import Schedule, seat_order

    with pytest.raises(InvalidArgumentError, match="num_bots must be an int"):
        seat_order(0, 2**31)  # (a list of two billion seats: a MemoryError)
    with pytest.raises(InvalidArgumentError, match="index must be an int >= 0"):
        Schedule.make("seats", 2, 2).players(2.5)
    with pytest.raises(InvalidArgumentError, match="index must be an int >= 0"):
        Schedule.make("seats", 2, 2).round_of(-1)
    assert seat_order(np.int64(4), 3) == seat_order(4, 3) == [2, 0, 1]
    with pytest.raises(InvalidArgumentError, match=r"^elo must be a finite number, got nan$"):
        sprt.expected_score(math.nan)


def test_the_command_lines_adjudication_settings_are_bounded_by_their_own_names() -> None:
    for kw, words in (
        ({"resign": "movecount=99999999999 score=3"}, "--resign: movecount must be at most 2,147"),
        ({"solver": "nodes=9999999999999999999999"}, "--adjudicate-solver: nodes must be at most"),
        ({"draw": "score=1e20"}, "--draw: score must be at most 1e\\+15"),
    ):
        with pytest.raises(InvalidArgumentError, match=words):
            Adjudication.parse(**kw)
    assert Adjudication.parse(resign="movecount=3 score=600").resign_moves == 3


def test_a_choice_given_as_a_numpy_string_array_is_refused() -> None:
    """A choice among names is a str: a one-string numpy array compared equal element-wise and
    passed (an SPRT whose model was an array played games, then failed to write its results
    file with a raw TypeError; a bot's spec kept the array and could not be rebuilt)."""
    refusals: list[tuple[Callable[[], Any], str]] = [
        (lambda: SPRT(model=np.array(["trinomial"])), "SPRT model"),
        (lambda: MCTSBot(eval=np.array(["playout"])), "eval must be"),
        (lambda: ISMCTSBot(eval=np.array(["playout"])), "eval must be"),
        (
            lambda: arena.run(
                "plateau-x", "mini", ["random"] * 2, 2, backend=np.array(["process"])
            ),
            "backend",
        ),
        (
            lambda: arena.run("plateau-x", "mini", ["random"] * 2, 2, format=np.array(["seats"])),
            "tournament format",
        ),
    ]
    for call, message in refusals:
        with pytest.raises(InvalidArgumentError, match=message):
            call()


def test_an_arena_seat_that_makes_no_bot_from_a_seed_is_refused() -> None:
    """A callable seat is a Bot class or factory taking ``seed=``: ``int`` or ``print`` raised
    a raw TypeError from inside the arena; now a typed error naming the seat."""
    for seat in (int, print, len):
        with pytest.raises(InvalidArgumentError, match="does not make a bot from seed="):
            arena.run("plateau-x", "mini", ["random", seat], 2)  # type: ignore[list-item]

    def buggy(seed: int = 0) -> Any:  # (a factory whose own code raises a TypeError)
        return len(seed)  # type: ignore[arg-type]

    with pytest.raises(TypeError, match="has no len") as caught:  # (its bug, shown as it is)
        arena.run("plateau-x", "mini", ["random", buggy], 2)  # type: ignore[list-item]
    assert not isinstance(caught.value, InvalidArgumentError)


@pytest.mark.parametrize("spec", ["mcts", "alphabeta", "ismcts", "maxn"])
def test_a_bots_seconds_are_bounded_like_every_time_setting(spec: str) -> None:
    """``seconds`` is at most plateau.clock.MAX_SECONDS, as the clocks' and the arena's times
    are (``mcts:seconds=1e300`` was taken; ``inf`` was not)."""
    from plateau.clock import MAX_SECONDS

    assert make_bot(f"{spec}:seconds={MAX_SECONDS:.0f}").params["seconds"] == MAX_SECONDS
    for bad in ("1e300", "1000001", "inf", "-1"):
        with pytest.raises(InvalidArgumentError, match="seconds"):
            make_bot(f"{spec}:seconds={bad}")
