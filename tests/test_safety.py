"""Regression tests for the memory- and input-safety defects of issue 9 that a single thread can
show (the threaded ones live in ``test_threads.py``). Each test failed before its fix."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import plateau
from plateau import AlbeaPlateauState, InvalidActionError, InvalidRecordError

GAMES = [(g, v) for g in plateau.games() for v in plateau.variants(g)]


def _random_state(game: str, variant: str, plies: int, seed: int = 0) -> plateau.GameState:
    rng = np.random.default_rng(seed)
    s = plateau.new_game(game, variant)
    while not s.is_terminal() and s.ply < plies:
        legal = s.legal_actions()
        s.apply(int(legal[rng.integers(len(legal))]))
    return s


# -- 1. StateBatch.step applies exactly what it checked -------------------------------------------


@pytest.mark.parametrize("game", plateau.games())
def test_step_with_done_overlapping_the_actions_applies_the_checked_actions(game: str) -> None:
    b = plateau.StateBatch(game, n=8, seed=0, ply_cap=3)
    twin = plateau.StateBatch(game, n=8, seed=0, ply_cap=3)
    for _ in range(5):
        acts = b.sample_random()
        twin_acts = twin.sample_random()
        assert acts.tolist() == twin_acts.tolist()
        # done's bytes are the last action's: each game's done flag overwrites them mid-step
        d1, r1 = b.step(acts, done=acts.view(np.uint8)[56:].copy())
        d2, r2 = twin.step(twin_acts.copy())
        assert d1.tolist() == d2.tolist() and r1.tolist() == r2.tolist()
    assert b.hashes().tolist() == twin.hashes().tolist()
    assert b.plies().tolist() == twin.plies().tolist()


@pytest.mark.parametrize("game", plateau.games())
def test_step_core_copies_the_actions_before_checking(game: str) -> None:
    # straight to the compiled core (no Python wrapper in between): done aliases the actions
    b = plateau.StateBatch(game, n=8, seed=0, ply_cap=1)
    twin = plateau.StateBatch(game, n=8, seed=0, ply_cap=1)
    acts = b.sample_random()
    expected = twin.sample_random()
    returns = np.zeros((8, b.num_players), dtype=np.float32)
    finished = b._core.step(acts, acts.view(np.uint8)[56:], returns)
    assert finished == twin._core.step(expected, np.zeros(8, np.uint8), returns.copy()) == 8
    assert b.plies().tolist() == [0] * 8  # all truncated at ply_cap=1 and reset


@pytest.mark.parametrize("game", plateau.games())
def test_refused_step_applies_nothing(game: str) -> None:
    b = plateau.StateBatch(game, n=4, seed=3)
    before = (b.hashes().tolist(), b.plies().tolist())
    acts = b.sample_random()
    acts[2] = -100000
    with pytest.raises(InvalidActionError, match="game 2 of the batch: action -100000 is out"):
        b.step(acts)
    assert (b.hashes().tolist(), b.plies().tolist()) == before


# -- 3. perft depth is capped ---------------------------------------------------------------------


@pytest.mark.parametrize(("game", "variant"), GAMES)
def test_perft_beyond_the_depth_cap_is_refused(game: str, variant: str) -> None:
    s = plateau.new_game(game, variant)
    for depth in (64, 1500, 2000, 10**6, 2**64):
        with pytest.raises(ValueError, match="perft depth"):
            s.perft(depth)
    assert s.perft(np.int64(1)) == s.num_legal_actions()


@pytest.mark.parametrize(("game", "variant"), GAMES)
def test_deep_perft_of_a_finished_game_runs_in_little_stack(game: str, variant: str) -> None:
    # depth 63 is accepted; a finished game has no leaves below it, at any depth
    s = _random_state(game, variant, 10_000, seed=1)
    assert s.is_terminal()
    assert s.perft(63) == 0
    assert s.perft(0) == 1


def test_perft_in_a_thread_with_a_small_stack() -> None:
    # the per-ply scratch space of perft lives on the heap: 256 KiB of C stack is plenty
    code = (
        "import threading, plateau\n"
        "threading.stack_size(256 * 1024)\n"
        "out = []\n"
        "def run():\n"
        "    out.append(plateau.new_game('albea-plateau').perft(2))\n"
        "    out.append(plateau.new_game('plateau-x', 'mini').perft(3))\n"
        "t = threading.Thread(target=run); t.start(); t.join()\n"
        "print(out)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[1455300, 8244664]"


# -- 4. a set-up where the player to act has no legal action is refused ---------------------------


def test_opening_setup_with_an_empty_reserve_is_refused() -> None:
    data = plateau.new_game("albea-plateau").position_dict()
    data["reserve"] = [{}, data["reserve"][1]]
    with pytest.raises(ValueError, match="no legal action"):
        AlbeaPlateauState.from_position_dict(data)
    record = {
        "format": "plateau-game-record",
        "version": 1,
        "game": "albea-plateau",
        "variant": "standard",
        "options": {"max_plies": 0},
        "setup": data,
        "actions": [],
    }
    with pytest.raises(InvalidRecordError, match="no legal action"):
        plateau.from_json(json.dumps(record))


def test_opening_setup_with_no_empty_perimeter_square_is_refused() -> None:
    s = plateau.new_game("albea-plateau")
    data = s.position_dict()
    data["phase"] = "opening"
    data["to_move"] = 1
    board = [[] for _ in range(16)]
    # Black's twelve pieces, one on each of the twelve perimeter squares
    perimeter = [sq for sq in range(16) if sq % 4 in (0, 3) or sq // 4 in (0, 3)]
    kinds = [kind for kind, n in data["reserve"][0].items() for _ in range(n)]
    assert len(kinds) == len(perimeter) == 12
    for sq, kind in zip(perimeter, kinds):
        board[sq] = [{"owner": 0, "type": kind, "up": 0, "shown": [True, False]}]
    data["board"] = board
    data["reserve"] = [{}, data["reserve"][1]]
    with pytest.raises(ValueError, match="no legal action"):
        AlbeaPlateauState.from_position_dict(data)


# -- 6, 7. numpy ids and why_illegal --------------------------------------------------------------


@pytest.mark.parametrize(("game", "variant"), GAMES)
def test_is_legal_accepts_numpy_integers_like_apply(game: str, variant: str) -> None:
    s = _random_state(game, variant, 6)
    for a in s.legal_actions()[:20]:
        small = np.uint16 if a < 2**16 else np.uint32  # (Empire Plateau's ids pass 65,535)
        assert s.is_legal(a) and s.is_legal(np.int32(a)) and s.is_legal(small(a))
    assert not s.is_legal(True) and not s.is_legal(1.0) and not s.is_legal("0")


@pytest.mark.parametrize(("game", "variant"), GAMES)
def test_why_illegal_of_a_legal_action_is_none(game: str, variant: str) -> None:
    s = _random_state(game, variant, 5)
    for a in s.legal_actions()[:50].tolist():
        assert s.why_illegal(a) is None
        assert s.why_illegal(s.action_to_string(a)) is None
    illegal = next(a for a in range(s.num_distinct_actions) if not s.is_legal(a))
    reason = s.why_illegal(illegal)
    assert isinstance(reason, str) and reason
    with pytest.raises(InvalidActionError, match="out of range"):
        s.why_illegal(s.num_distinct_actions)


@pytest.mark.parametrize(("game", "variant"), GAMES)
def test_why_illegal_after_the_end_says_the_game_is_over(game: str, variant: str) -> None:
    s = _random_state(game, variant, 10_000, seed=2)
    assert s.is_terminal()
    for a in (0, s.num_distinct_actions - 1):
        assert s.why_illegal(a) == "the game is over"


# -- 8. internal errors became clear ValueErrors --------------------------------------------------


@pytest.mark.parametrize("game", plateau.games())
def test_legal_lists_with_a_list_for_ids_is_a_value_error(game: str) -> None:
    b = plateau.StateBatch(game, n=2)
    with pytest.raises(ValueError, match=r"id array must be a numpy\.ndarray"):
        b.legal_lists(8, ids=[[0] * 8, [0] * 8])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("data", "match"),
    [
        (None, "a position is a dict"),
        ([1, 2], "a position is a dict"),
        ({"options": 5}, "options must be a dict"),
        ({"options": {"max_plies": {}}}, "max_plies must be an int"),
        ({"options": {"max_plies": 2**30}}, "max_plies must be an int in"),
    ],
)
def test_bad_position_data_is_a_value_error(data: object, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        AlbeaPlateauState.from_position_dict(data)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", plateau.games())
def test_to_json_takes_a_numpy_viewer(game: str) -> None:
    s = _random_state(game, plateau.variants(game)[0], 4)
    assert s.to_json(viewer=np.int64(1)) == s.to_json(viewer=1)
    for bad in (True, 1.0, "1", -1, s.num_players):
        with pytest.raises(ValueError, match=r"viewer|player"):
            s.to_json(viewer=bad)  # type: ignore[arg-type]


def test_from_json_with_a_huge_integer_is_an_invalid_record() -> None:
    text = (
        plateau.new_game("plateau-x").to_json().replace('"version": 1', '"version": ' + "9" * 4301)
    )
    with pytest.raises(InvalidRecordError):
        plateau.from_json(text)


# -- 9. counters that cannot overflow -------------------------------------------------------------


@pytest.mark.parametrize("ply", [2**31 - 1, 2**30])
def test_setup_ply_beyond_the_counter_is_refused(ply: int) -> None:
    data = dict(_random_state("albea-plateau", "standard", 12).position_dict(), ply=ply)
    with pytest.raises(ValueError, match="ply must be an int in"):
        AlbeaPlateauState.from_position_dict(data)


def test_setup_at_the_largest_ply_still_counts_and_draws() -> None:
    s = _random_state("albea-plateau", "standard", 12)
    data = dict(s.position_dict(), ply=2**30 - 1)
    data["options"] = {"max_plies": 2**30 - 1}
    # a position already at the draw ply is a game that should have ended: its first action ends
    t = AlbeaPlateauState.from_position_dict(data)
    t.apply(int(t.legal_actions()[0]))
    assert t.ply == 2**30
    assert t.is_terminal() and t.result == "draw"


@pytest.mark.parametrize("max_plies", [2**30, 2**31 - 1])
def test_max_plies_option_beyond_the_counter_is_refused(max_plies: int) -> None:
    with pytest.raises(ValueError, match="max_plies"):
        plateau.new_game("albea-plateau", max_plies=max_plies)


# -- 10. notation without leading zeros -----------------------------------------------------------


@pytest.mark.parametrize("text", ["xx@a3/00", "rr@a1/01", "rb@b2/007", "a1:01-a2", "a1:2-b1:01-c1"])
def test_plateau_notation_refuses_leading_zeros(text: str) -> None:
    s = plateau.new_game("albea-plateau")
    with pytest.raises(InvalidActionError):
        s.parse_action(text)


def test_plateau_with_no_legal_action_lists_an_empty_array() -> None:
    # a finished game: the cached legal list is empty (no copy from an empty buffer)
    s = _random_state("albea-plateau", "standard", 10_000, seed=4)
    assert s.is_terminal()
    assert s.legal_actions().tolist() == [] and s.num_legal_actions() == 0
    assert not s.legal_actions_mask().any()


def test_respond_setup_with_an_empty_tender_is_refused() -> None:
    # found by the set-up fuzzer: accepted, yet its own position_dict was refused on reload
    s = AlbeaPlateauState.from_position(
        {"a1": "Wxx Wbx", "d4": "Bxx Brr"}, to_move=1, prisoners=(["rr", "bb", "xx"], ["bx"])
    )
    s.apply("offer:bx")
    data = s.position_dict()
    assert AlbeaPlateauState.from_position_dict(data) == s
    data["tender"] = {"bx": 0}
    with pytest.raises(ValueError, match="non-empty tender"):
        AlbeaPlateauState.from_position_dict(data)


@pytest.mark.parametrize("white_reserve", [{}, {"xx": 1}])
def test_opening_setup_where_white_could_not_open_next_is_refused(white_reserve: dict) -> None:
    # found by the set-up fuzzer: Black could open, then White had no legal action
    data = plateau.new_game("albea-plateau").position_dict()
    data["reserve"] = [data["reserve"][0], white_reserve]
    with pytest.raises(ValueError, match="White opens right after Black"):
        AlbeaPlateauState.from_position_dict(data)


# -- issue 21 (round two): a GIL-free kernel outlives the tables its copy points to ------------

_REINIT_UNDER_KERNEL = """
import sys, threading, time
import plateau
from plateau.games.empire import EmpirePlateauState
from plateau.games.empire.board import board_from_json, board_to_json, polar_board

kind = sys.argv[1]
big = board_to_json(polar_board("big", 64, 16))  # 1,024 dots: tables of megabytes
others = [board_from_json(board_to_json(polar_board(f"o{i}", 16, 7))) for i in range(20)]
for k in range(4):
    s = EmpirePlateauState("two", board=big)
    t = threading.Thread(
        target=(lambda: s.perft(4)) if kind == "perft" else (lambda: s.random_playout(k, None))
    )
    t.start()
    time.sleep(0.005)
    s.__init__("two", board="ep16")  # the state lets go of the big board's tables...
    for b in others:  # ...and the cache of user boards drops them: only the kernel has them
        plateau.new_game("empire-plateau", "two", board=b)
    t.join()
print("OK")
"""


@pytest.mark.parametrize("kind", ["perft", "random_playout"])
def test_kernel_holds_the_board_tables_while_it_runs(kind: str) -> None:
    # Empire perft and random_playout count and play on a private copy that points at the
    # board's tables: re-initialising the state from another thread, once the cache of user
    # boards has dropped them, freed them under the kernel (a segfault; heap-use-after-free
    # under ASan). GameCore now holds the state's _pins() while any kernel runs.
    proc = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", _REINIT_UNDER_KERNEL, kind],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "OK", proc.stderr[-3000:]


# -- hostile values in error messages (a stranger's test, 2026-12-04) ----------------------------

HUGE = 10**5000  # Python refuses to print an int of over 4,300 digits


@pytest.mark.parametrize("game", plateau.games())
def test_an_integer_too_long_to_print_is_a_typed_error(game: str) -> None:
    s = plateau.new_game(game)
    before = s.to_json()
    calls = [
        lambda: s.apply(HUGE),
        lambda: s.apply_index(HUGE),
        lambda: s.apply_all([HUGE]),
        lambda: s.action_to_string(HUGE),
        lambda: s.action_id(HUGE),
        lambda: s.why_illegal(HUGE),
        lambda: s.perft(HUGE),
        lambda: s.random_playout(HUGE),
        lambda: s.random_playout(1, HUGE),
        lambda: s.observation_tensor(HUGE),
        lambda: s.view_for(HUGE),
        lambda: s.resample_hidden(HUGE),
        lambda: plateau.random_playouts(game, None, HUGE),
        lambda: plateau.StateBatch(game, n=HUGE),
    ]
    for call in calls:
        with pytest.raises(plateau.PlateauError, match="an integer of 16,610 bits"):
            call()
    assert s.to_json() == before


@pytest.mark.parametrize("game", plateau.games())
def test_a_long_input_is_cut_in_the_message(game: str) -> None:
    s = plateau.new_game(game)
    for bad in ("z" * 1_000_000, ["z"] * 200_000):
        with pytest.raises(plateau.PlateauError) as e:
            s.apply(bad)
        assert 100 < len(str(e.value)) <= plateau.errors.MAX_MESSAGE + 100, len(str(e.value))
    # any library error: the base class cuts what a message quotes whole
    long = plateau.errors.InvalidRecordError("x" * 10**6)
    assert len(str(long)) < plateau.errors.MAX_MESSAGE + 100 and "characters" in str(long)


@pytest.mark.parametrize("game", plateau.games())
def test_apply_all_refuses_every_bytes_like_value_alike(game: str) -> None:
    # bytearray(b"x") played action 120 while b"x" was refused as a string
    s = plateau.new_game(game)
    for value in (b"x", bytearray(b"x"), memoryview(b"x")):
        with pytest.raises(InvalidActionError, match="got the string"):
            s.apply_all(value)  # type: ignore[arg-type]
    assert s.ply == 0
