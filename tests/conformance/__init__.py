"""The conformance suite: one set of API tests run over every registered game and variant.

Every test here asks only the registry (``plateau.games()``, ``plateau.variants(g)``,
``plateau.game_info(g)`` for capabilities) and the public API; no test names a game, so a game
that registers gets all of it. Fixtures live in ``conftest.py``, helpers in ``support.py``.
"""
