"""Empire Plateau random playouts: the in-core sampler draws legal actions only, each equally
often (it draws the Emblem's moves from a superset and checks the draw; ``_sample`` is its test
hook), including where the superset holds moves the Emblem cannot make and where the ruling on
the Emblem after small armies needs the exact list; playouts are seeded and score finished and
cut games as documented."""

from __future__ import annotations

import math
import random
from collections import Counter

import plateau
from plateau import EmpirePlateauState


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


def corridor() -> EmpirePlateauState:
    return EmpirePlateauState.from_position_dict(
        {"variant": "two", "armies": CORRIDOR, "to_move": "G"}
    )


def test_the_sampler_draws_only_legal_actions_uniformly_along_games() -> None:
    rng = random.Random(4)
    for variant in ("two", "four", "duel"):
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


def test_the_sampler_lists_the_emblem_exactly_when_the_ruling_needs_it() -> None:
    s = corridor()
    s.apply("i8-i7:1")  # a small army first: the Emblem should reach 6 but cannot
    assert {a for a in s.legal_action_strings() if a.startswith("a1-")} == {
        "a1-b1:1",
        "a1-c1:2",
        "a1-d1:3",
    }
    check_uniform(s, 2, per=200)
    # in the open, a shortest way reaches 6: only the Emblem's moves of 5 steps or more
    t = EmpirePlateauState.from_position_dict(
        {"variant": "two", "armies": {"c4": "BE", "g3": "B2", "k6": "B6"}}
    )
    t.apply("g3-g4:1")
    costs = {int(a.split(":")[1]) for a in t.legal_action_strings() if a.startswith("c4-")}
    assert costs == set(range(5, 12))
    check_uniform(t, 3, per=30)


def test_playouts_are_seeded_and_score_by_place() -> None:
    s = plateau.new_game("empire-plateau", "four")
    a = s.random_playout(5, ply_cap=None)
    assert a == s.random_playout(5, ply_cap=None) and sorted(a) == [0.0, 1.0, 2.0, 4.0]
    cut = s.random_playout(5, ply_cap=10)
    assert cut == [1.75] * 4  # cut short with nobody out: the four share the points
    out = plateau.random_playouts("empire-plateau", "four", n=10, seed=3, ply_cap=None)
    assert out["ended"] == 10 and sum(out["wins"]) >= 10
    assert out == plateau.random_playouts("empire-plateau", "four", n=10, seed=3, ply_cap=None)
