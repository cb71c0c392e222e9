"""Game-playing bots: ``random``, ``greedy``, ``planner``, ``mcts``, ``ismcts``, ``maxn``,
``paranoid`` and ``alphabeta``. Importing this package registers them all; build one with
``make_bot("mcts:iters=2000", seed=1)``."""

from plateau.bots import alphabeta, greedy, ismcts, mcts, planner, random_bot
from plateau.bots.base import (
    BOTS,
    Bot,
    StoppableBot,
    bot_names,
    make_bot,
    parse_spec,
    register_bot,
)

__all__ = [
    "BOTS",
    "Bot",
    "StoppableBot",
    "alphabeta",
    "bot_names",
    "greedy",
    "ismcts",
    "make_bot",
    "mcts",
    "parse_spec",
    "planner",
    "random_bot",
    "register_bot",
]
