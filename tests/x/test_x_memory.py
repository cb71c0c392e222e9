"""Memory stays flat over many apply/undo/clone cycles (peak RSS; no timing involved)."""

from __future__ import annotations

import resource
import sys

from plateau_core.x import core as _x

import plateau


def test_state_is_small() -> None:
    assert _x.STATE_NBYTES < 4096


def test_memory_flat_over_apply_undo_clone_cycles() -> None:
    s = plateau.new_game("plateau-x", "standard")
    s.apply_all(["T@c3d3c4", "P@a1", "D@e5f5", "P@g7", "S@c3"])
    action = int(s.legal_actions()[0])
    for _ in range(20_000):  # warm up allocator pools
        s.clone().apply(action)
        s.legal_actions()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(300_000):
        s.apply(action)
        s.legal_actions_mask()
        s.undo()
        s.clone().apply(action)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    scale = 1 if sys.platform == "darwin" else 1024  # bytes per ru_maxrss unit
    # a leak of even 8 bytes per cycle would show as 2.4 MB
    assert (after - before) * scale < 1_000_000
    assert s.ply == 5
