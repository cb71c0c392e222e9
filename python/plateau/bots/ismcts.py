"""``ismcts``: information-set Monte Carlo tree search (Cowling, Powley and Whitehouse, 2012).

The tree is over what the searching player ("the observer") knows, not over one guessed world.
Every iteration draws a fresh world consistent with the observer's view
(``state.determinizer(observer).sample``) and walks the tree in it:

- at the observer's own turns the edges are its actions (it knows them exactly);
- at another player's turns an edge is an action *as the observer will see it*
  (``state.action_as_seen(action, observer)``): actions that read the same to the observer are
  one edge, and the world's player plays one of them at random (the partially observable moves
  of the paper's SO-ISMCTS + POM);
- only the edges legal in this iteration's world compete, by UCB with *availability* counts
  (how often an edge was available, in place of the parent's visits), as in the paper.

A new leaf is valued like ``mcts``'s (``eval``: heuristic, playout or their mean; the game's
choice by default), and with ``decisive`` (default) a leaf whose player to move can win at once
(``winning_actions``) is valued as that win, so that the search sees a threat one action beyond
its tree. The action played is the most visited root edge. In a game of perfect information the
world is the position itself and the search is plain UCT (with ``decisive`` leaves).

Measured on Albea's Plateau (docs/bots-and-arena.md, Strength): the strength table there.
"""

from __future__ import annotations

import math
import time
from typing import Any, ClassVar

from plateau.bots.base import StoppableBot, check_seconds, register_bot
from plateau.bots.mcts import leaf_returns
from plateau.checks import check_int, check_number
from plateau.errors import InvalidArgumentError
from plateau.registry import game_info
from plateau.state import GameState


class InfoNode:
    """One information set of the observer's tree, reached by the edge ``key`` (an action id at
    the observer's turns and in games of perfect information, else the action's text as the
    observer sees it) chosen by ``player``."""

    __slots__ = ("avail", "children", "key", "player", "sums", "visits")

    def __init__(self, key: int | str, player: int, num_players: int) -> None:
        self.key = key
        #: who chose the edge into this node (-1 at the root)
        self.player = player
        self.visits = 0
        #: how many times the edge into this node was available to choose
        self.avail = 0
        self.sums = [0.0] * num_players
        self.children: dict[int | str, InfoNode] = {}


@register_bot
class ISMCTSBot(StoppableBot):
    """Information-set MCTS: a tree over the mover's information sets, one fresh world a
    search iteration (see the module's docstring).

    Parameters, as ``mcts``: ``iters`` (iterations per move, 1000), ``seconds`` (a time budget
    per move when > 0; ``iters`` is then ignored), ``c`` (exploration constant, 0.7),
    ``ply_cap`` (cap of a playout, 400), ``eval`` (``auto``: the game's ``mcts_eval``;
    ``mixed``, ``playout`` or ``heuristic``), ``sensible_end`` (playouts end the game only for a
    leader, true), ``temp`` (heuristic scale, 3); and ``decisive`` (value a leaf whose player
    can win at once as that win, true). An action that wins outright is played without search.
    The tree is not kept between moves (the next position is a new information set).
    """

    name = "ismcts"
    defaults: ClassVar[dict[str, Any]] = {
        "iters": 1000,
        "seconds": 0.0,
        "c": 0.7,
        "ply_cap": 400,
        "eval": "auto",
        "sensible_end": True,
        "temp": 3.0,
        "decisive": True,
    }

    def __init__(self, seed: int = 0, **params: Any) -> None:
        super().__init__(seed, **params)
        p = self.params
        check_int(p["iters"], "iters", 1, 2**63)
        check_int(p["ply_cap"], "ply_cap", 0, 2**31)
        for key in ("seconds", "c", "temp"):
            check_number(p[key], key)
        check_seconds(p["seconds"])
        if not p["temp"] > 0:
            raise InvalidArgumentError(f"temp must be > 0, got {p['temp']!r}")
        for key in ("sensible_end", "decisive"):
            if not isinstance(p[key], bool):
                raise InvalidArgumentError(f"{key} must be true or false, got {p[key]!r}")
        if not isinstance(p["eval"], str) or p["eval"] not in (
            "auto",
            "playout",
            "heuristic",
            "mixed",
        ):
            raise InvalidArgumentError(
                f"eval must be auto, playout, heuristic or mixed, got {p['eval']!r}"
            )
        #: the tree of the last search (its root), for inspection
        self.root: InfoNode | None = None
        #: iterations run by the last select_action
        self.iterations = 0
        #: the mean return, for the mover, of the action chosen last (None: no search)
        self.score: float | None = None
        self._scale = 0.0
        # (actor, observer) -> action id -> its text as the observer sees it (one move's)
        self._seen: dict[tuple[int, int], dict[int, str]] = {}

    def search_info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"nodes": self.iterations}
        if self.score is not None:
            info["score"] = round(self.score, 4)
        return info

    def reset(self) -> None:
        """Drop the last tree."""
        self.root = None

    def _select(self, state: GameState) -> int:
        if state.is_terminal():
            raise InvalidArgumentError("no legal action: the game is over")
        self.score = None
        self.iterations = 0
        wins = state.winning_actions()
        if len(wins):  # a move that wins outright needs no search
            return int(wins[0])
        legal = state.legal_actions().tolist()
        if len(legal) == 1:
            return int(legal[0])
        me = state.current_player
        root = InfoNode(-1, -1, state.num_players)
        self.root = root
        self._seen = {}
        self.iterations = self._search(state, root, me)
        best = max(root.children.values(), key=lambda ch: (ch.visits, ch.sums[me]))
        self.score = best.sums[me] / best.visits / self._scale if self._scale > 0 else None
        return int(best.key)

    def _search(self, state: GameState, root: InfoNode, me: int) -> int:
        """Run the iterations from ``state`` (left unchanged); returns how many ran."""
        p = self.params
        rng = self.rng
        c = float(p["c"])
        ply_cap = int(p["ply_cap"])
        seconds = float(p["seconds"])
        iters = int(p["iters"])
        mode = p["eval"]
        if mode == "auto":
            mode = game_info(state.game).mcts_eval
        sensible = bool(p["sensible_end"])
        decisive = bool(p["decisive"])
        temp = float(p["temp"])
        hidden = not game_info(state.game).perfect_information
        sampler = state.determinizer(me) if hidden else None
        fixed = None if hidden else state.clone()
        players = range(state.num_players)
        deadline = time.perf_counter() + seconds if seconds > 0 else 0.0
        random01, getrandbits = rng.random, rng.getrandbits
        log, sqrt = math.log, math.sqrt
        scale = 0.0
        done = 0
        while True:
            if done and self._stopping:  # (Bot.stop, from another thread)
                break
            if deadline:
                if done and time.perf_counter() >= deadline:
                    break
            elif done >= iters:
                break
            done += 1
            world = fixed if sampler is None else sampler.sample(getrandbits(63))
            assert world is not None
            applied = 0
            node = root
            path = [root]
            ret: list[float] | None = None
            while True:
                if world.is_terminal():
                    ret = world.returns()
                    break
                mover = world.current_player
                legal = world.legal_actions().tolist()
                groups: dict[int | str, list[int]] | None = None
                keys: list[int | str]
                if hidden and mover != me:
                    groups = {}
                    seen = self._seen_texts(mover, me)
                    for a in legal:
                        text = seen.get(a)
                        if text is None:
                            text = seen[a] = world.action_as_seen(a, me)
                        groups.setdefault(text, []).append(a)
                    keys = list(groups)
                else:
                    keys = list(legal)
                children = node.children
                untried = [k for k in keys if k not in children]
                for k in keys:
                    ch = children.get(k)
                    if ch is not None:
                        ch.avail += 1
                if untried:
                    k = untried[int(random01() * len(untried))]
                    child = InfoNode(k, mover, len(players))
                    child.avail = 1
                    children[k] = child
                else:
                    inv = 1.0 / scale if scale > 0 else 1.0
                    best_u = -1.0
                    child = children[keys[0]]
                    for k in keys:
                        ch = children[k]
                        n = ch.visits
                        u = ch.sums[mover] * inv / n + c * sqrt(log(ch.avail) / n)
                        if u > best_u:
                            best_u, child = u, ch
                if groups is None:
                    a = int(child.key)
                else:
                    options = groups[child.key]
                    a = options[int(random01() * len(options))]
                world.apply(a)
                applied += 1
                path.append(child)
                node = child
                if untried:
                    break
            if ret is None:
                if world.is_terminal():
                    ret = world.returns()
                elif decisive and len(win := world.winning_actions()):
                    world.apply(int(win[0]))
                    applied += 1
                    ret = world.returns()
                else:
                    ret = leaf_returns(world, mode, scale, temp, ply_cap, sensible, getrandbits)
            top = max(ret)
            if top > scale:
                scale = top
            for nd in path:
                nd.visits += 1
                sums = nd.sums
                for q in players:
                    sums[q] += ret[q]
            if fixed is not None:
                for _ in range(applied):
                    fixed.undo()
        self._scale = scale
        return done

    def _seen_texts(self, actor: int, observer: int) -> dict[int, str]:
        """The cache of ``actor``'s action texts as ``observer`` sees them (they depend only on
        the action, the actor and the observer: ``GameState.action_as_seen``)."""
        key = (actor, observer)
        got = self._seen.get(key)
        if got is None:
            got = self._seen[key] = {}
        return got
