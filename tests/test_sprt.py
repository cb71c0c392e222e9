"""The SPRT: its LLR against an independent constrained maximisation, its error rates by
simulation from known pentanomial and trinomial distributions, and the arena playing game pairs
until it decides (from Python and the command line, with resume and reports from the file)."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

import plateau
from plateau import arena
from plateau.bots import Bot
from plateau.cli import main
from plateau.openings import OpeningSource
from plateau.sprt import EPSILON, SPRT, SPRTCounter, expected_score, llr
from support import without_costs

# -- the LLR against a straightforward computation ----------------------------------------------


def _reference_mle(counts: list[float], s: float) -> np.ndarray:
    """Maximise sum n_i log q_i over distributions q with mean score s, by damped Newton steps
    inside the affine set {sum q = 1, sum a q = s} (a basis of its directions from an SVD):
    the log-likelihood is concave, so this finds the maximum without the Lagrange form."""
    n = np.array(counts, dtype=float)
    k = len(counts)
    a = np.arange(k) / (k - 1)
    constraints = np.vstack([np.ones(k), a])
    basis = np.linalg.svd(constraints)[2][2:].T  # k x (k-2): the directions keeping both sums
    # a feasible start: half uniform (mean 1/2), half on the two extreme outcomes
    q = 0.5 * np.ones(k) / k
    q[-1] += 0.5 * (2 * s - 0.5)
    q[0] += 0.5 * (1.5 - 2 * s)
    assert np.all(q > 0) and math.isclose(q @ a, s)

    def value(x: np.ndarray) -> float:
        return float(n @ np.log(x))

    for _ in range(200):
        grad = basis.T @ (n / q)
        hess = -basis.T @ np.diag(n / q**2) @ basis
        step = basis @ np.linalg.solve(hess, -grad)
        t = 1.0
        while np.any(q + t * step <= 0) or value(q + t * step) < value(q) - 1e-15:
            t /= 2
            if t < 1e-12:
                return q
        q = q + t * step
        if np.max(np.abs(t * step)) < 1e-14:
            break
    return q


def _reference_llr(counts: list[float], elo0: float, elo1: float) -> float:
    regular = [max(c, EPSILON) for c in counts]
    q0 = _reference_mle(regular, expected_score(elo0))
    q1 = _reference_mle(regular, expected_score(elo1))
    return float(np.dot(regular, np.log(q1 / q0)))


@pytest.mark.parametrize(
    ("counts", "elo0", "elo1"),
    [
        ([10, 20, 40, 20, 10], 0, 10),
        ([3, 41, 118, 52, 9], 0, 10),
        ([3, 41, 118, 52, 9], -5, 5),
        ([0, 12, 30, 25, 0], 0, 20),  # empty outcomes: the regularised counts
        ([1, 0, 0, 0, 50], 0, 10),
        ([50, 0, 0, 0, 1], -20, 20),
        ([120, 60, 140], 0, 10),  # trinomial: losses, draws, wins
        ([10, 0, 90], 0, 50),
        ([0, 0, 7], 0, 10),
    ],
)
def test_llr_matches_a_direct_constrained_maximisation(
    counts: list[float], elo0: float, elo1: float
) -> None:
    assert llr(counts, elo0, elo1) == pytest.approx(_reference_llr(counts, elo0, elo1), abs=1e-7)


def test_llr_basic_properties() -> None:
    assert llr([0, 0, 0, 0, 0], 0, 10) == 0.0
    # results at exactly the midpoint score favour neither hypothesis symmetric around it
    assert llr([10, 20, 40, 20, 10], -10, 10) == pytest.approx(0.0, abs=1e-12)
    # strong results for A favour H1, weak ones H0; twice the games, twice the evidence
    assert llr([2, 10, 40, 30, 18], 0, 10) > 0 > llr([18, 30, 40, 10, 2], 0, 10)
    c = [2, 10, 40, 30, 18]
    assert llr([2 * x for x in c], 0, 10) == pytest.approx(2 * llr(c, 0, 10))
    with pytest.raises(ValueError, match=r"3 .* or 5"):
        llr([1, 2, 3, 4], 0, 10)
    with pytest.raises(ValueError, match="negative"):
        llr([1, -2, 3], 0, 10)


def test_sprt_settings_bounds_and_parsing() -> None:
    t = SPRT(elo0=0, elo1=10, alpha=0.05, beta=0.05)
    lower, upper = t.bounds
    assert lower == pytest.approx(math.log(0.05 / 0.95))
    assert upper == pytest.approx(math.log(0.95 / 0.05))
    assert SPRT(alpha=0.01, beta=0.2).bounds == pytest.approx(
        (math.log(0.2 / 0.99), math.log(0.8 / 0.01))
    )
    assert (t.decision(upper), t.decision(lower), t.decision(0.0)) == ("H1", "H0", None)
    assert SPRT.parse("elo0=0 elo1=10 alpha=0.05 beta=0.05") == t
    assert SPRT.parse(["elo0=-3,elo1=2", "model=trinomial"]) == SPRT(-3, 2, model="trinomial")
    assert SPRT.parse(t.describe()) == t
    # (``:g`` kept six digits: alpha 0.4999999 came back as 0.5, which is refused)
    odd = SPRT(elo0=-1.2345678, elo1=1 / 3, alpha=0.4999999, beta=1e-9)
    assert SPRT.parse(odd.describe()) == odd
    assert SPRT(-2000, 2000).elo1 == 2000.0
    assert all(math.isfinite(b) for b in SPRT(alpha=1e-300, beta=1e-7).bounds)
    with pytest.raises(ValueError, match="finite"):
        SPRT(0, 10**400)
    for bad, message in [
        ("elo0=10 elo1=0", "elo0 < elo1"),
        ("alpha=0.7", "alpha"),
        ("beta=0", "beta"),
        ("alpha=5e-324", "alpha 5e-324 is too small: its bound is infinite"),
        ("beta=1e-310", "beta 1e-310 is too small"),
        ("elo1=x", "not a number"),
        ("gamma=1", "not elo0="),
        ("elo1", "not elo0="),
        ("model=binomial", "unknown SPRT model"),
        ("elo1=inf", "finite"),
        ("elo1=1e308", r"in \[-2000, 2000\]"),  # (a ZeroDivisionError before)
        ("elo0=-2001", r"in \[-2000, 2000\]"),
    ]:
        with pytest.raises(ValueError, match=message):
            SPRT.parse(bad)


def test_counter_adds_pairs_and_stops_at_the_decision() -> None:
    c = SPRTCounter(SPRT(elo0=0, elo1=200))
    c.add_pair(1.0, 0.5)
    c.add_pair(0.0, 1.0)
    c.add_pair(0.5, 0.5)
    assert c.pentanomial == [0, 0, 2, 1, 0] and c.trinomial == [1, 3, 2]
    assert c.llr == pytest.approx(llr([0, 0, 2, 1, 0], 0, 200))
    while c.add_pair(1.0, 1.0) is None:
        pass
    assert c.decision == "H1" and c.llr >= c.sprt.bounds[1]
    assert "H1 accepted" in c.state().format()
    with pytest.raises(ValueError, match="already decided"):
        c.add_pair(1.0, 1.0)
    with pytest.raises(ValueError, match=r"0, 0\.5 or 1"):
        SPRTCounter(SPRT()).add_pair(0.25, 1.0)
    assert SPRTCounter(SPRT()).state(exhausted=True).decision == "inconclusive"


# -- error rates by simulation ------------------------------------------------------------------

#: the shape of a pentanomial distribution at equal strength (bot A's pair score 0 .. 2): pairs
#: of games are correlated (the two seat orders), so this is not two independent games
_SHAPE = [0.06, 0.22, 0.44, 0.22, 0.06]


def _tilted(shape: list[float], score: float) -> list[float]:
    """``shape`` exponentially tilted to mean per-game score ``score`` (outcome i scores
    i / (n - 1)): a known distribution with that expectation, not of the LLR's own family."""
    a = [i / (len(shape) - 1) for i in range(len(shape))]

    def dist(theta: float) -> list[float]:
        w = [p * math.exp(theta * x) for p, x in zip(shape, a)]
        return [x / sum(w) for x in w]

    lo, hi = -50.0, 50.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if sum(p * x for p, x in zip(dist(mid), a)) < score:
            lo = mid
        else:
            hi = mid
    return dist(0.5 * (lo + hi))


def _simulate(sprt: SPRT, probs: list[float], runs: int, rng: random.Random) -> dict[str, int]:
    """Run ``runs`` tests on outcomes drawn from ``probs`` (5 per pair or 3 per game; for the
    trinomial model, two games a pair), up to 5000 pairs each; how often each decision."""
    outcomes = list(range(len(probs)))
    cum = np.cumsum(probs).tolist()
    per_step = 1 if len(probs) == 5 else 2
    tally = {"H0": 0, "H1": 0, "inconclusive": 0}
    for _ in range(runs):
        counts = [0] * len(probs)
        decision = None
        for _ in range(5000):
            for o in rng.choices(outcomes, cum_weights=cum, k=per_step):
                counts[o] += 1
            decision = sprt.decision(sprt.llr(counts))
            if decision is not None:
                break
        tally[decision or "inconclusive"] += 1
    return tally


def _check_rates(sprt: SPRT, probs0: list[float], probs1: list[float], runs: int) -> None:
    rng = random.Random(12345)
    at_h0 = _simulate(sprt, probs0, runs, rng)
    at_h1 = _simulate(sprt, probs1, runs, rng)
    assert at_h0["inconclusive"] == at_h1["inconclusive"] == 0
    # accepting H1 when the true Elo is elo0 happens with chance at most alpha (the GSPRT's
    # overshoot past the bounds makes it a little less), and H0 at elo1 at most beta: the
    # observed rates are within 3 standard errors of that, and not far below it either
    for rate, nominal in ((at_h0["H1"] / runs, sprt.alpha), (at_h1["H0"] / runs, sprt.beta)):
        se = math.sqrt(nominal * (1 - nominal) / runs)
        assert nominal / 3 - 3 * se < rate < nominal + 3 * se, (rate, nominal, at_h0, at_h1)


def test_pentanomial_error_rates_match_alpha_and_beta() -> None:
    sprt = SPRT(elo0=0, elo1=40, alpha=0.1, beta=0.1)
    probs0 = _tilted(_SHAPE, expected_score(sprt.elo0))
    probs1 = _tilted(_SHAPE, expected_score(sprt.elo1))
    _check_rates(sprt, probs0, probs1, runs=300)


def _games(elo: float, draws: float) -> list[float]:
    s = expected_score(elo)
    return [1 - s - draws / 2, draws, s - draws / 2]  # loss, draw, win


def test_trinomial_error_rates_match_alpha_and_beta() -> None:
    sprt = SPRT(elo0=0, elo1=40, alpha=0.1, beta=0.1, model="trinomial")
    _check_rates(sprt, _games(0, 0.4), _games(40, 0.4), runs=300)


@pytest.mark.slow
def test_error_rates_in_a_bigger_run() -> None:
    sprt = SPRT(elo0=-10, elo1=20, alpha=0.05, beta=0.05)
    probs0 = _tilted(_SHAPE, expected_score(sprt.elo0))
    probs1 = _tilted(_SHAPE, expected_score(sprt.elo1))
    _check_rates(sprt, probs0, probs1, runs=2000)
    tri = SPRT(elo0=-10, elo1=20, alpha=0.05, beta=0.05, model="trinomial")
    _check_rates(tri, _games(-10, 0.3), _games(20, 0.3), runs=1000)


# -- the arena ----------------------------------------------------------------------------------


class _Resigns(Bot):
    """Answers an out-of-range action: forfeits every game."""

    name: ClassVar[str] = "test-resigns"

    def select_action(self, state: plateau.GameState) -> int:
        return state.num_distinct_actions


FAST = SPRT(elo0=0, elo1=200, alpha=0.05, beta=0.05)


def test_arena_plays_pairs_until_h1_and_reports_from_the_file(tmp_path: Path) -> None:
    out = tmp_path / "sprt.jsonl"
    res = arena.run("plateau-x", "mini", ["greedy", "random"], 400, seed=2, out=out, sprt=FAST)
    state = res.sprt_state()
    assert state is not None and state.decision == "H1"
    assert state.llr >= FAST.bounds[1] and 2 * state.pairs < 400
    # the results stop at the decision, in whole pairs, each pair both seat orders
    assert [r.index for r in res.results] == list(range(2 * state.pairs))
    assert [r.seats for r in res.results[:2]] == [["greedy", "random"], ["random", "greedy"]]
    # the counts are those of the games, pair by pair
    penta = [0] * 5
    for k in range(state.pairs):
        pair = res.results[2 * k : 2 * k + 2]
        penta[int(2 * sum(arena.score_of(r, 0, 2) for r in pair))] += 1
    assert state.pentanomial == penta and state.llr == pytest.approx(FAST.llr(penta))
    table = res.format_table()
    assert "H1 accepted after" in table and f"LLR {state.llr:.2f} (-2.94, 2.94)" in table
    assert arena.report(out).format_table() == table
    # resuming a decided test plays nothing more
    again = arena.run(
        "plateau-x", "mini", ["greedy", "random"], 400, seed=2, out=out, resume=True, sprt=FAST
    )
    assert again.format_table() == table
    with pytest.raises(ValueError, match="another arena setup"):
        arena.run(
            "plateau-x", "mini", ["greedy", "random"], 400, seed=2, out=out, resume=True,
            sprt=SPRT(elo0=0, elo1=100),
        )  # fmt: skip


def test_sprt_pairs_share_their_opening(tmp_path: Path) -> None:
    out = tmp_path / "sprt.jsonl"
    openings = OpeningSource(random_plies=4)
    bots = ["greedy", "random"]
    res = arena.run("plateau-x", "mini", bots, 400, seed=2, out=out, sprt=FAST, openings=openings)
    state = res.sprt_state()
    assert state is not None and state.decision == "H1"
    assert [r.index for r in res.results] == list(range(2 * state.pairs))
    for k in range(state.pairs):
        first, second = res.results[2 * k : 2 * k + 2]
        assert first.opening == second.opening == k
        assert first.record["actions"][:4] == second.record["actions"][:4]
        assert first.seats == second.seats[::-1]
    assert len({tuple(r.record["actions"][:4]) for r in res.results}) == state.pairs
    assert arena.report(out).format_table() == res.format_table()
    again = arena.run(
        "plateau-x", "mini", bots, 400, seed=2, out=out, resume=True, sprt=FAST, openings=openings
    )
    assert again.format_table() == res.format_table()


def test_the_decision_does_not_depend_on_the_workers() -> None:
    one = arena.run("plateau-x", "mini", ["greedy", "random"], 400, seed=5, sprt=FAST)
    two = arena.run("plateau-x", "mini", ["greedy", "random"], 400, seed=5, jobs=2, sprt=FAST)
    assert without_costs(one.format_table()) == without_costs(two.format_table())
    assert "seconds a move" in one.format_table()


def test_weaker_first_bot_and_forfeits_accept_h0() -> None:
    res = arena.run("plateau-x", "mini", ["random", "greedy"], 400, seed=3, sprt=FAST)
    state = res.sprt_state()
    assert state is not None and state.decision == "H0"
    # a forfeit is a lost game: a bot that forfeits every game loses every pair
    res = arena.run("plateau-x", "mini", [_Resigns, "random"], 400, seed=3, sprt=FAST)
    state = res.sprt_state()
    assert state is not None and state.decision == "H0"
    assert state.pentanomial[0] == state.pairs and all(r.forfeit for r in res.results)


def test_games_running_out_is_inconclusive(tmp_path: Path) -> None:
    out = tmp_path / "short.jsonl"
    sprt = SPRT(elo0=0, elo1=10, model="trinomial")
    res = arena.run("plateau-x", "mini", ["random", "random"], 6, seed=1, out=out, sprt=sprt)
    state = res.sprt_state()
    assert state is not None and state.decision == "inconclusive" and state.pairs == 3
    assert sum(state.trinomial) == 6 and len(res.results) == 6
    assert "inconclusive after 3 pairs (6 games)" in res.format_table()
    assert arena.report(out).format_table() == res.format_table()


def test_an_inconclusive_test_resumed_with_more_games_decides(tmp_path: Path) -> None:
    out = tmp_path / "more.jsonl"
    bots = ["greedy", "random"]
    short = arena.run("plateau-x", "mini", bots, 2, seed=4, out=out, sprt=FAST)
    assert short.sprt_state().decision == "inconclusive"  # type: ignore[union-attr]
    longer = arena.run("plateau-x", "mini", bots, 400, seed=4, out=out, resume=True, sprt=FAST)
    state = longer.sprt_state()
    assert state is not None and state.decision == "H1"
    assert longer.results[:2] == short.results
    assert arena.report(out).format_table() == longer.format_table()


def test_arena_refuses_what_an_sprt_cannot_test() -> None:
    with pytest.raises(ValueError, match="two bots"):
        arena.run("plateau-x", "standard", ["random"] * 4, 10, sprt=FAST)
    with pytest.raises(ValueError, match="even"):
        arena.run("plateau-x", "mini", ["random", "random"], 7, sprt=FAST)
    with pytest.raises(ValueError, match=r"plateau\.sprt\.SPRT"):
        arena.run("plateau-x", "mini", ["random", "random"], 8, sprt="elo1=5")  # type: ignore[arg-type]


def test_cli_sprt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli.jsonl"
    argv = ["arena", "--game", "plateau-x", "--variant", "mini", "--bots", "greedy,random"]
    argv += ["--jobs", "1", "--seed", "2", "--no-progress", "--out", str(out)]
    assert main([*argv, "--sprt", "elo0=0", "elo1=200", "alpha=0.05", "beta=0.05"]) == 0
    printed = capsys.readouterr().out
    assert "SPRT elo0=0 elo1=200 alpha=0.05 beta=0.05 model=pentanomial" in printed
    assert "H1 accepted after" in printed
    assert main(["arena-report", str(out)]) == 0
    assert capsys.readouterr().out == printed
    assert main([*argv[:-2], "--sprt", "elo0=5", "elo1=1"]) == 2
    assert "elo0 < elo1" in capsys.readouterr().err


def test_an_sprt_progress_bar_shows_the_test_not_an_eta_to_its_maximum(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    totals: list[int | None] = []
    postfixes: list[str] = []

    class Bar:
        def __init__(self, stream: Any, total: int | None) -> None:
            self.stream, self.total = stream, total
            totals.append(total)

        def __iter__(self) -> Any:
            return iter(self.stream)

        def set_postfix_str(self, text: str, refresh: bool = True) -> None:
            postfixes.append(text)

        def close(self) -> None:
            pass

    monkeypatch.setattr(arena, "_tqdm", Bar)
    arena.run(
        "plateau-x", "mini", ["greedy", "random"], 2000, progress=True, sprt=SPRT(elo0=0, elo1=50)
    )
    assert totals == [None] and postfixes
    assert postfixes[-1].startswith("LLR ") and "of bounds (-2.94, 2.94)" in postfixes[-1]
    arena.run("plateau-x", "mini", ["greedy", "random"], 6, progress=True)
    assert totals == [None, 6]  # without a test, the bar counts toward the games asked for
