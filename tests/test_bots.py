"""The bots: legal choices on every variant, the state left as it was, seeding, specs, MCTS
tree reuse, and the search bots against brute force and on positions with a forced result."""

from __future__ import annotations

import math
import random
import time
from typing import Any

import pytest

import plateau
from plateau.bots import Bot, bot_names, make_bot, parse_spec
from plateau.bots.alphabeta import SearchBot
from plateau.bots.base import outcome_value
from plateau.bots.mcts import MCTSBot
from plateau.bots.mcts import Node as MCTSNode

VARIANTS = ["standard", "triple", "mini", "double"]
SMALL = {"mini", "double"}  # two-player variants

# Mini, ply 34: black (to move, b1 at level 2) cannot build and is ranked first, so "end" wins;
# its six moves all let yellow climb past (random play from them nearly always loses).
_WIN_BY_ENDING = """
D@b1c1 P@f3 P@c2 T@c3d3d4 T@b3a4b4 T@b3c3b4 S@a5 T@c5d5c6 S@f2 D@e1f1 S@a3 f3-d1 T@d4c5d5
S@c6 T@e3f3e4 T@e1f1f2 T@b5a6b6 S@d3 T@a4a5b5 T@f5e6f6 T@a1a2b2 S@d2 c2-d2 T@b4a5b5 d2-e2
d1-a3 e2-c2 T@a1b1b2 c2-e2 T@c3d3d4 e2-e3 T@c5d5c6 e3-b1 T@b5c5c6
"""
WIN_BY_ENDING = _WIN_BY_ENDING.split()
# Mini, ply 25: yellow (to move) may end the game but is ranked second; every other action has
# a negative heuristic, so a bot scoring a loss as 0 would end it and lose.
_LOSS_BY_ENDING = """
T@e2e3f3 D@b5c5 P@a3 P@f5 D@e1f1 S@d2 T@c2c3d3 S@b6 S@d6 T@d2e2d3 T@d4e4e5 f5-e2 T@b3b4c4
S@e4 S@a2 T@b1c1b2 S@e6 T@b2c2b3 T@c4d4c5 e2-a4 a3-a2 a4-b6 T@d3d4e4 b6-d6 a2-b2
"""
LOSS_BY_ENDING = _LOSS_BY_ENDING.split()


def position(variant: str, actions: list[str]) -> plateau.GameState:
    state = plateau.new_game("plateau-x", variant)
    state.apply_all(actions)
    return state


def random_position(variant: str, plies: int, seed: int) -> plateau.GameState:
    rng = random.Random(seed)
    state = plateau.new_game("plateau-x", variant)
    for _ in range(plies):
        legal = state.legal_actions()
        state.apply(int(legal[rng.randrange(len(legal))]))
    assert not state.is_terminal()
    return state


def snapshot(state: plateau.GameState) -> tuple[Any, ...]:
    return state.hash, state.history, state.ply, state.current_player, state.is_terminal()


def play(specs: list[str], variant: str, seed: int, max_plies: int = 300) -> list[int]:
    """One game, seat ``p`` played by ``specs[p % len(specs)]``; checks every choice."""
    state = plateau.new_game("plateau-x", variant)
    bots = [make_bot(specs[p % len(specs)], seed=seed + p) for p in range(state.num_players)]
    for bot in bots:
        bot.reset()
    while not state.is_terminal() and state.ply < max_plies:
        before = snapshot(state)
        legal = state.legal_actions().tolist()
        action = bots[state.current_player].select_action(state)
        assert type(action) is int
        assert action in legal
        assert snapshot(state) == before
        state.apply(action)
    return state.history


def budget(name: str, variant: str) -> list[str]:
    """Small budgets for the full-game test (deeper on the small board)."""
    small = variant == "mini"
    return {
        "random": ["random"],
        "greedy": ["greedy"],
        "mcts": ["mcts:iters=50", "mcts:iters=30,reuse=false"],
        "maxn": [f"maxn:depth={2 if small else 1}"],
        "paranoid": ["paranoid:depth=2", "random"],
        "alphabeta": [f"alphabeta:depth={3 if small else 2}", "greedy"],
    }[name]


def test_the_registered_bots() -> None:
    # which bots the library registers; their specs are checked by tests/conformance
    names = {"random", "greedy", "planner", "mcts", "ismcts", "maxn", "paranoid", "alphabeta"}
    assert names <= set(bot_names())


@pytest.mark.parametrize(
    ("name", "variant"),
    [
        (name, variant)
        for name in ("random", "greedy", "mcts", "maxn", "paranoid", "alphabeta")
        for variant in VARIANTS
        if name != "alphabeta" or variant in SMALL  # alphabeta plays two-player games only
    ],
)
def test_full_games_legal_and_state_unchanged(name: str, variant: str) -> None:
    for seed in range(2):
        history = play(budget(name, variant), variant, seed)
        assert len(history) > 0


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:iters=40"])
def test_different_seeds_differ(spec: str) -> None:
    games = {tuple(play([spec], "mini", seed, max_plies=30)) for seed in (1, 2, 3)}
    assert len(games) > 1


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nosuchbot", "unknown bot 'nosuchbot'"),
        ("mcts:depth=3", "unknown parameter"),
        ("paranoid:iters=3", "unknown parameter"),
        ("random:x=1", "unknown parameter"),
        ("mcts:iters", "expected key=value"),
        ("mcts:=5", "expected key=value"),
        ("", "non-empty string"),
        ("mcts:iters=0", "iters"),
        ("mcts:iters=1.5", "iters"),
        ("mcts:c=-1", "c must"),
        ("mcts:seconds=x", "seconds must"),
        ("mcts:reuse=1", "reuse must"),
        ("mcts:ply_cap=-1", "ply_cap"),
        ("alphabeta:depth=0", "depth must"),
        ("maxn:depth=two", "depth must"),
        ("paranoid:seconds=-1", "seconds must"),
        ("planner:beam=0", "beam"),
        ("planner:replies=1.5", "replies"),
        ("planner:reply_beam=true", "reply_beam"),
        ("planner:depth=2", "unknown parameter"),
        ("ismcts:iters=0", "iters"),
        ("ismcts:seconds=-1", "seconds must"),
        ("ismcts:temp=0", "temp must"),
        ("ismcts:decisive=1", "decisive must"),
        ("ismcts:eval=deep", "eval must"),
        ("ismcts:reuse=true", "unknown parameter"),
    ],
)
def test_spec_errors(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec)


def test_specs_round_trip() -> None:
    assert parse_spec("mcts:iters=50, c=0.5,reuse=false") == (
        "mcts",
        {"iters": 50, "c": 0.5, "reuse": False},
    )
    bot = make_bot("mcts:iters=50,c=0.9,reuse=false", seed=4)
    assert bot.describe() == "mcts:iters=50,c=0.9,reuse=False"
    assert make_bot(bot.describe()).params == bot.params
    assert make_bot("paranoid:depth=2,seconds=0.5").describe() == "paranoid:depth=2,seconds=0.5"
    with pytest.raises(ValueError, match="seed"):
        make_bot("random", seed="1")  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", ["standard", "triple"])
def test_alphabeta_needs_two_players(variant: str) -> None:
    state = plateau.new_game("plateau-x", variant)
    with pytest.raises(ValueError, match="two-player"):
        make_bot("alphabeta:depth=1").select_action(state)


@pytest.mark.parametrize(
    "spec",
    [
        "greedy",
        "mcts:iters=300",
        "ismcts:iters=300",
        "alphabeta:depth=1",
        "alphabeta:depth=3",
        "paranoid:depth=2",
        "maxn:depth=2",
    ],
)
def test_takes_an_immediate_win(spec: str) -> None:
    state = position("mini", WIN_BY_ENDING)
    end = state.string_to_action("end")
    for seed in range(3):
        assert make_bot(spec, seed=seed).select_action(state) == end


@pytest.mark.parametrize(
    "spec",
    ["greedy", "alphabeta:depth=2", "paranoid:depth=2", "maxn:depth=1", "ismcts:iters=500"],
)
def test_does_not_end_a_lost_game(spec: str) -> None:
    state = position("mini", LOSS_BY_ENDING)
    assert state.is_legal(state.string_to_action("end"))
    assert state.action_to_string(make_bot(spec).select_action(state)) != "end"


def test_outcome_value_is_centred() -> None:
    assert outcome_value([1.0, 0.0], 0, 10.0) == 5.0
    assert outcome_value([1.0, 0.0], 1, 10.0) == -5.0
    assert outcome_value([4.0, 2.0, 1.0, 0.0], 1, 4.0) == 1.0


def test_mcts_reuse_keeps_the_subtree() -> None:
    state = plateau.new_game("plateau-x", "mini")
    bot = make_bot("mcts:iters=400", seed=3)
    assert isinstance(bot, MCTSBot)
    first = bot.select_action(state)
    root = bot.root
    assert root is not None and root.visits == 400
    child = root.child(first)
    assert child is not None and child.children
    reply = max(child.children, key=lambda n: n.visits)
    kept, kept_visits = reply, reply.visits
    state.apply(first)
    state.apply(reply.action)
    bot.select_action(state)
    assert bot.root is kept
    assert kept.visits == kept_visits + 400
    # a position off the tree's line starts afresh; reset drops the tree
    other = plateau.new_game("plateau-x", "mini")
    other.apply(next(a for a in other.legal_actions().tolist() if a != first))
    bot.select_action(other)
    assert bot.root is not None and bot.root.visits == 400
    bot.reset()
    assert bot.root is None


def test_mcts_without_reuse_starts_afresh() -> None:
    state = plateau.new_game("plateau-x", "mini")
    bot = make_bot("mcts:iters=100,reuse=false", seed=3)
    assert isinstance(bot, MCTSBot)
    action = bot.select_action(state)
    state.apply(action)
    state.apply(int(state.legal_actions()[0]))
    bot.select_action(state)
    assert bot.root is not None and bot.root.visits == 100


def _check_tree(node: MCTSNode, top: float, own_playout: bool) -> int:
    """Check the statistics below ``node``; returns how many nodes it holds. A fresh root made
    no playout of its own; every other node did, on its first visit."""
    assert node.visits >= 1
    assert all(0.0 <= s <= node.visits * top for s in node.sums)
    if node.returns is not None:  # a finished game: never expanded
        assert not node.children and not node.untried
        assert node.sums == pytest.approx([node.visits * r for r in node.returns])
    else:
        assert node.visits == sum(ch.visits for ch in node.children) + own_playout
    if node.cn is not None:
        assert node.cw is not None and not node.untried
        assert node.cn.tolist() == [ch.visits for ch in node.children]
        assert node.cw.tolist() == pytest.approx([ch.sums[node.player] for ch in node.children])
    for i, ch in enumerate(node.children):
        assert ch.index == i
    return 1 + sum(_check_tree(ch, top, True) for ch in node.children)


@pytest.mark.parametrize("variant", ["triple", "mini"])
def test_mcts_statistics_add_up(variant: str) -> None:
    state = random_position(variant, 12, seed=2)
    top = max(state.points_by_place())
    bot = make_bot("mcts:iters=3000", seed=1)
    assert isinstance(bot, MCTSBot)
    for move in range(3):  # the reused subtrees keep adding up
        action = bot.select_action(state)
        assert bot.root is not None
        assert _check_tree(bot.root, top, own_playout=move > 0) > 100
        state.apply(action)


def test_time_budgets() -> None:
    state = plateau.new_game("plateau-x", "standard")
    for spec in ("mcts:seconds=0.2", "paranoid:depth=50,seconds=0.2", "maxn:depth=50,seconds=0.2"):
        bot = make_bot(spec)
        start = time.perf_counter()
        action = bot.select_action(state)
        assert time.perf_counter() - start < 1.5
        assert state.is_legal(action)
    mcts = make_bot("mcts:seconds=0.05,iters=1")
    assert isinstance(mcts, MCTSBot)
    mcts.select_action(state)
    assert mcts.iterations > 1


def _minimax(state: plateau.GameState, depth: int, me: int) -> float:
    """Plain paranoid minimax, no pruning: the value the search bots must reproduce."""
    if state.is_terminal():
        return outcome_value(state.returns(), me, 1e6)
    if depth == 0:
        return state.heuristic(me)
    values = []
    for a in state.legal_actions().tolist():
        state.apply(a)
        values.append(_minimax(state, depth - 1, me))
        state.undo()
    return max(values) if state.current_player == me else min(values)


def _maxn(state: plateau.GameState, depth: int) -> list[float]:
    """Plain max^n, ties to the lowest action id."""
    players = range(state.num_players)
    if state.is_terminal():
        return [outcome_value(state.returns(), p, 1e6) for p in players]
    if depth == 0:
        return [state.heuristic(p) for p in players]
    mover, best = state.current_player, None
    for a in state.legal_actions().tolist():
        state.apply(a)
        vec = _maxn(state, depth - 1)
        state.undo()
        if best is None or vec[mover] > best[mover]:
            best = vec
    assert best is not None
    return best


def _value_after(state: plateau.GameState, action: int, search: Any) -> float:
    state.apply(action)
    try:
        return float(search(state))
    finally:
        state.undo()


@pytest.mark.parametrize(
    ("variant", "plies", "seed", "depth"),
    [("mini", 16, 1, 3), ("mini", 22, 4, 3), ("double", 20, 2, 3), ("triple", 24, 3, 2)],
)
def test_searches_match_brute_force(variant: str, plies: int, seed: int, depth: int) -> None:
    state = random_position(variant, plies, seed)
    me = state.current_player
    legal = state.legal_actions().tolist()
    best = max(_value_after(state, a, lambda s: _minimax(s, depth - 1, me)) for a in legal)
    names = ["paranoid"] + (["alphabeta"] if state.num_players == 2 else [])
    for name in names:
        bot = make_bot(f"{name}:depth={depth}", seed=seed)
        assert isinstance(bot, SearchBot)
        action = bot.select_action(state)
        assert _value_after(state, action, lambda s: _minimax(s, depth - 1, me)) == best
        assert bot.nodes > 0 and bot.depth_reached == depth
    best_own = max(_value_after(state, a, lambda s: _maxn(s, 1)[me]) for a in legal)
    action = make_bot("maxn:depth=2").select_action(state)
    assert _value_after(state, action, lambda s: _maxn(s, 1)[me]) == best_own


def test_alphabeta_and_paranoid_agree_on_two_players() -> None:
    for plies in (6, 14, 20):
        state = random_position("double", plies, seed=plies)
        ab = make_bot("alphabeta:depth=3", seed=1)
        pa = make_bot("paranoid:depth=3", seed=1)
        assert isinstance(ab, SearchBot) and isinstance(pa, SearchBot)
        assert ab.select_action(state) == pa.select_action(state)
        assert ab.nodes == pa.nodes  # the same tree, searched the same way


def test_custom_bot_plays_through_the_interface() -> None:
    class First(Bot):
        name = "first-test-only"

        def select_action(self, state: plateau.GameState) -> int:
            return int(state.legal_actions()[0])

    state = plateau.new_game("plateau-x", "mini")
    assert First(seed=1).select_action(state) == int(state.legal_actions()[0])


def test_the_search_table_tells_a_repeated_position_by_its_ply() -> None:
    # Albea's Plateau repeats positions; with a move limit (max_plies) the same position a few
    # plies later is worth something else, so the alpha-beta table keys on the ply too
    from plateau.bots.alphabeta import _key

    rng = random.Random(15)  # a random game that comes back to a position at plies 81 and 85
    s = plateau.new_game("albea-plateau", max_plies=200)
    keys: dict[int, tuple[int, int]] = {}
    while s.hash not in keys:
        keys[s.hash] = (s.ply, _key(s))
        s.apply(rng.choice(s.legal_actions().tolist()))
    ply, key = keys[s.hash]
    assert (ply, s.ply) == (81, 85)
    assert _key(s) != key


@pytest.mark.parametrize(
    ("spec", "match"),
    [
        ("mcts:temp=0", "temp must be > 0"),  # a ZeroDivisionError at the first move
        ("mcts:temp=-5", "temp must be"),  # the heuristic's sign turned
        ("mcts:temp=nan", "temp must be"),
        ("mcts:seconds=inf", "seconds must be a finite number"),  # searched for ever
        ("mcts:seconds=1e400", "seconds must be a finite number"),
        ("mcts:ply_cap=2147483648", "ply_cap"),  # refused only at the first move
        (f"mcts:c={10**400}", "c must be a finite number"),
        ("alphabeta:seconds=inf", "seconds must be a finite number"),
        ("ismcts:c=inf", "c must be a finite number"),
        (f"paranoid:depth={2**31}", "depth"),
        (f"ismcts:iters={10**400}", "iters"),
        ("os:getcwd", "does not make a bot"),  # a TypeError traceback
        ("json:loads", "does not make a bot"),
    ],
)
def test_bad_bot_parameters_are_refused_when_the_bot_is_made(spec: str, match: str) -> None:
    with pytest.raises(plateau.InvalidArgumentError, match=match):
        make_bot(spec)


@pytest.mark.parametrize(
    "argv",
    [
        ["suite", "x.jsonl", "--seconds", "inf"],
        ["suite", "x.jsonl", "--seconds", "1e12"],  # an OverflowError for every position
        ["solve", "--seconds", "nan"],
        ["arena", "--bots", "random,random", "--move-timeout", "1e308"],
        ["render", "--scale", "0"],
    ],
)
def test_command_line_times_and_scales_out_of_range_are_refused(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from plateau.cli import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "must be" in err and "seconds, got 0" not in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("spec", "game", "variant"),
    [
        (f"mcts:iters={10**9}", "plateau-x", "mini"),
        (f"mcts:iters={10**9},determinizations=3", "albea-plateau", None),
        (f"ismcts:iters={10**9}", "albea-plateau", None),
        ("alphabeta:depth=60", "plateau-x", "mini"),
        (f"mcts:iters={10**9}", "empire-plateau", "duel"),
        # (the planner's widest beams: over 45 s a move on Empire Plateau, and no stop)
        ("planner:beam=10000,replies=10000,reply_beam=10000", "empire-plateau", "four"),
    ],
)
def test_stop_ends_a_search_running_in_another_thread(
    spec: str, game: str, variant: str | None
) -> None:
    import threading

    state = plateau.new_game(game, variant)
    rng = random.Random(5)
    while state.ply < 12 and not state.is_terminal():
        state.apply(int(state.legal_actions()[rng.randrange(state.num_legal_actions())]))
    bot = make_bot(spec, seed=2)
    chosen: list[int] = []
    search = threading.Thread(target=lambda: chosen.append(bot.select_action(state)))
    search.start()
    time.sleep(0.3)
    assert search.is_alive()  # (a billion iterations, or 60 plies deep)
    bot.stop()
    search.join(timeout=60)
    assert not search.is_alive()
    assert state.is_legal(chosen[0])


def test_a_stop_between_searches_ends_the_next_one_only() -> None:
    state = plateau.new_game("plateau-x", "mini")
    bot = make_bot("mcts:iters=300", seed=1)
    bot.stop()
    bot.select_action(state)
    assert bot.iterations == 1  # (it answers after one iteration)
    bot.reset()
    bot.select_action(state)
    assert bot.iterations == 300


def test_a_stop_ends_the_planners_search_with_its_best_turn_so_far(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The planner is a StoppableBot: a stop ends its beam searches after the first level
    (it had no stop: its widest beams took over 45 s a move on Empire Plateau)."""
    from plateau.bots import planner

    calls = [0]
    value = planner._value

    def counted(state: plateau.GameState, player: int) -> float:
        calls[0] += 1
        return value(state, player)

    monkeypatch.setattr(planner, "_value", counted)
    state = plateau.new_game("empire-plateau", "duel")
    full = make_bot("planner", seed=1)
    full.select_action(state)
    whole = calls[0]
    calls[0] = 0
    bot = make_bot("planner", seed=1)
    bot.stop()
    assert state.is_legal(bot.select_action(state))
    first_level = state.num_legal_actions()  # (one level of the beam search, then the reply's)
    assert calls[0] <= 3 * first_level < whole, (calls[0], first_level, whole)
    assert not bot._stopping  # (cleared: the next search runs whole)


def test_a_stoppable_bot_of_ones_own_gets_the_stop_cleared_after_each_search() -> None:
    from plateau.bots import StoppableBot

    class Counting(StoppableBot):
        name = "counting"

        fail = False

        def _select(self, state: plateau.GameState) -> int:
            self.seen = self._stopping
            if self.fail:
                raise RuntimeError("the search fails")
            return int(state.legal_actions()[0])

    state = plateau.new_game("plateau-x", "mini")
    bot = Counting()
    bot.stop()
    assert state.is_legal(bot.select_action(state)) and bot.seen
    bot.select_action(state)
    assert not bot.seen  # the stop ended one search
    bot.stop()
    bot.fail = True
    with pytest.raises(RuntimeError, match="the search fails"):
        bot.select_action(state)
    assert bot.seen and not bot._stopping  # cleared by a search that raised too
    with pytest.raises(TypeError, match="abstract"):
        StoppableBot()


@pytest.mark.parametrize(
    "spec", ["mcts:eval=heuristic", "mcts:eval=mixed", "ismcts:eval=heuristic"]
)
@pytest.mark.parametrize("temp", [0.01, 1e-300])
def test_a_small_temp_values_leaves_without_overflow(spec: str, temp: float) -> None:
    # (exp(-heuristic / temp) overflowed: every game of such a bot was a forfeit)
    for game, variant in (("plateau-x", "mini"), ("albea-plateau", None), ("empire-plateau", None)):
        if spec.startswith("ismcts") and game != "albea-plateau":
            continue
        state = plateau.new_game(game, variant)
        rng = random.Random(1)
        while state.ply < 20 and not state.is_terminal():
            state.apply(int(state.legal_actions()[rng.randrange(state.num_legal_actions())]))
        bot = make_bot(f"{spec},temp={temp},iters=40", seed=3)
        assert state.is_legal(bot.select_action(state))
    from plateau.bots.mcts import _sigmoid

    assert [_sigmoid(x) for x in (-1e308, -800.0, 0.0, 800.0, math.inf, -math.inf)] == [
        0.0, 0.0, 0.5, 1.0, 1.0, 0.0,
    ]  # fmt: skip
    assert _sigmoid(2.0) == pytest.approx(1 / (1 + math.exp(-2.0)))
    assert _sigmoid(-2.0) == pytest.approx(1 / (1 + math.exp(2.0)))
