"""Plateau (Albea): memory stays flat over many apply/undo/clone/determinize cycles (peak RSS;
no timing involved)."""

from __future__ import annotations

import random
import resource
import sys

import plateau


def test_memory_flat_over_apply_undo_clone_cycles() -> None:
    s = plateau.new_game("albea-plateau")
    rng = random.Random(5)
    while s.ply < 30:
        s.apply(int(rng.choice(s.legal_actions().tolist())))
    action = int(s.legal_actions()[0])
    det = s.determinizer(s.current_player)
    for i in range(20_000):  # warm up allocator pools
        s.clone().apply(action)
        s.legal_actions()
        det.sample(i).legal_actions()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for i in range(200_000):
        s.apply(action)
        s.legal_actions_mask()
        s.undo()
        c = s.clone()
        c.apply(action)
        c.legal_actions()
        if i % 10 == 0:
            det.sample(i).legal_actions()
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    scale = 1 if sys.platform == "darwin" else 1024  # bytes per ru_maxrss unit
    # a leak of even 8 bytes per cycle would show as 1.6 MB
    assert (after - before) * scale < 1_000_000
    assert s.ply == 30
