"""Empire Plateau random playouts: the in-core sampler draws legal actions only, each equally
often (it draws the Emblem's moves from a superset and checks the draw; ``_sample`` is its test
hook), including where the superset holds moves the Emblem cannot make and where the six-step
rule forbids moves; playouts are seeded and score finished and
cut games as documented. The check of one action without the list (``is_legal`` and ``apply``
on a state that has not listed its actions) uses the same machinery: it answers as the list
does for every id of every army."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest

import plateau
from plateau import EmpirePlateauState
from plateau.games.empire.board import (
    Board,
    board_from_dict,
    board_to_dict,
    load_board,
    polar_board,
    spoke_letters,
)
from plateau.games.empire.state import board_tables


def p_value(draws: list[int], legal: list[int]) -> float:
    """Chi-square test of ``draws`` against the uniform distribution over ``legal``
    (Wilson-Hilferty approximation)."""
    per = len(draws) / len(legal)
    c = Counter(draws)
    chi = sum((c.get(a, 0) - per) ** 2 / per for a in legal)
    dof = len(legal) - 1
    z = ((chi / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return 0.5 * math.erfc(z / math.sqrt(2))


def check_uniform(s: EmpirePlateauState, seed: int, per: int = 60) -> None:
    legal = s.legal_actions().tolist()
    draws = s._sample(seed, per * len(legal))
    assert set(draws) <= set(legal)
    if len(legal) > 1:
        assert p_value(draws, legal) > 1e-4, s.position_dict()
    else:
        assert set(draws) == set(legal)


#: the Greek Emblem in a corridor of ring 1 (b1 c1 d1) walled in by its own 2s: the sampler's
#: superset holds (c1, 4), (d1, 5), ... which no path gives
CORRIDOR = {
    "a1": "GE",
    "p1": "G2",
    "e1": "G2",
    "a2": "G2",
    "b2": "G2",
    "c2": "G2",
    "d2": "G2",
    "i8": "G2",
}


def corridor(walls: str = "G") -> EmpirePlateauState:
    """The corridor, its walls Greek 2s (which can still make 6 steps) or Roman 2s (friends that
    do not move on the Greek turn: then no sequence reaches 6)."""
    armies = {d: (walls + a[1:] if d != "i8" and a != "GE" else a) for d, a in CORRIDOR.items()}
    return EmpirePlateauState.from_position_dict(
        {"variant": "two", "armies": armies, "to_move": "G"}
    )


def test_the_sampler_draws_only_legal_actions_uniformly_along_games() -> None:
    rng = random.Random(4)
    for variant in ("two", "four", "duel", "three"):
        s = plateau.new_game("empire-plateau", variant)
        while not s.is_terminal() and s.ply < 400:
            if s.ply % 23 == 0:
                check_uniform(s, s.ply)
            s.apply(rng.choice(s.legal_actions().tolist()))


def test_the_sampler_skips_the_emblem_moves_that_no_path_gives() -> None:
    s = corridor()
    emblem = {a for a in s.legal_action_strings() if a.startswith("a1-")}
    assert emblem == {"a1-b1:1", "a1-c1:2", "a1-d1:3"}
    check_uniform(s, 1, per=200)


def test_the_sampler_follows_the_six_step_rule() -> None:
    s = corridor()
    s.apply("i8-i7:1")  # an Emblem move now locks the 2s, which can still make 6: none is legal
    assert not [a for a in s.legal_action_strings() if a.startswith("a1-")]
    check_uniform(s, 2, per=100)
    w = corridor("R")
    w.apply("i8-i7:1")  # nothing reaches 6 any more: every move the paths allow stays
    assert {a for a in w.legal_action_strings() if a.startswith("a1-")} == {
        "a1-b1:1",
        "a1-c1:2",
        "a1-d1:3",
    }
    check_uniform(w, 2, per=200)
    # a 2 and a 4 alone: 1-step moves would leave 6 out of reach, so only 2 + 4 stay
    u = EmpirePlateauState.from_position_dict(
        {"variant": "duel", "armies": {"c3": "B2", "h5": "B4", "e11": "ME"}}
    )
    assert all(a.endswith((":2", ":4")) for a in u.legal_action_strings())
    check_uniform(u, 5, per=100)
    # in the open, a shortest way reaches 6: only the Emblem's moves of 5 steps or more
    t = EmpirePlateauState.from_position_dict(
        {"variant": "two", "armies": {"c4": "BE", "g3": "B2", "k6": "B6"}}
    )
    t.apply("g3-g4:1")
    costs = {int(a.split(":")[1]) for a in t.legal_action_strings() if a.startswith("c4-")}
    assert costs == set(range(5, 12))
    check_uniform(t, 3, per=30)


def check_every_army_id(s: EmpirePlateauState) -> int:
    """Every move id of every army of the Empire to act, the frees and End: asked of a state
    that has not listed its actions, the answer is the list's. Returns how many were asked."""
    legal = set(s.legal_actions().tolist())
    fresh = s.clone()
    d = len(s.board.dots)
    base_free = d * d * 12  # moves (from * D + to) * 12 + n - 1, then frees, then End
    ids = list(range(base_free, s.num_distinct_actions))
    armies = {int(a) // (d * 12) for a in legal if a < base_free}
    for frm in armies:
        ids += range(frm * d * 12, (frm + 1) * d * 12)
    for a in ids:
        assert fresh.is_legal(a) is (a in legal), (s.action_to_string(a), s.position_dict())
    return len(ids)


def test_one_action_is_checked_as_the_list_says_along_games() -> None:
    rng = random.Random(6)
    asked = 0
    for variant in ("two", "four", "duel"):
        for _ in range(2):
            s = plateau.new_game("empire-plateau", variant)
            while not s.is_terminal() and s.ply < 300:
                if s.ply % 3 == 0:
                    asked += check_every_army_id(s)
                s.apply(rng.choice(s.legal_actions().tolist()))
    assert asked > 100_000


def test_one_action_is_checked_where_no_path_gives_it_and_under_the_ruling() -> None:
    s = corridor()
    check_every_army_id(s)
    assert not s.clone().is_legal(s.parse_action("a1-c1:4"))  # in the superset, no path
    s.apply("i8-i7:1")  # the 2s can still make 6: the Emblem may not lock them
    check_every_army_id(s)
    assert not s.clone().is_legal(s.parse_action("a1-d1:3"))
    w = corridor("R")
    w.apply("i8-i7:1")  # 6 is out of reach: every move the paths allow is legal
    check_every_army_id(w)
    assert w.clone().is_legal(w.parse_action("a1-d1:3"))
    t = EmpirePlateauState.from_position_dict(
        {"variant": "two", "armies": {"c4": "BE", "g3": "B2", "k6": "B6"}}
    )
    one_step = next(a for a in t.legal_action_strings() if a.startswith("c4-") and a[-2:] == ":1")
    assert t.clone().is_legal(t.parse_action(one_step))
    t.apply("g3-g4:1")  # a shortest way reaches 6: the Emblem's moves under 5 steps go
    check_every_army_id(t)
    assert not t.clone().is_legal(t.parse_action(one_step))


def test_playouts_are_seeded_and_score_by_place() -> None:
    s = plateau.new_game("empire-plateau", "four")
    a = s.random_playout(5, ply_cap=None)
    assert a == s.random_playout(5, ply_cap=None) and sorted(a) == [0.0, 1.0, 2.0, 4.0]
    cut = s.random_playout(5, ply_cap=10)
    assert cut == [1.75] * 4  # cut short with nobody out: the four share the points
    out = plateau.random_playouts("empire-plateau", "four", n=10, seed=3, ply_cap=None)
    assert out["ended"] == 10 and sum(out["wins"]) >= 10
    assert out == plateau.random_playouts("empire-plateau", "four", n=10, seed=3, ply_cap=None)


def renumbered(board: Board, seed: int) -> tuple[Board, np.ndarray]:
    """``board`` with its dots listed in a shuffled order (a user board): the same game, other
    dot ids, so its moves are listed by the generic search, not the word-parallel one; and the
    map from ``board``'s dot ids to the new ones."""
    data = board_to_dict(board)
    data["name"] = board.name + "-renumbered"
    rows = data["dots"]
    order = list(range(len(rows)))
    random.Random(seed).shuffle(order)
    data["dots"] = [rows[i] for i in order]
    new_of = np.empty(len(rows), dtype=np.int64)
    new_of[order] = np.arange(len(rows))
    return board_from_dict(data), new_of


def map_ids(ids: np.ndarray, new_of: np.ndarray, d: int) -> np.ndarray:
    """Action ids on a board -> the same actions on its renumbered copy (documented id layout)."""
    out = ids.copy()
    moves = ids < d * d * 12
    f, rest = np.divmod(ids[moves], d * 12)
    to, n = np.divmod(rest, 12)
    out[moves] = (new_of[f] * d + new_of[to]) * 12 + n
    frees = (ids >= d * d * 12) & (ids < d * d * 12 + 4 * d)
    t, dot = np.divmod(ids[frees] - d * d * 12, d)
    out[frees] = d * d * 12 + t * d + new_of[dot]
    return np.sort(out)


def ring_board() -> Board:
    """A user board of 64 spokes and 4 rings (256 dots, lanes of 64 bits: a ring a word): the
    polar grid cut to its inner 4 rings, each Empire's armies around its base on the outer
    ring."""
    data = board_to_dict(polar_board("p64x7", 64, 7))
    data["name"], data["rings"] = "p64x4", 4
    data["dots"] = [dict(x) for x in data["dots"] if x["at"][1] <= 4]

    def at(spoke: int, ring: int) -> str:
        return spoke_letters(spoke % 64) + str(ring)

    layouts = {}
    for e, c in zip("GMRB", (0, 16, 32, 48)):
        layouts[e] = {
            "E": [at(c, 4)],
            "6": [at(c, 3), at(c, 2)],
            "4": [at(c + k, 1) for k in (-1, 0, 1, 2)],
            "2": [at(c + k, r) for k in (-2, -1, 1, 2) for r in (2, 3, 4)],
        }
    for x in data["dots"]:
        x.pop("base", None)
        if x["at"][1] == 4:
            x["out"] = None
            if x["at"][0] % 16 == 0:
                x["base"] = "GMRB"[x["at"][0] // 16]
    data["layouts"] = layouts
    return board_from_dict(data)


def lanes_board(name: str) -> Board:
    return {
        "ep16": lambda: load_board("ep16"),
        "p32x8": lambda: polar_board(name, 32, 8),
        "p64x4": ring_board,
    }[name]()


def test_boards_have_lanes_only_where_every_neighbour_is_a_shift() -> None:
    assert board_tables("ep16").lane == 16
    assert board_tables(polar_board("p32x8", 32, 8)).lane == 32
    assert board_tables(ring_board()).lane == 64
    assert board_tables("ep24").lane == 0  # 24 spokes: not a lane width
    assert board_tables(polar_board("p32x11", 32, 11)).lane == 0  # 352 dots: too many
    assert board_tables(renumbered(load_board("ep16"), 1)[0]).lane == 0


@pytest.mark.parametrize("variant", ["two", "four", "duel"])
@pytest.mark.parametrize("name", ["ep16", "p32x8", "p64x4"])
def test_the_word_parallel_search_lists_what_the_generic_search_lists(
    name: str, variant: str
) -> None:
    """On a board with lanes the Emblem's and the 6s' searches work by word operations; on the
    same board with its dots renumbered they cannot. Both must list the same actions at every
    step of random games (lanes of 16, 32 and 64 bits)."""
    board = lanes_board(name)
    copy, new_of = renumbered(board, 7)
    assert board_tables(board).lane > 0 and board_tables(copy).lane == 0
    d = len(board)
    rng = random.Random(variant)
    for _ in range(3):
        a = plateau.new_game("empire-plateau", variant, board=board)
        b = plateau.new_game("empire-plateau", variant, board=copy)
        steps = 0
        while not a.is_terminal() and steps < 1500:
            ids = a.legal_actions()
            assert np.array_equal(map_ids(ids, new_of, d), b.legal_actions()), a.position_dict()
            pick = int(ids[rng.randrange(len(ids))])
            b.apply(int(map_ids(np.array([pick]), new_of, d)[0]))
            a.apply(pick)
            steps += 1
        assert a.is_terminal() == b.is_terminal()
