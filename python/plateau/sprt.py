"""The sequential probability ratio test (SPRT) of the arena: is bot A stronger than bot B by
``elo1`` Elo (H1) rather than by ``elo0`` (H0)? Games are played until the log-likelihood ratio
leaves the interval ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``.

The LLR is the generalized SPRT of fishtest and fastchess in logistic Elo: the results are
counted per game pair (pentanomial: pair scores 0, 1/2, 1, 3/2, 2 of bot A) or per game
(trinomial: loss, draw, win), and under each hypothesis the distribution of those outcomes is the
maximum-likelihood one among all whose expected score per game is ``1 / (1 + 10 ** (-elo / 400))``.
``docs/sprt.md`` gives the model and how the arena forms pairs.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from plateau.checks import check_number, number_text, plain_number, shown
from plateau.errors import InvalidArgumentError

#: the largest Elo difference an SPRT bound may name (a bot 2,000 Elo stronger is expected to
#: score 0.99999)
MAX_ELO = 2000

#: the test models: outcomes counted per game pair (5 outcomes) or per game (3 outcomes)
MODELS = ("pentanomial", "trinomial")

#: what replaces a count of zero (as fishtest does): the constrained maximum-likelihood
#: distribution needs every outcome possible, and a run of only wins would otherwise give an
#: infinite ratio
EPSILON = 1e-3

#: the largest game or pair count an LLR takes (an arena plays at most 10**9 games)
MAX_COUNT = 1e12


def expected_score(elo: float) -> float:
    """The expected score per game of a bot ``elo`` Elo stronger (the logistic curve).

    >>> expected_score(0.0)
    0.5
    >>> round(expected_score(400.0), 4)
    0.9091
    """
    elo = check_number(elo, "elo", -math.inf)
    # (10 ** 300 and beyond: a score of 0 to a float; math.pow overflowed past 10 ** 308)
    return 1.0 / (1.0 + math.pow(10.0, min(-elo / 400.0, 300.0)))


def _constrained_mle(probs: Sequence[float], scores: Sequence[float], s: float) -> list[float]:
    """The distribution over ``scores`` nearest (in likelihood) to the observed ``probs`` among
    those with mean ``s``: ``q_i = p_i / (1 + lam * (a_i - s))``, where ``lam`` solves
    ``sum p_i (a_i - s) / (1 + lam (a_i - s)) = 0`` (a Lagrange multiplier; the left side
    falls strictly on the interval where every ``q_i`` is positive, so the root is unique)."""
    d = [a - s for a in scores]
    # the root lies strictly inside (lo, hi), where 1 + lam * d_i > 0 for every i
    lo, hi = -1.0 / max(d), -1.0 / min(d)
    lam = 0.0
    for _ in range(200):  # safeguarded Newton: converges in a handful of steps
        f = sum(p * di / (1.0 + lam * di) for p, di in zip(probs, d))
        if f == 0.0:
            break
        df = -sum(p * di * di / (1.0 + lam * di) ** 2 for p, di in zip(probs, d))
        step = f / df
        if abs(step) <= 1e-15 * (1.0 + abs(lam)):
            break
        if f > 0.0:  # f falls: the root is above lam
            lo = lam
        else:
            hi = lam
        lam -= step
        if not lo < lam < hi:  # Newton left the bracket: bisect instead
            lam = 0.5 * (lo + hi)
    return [p / (1.0 + lam * di) for p, di in zip(probs, d)]


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for outcome ``counts``
    worst to best: 5 counts of game pairs (bot A's pair score 0, 1/2, 1, 3/2, 2) or 3 counts of
    games (loss, draw, win). No results at all give 0.

    >>> round(llr([10, 20, 40, 20, 10], 0, 10), 4)  # a pair score of exactly 1 on average
    -0.1379
    >>> llr([0, 0, 0], 0, 10)
    0.0
    """
    if (
        isinstance(counts, (str, bytes))
        or not isinstance(counts, Sequence)
        or len(counts) not in (3, 5)
        or not all(isinstance(c, numbers.Real) and not isinstance(c, bool) for c in counts)
    ):
        raise InvalidArgumentError(
            f"counts are 3 (per game) or 5 (per pair) numbers, got {shown(counts)}"
        )
    if any(not 0 <= c <= MAX_COUNT for c in counts):
        raise InvalidArgumentError(
            f"counts cannot be negative or above {MAX_COUNT:g}, got {shown(counts)}"
        )
    elo0 = check_number(elo0, "elo0", -MAX_ELO)
    elo1 = check_number(elo1, "elo1", -MAX_ELO)
    if max(elo0, elo1) > MAX_ELO:
        raise InvalidArgumentError(f"elo0 and elo1 are at most {MAX_ELO:g}")
    if sum(counts) == 0:
        return 0.0
    regular = [max(float(c), EPSILON) for c in counts]
    n = sum(regular)
    probs = [c / n for c in regular]
    scores = [i / (len(counts) - 1) for i in range(len(counts))]
    q0 = _constrained_mle(probs, scores, expected_score(elo0))
    q1 = _constrained_mle(probs, scores, expected_score(elo1))
    return n * sum(p * math.log(b / a) for p, a, b in zip(probs, q0, q1))


_TOKEN = re.compile(r"[\s,]+")


@dataclass(frozen=True)
class SPRT:
    """The settings of one test: H0 is "bot A is ``elo0`` Elo stronger than bot B", H1 is
    "``elo1`` Elo stronger"; ``alpha`` is the chance of accepting H1 when H0 holds, ``beta``
    that of accepting H0 when H1 holds.

    >>> t = SPRT(elo0=0, elo1=10, alpha=0.05, beta=0.05)
    >>> [round(b, 3) for b in t.bounds]
    [-2.944, 2.944]
    >>> t.decision(3.1), t.decision(0.0), t.decision(-3.0)
    ('H1', None, 'H0')
    """

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "pentanomial"

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise InvalidArgumentError(f"SPRT {name} must be a number, got {shown(value)}")
            if not (isinstance(value, float) or abs(value) < 2**64) or not math.isfinite(value):
                raise InvalidArgumentError(f"SPRT {name} must be finite, got {shown(value)}")
            if name.startswith("elo") and not -MAX_ELO <= value <= MAX_ELO:
                # (beyond, the expected scores round to 0 or 1 and the test has nothing to tell)
                raise InvalidArgumentError(
                    f"SPRT {name} must be in [-{MAX_ELO}, {MAX_ELO}] Elo, got {shown(value)}"
                )
            object.__setattr__(self, name, float(value))
        if not self.elo0 < self.elo1:
            raise InvalidArgumentError(
                f"SPRT needs elo0 < elo1, got elo0={self.elo0:g} elo1={self.elo1:g}"
            )
        for name in ("alpha", "beta"):
            if not 0.0 < getattr(self, name) < 0.5:
                raise InvalidArgumentError(
                    f"SPRT {name} must be in (0, 0.5), got {getattr(self, name)!r}"
                )
        for name, other in (("alpha", "beta"), ("beta", "alpha")):
            # (alpha=5e-324 made (1 - beta) / alpha overflow: an infinite upper bound, a test
            # that could never accept H1)
            if not math.isfinite((1.0 - getattr(self, other)) / getattr(self, name)):
                raise InvalidArgumentError(
                    f"SPRT {name} {getattr(self, name)!r} is too small: its bound is infinite"
                )
        if not isinstance(self.model, str) or self.model not in MODELS:
            raise InvalidArgumentError(f"unknown SPRT model {self.model!r} ({' or '.join(MODELS)})")

    @classmethod
    def parse(cls, text: str | Sequence[str]) -> SPRT:
        """From ``"elo0=0 elo1=10 alpha=0.05 beta=0.05"`` (spaces or commas; any key left out
        keeps its default; ``model=trinomial`` counts games instead of pairs).

        >>> SPRT.parse("elo0=0 elo1=5 model=trinomial")
        SPRT(elo0=0.0, elo1=5.0, alpha=0.05, beta=0.05, model='trinomial')
        """
        if isinstance(text, str):
            tokens = [text]
        elif isinstance(text, Sequence) and all(isinstance(t, str) for t in text):
            tokens = list(text)
        else:
            raise InvalidArgumentError(f"SPRT settings are text, got {type(text).__name__}")
        values: dict[str, Any] = {}
        for token in (t for chunk in tokens for t in _TOKEN.split(chunk) if t):
            key, eq, value = token.partition("=")
            if not eq or key not in ("elo0", "elo1", "alpha", "beta", "model"):
                raise InvalidArgumentError(
                    f"SPRT setting {token!r} is not elo0=, elo1=, alpha=, beta= or model="
                )
            if key in values:  # (the last one silently won)
                raise InvalidArgumentError(f"SPRT setting {key} given twice")
            if key == "model":
                values[key] = value
                continue
            try:
                if not plain_number(value):  # (float() reads other scripts' digits and 1_0)
                    raise ValueError(value)
                values[key] = float(value) + 0.0  # (+ 0.0: -0.0 is 0)
            except ValueError:
                raise InvalidArgumentError(
                    f"SPRT setting {token!r}: {value!r} is not a number"
                ) from None
        return cls(**values)

    def describe(self) -> str:
        """``"elo0=0 elo1=10 alpha=0.05 beta=0.05 model=pentanomial"``, which :meth:`parse`
        reads back."""
        return (
            f"elo0={number_text(self.elo0)} elo1={number_text(self.elo1)} "
            f"alpha={number_text(self.alpha)} beta={number_text(self.beta)} model={self.model}"
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def bounds(self) -> tuple[float, float]:
        """The LLR at or below which H0 is accepted, and at or above which H1 is."""
        return math.log(self.beta / (1.0 - self.alpha)), math.log((1.0 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[float]) -> float:
        """The LLR of these outcome counts (5 pair counts or 3 game counts, worst first)."""
        return llr(counts, self.elo0, self.elo1)

    def decision(self, value: float) -> str | None:
        """``"H1"``, ``"H0"`` or ``None`` (keep playing) for an LLR ``value``."""
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or value != value:
            raise InvalidArgumentError(f"an LLR is a number, got {shown(value)}")
        lower, upper = self.bounds
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None


@dataclass
class SPRTState:
    """Where a test stands after some game pairs: the counts of its model, the LLR and the
    decision (``"H1"``, ``"H0"``, ``"inconclusive"`` when the games ran out, or ``None``)."""

    sprt: SPRT
    pairs: int
    #: pair scores 0, 1/2, 1, 3/2, 2 of bot A (counted whatever the model)
    pentanomial: list[int]
    #: games lost, drawn, won by bot A
    trinomial: list[int]
    llr: float
    decision: str | None

    def format(self) -> str:
        """One line: ``LLR 2.96 (-2.94, 2.94): H1 accepted after 40 pairs (80 games)``."""
        lower, upper = self.sprt.bounds
        head = f"LLR {self.llr:.2f} ({lower:.2f}, {upper:.2f})"
        tail = f"{self.pairs} pairs ({2 * self.pairs} games)"
        if self.decision in ("H0", "H1"):
            return f"{head}: {self.decision} accepted after {tail}"
        if self.decision == "inconclusive":
            return f"{head}: inconclusive after {tail} (the maximum number of games)"
        return f"{head}: running, {tail}"


class SPRTCounter:
    """Adds game pairs one at a time, in order, and stops at the first decision."""

    def __init__(self, sprt: SPRT) -> None:
        self.sprt = sprt
        self.pentanomial = [0, 0, 0, 0, 0]
        self.trinomial = [0, 0, 0]
        self.pairs = 0
        self.llr = 0.0
        self.decision: str | None = None

    def add_pair(self, first: float, second: float) -> str | None:
        """Bot A's scores (0, 1/2 or 1) in the two games of the next pair; the decision."""
        if self.decision is not None:
            raise InvalidArgumentError(f"the test has already decided ({self.decision})")
        for score in (first, second):
            if score not in (0.0, 0.5, 1.0):
                raise InvalidArgumentError(f"a game score is 0, 0.5 or 1, got {score!r}")
            self.trinomial[int(2 * score)] += 1
        self.pentanomial[int(2 * (first + second))] += 1
        self.pairs += 1
        counts = self.pentanomial if self.sprt.model == "pentanomial" else self.trinomial
        self.llr = self.sprt.llr(counts)
        self.decision = self.sprt.decision(self.llr)
        return self.decision

    def state(self, exhausted: bool = False) -> SPRTState:
        """The test as it stands; ``exhausted``: no more games will come (so an undecided
        test is inconclusive)."""
        decision = self.decision
        if decision is None and exhausted:
            decision = "inconclusive"
        return SPRTState(
            self.sprt, self.pairs, list(self.pentanomial), list(self.trinomial), self.llr, decision
        )
