"""``mcts``: UCT Monte Carlo tree search for any number of players.

Each node keeps its visit count and the sum of the return vectors backed up through it; a
parent picks the child that maximises the mean return *of the parent's player to move*,
normalised to [0, 1], plus ``c * sqrt(ln N / n)``. Returns are normalised by the largest
single return value seen so far (the points of first place once a game has been won in a
playout). A new leaf is valued (``eval``) by a playout, by the game's heuristic, or by the
mean of both (the default): the playout is ``state.random_playout`` in the compiled core (with
``sensible_end``, a player who may end the game does so exactly when alone in first place,
instead of at random); the heuristic value of player ``p`` is
``top * sigmoid(state.heuristic(p) / temp)``, ``top`` being the normalising return. Finished
positions score their ``returns()``. The move played is the most visited child of the root.

Measured on the mini variant (200 games, seats rotated; docs/bots-and-arena.md): the default
beats greedy clearly, where plain uniform playouts alone only break even with it.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable, ClassVar

import numpy as np
import numpy.typing as npt

from plateau.bots.base import StoppableBot, check_seconds, register_bot
from plateau.checks import check_int, check_number
from plateau.errors import InvalidArgumentError
from plateau.registry import game_info
from plateau.state import GameState

#: fully expanded nodes with at least this many children select through numpy arrays
WIDE = 16


class Node:
    """One position of the tree (reached from its parent by ``action``)."""

    __slots__ = (
        "action",
        "children",
        "cn",
        "cw",
        "hash",
        "index",
        "player",
        "returns",
        "sums",
        "untried",
        "visits",
    )

    def __init__(self, action: int, index: int, state: GameState) -> None:
        self.action = action
        #: position in the parent's ``children``
        self.index = index
        self.hash: int = state.hash
        self.visits = 0
        self.sums = [0.0] * state.num_players
        self.children: list[Node] = []
        #: once fully expanded with many children: their visits and the sums of this node's
        #: player's returns as arrays, so that selection is a few numpy operations
        self.cn: npt.NDArray[np.float64] | None = None
        self.cw: npt.NDArray[np.float64] | None = None
        #: the player to move here (-1 once the game is over)
        self.player: int = state.current_player
        #: the returns of a finished game, else None
        self.returns: list[float] | None = None
        #: actions not expanded yet; drawn in random order
        self.untried: list[int]
        if state.is_terminal():
            self.returns = state.returns()
            self.untried = []
        else:
            self.untried = state.legal_actions().tolist()

    def child(self, action: int) -> Node | None:
        """The child reached by ``action``, if expanded."""
        for ch in self.children:
            if ch.action == action:
                return ch
        return None

    def mean(self, player: int) -> float:
        """Mean return of ``player`` over the visits (0 before any)."""
        return self.sums[player] / self.visits if self.visits else 0.0


def _sigmoid(x: float) -> float:
    """``1 / (1 + exp(-x))`` for any float, never overflowing (a small ``temp`` makes ``x``
    large: ``math.exp`` raised OverflowError past about 709)."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def leaf_returns(
    state: GameState,
    mode: str,
    scale: float,
    temp: float,
    ply_cap: int,
    sensible: bool,
    getrandbits: Callable[[int], int],
) -> list[float]:
    """The returns a new, unfinished leaf is valued at (the module's docstring): a playout
    (``mode`` ``"playout"``), ``top * sigmoid(heuristic / temp)`` for every player
    (``"heuristic"``, ``top`` being ``scale`` or 1 before any), or their mean (``"mixed"``);
    playouts are seeded by ``getrandbits(63)``. Shared by ``mcts`` and ``ismcts``."""
    if mode == "playout":
        return state.random_playout(getrandbits(63), ply_cap, sensible)
    top_pts = scale if scale > 0 else 1.0
    ret = [top_pts * _sigmoid(state.heuristic(p) / temp) for p in range(state.num_players)]
    if mode == "mixed":
        rp = state.random_playout(getrandbits(63), ply_cap, sensible)
        ret = [0.5 * (a + b) for a, b in zip(ret, rp)]
    return ret


@register_bot
class MCTSBot(StoppableBot):
    """UCT with playouts in the compiled core and heuristic leaf values.

    Parameters: ``iters`` (iterations per move, default 1000), ``seconds`` (a time budget per
    move when > 0; ``iters`` is then ignored), ``c`` (exploration constant, 0.5), ``reuse``
    (keep the subtree of the position reached between moves, true), ``ply_cap`` (cap of a
    playout, 400), ``eval`` (``mixed``, ``playout``, ``heuristic``, or ``auto``, the default:
    the game's choice, ``GameInfo.mcts_eval``: mixed for Plateau X, heuristic for Plateau),
    ``sensible_end``
    (playouts end the game only for a leader, true), ``temp`` (heuristic scale, 3) and
    ``determinizations`` (games with hidden information: when > 1, search that many worlds
    sampled from the mover's view, one tree each with an equal share of the budget, and play
    the action with the most root visits over all of them; default 1, the position given,
    which the arena and ``plateau play`` draw from the mover's view). On Plateau the
    ensemble did not pay at 4,000 iterations a move (4 worlds scored 8/20 against 1 world).
    An action that wins the game outright (``state.winning_actions()``) is played without
    search. Untried actions are
    expanded in an order drawn from ``random.Random(seed)``, which also seeds every playout.
    """

    name = "mcts"
    defaults: ClassVar[dict[str, Any]] = {
        "iters": 1000,
        "seconds": 0.0,
        "c": 0.5,
        "reuse": True,
        "ply_cap": 400,
        "eval": "auto",
        "sensible_end": True,
        "temp": 3.0,
        "determinizations": 1,
    }

    def __init__(self, seed: int = 0, **params: Any) -> None:
        super().__init__(seed, **params)
        p = self.params
        check_int(p["iters"], "iters", 1, 2**63)
        # (as the core's playouts take it: checked here, not at the first move)
        check_int(p["ply_cap"], "ply_cap", 0, 2**31)
        for key in ("seconds", "c", "temp"):  # (finite: seconds=inf searched for ever)
            check_number(p[key], key)
        check_seconds(p["seconds"])
        if not p["temp"] > 0:
            # (0 divided by zero; a negative scale turned the heuristic's sign)
            raise InvalidArgumentError(f"temp must be > 0 and finite, got {p['temp']!r}")
        if not isinstance(p["reuse"], bool):
            raise InvalidArgumentError(f"reuse must be true or false, got {p['reuse']!r}")
        if not isinstance(p["sensible_end"], bool):
            raise InvalidArgumentError(
                f"sensible_end must be true or false, got {p['sensible_end']!r}"
            )
        d = p["determinizations"]
        check_int(d, "determinizations", 1, 1001)
        if not isinstance(p["eval"], str) or p["eval"] not in (
            "auto",
            "playout",
            "heuristic",
            "mixed",
        ):
            raise InvalidArgumentError(
                f"eval must be auto, playout, heuristic or mixed, got {p['eval']!r}"
            )
        self.root: Node | None = None
        self._root_history: list[int] = []
        self._scale = 0.0
        #: iterations run by the last select_action
        self.iterations = 0
        #: the mean return, for the mover, of the action the last select_action chose (None:
        #: no search)
        self.score: float | None = None

    def search_info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"nodes": self.iterations}
        if self.score is not None:
            info["score"] = round(self.score, 4)
        return info

    def reset(self) -> None:
        """Drop the search tree."""
        self.root = None
        self._root_history = []
        self._scale = 0.0

    def _find_root(self, state: GameState, history: list[int]) -> Node:
        old, n = self.root, len(self._root_history)
        if (
            self.params["reuse"]
            and not state.is_determinization
            and old is not None
            and len(history) >= n
            and history[:n] == self._root_history
        ):
            node: Node | None = old
            for a in history[n:]:
                node = node.child(a) if node is not None else None
            if node is not None and node.hash == state.hash:
                return node
        self._scale = 0.0
        return Node(-1, -1, state)

    def _select(self, state: GameState) -> int:
        if state.is_terminal():
            raise InvalidArgumentError("no legal action: the game is over")
        self.score = None
        wins = state.winning_actions()
        if len(wins):  # a move that wins outright needs no search
            self.iterations = 0
            return int(wins[0])
        worlds = self._worlds(state)
        if worlds > 1:
            return self._select_ensemble(state, worlds)
        history = state.history
        root = self._find_root(state, history)
        self.root, self._root_history = root, history
        if not root.children and len(root.untried) == 1:
            self.iterations = 0
            return root.untried[0]
        self.iterations = self._search(state.clone(), root)
        best = max(root.children, key=lambda ch: (ch.visits, ch.mean(root.player)))
        self.score = best.mean(root.player)
        return best.action

    def _worlds(self, state: GameState) -> int:
        d = int(self.params["determinizations"])
        if d > 1 and not game_info(state.game).perfect_information:
            return d
        return 1

    def _select_ensemble(self, state: GameState, worlds: int) -> int:
        """Determinized UCT for hidden information: one tree per sampled world (each with
        ``1/worlds`` of the budget), root visit counts summed by action; the root's actions
        are the same in every world (they depend only on what the mover knows)."""
        legal = state.legal_actions().tolist()
        self.reset()
        if len(legal) == 1:
            self.iterations = 0
            return int(legal[0])
        sampler = state.determinizer(state.current_player)
        visits: dict[int, int] = {}
        iters = max(1, int(self.params["iters"]) // worlds)
        seconds = float(self.params["seconds"]) / worlds
        done = 0
        for _ in range(worlds):
            world = sampler.sample(self.rng.getrandbits(63))
            root = Node(-1, -1, world)
            self._scale = 0.0
            done += self._search(world, root, iters, seconds)
            for ch in root.children:
                visits[ch.action] = visits.get(ch.action, 0) + ch.visits
            if self._stopping:  # (the worlds searched so far answer)
                break
        self.reset()
        self.iterations = done
        return int(max(legal, key=lambda a: visits.get(a, 0)))

    def _search(
        self, sim: GameState, root: Node, iters: int | None = None, seconds: float | None = None
    ) -> int:
        """Run the iterations on ``sim`` (a clone, left as it was); returns how many ran.
        ``iters`` and ``seconds`` override the parameters of the same names."""
        rng = self.rng
        c = float(self.params["c"])
        ply_cap = int(self.params["ply_cap"])
        seconds = float(self.params["seconds"]) if seconds is None else seconds
        iters = int(self.params["iters"]) if iters is None else iters
        mode = self.params["eval"]
        if mode == "auto":
            mode = game_info(sim.game).mcts_eval
        sensible = bool(self.params["sensible_end"])
        temp = float(self.params["temp"])
        deadline = time.perf_counter() + seconds if seconds > 0 else 0.0
        players = range(len(root.sums))
        scale = self._scale
        apply, undo = sim.apply, sim.undo
        random01, getrandbits = rng.random, rng.getrandbits
        log, sqrt, argmax, npsqrt = math.log, math.sqrt, np.argmax, np.sqrt
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
            node = root
            path = [root]
            # selection: descend through fully expanded nodes
            while not node.untried and node.children:
                me = node.player
                inv = 1.0 / scale if scale > 0 else 1.0
                k = c * sqrt(log(node.visits))
                children = node.children
                cn = node.cn
                if cn is None and len(children) >= WIDE:
                    cn = node.cn = np.array([ch.visits for ch in children], dtype=np.float64)
                    node.cw = np.array([ch.sums[me] for ch in children], dtype=np.float64)
                cw = node.cw
                if cn is not None and cw is not None:
                    u = cw * inv
                    u /= cn
                    u += k / npsqrt(cn)
                    node = children[int(argmax(u))]
                else:
                    best_u = -1.0
                    for ch in children:
                        n = ch.visits
                        v = ch.sums[me] * inv / n + k / sqrt(n)
                        if v > best_u:
                            best_u, node = v, ch
                apply(node.action)
                path.append(node)
            # expansion: one untried action, drawn at random
            untried = node.untried
            if untried:
                i = int(random01() * len(untried))
                untried[i], untried[-1] = untried[-1], untried[i]
                a = untried.pop()
                apply(a)
                child = Node(a, len(node.children), sim)
                node.children.append(child)
                node = child
                path.append(node)
            # simulation
            ret = node.returns
            if ret is None:
                ret = leaf_returns(sim, mode, scale, temp, ply_cap, sensible, getrandbits)
            top = max(ret)
            if top > scale:
                scale = top
            # backpropagation
            parent = None
            for nd in path:
                nd.visits += 1
                sums = nd.sums
                for p in players:
                    sums[p] += ret[p]
                if parent is not None:
                    pcn, pcw = parent.cn, parent.cw
                    if pcn is not None and pcw is not None:
                        pcn[nd.index] += 1.0
                        pcw[nd.index] += ret[parent.player]
                parent = nd
            for _ in range(len(path) - 1):
                undo()
        self._scale = scale
        return done
