"""Adjudication: the arena ends a two-player game early when its result is no longer in doubt,
and records why (``GameResult.adjudicated``).

- **Resign**: a seat whose reported score has been at most ``-score`` for ``movecount`` of its
  own consecutive moves, while the other seat's has been at least ``+score`` for as many of its
  own, loses (both sides agree, as fastchess and cutechess ask). A move that reports no score
  breaks the run.
- **Draw**: from ply ``movenumber`` on, once every seat has reported ``|score| <= score`` for
  ``movecount`` consecutive moves of its own, the game is drawn.
- **Solver**: after each move from ply ``after`` on, :func:`plateau.solver.solve` looks at the
  position with a budget of ``nodes``; a proven value ends the game with that result (as
  tablebases end chess games). On Albea's Plateau the solver sees the referee's full position.

Scores are on each bot's or engine's own scale (``info score``,
:meth:`plateau.bots.Bot.search_info`), for the player who moved. The ply cap (``ply_cap``) is
not here: the arena scores a game it stops by its ranking then, and records that too.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from plateau.checks import check_int, plain_number, shown
from plateau.errors import InvalidArgumentError
from plateau.state import GameState


def _settings(text: str, what: str, known: dict[str, type]) -> dict[str, Any]:
    """``"movecount=3 score=600"`` (spaces or commas between) as a dict of checked values."""
    if not isinstance(text, str):
        raise InvalidArgumentError(f"{what} settings are text, got {type(text).__name__}")
    out: dict[str, Any] = {}
    for token in text.replace(",", " ").split():
        key, sep, raw = token.partition("=")
        if not sep or key not in known:
            raise InvalidArgumentError(
                f"{what}: {token!r} is not one of {', '.join(k + '=...' for k in known)}"
            )
        if key in out:  # (the last one silently won)
            raise InvalidArgumentError(f"{what}: {key} given twice")
        try:
            if not plain_number(raw):  # (int() and float() read other scripts' digits, 1_0)
                raise ValueError(raw)
            value = known[key](raw) + 0  # (+ 0: -0.0 is 0)
        except ValueError:
            raise InvalidArgumentError(f"{what}: {key} must be a number, got {raw!r}") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidArgumentError(f"{what}: {key} must be finite, got {raw!r}")
        if value < 0 or (key in ("movecount", "nodes") and value < 1):
            raise InvalidArgumentError(f"{what}: {key} must be positive, got {raw!r}")
        top = {"nodes": MAX_SOLVER_NODES, "score": MAX_SCORE}.get(key, 2**31 - 1)
        if value > top:  # (named as the command line names it, not by the field it sets)
            shown_top = f"{top:,}" if isinstance(top, int) else f"{top:g}"
            raise InvalidArgumentError(f"{what}: {key} must be at most {shown_top}, got {raw!r}")
        out[key] = value
    return out


#: the largest score an adjudication takes (a game's evaluations are far smaller; a larger
#: number would never adjudicate, and one beyond a float could not be printed)
MAX_SCORE = 1e15

#: the most nodes the solver may be given per question (what the compiled solver takes)
MAX_SOLVER_NODES = 2**62 - 1


@dataclass(frozen=True)
class Adjudication:
    """Which adjudications an arena applies (None: not that one)."""

    resign_score: float | None = None
    resign_moves: int = 3
    draw_score: float | None = None
    draw_moves: int = 8
    draw_after: int = 40
    solver_nodes: int | None = None
    solver_after: int = 0

    def __post_init__(self) -> None:
        for name in ("resign_score", "draw_score"):
            v = getattr(self, name)
            if v is not None and (
                isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < MAX_SCORE
            ):
                raise InvalidArgumentError(
                    f"{name} must be a number in [0, {MAX_SCORE:g}), got {shown(v)}"
                )
        for name, low in (
            ("resign_moves", 1),
            ("draw_moves", 1),
            ("draw_after", 0),
            ("solver_after", 0),
        ):
            object.__setattr__(self, name, check_int(getattr(self, name), name, low, 2**31))
        if self.solver_nodes is not None:
            nodes = check_int(self.solver_nodes, "solver_nodes", 1, MAX_SOLVER_NODES + 1)
            object.__setattr__(self, "solver_nodes", nodes)

    @classmethod
    def parse(
        cls, resign: str | None = None, draw: str | None = None, solver: str | None = None
    ) -> Adjudication:
        """From the command line's ``--resign "movecount=3 score=600"``, ``--draw
        "movenumber=40 movecount=8 score=10"`` and ``--adjudicate-solver "nodes=20000
        after=20"``."""
        kw: dict[str, Any] = {}
        if resign is not None:
            got = _settings(resign, "--resign", {"movecount": int, "score": float})
            if "score" not in got:
                raise InvalidArgumentError("--resign needs score=S (and movecount=N, default 3)")
            kw["resign_score"], kw["resign_moves"] = got["score"], got.get("movecount", 3)
        if draw is not None:
            got = _settings(draw, "--draw", {"movenumber": int, "movecount": int, "score": float})
            if "score" not in got:
                raise InvalidArgumentError(
                    "--draw needs score=S (and movenumber=M, default 40; movecount=N, default 8)"
                )
            kw["draw_score"] = got["score"]
            kw["draw_moves"] = got.get("movecount", 8)
            kw["draw_after"] = got.get("movenumber", 40)
        if solver is not None:
            got = _settings(solver, "--adjudicate-solver", {"nodes": int, "after": int})
            kw["solver_nodes"] = got.get("nodes", 20_000)
            kw["solver_after"] = got.get("after", 0)
        return cls(**kw)

    @property
    def active(self) -> bool:
        return (
            self.resign_score is not None
            or self.draw_score is not None
            or self.solver_nodes is not None
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def describe(self) -> str:
        parts = []
        if self.resign_score is not None:
            parts.append(f"resign at score {self.resign_score:g} for {self.resign_moves} moves")
        if self.draw_score is not None:
            parts.append(
                f"draw from ply {self.draw_after} at |score| <= {self.draw_score:g} for "
                f"{self.draw_moves} moves"
            )
        if self.solver_nodes is not None:
            parts.append(f"solver ({self.solver_nodes:,} nodes) from ply {self.solver_after}")
        return "; ".join(parts) or "none"

    def judge(self) -> Judge:
        """A fresh judge for one game."""
        return Judge(self)


class Judge:
    """Follows one game's moves and says when it is adjudicated."""

    def __init__(self, rules: Adjudication) -> None:
        self.rules = rules
        self.low = [0, 0]  # consecutive own moves at score <= -resign_score
        self.high = [0, 0]  # ... at score >= +resign_score
        self.near = [0, 0]  # ... at |score| <= draw_score, from draw_after on

    def after_move(
        self, state: GameState, seat: int, score: float | None
    ) -> tuple[list[list[int]], dict[str, Any]] | None:
        """After ``seat`` moved (reporting ``score``, or None) to reach ``state``: None to play
        on, or the ranking the game ends with and the record of why."""
        r = self.rules
        other = 1 - seat
        if r.resign_score is not None:
            s = r.resign_score
            self.low[seat] = self.low[seat] + 1 if score is not None and score <= -s else 0
            self.high[seat] = self.high[seat] + 1 if score is not None and score >= s else 0
            n = r.resign_moves
            for loser in (seat, other):
                if self.low[loser] >= n and self.high[1 - loser] >= n:
                    return [[1 - loser], [loser]], {
                        "by": "resign",
                        "ply": state.ply,
                        "seat": loser,
                    }
        if r.draw_score is not None:
            ok = score is not None and abs(score) <= r.draw_score and state.ply > r.draw_after
            self.near[seat] = self.near[seat] + 1 if ok else 0
            if min(self.near) >= r.draw_moves:
                return [[0, 1]], {"by": "draw", "ply": state.ply}
        if r.solver_nodes is not None and state.ply >= r.solver_after and not state.is_terminal():
            from plateau.solver import solve

            sol = solve(state, nodes=r.solver_nodes)
            if sol.proven:
                me = state.current_player
                ranking = (
                    [[0, 1]]
                    if sol.value == "draw"
                    else [[me], [1 - me]]
                    if sol.value == "win"
                    else [[1 - me], [me]]
                )
                return ranking, {
                    "by": "solver",
                    "ply": state.ply,
                    "player": me,
                    "value": sol.value,
                    "distance": sol.distance,
                    "nodes": sol.nodes,
                }
        return None
