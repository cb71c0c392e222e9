#!/usr/bin/env bash
# The first player's advantage in every variant (docs/bots-and-arena.md, "The first player's
# advantage"): the strongest library bot of each game in every seat, 400 games a variant, seats
# rotated, each group of seat rotations from its own few random plies; one arena after another
# on one core. Each arena's report (with its table by seat) goes to OUT/GAME-VARIANT.txt and its
# games to OUT/GAME-VARIANT.jsonl (`plateau arena-report OUT/GAME-VARIANT.jsonl` re-tabulates
# them); OUT/times.txt gets the seconds each took, and OUT/summary.md the table of the docs (each
# seat's win rate with its Wilson 95% interval, and seat 0's counting each opening once).
#
#   bash tools/first_player.sh [OUT]     # all nine variants (about 45 minutes of one core)
#   ONLY="plateau-x-mini albea-plateau-standard" bash tools/first_player.sh OUT   # some of them
#   GAMES=40 SEED=1 bash tools/first_player.sh OUT                                 # fewer games
#
# Budgets (chosen to fit all nine in well under an hour of one core of a 2-core machine,
# 2026-12-02): alphabeta at its default depth 3, except Plateau X double (depth 2: depth 3 takes
# about 4 s a game there); mcts at 300 iterations (its default is 1000); planner at its defaults.
# Random plies: as many as the players (one round) in Plateau X and Albea's Plateau, so that
# seat 0 also makes the bots' first move; 8 in Empire Plateau, where a turn is several actions.
set -euo pipefail

out=${1:-first-player}
games=${GAMES:-400}
seed=${SEED:-2026}
mkdir -p "$out"

# game variant bot plies
runs=(
  "plateau-x mini alphabeta 2"
  "albea-plateau standard alphabeta 2"
  "plateau-x double alphabeta:depth=2 2"
  "empire-plateau two planner 8"
  "empire-plateau duel planner 8"
  "empire-plateau three planner 8"
  "empire-plateau four planner 8"
  "plateau-x triple mcts:iters=300 3"
  "plateau-x standard mcts:iters=300 4"
)

for run in "${runs[@]}"; do
  read -r game variant bot plies <<<"$run"
  name=$game-$variant
  if [[ -n ${ONLY:-} && " $ONLY " != *" $name "* ]]; then
    continue
  fi
  players=$(python -c "import plateau; print(plateau.new_game('$game', '$variant').num_players)")
  bots=$bot
  for ((i = 1; i < players; i++)); do bots+=",$bot"; done
  start=$(date +%s)
  TIMEFORMAT="%U"
  { time nice -n 10 plateau arena --game "$game" --variant "$variant" --bots "$bots" --games "$games" \
    --random-plies "$plies" --seed "$seed" --jobs 1 --no-progress --out "$out/$name.jsonl" \
    >"$out/$name.txt" 2>"$out/$name.err"; } 2>"$out/$name.cpu"
  echo "$name: $bots, $games games, $(($(date +%s) - start)) s, $(cat "$out/$name.cpu") s of CPU" |
    tee -a "$out/times.txt"
done

# The table of docs/bots-and-arena.md from the results files there are: each seat's win rate with
# its Wilson 95% interval (the arena report's), and seat 0's interval counting each opening once
# (the games of one opening are correlated: a cluster interval over the groups of seat rotations).
python - "$out" <<'PY' | tee "$out/summary.md"
import math
import sys
from collections import defaultdict
from pathlib import Path

from plateau import arena

print("| game | variant | bot | games | " + " | ".join(f"seat {k}" for k in range(4))
      + " | shared first | seat 0, by opening |")
print("|---|---|---|---:|---|---|---|---|---:|---|")
for path in sorted(Path(sys.argv[1]).glob("*.jsonl")):
    res = arena.report(path)
    seats = res.seat_stats()
    cells = [f"{100 * s.win_rate:.1f}% ({100 * s.win_ci95[0]:.1f} .. {100 * s.win_ci95[1]:.1f})"
             + (" first" if s.first else "") for s in seats]
    cells += ["-"] * (4 - len(cells))
    shared = sum(len(r.ranking[0]) > 1 for r in res.results)
    # seat 0's wins per opening group: a ratio estimate with the groups as the units
    groups: dict[object, list[int]] = defaultdict(lambda: [0, 0])
    for r in res.results:
        g = groups[r.opening]
        g[0] += r.ranking[0] == [0]
        g[1] += 1
    k = len(groups)
    wins, games = sum(w for w, _ in groups.values()), sum(n for _, n in groups.values())
    p = wins / games
    var = k / (k - 1) * sum((w - p * n) ** 2 for w, n in groups.values()) / games**2
    half = 1.96 * math.sqrt(var)
    print(f"| {res.game} | {res.variant} | `{res.bots[0]}` | {games} | " + " | ".join(cells)
          + f" | {shared} | {100 * p:.1f}% ({100 * (p - half):.1f} .. {100 * (p + half):.1f}) |")
PY
