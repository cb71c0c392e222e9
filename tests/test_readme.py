"""The README's Python tour runs as written, and the links of the README and docs/ resolve."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

#: a markdown link ``[text](target)``, an optional title after the target
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def test_readme_python_blocks_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "the README has no python example"
    for block in blocks:
        namespace: dict[str, object] = {"__name__": "__main__"}  # run as a script
        exec(compile(block, str(README), "exec"), namespace)
        assert "plateau" in namespace and ("s" in namespace or "b" in namespace)


def test_every_relative_link_resolves() -> None:
    pages = [README, *sorted((ROOT / "docs").rglob("*.md"))]
    broken = []
    for page in pages:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for target in LINK.findall(text):
            if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("#"):
                continue  # http(s), mailto, ...; an anchor on the same page
            path = target.split("#", 1)[0]
            if not (page.parent / path).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert len(pages) > 10
    assert not broken, "links to missing files:\n" + "\n".join(broken)
