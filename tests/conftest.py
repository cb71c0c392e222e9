"""Suite-wide pytest hooks.

``PLATEAU_SHARD=i/n`` keeps every n-th collected test, from the i-th (0-based), so that n
processes started with ``0/n`` ... ``n-1/n`` run the selection between them exactly once. CI's
sanitizer step (``.ci/sanitize``) runs two shards at once, one per core.
"""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    shard = os.environ.get("PLATEAU_SHARD", "")
    if not shard:
        return
    try:
        index, count = (int(part) for part in shard.split("/"))
    except ValueError:
        raise pytest.UsageError(f"PLATEAU_SHARD={shard!r}: expected i/n, e.g. 0/2") from None
    if not 0 <= index < count:
        raise pytest.UsageError(f"PLATEAU_SHARD={shard!r}: need 0 <= i < n")
    kept = [item for k, item in enumerate(items) if k % count == index]
    dropped = [item for k, item in enumerate(items) if k % count != index]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = kept
