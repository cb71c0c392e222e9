"""Benchmarks need the counts they time to be right first: each benchmark checks its node or
ply counts against the test suite's numbers before timing."""

from __future__ import annotations

from typing import Callable

import pytest

import plateau


def _regenerate(state: plateau.GameState, times: int) -> int:
    """Generate the legal actions of ``state`` ``times`` times afresh (an apply and an undo
    before each call invalidate the cached list); the sum of their numbers."""
    action = int(state.legal_actions()[0])
    n = 0
    for _ in range(times):
        state.apply(action)
        state.undo()  # invalidates the cached list, so the next call generates again
        n += len(state.legal_actions())
    return n


@pytest.fixture
def regenerate() -> Callable[[plateau.GameState, int], int]:
    """``regenerate(state, times)``: the legal-action generation loop the benchmarks time."""
    return _regenerate
