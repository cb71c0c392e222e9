"""The compiled Empire Plateau engine against the independent pure-Python reference
(``tests/empire/reference.py``) over seeded random games: at every action the legal actions,
the position (both engines' position dicts have one format) and the result must agree.

Half the games are uniformly random; the other half prefer captures, conquests and frees when
there are any (so that conquests, free windows and the ends of ``four`` come up often). The
long run (200 games per variant, and ep24) is marked ``slow``; a few games run by default.
"""

from __future__ import annotations

import random

import pytest

import plateau
from empire.reference import State
from plateau import EmpirePlateauState


def without_ply(data: dict[str, object]) -> dict[str, object]:
    """A position dict without ``ply``, which the reference's positions do not have."""
    return {k: v for k, v in data.items() if k != "ply"}


def hot_actions(s: EmpirePlateauState, legal: list[str]) -> list[str]:
    """The captures, conquests and frees among ``legal``."""
    out = []
    for a in legal:
        if a.startswith("+"):
            out.append(a)
        elif "-" in a:
            to = a.split("-")[1].split(":")[0]
            d = s.board.index(to)
            if s.army_at(to) is not None or d in s.board.base_of:
                out.append(a)
    return out


def play_both(
    variant: str, board: str, seed: int, max_plies: int | None = None, turn_limit: int = 0
) -> int:
    """Play one seeded game on both engines, checking every ply; returns its length."""
    rng = random.Random(f"empire-diff/{variant}/{board}/{seed}")
    hot = seed % 2 == 0
    mine = plateau.new_game("empire-plateau", variant, board=board, turn_limit=turn_limit)
    assert isinstance(mine, EmpirePlateauState)
    ref = State(variant, board, turn_limit)
    while True:
        where = f"{variant}/{board} seed {seed} ply {mine.ply}"
        legal = mine.legal_action_strings()
        assert sorted(legal) == sorted(ref.legal_actions()), where
        position = ref.position()
        assert without_ply(mine.position_dict()) == position, where
        # the properties read without the rest of the position agree with it
        assert mine.free_window == position["free_window"], where
        assert mine.empty_turns == position["empty_turns"], where
        over = ref.is_over()
        assert mine.current_empire == (None if over else position["to_move"]), where
        assert (mine.result is None) == (not over), where
        assert mine.is_terminal() == ref.is_over(), where
        assert mine.current_player == ref.current_player, where
        assert mine.ranking() == ref.ranking(), where
        # the position read back from its dict is the same game (a count of empty turns
        # reached by a conquest mid-turn was read back as a draw)
        back = EmpirePlateauState.from_position_dict(mine.position_dict(), board=board)
        assert back.result == mine.result and back.legal_actions().tolist() == (
            mine.legal_actions().tolist()
        ), where
        if mine.is_terminal():
            winner = mine.ranking()[0][0] if mine.result == "win" else None
            assert winner == ref.winner, where
            return mine.ply
        if max_plies is not None and mine.ply >= max_plies:
            return mine.ply
        pool = hot_actions(mine, legal) if hot else []
        action = rng.choice(pool if pool and rng.random() < 0.6 else legal)
        mine.apply(action)
        ref.apply(action)


@pytest.mark.parametrize("variant", ["two", "four", "duel", "three"])
def test_a_few_games_agree_with_the_reference(variant: str) -> None:
    for seed in (0, 1):
        assert play_both(variant, "ep16", seed, max_plies=250) > 0


@pytest.mark.parametrize("variant", ["four", "three"])
def test_games_under_a_turn_limit_agree_with_the_reference(variant: str) -> None:
    for seed in (0, 1):
        play_both(variant, "ep16", seed, turn_limit=9)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["two", "four", "duel", "three"])
@pytest.mark.parametrize("block", range(4))
def test_200_games_per_variant_agree_with_the_reference(variant: str, block: int) -> None:
    for seed in range(50 * block, 50 * block + 50):
        play_both(variant, "ep16", seed)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["two", "four", "duel", "three"])
def test_games_on_ep24_agree_with_the_reference(variant: str) -> None:
    for seed in range(6):
        play_both(variant, "ep24", seed)
