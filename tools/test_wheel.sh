#!/usr/bin/env bash
# Test the wheel of PYTHON's version in DIST as a user gets it: a fresh venv of that Python,
# no compiler reachable (CC and CXX are /bin/false and pip takes binary packages only, so
# nothing can be built), the tests run from a copy outside the checkout (so they import the
# installed wheel): the conformance suite over every game, then a few whole games of each
# game through the command line. On the oldest Python (3.9) the oldest numpy the package
# claims is installed, so that floor is what is tested.
#
#   bash tools/test_wheel.sh ~/.pyenv/versions/3.9.18/bin/python dist
set -euo pipefail

py=${1:?usage: tools/test_wheel.sh PYTHON DIST}
dist=${2:?usage: tools/test_wheel.sh PYTHON DIST}
root=$(cd "$(dirname "$0")/.." && pwd)
dist=$(cd "$dist" && pwd)
tag=$("$py" -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
whl=$(ls "$dist"/plateau-*-"$tag"-"$tag"-*manylinux*.whl)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

pip_q() { "$@" 2>&1 | { grep -v "^WARNING: Location" || true; }; return "${PIPESTATUS[0]}"; }

echo "== $tag: $(basename "$whl")"
export CC=/bin/false CXX=/bin/false PIP_ONLY_BINARY=:all: PIP_DISABLE_PIP_VERSION_CHECK=1
"$py" -m venv "$work/venv"
start=$SECONDS
pip_q "$work/venv/bin/pip" install -q "$whl"
echo "$tag: installed in $((SECONDS - start)) s"
# the numpy floor of the package's run-time dependencies (not the build's)
numpy_floor=$(grep '^dependencies' "$root/pyproject.toml" | sed -n 's/.*"numpy>=\([0-9.]*\)".*/\1/p')
if [ "$tag" = cp39 ]; then
    pip_q "$work/venv/bin/pip" install -q "numpy==$numpy_floor.*"
fi
pip_q "$work/venv/bin/pip" install -q "pytest>=7.4" "pytest-benchmark>=4" "hypothesis>=6.80"
"$work/venv/bin/python" -c 'import numpy, plateau; print("plateau", plateau.__version__, "numpy", numpy.__version__)'

# the tests from a copy, beside the project's pytest settings and nothing else of the checkout
mkdir "$work/t"
cp -r "$root/tests" "$root/pyproject.toml" "$work/t/"
(cd "$work/t" && "$work/venv/bin/python" -m pytest -q -p no:randomly tests/conformance 2>&1 | tail -3)
# a few games of each game's default variant, a random and a greedy bot taking turns at the seats
"$work/venv/bin/python" -c '
import plateau
for game in plateau.games():
    seats = plateau.new_game(game).num_players
    print(game, ",".join((["random", "greedy"] * 2)[:seats]))' |
while read -r game bots; do
    "$work/venv/bin/plateau" arena --game "$game" --bots "$bots" --games 4 --no-progress | tail -1
done
