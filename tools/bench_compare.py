"""Before and after for every row of ``plateau bench``: run two installations' ``plateau bench``
in turn, ``--runs`` times each, and print one Markdown table per game with each row's median
(and range) before and after, the change, and the after-run's ratio and verdict.

    python tools/bench_compare.py --before /tmp/before/.venv/bin/plateau \\
        --after .venv/bin/plateau --runs 3 --game plateau-x --game albea-plateau \\
        -- --yardstick ../shared/bin/plateau-x-yardstick

Arguments after ``--`` go to every ``plateau bench`` call (a ``--yardstick`` is passed only
with ``--game plateau-x``, the one game that has a yardstick program). Rows are matched by
their measure text; a row only one side has shows ``-`` on the other. The runs alternate
(before, after, before, ...) so that a machine that slows down or speeds up affects both.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys

ROW = re.compile(r"^\| (?P<measure>.+?) \| (?P<ours>[\d,.]+) \| (?P<rest>.*)\|\s*$")


def parse(table: str) -> dict[str, tuple[float, str, str]]:
    """measure -> (our figure, ratio, verdict) of one ``plateau bench`` report."""
    rows: dict[str, tuple[float, str, str]] = {}
    for line in table.splitlines():
        m = ROW.match(line)
        if not m or m["measure"] == "measure":
            continue
        cells = [c.strip() for c in m["rest"].split("|")]
        ratio = cells[1] if len(cells) > 1 else ""
        verdict = cells[3] if len(cells) > 3 else ""
        rows[m["measure"]] = (float(m["ours"].replace(",", "")), ratio, verdict)
    return rows


def run(plateau: str, game: str, extra: list[str]) -> dict[str, tuple[float, str, str]]:
    args = [plateau, "bench", "--game", game]
    if game == "plateau-x" or "--yardstick" not in extra:
        args += extra
    else:  # the yardstick option is Plateau X's alone
        i = extra.index("--yardstick")
        args += extra[:i] + extra[i + 2 :]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return parse(out)


def span(values: list[float]) -> str:
    if not values:
        return "-"
    med = statistics.median(values)
    return f"{med:,.0f} ({min(values):,.0f}-{max(values):,.0f})"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    extra: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1 :]
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--before", required=True, help="the plateau command of the earlier build")
    p.add_argument("--after", required=True, help="the plateau command of the later build")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--game", action="append", required=True)
    a = p.parse_args(argv)
    for game in a.game:
        before: list[dict[str, tuple[float, str, str]]] = []
        after: list[dict[str, tuple[float, str, str]]] = []
        for i in range(a.runs):
            print(f"{game}: run {i + 1} of {a.runs}", file=sys.stderr)
            before.append(run(a.before, game, extra))
            after.append(run(a.after, game, extra))
        measures = list(after[-1]) + [m for m in before[-1] if m not in after[-1]]
        print(f"\n### {game}: median (range) of {a.runs} runs each\n")
        print("| measure | before | after | change | after: ratios | after: verdicts |")
        print("|---|---:|---:|---:|---|---|")
        for m in measures:
            b = [r[m][0] for r in before if m in r]
            f = [r[m][0] for r in after if m in r]
            change = (
                f"{statistics.median(f) / statistics.median(b) - 1:+.0%}"
                if b and f and statistics.median(b)
                else "-"
            )
            ratios = ", ".join(r[m][1] for r in after if m in r and r[m][1] != "-") or "-"
            verdicts = ", ".join(r[m][2] for r in after if m in r and r[m][2]) or "-"
            print(f"| {m} | {span(b)} | {span(f)} | {change} | {ratios} | {verdicts} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
