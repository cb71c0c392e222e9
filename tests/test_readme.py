"""The Python examples of the README and docs/ run as written, and their links resolve."""

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


def test_docs_python_blocks_run() -> None:
    # every ```python block of docs/ runs (the adapters' examples, which need extras, are
    # fenced ```py and run in test_gymnasium); a block that is not a program is fenced ```text
    ran = 0
    for page in sorted((ROOT / "docs").rglob("*.md")):
        for block in re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            exec(compile(block, str(page), "exec"), {"__name__": "__main__"})
            ran += 1
    assert ran >= 3


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


def test_docs_index_links_every_page() -> None:
    index = ROOT / "docs" / "index.md"
    linked = {
        (index.parent / target.split("#", 1)[0]).resolve()
        for target in LINK.findall(index.read_text(encoding="utf-8"))
    }
    pages = {p.resolve() for p in (ROOT / "docs").rglob("*.md")} - {index.resolve()}
    missing = sorted(str(p.relative_to(ROOT)) for p in pages - linked)
    assert not missing, f"docs/index.md does not link: {missing}"
