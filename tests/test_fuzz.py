"""The fuzz targets of ``fuzz/targets.py`` driven by Hypothesis (a bounded number of inputs per
target), and the regression corpus ``fuzz/corpus/<target>/`` replayed input by input.

``python fuzz/run.py TARGET --seconds N`` runs the same targets coverage-guided under atheris.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FUZZ = Path(__file__).resolve().parents[1] / "fuzz"


def _load_targets() -> ModuleType:
    spec = importlib.util.spec_from_file_location("plateau_fuzz_targets", FUZZ / "targets.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


targets = _load_targets()


def fuzz_bytes(max_size: int) -> st.SearchStrategy[bytes]:
    """Fuzz inputs: Hypothesis's own byte strings (which shrink well, but favour zeros and
    repeats) or uniformly random bytes from a seed (which decode into busier inputs)."""
    return st.one_of(
        st.binary(min_size=64, max_size=max_size),
        st.tuples(st.integers(0, 2**32 - 1), st.integers(64, max_size)).map(
            lambda t: random.Random(t[0]).randbytes(t[1])
        ),
    )


FUZZ_SETTINGS = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ_SETTINGS
@given(fuzz_bytes(2048))
def test_fuzz_notation(data: bytes) -> None:
    targets.fuzz_notation(data)


@FUZZ_SETTINGS
@given(fuzz_bytes(2048))
def test_fuzz_record(data: bytes) -> None:
    targets.fuzz_record(data)


@FUZZ_SETTINGS
@given(fuzz_bytes(2048))
def test_fuzz_setup(data: bytes) -> None:
    targets.fuzz_setup(data)


@FUZZ_SETTINGS
@given(fuzz_bytes(4096))
def test_fuzz_batch(data: bytes) -> None:
    targets.fuzz_batch(data)


@FUZZ_SETTINGS
@given(fuzz_bytes(2048))
def test_fuzz_engine(data: bytes) -> None:
    targets.fuzz_engine(data)


@FUZZ_SETTINGS
@given(fuzz_bytes(2048))
def test_fuzz_referee(data: bytes) -> None:
    targets.fuzz_referee(data)


@settings(FUZZ_SETTINGS, max_examples=60)  # each input loads a board and plays on it
@given(fuzz_bytes(2048))
def test_fuzz_board(data: bytes) -> None:
    targets.fuzz_board(data)


CORPUS = sorted(
    (target, path)
    for target in targets.TARGETS
    for path in (FUZZ / "corpus" / target).glob("*")
    if path.is_file()
)


@pytest.mark.parametrize(("target", "path"), CORPUS, ids=[f"{t}/{p.name}" for t, p in CORPUS])
def test_fuzz_corpus(target: str, path: Path) -> None:
    targets.TARGET_FUNCTIONS[target](path.read_bytes())


def test_every_target_has_a_corpus() -> None:
    assert {t for t, _ in CORPUS} == set(targets.TARGETS)


def test_provider_reads_zeros_once_exhausted() -> None:
    p = targets.Provider(b"\x05\xff")
    assert p.below(10) == 5
    assert p.below(256) == 255
    assert p.remaining == 0
    assert (p.below(7), p.byte(), p.take(3), p.chance(50)) == (0, 0, b"", True)
    assert p.below(1) == 0 and p.between(3, 3) == 3
