"""The README's Python tour runs as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_blocks_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "the README has no python example"
    for block in blocks:
        namespace: dict[str, object] = {"__name__": "__main__"}  # run as a script
        exec(compile(block, str(README), "exec"), namespace)
        assert "plateau" in namespace and ("s" in namespace or "b" in namespace)
