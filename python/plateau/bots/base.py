"""The bot interface, the bot registry and bot specs ("mcts:iters=2000,c=1.4").

A bot is seeded at construction (the same seed and the same positions give the same choices)
and chooses an action for the player to move. ``select_action`` must leave the state it is
given exactly as it was (work on ``state.clone()`` or undo what it applies). Bots use only the
game-independent state API (``legal_actions``, ``apply``/``undo``/``clone``, ``current_player``,
``is_terminal``, ``returns``, ``hash``, ``heuristic``, ``random_playout``), so they play every
game the library has.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from plateau.checks import check_int, plain_number
from plateau.errors import InvalidArgumentError
from plateau.state import GameState

BOTS: dict[str, type[Bot]] = {}


class Bot(ABC):
    """A seeded action chooser. Subclasses set ``name`` and declare their parameters with
    defaults in ``defaults``; :func:`make_bot` builds them from a spec string."""

    name: ClassVar[str]
    #: parameter name -> default value; a spec may set any of these and nothing else
    defaults: ClassVar[dict[str, Any]] = {}

    def __init__(self, seed: int = 0, **params: Any) -> None:
        unknown = sorted(set(params) - set(self.defaults))
        if unknown:
            raise InvalidArgumentError(
                f"unknown parameter(s) {', '.join(unknown)} for bot {self.name!r}; "
                f"known: {', '.join(self.defaults) or 'none'}"
            )
        self.seed = check_int(seed, "seed", -(2**63), 2**64)
        #: the parameters: ``defaults`` updated by those given
        self.params: dict[str, Any] = {**self.defaults, **params}
        #: a generator seeded with ``seed``, ready for the bot's random choices; it runs on
        #: across games (:meth:`reset` does not rewind it)
        self.rng = random.Random(self.seed)
        #: set by :meth:`stop`; a search that sees it ends, and clears it when it returns
        self._stopping = False

    @abstractmethod
    def select_action(self, state: GameState) -> int:
        """The id of a legal action for the player to move (the state is left unchanged)."""

    def stop(self) -> None:
        """End the search that :meth:`~plateau.bots.Bot.select_action` runs in another thread
        soon, with the best action it has found (thread-safe; ``plateau engine`` calls it on
        ``stop``). The searching bots (``mcts``, ``ismcts``, ``alphabeta``, ``maxn``) look at
        every iteration or node, after at least one, and ``planner`` at each level of its beam
        searches; a stop sent between two searches holds for the next ``select_action`` (the
        planner's may be a move of its plan, played without a search). The other bots answer
        at once anyway."""
        self._stopping = True

    def check_game(self, state: GameState) -> None:
        """Raise ValueError, saying why, if this bot cannot play ``state``'s game (the arena
        and ``plateau play`` ask before the first game). The default plays every game."""
        return None

    def reset(self) -> None:
        """Forget what was learned during a game (called before each new game)."""
        return None

    def search_info(self) -> dict[str, Any]:
        """What the last :meth:`~plateau.bots.Bot.select_action` did, for the arena's
        per-move record: any of ``depth`` (plies searched), ``nodes`` (positions or iterations)
        and ``score`` (its value of the position for the mover, on the bot's own scale). The
        default: nothing."""
        return {}

    def describe(self) -> str:
        """The spec that rebuilds this bot, e.g. ``"mcts:iters=2000"`` (non-default params)."""
        changed = [f"{k}={v}" for k, v in self.params.items() if self.defaults.get(k) != v]
        return self.name + (":" + ",".join(changed) if changed else "")


class StoppableBot(Bot):
    """A bot whose search :meth:`~Bot.stop` ends: a subclass writes ``_select``, which
    looks at ``self._stopping`` as it goes (every iteration or node) and answers with its best
    so far once it is set; :meth:`select_action` clears the stop after each search, so that a
    stop ends one search (one sent between two searches holds for the next)."""

    def select_action(self, state: GameState) -> int:
        try:
            return self._select(state)
        finally:
            self._stopping = False

    @abstractmethod
    def _select(self, state: GameState) -> int:
        """:meth:`select_action`'s search (the stop is cleared when it returns)."""


def outcome_value(returns: Sequence[float], player: int, scale: float) -> float:
    """``scale * (returns[player] - mean(returns))``: the value of a finished game to
    ``player``.

    Centring on the mean makes a win positive and a loss negative, so a bot never prefers
    ending the game in last place to playing on from a slightly worse position (a plain
    ``scale * returns[player]`` would value every loss at 0, above any negative heuristic).
    With two players it is antisymmetric, as negamax needs.
    """
    return scale * (returns[player] - sum(returns) / len(returns))


def static_value(state: GameState, player: int, scale: float) -> float:
    """``player``'s static score of ``state``: :func:`outcome_value` times ``scale`` once the
    game is over (``scale`` puts any result far above any heuristic), else
    ``state.heuristic(player)``."""
    if state.is_terminal():
        return outcome_value(state.returns(), player, scale)
    return state.heuristic(player)


def register_bot(cls: type[Bot]) -> type[Bot]:
    """Class decorator: make a bot available to :func:`make_bot` under ``cls.name``."""
    if cls.name in BOTS:
        raise InvalidArgumentError(f"bot {cls.name!r} is already registered")
    BOTS[cls.name] = cls
    return cls


def check_seconds(value: object) -> float:
    """A bot's ``seconds`` a move: a number in [0, ``plateau.clock.MAX_SECONDS``] (0: no time
    limit), the bound of every other time setting (``seconds=1e300`` was taken)."""
    from plateau.checks import check_number
    from plateau.clock import MAX_SECONDS

    seconds = check_number(value, "seconds")
    if seconds > MAX_SECONDS:
        raise InvalidArgumentError(
            f"seconds must be at most {MAX_SECONDS:,.0f} (0: no time limit), got {seconds!r}"
        )
    return seconds


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if plain_number(text):  # (else text: the bot's own check names the parameter)
        try:
            return int(text)
        except ValueError:
            pass
        try:
            return float(text) + 0.0  # (+ 0.0: -0.0 is 0)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name:key=value,key=value"`` into the name and typed parameters.

    >>> parse_spec("mcts:iters=2000,c=1.4,reuse=true")
    ('mcts', {'iters': 2000, 'c': 1.4, 'reuse': True})
    """
    if not isinstance(spec, str) or not spec.strip():
        raise InvalidArgumentError(
            f"a bot spec is a non-empty string like 'mcts:iters=2000', got {spec!r}"
        )
    name, _, rest = spec.strip().partition(":")
    params: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise InvalidArgumentError(
                f"bad parameter {part!r} in bot spec {spec!r} (expected key=value)"
            )
        if key.strip() in params:  # (the last one silently won)
            raise InvalidArgumentError(
                f"parameter {key.strip()!r} given twice in bot spec {spec!r}"
            )
        params[key.strip()] = _value(value.strip())
    return name.strip(), params


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its spec, e.g. ``make_bot("mcts:seconds=0.5", seed=3)``. A bot of your own
    is named by import path, ``"mypkg.bots:MyBot"`` or ``"mypkg.bots:MyBot:depth=3"`` (a
    :class:`Bot` subclass, or any callable taking ``seed`` and the parameters and returning a
    bot): a spec that does not start with a registered bot's name and whose part after the
    first colon is a name, not ``key=value``."""
    if isinstance(spec, str) and ":" in spec:
        head, _, rest = spec.strip().partition(":")
        attr = rest.partition(":")[0]
        if head not in BOTS and attr and "=" not in attr:
            return _import_bot(spec, seed)
    if isinstance(spec, str) and spec.strip().startswith("engine:"):
        raise InvalidArgumentError(
            f"{spec!r} is an external engine process, which the arena plays "
            "(plateau arena --bots ...), not a bot"
        )
    name, params = parse_spec(spec)
    if name not in BOTS:
        raise InvalidArgumentError(f"unknown bot {name!r}; known bots: {', '.join(sorted(BOTS))}")
    return BOTS[name](seed=seed, **params)


def spec_params(spec: str) -> dict[str, Any]:
    """The parameters a bot spec sets, in either form :func:`make_bot` takes.

    >>> spec_params("mcts:iters=50"), spec_params("mypkg.bots:MyBot:depth=3")
    ({'iters': 50}, {'depth': 3})
    """
    if isinstance(spec, str) and ":" in spec:
        head, _, rest = spec.strip().partition(":")
        attr, _, param_text = rest.partition(":")
        if head not in BOTS and attr and "=" not in attr:
            return parse_spec("x:" + param_text)[1]
    return parse_spec(spec)[1]


def _import_bot(spec: str, seed: int) -> Bot:
    module_name, _, rest = spec.strip().partition(":")
    attr, _, param_text = rest.partition(":")
    if not attr.isidentifier():
        raise InvalidArgumentError(
            f"a bot by import path is 'module.path:Name[:key=value,...]', got {spec!r}"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise InvalidArgumentError(f"bot {spec!r}: cannot import {module_name!r} ({e})") from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise InvalidArgumentError(
            f"bot {spec!r}: {module_name!r} has no bot class or factory {attr!r}"
        )
    _, params = parse_spec("x:" + param_text)
    try:
        bot = factory(seed=seed, **params)
    except TypeError as e:  # (not a factory of bots: os:getcwd takes no seed)
        raise InvalidArgumentError(
            f"bot {spec!r}: {attr} does not make a bot from seed= and the parameters ({e})"
        ) from None
    if not isinstance(bot, Bot):
        raise InvalidArgumentError(f"bot {spec!r}: {attr} returned {type(bot).__name__}, not a Bot")
    return bot


def bot_names() -> list[str]:
    """The names :func:`make_bot` knows."""
    return sorted(BOTS)
