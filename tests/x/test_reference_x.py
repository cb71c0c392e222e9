"""Tests of the pure-Python Plateau X reference (tests/x/reference.py) itself."""

from __future__ import annotations

import random

import pytest

import x.reference as ref

PERFT = {
    "standard": (326, 98_308),
    "triple": (326, 98_308),
    "mini": (232, 48_408),
    "double": (326, 98_308),
}


def play_all(state: ref.RefState, actions: list[str]) -> None:
    for action in actions:
        state.play(action)


@pytest.mark.parametrize("variant", sorted(PERFT))
def test_perft_start_position(variant: str) -> None:
    state = ref.RefState(variant)
    assert ref.perft(state, 0) == 1
    assert ref.perft(state, 1) == PERFT[variant][0]
    assert ref.perft(state, 2) == PERFT[variant][1]


def test_variant_table() -> None:
    assert set(ref.VARIANTS) == {"standard", "triple", "mini", "double"}
    std = ref.VARIANTS["standard"]
    assert (std.players, std.board_size, std.pieces_each) == (4, 7, 1)
    assert (std.singles, std.doubles, std.triples, std.points) == (2, 1, 37, (4, 2, 1, 0))
    dbl = ref.VARIANTS["double"]
    assert (dbl.players, dbl.board_size, dbl.pieces_each, dbl.singles) == (2, 7, 2, 3)
    assert ref.VARIANTS["mini"].board_size == 6


def test_square_names() -> None:
    assert ref.square_name(0, 7) == "a1"
    assert ref.square_name(1, 7) == "b1"
    assert ref.square_name(7, 7) == "a2"
    assert ref.square_name(48, 7) == "g7"
    assert ref.square_index("c3", 7) == 16
    assert ref.square_index("C3", 6) == 14
    for n in (6, 7):
        for i in range(n * n):
            assert ref.square_index(ref.square_name(i, n), n) == i
    with pytest.raises(ValueError):
        ref.square_index("g1", 6)


def test_start_state() -> None:
    state = ref.RefState("triple", first_player=2)
    assert (state.variant, state.num_players, state.board_size) == ("triple", 3, 7)
    assert state.current_player == 2 and state.ply == 0 and not state.is_over()
    legal = state.legal()
    assert legal == sorted(legal)
    assert "end" not in legal
    assert {"S@a1", "D@a1b1", "D@a1a2", "T@a1b1a2", "T@b1a2b2", "P@g7"} <= set(legal)
    assert "T@a1b1c1" not in legal  # no straight triples
    state.play("P@d4")
    assert state.current_player == 0 and state.ply == 1


def test_single_on_single_illegal() -> None:
    state = ref.RefState("standard")
    state.play("S@c3")
    assert "S@c3" not in state.legal()
    with pytest.raises(ValueError):
        state.play("S@c3")
    assert "D@c3d3" not in state.legal()  # covered spaces at different levels
    state.play("D@d4e4")
    state.play("S@d4")  # a single on a double is fine


def test_double_across_two_doubles_legal_flush_double_illegal() -> None:
    state = ref.RefState("standard")
    play_all(state, ["D@c3d3", "D@c4d4"])
    legal = state.legal()
    assert "D@c3c4" in legal and "D@d3d4" in legal
    assert "D@c3d3" not in legal and "D@c4d4" not in legal  # flush on a double
    assert "T@c3d3c4" in legal  # a triple on two doubles


def test_triple_on_double_plus_single_legal_flush_triple_illegal() -> None:
    state = ref.RefState("standard")
    play_all(state, ["D@c3d3", "S@c4"])
    assert "T@c3d3c4" in state.legal()
    play_all(state, ["T@c3d3c4"])
    legal = state.legal()
    assert "T@c3d3c4" not in legal  # flush on a triple
    assert "D@c3d3" in legal  # a double on part of a triple
    assert "S@c4" in legal


def test_no_building_under_a_piece() -> None:
    state = ref.RefState("mini")
    state.play("P@c3")
    legal = state.legal()
    assert not any("c3" in a for a in legal if a[0] in "SDT")
    assert "P@c3" not in legal


def test_steps_need_a_level_difference_of_one() -> None:
    state = ref.RefState("mini")
    play_all(state, ["P@a1", "S@f6"])
    assert not any(a.startswith("a1-") for a in state.legal())  # all neighbours level 0
    play_all(state, ["S@b1", "S@b2"])
    # a1 (0) -> b1 (1) -> c1 (0); b1 -> b2 is flat and a1 -> b2 is diagonal
    assert sorted(a for a in state.legal() if a.startswith("a1-")) == ["a1-b1", "a1-c1"]
    play_all(state, ["a1-b1", "D@c1c2"])
    # from b1 (1): c1 (1) and b2 (1) are flat; a1 (0) is fine, and a2 (0) is flat from a1
    assert sorted(a for a in state.legal() if a.startswith("b1-")) == ["b1-a1"]


def test_blocking_by_opponent_plateau() -> None:
    state = ref.RefState("mini")
    play_all(state, ["D@c3d3", "P@b3", "P@e3", "b3-c3"])
    # player 0 at e3 (level 0); the plateau c3+d3 holds player 1's piece
    assert state.current_player == 0
    legal = state.legal()
    assert "e3-d3" not in legal
    # the plateau is free for the player standing on it
    state.play("S@f6")
    assert "c3-d3" not in state.legal()  # same level
    assert "c3-b3" in state.legal()


def test_blocking_also_for_pass_through() -> None:
    state = ref.RefState("mini")
    play_all(state, ["D@b1b2", "P@b3", "P@a1", "S@f6"])
    # c1 can only be reached through b1 (plateau b1+b2), which is still free
    assert sorted(a for a in state.legal() if a.startswith("a1-")) == ["a1-b1", "a1-c1"]
    play_all(state, ["S@f5", "b3-b2"])
    # player 1 now stands on b2: b1 may not be entered, not even in passing
    assert state.current_player == 0
    assert [a for a in state.legal() if a.startswith("a1-")] == []


def test_crossing_the_board_in_one_move() -> None:
    state = ref.RefState("mini")
    play_all(state, ["P@a1", "S@b1", "S@c2", "S@d1", "D@e1f1", "S@e1"])
    # levels: a1 0, b1 1, c1 0, c2 1, d1 1, e1 2, f1 1, f2 0
    legal = state.legal()
    for end in ("b1", "c1", "c2", "d1", "e1", "f1", "f2", "b2", "d2"):
        assert f"a1-{end}" in legal
    assert "a1-a2" not in legal  # a2 touches only level-0 spaces
    assert "a1-a1" not in legal


def test_own_pieces_never_block_in_double() -> None:
    state = ref.RefState("double")
    play_all(state, ["D@c3d3", "S@a7", "P@b3", "S@g7", "b3-c3", "S@g1", "P@e3"])
    assert state.piece_space == [16, 18, None, None]  # the lower-numbered piece entered first
    state.play("D@a5a6")
    assert "e3-d3" in state.legal()  # the own piece on c3 does not block c3+d3
    play_all(state, ["e3-d3", "P@d4", "S@f6"])
    # player 1 at d4 (0): d3 lies on a plateau holding player 0's pieces
    assert state.current_player == 1
    assert [a for a in state.legal() if a.startswith("d4-")] == []


def test_end_only_when_no_build_possible() -> None:
    state = ref.RefState("standard")
    assert "end" not in state.legal()
    # no tile the player may take: own stock and supply empty
    state.singles[0] = 0
    state.doubles[0] = 0
    state.triples = 0
    legal = state.legal()
    assert "end" in legal and "P@a1" in legal and not any(a[0] in "SDT" for a in legal)
    state.singles[0] = 1
    assert "end" not in state.legal()
    state.play("P@d4")
    assert "end" not in state.legal()  # player 1 still has singles and a double
    state.singles[1] = 0
    state.doubles[1] = 0
    assert "end" in state.legal()
    state.play("end")
    assert state.is_over() and state.current_player == -1 and state.ply == 2
    assert state.legal() == []
    with pytest.raises(ValueError):
        state.play("P@a1")


def test_end_when_no_legal_placement() -> None:
    state = ref.RefState("mini")
    n = state.board_size
    # only singles left, and every space already carries a single on top
    state.doubles[0] = 0
    state.triples = 0
    for space in range(n * n):
        state.tiles.append(("S", (space,)))
        state.stacks[space].append(len(state.tiles) - 1)
    assert state.legal() == ["end"]  # no build, no level-0 space to enter, no piece in play
    state.play("end")
    assert state.is_over()
    assert state.ranking() == [[0, 1]]
    assert state.returns() == [0.5, 0.5]


def test_ranking_keys_and_stamps() -> None:
    state = ref.RefState("standard")
    assert state.ranking() == [[0, 1, 2, 3]]
    play_all(state, ["P@a1", "P@g7"])
    # both in play at level 0: the earlier stamp wins
    assert state.ranking() == [[0], [1], [2, 3]]
    play_all(state, ["S@g6", "S@f7", "S@a2", "g7-g6"])
    # player 1 at level 1 (plateau size 1) beats player 0 at level 0
    assert state.ranking() == [[1], [0], [2, 3]]
    play_all(state, ["S@b1", "S@e7", "S@b6", "g6-g7"])
    # both at level 0 again: player 0 (stamp 0) before player 1 (stamp 9)
    assert state.stamps[:2] == [0, 9]
    assert state.ranking() == [[0], [1], [2, 3]]
    play_all(state, ["D@c1d1", "D@c7d7", "a1-a2"])
    # player 0 now on level 1 again, with a later stamp than before
    assert state.stamps[:2] == [12, 9]
    assert state.ranking() == [[0], [1], [2, 3]]
    assert state.returns() == [0.0, 0.0, 0.0, 0.0]  # not over yet


def test_ranking_larger_plateau_then_earlier_stamp() -> None:
    state = ref.RefState("mini")
    play_all(state, ["P@a1", "P@f6", "D@a2b2", "S@f5", "a1-a2", "f6-f5"])
    # both level 1; player 0 on a plateau of 2 beats player 1 on a plateau of 1
    assert state.ranking() == [[0], [1]]
    play_all(state, ["S@c1", "S@e5"])  # f5 + e5 now a plateau of 2 at level 1
    # equal level and size: player 0 entered/moved earlier (stamp 4 < 5)
    assert state.ranking() == [[0], [1]]
    play_all(state, ["a2-a1", "S@d1", "a1-a2"])  # player 0 leaves and comes back later
    assert state.stamps[0] == 10 and state.stamps[1] == 5
    assert state.ranking() == [[1], [0]]


def test_tied_places_split_their_points() -> None:
    state = ref.RefState("standard")
    for player in range(4):
        state.singles[player] = 0
        state.doubles[player] = 0
    state.triples = 0
    play_all(state, ["P@c3", "end"])
    assert state.is_over()
    assert state.ranking() == [[0], [1, 2, 3]]
    assert state.returns() == [4.0, 1.0, 1.0, 1.0]  # (2 + 1 + 0) / 3 each


def test_copy_is_independent() -> None:
    state = ref.RefState("double")
    state.play("D@a1b1")
    twin = state.copy()
    twin.play("S@a1")
    assert state.stacks[0] != twin.stacks[0]
    assert state.ply == 1 and twin.ply == 2
    assert "S@a1" in state.legal()


@pytest.mark.parametrize("variant", sorted(PERFT))
def test_random_games_finish(variant: str) -> None:
    rng = random.Random(variant)
    for _ in range(2):
        state = ref.RefState(variant, first_player=rng.randrange(ref.VARIANTS[variant].players))
        while not state.is_over():
            legal = state.legal()
            assert legal == sorted(set(legal)) and legal
            assert ("end" in legal) == (not any(a[0] in "SDT" for a in legal))
            ply = state.ply
            state.play(rng.choice(legal))
            assert state.ply == ply + 1
        assert state.current_player == -1 and state.legal() == []
        points = ref.VARIANTS[variant].points
        returns = state.returns()
        assert sorted(returns, reverse=True)[0] == points[0]
        assert sorted(p for group in state.ranking() for p in group) == list(
            range(state.num_players)
        )
