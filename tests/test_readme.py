"""The Python examples of the README and docs/ run as written, their ``plateau`` commands are
valid, and their links resolve."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from plateau.arena import split_bot_list
from plateau.bots import make_bot
from plateau.cli import build_parser
from plateau.cli.common import spec_of
from plateau.engine import is_engine_spec, parse_engine_spec

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


def test_the_api_reference_documents_every_public_name() -> None:
    import plateau

    reference = (ROOT / "docs" / "reference.rst").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\.\. auto(?!module)\w+:: plateau\.(\w+)\s*$", reference, re.M))
    public = set(plateau.__all__) - {"__version__"}
    assert public - documented == set(), "docs/reference.rst leaves out these public names"
    assert documented - public == set(), "docs/reference.rst names what plateau does not export"


def _shell_commands() -> list[tuple[str, str]]:
    """Every ``plateau ...`` command of the ``sh`` blocks of the README and ``docs/`` (line
    continuations joined, comments, pipes and ``&&`` chains split off), with its file."""
    found: list[tuple[str, str]] = []
    for path in [README, *sorted((ROOT / "docs").rglob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"```sh\n(.*?)```", text, re.S):
            for line in block.replace("\\\n", " ").splitlines():
                line = re.sub(r"\s+#.*$", "", line) if "'" not in line else line
                for part in re.split(r"&&|\|", line):
                    words = shlex.split(part.split(">")[0]) if part.strip() else []
                    if words[:1] == ["plateau"] and len(words) > 1:
                        found.append((path.name, shlex.join(words)))
    return found


def test_the_docs_show_plateau_commands() -> None:
    commands = {cmd.split()[1] for _, cmd in _shell_commands()}
    assert {"arena", "perft", "play", "openings", "engine", "bench"} <= commands


@pytest.mark.parametrize(
    ("page", "command"), _shell_commands(), ids=lambda v: v if v.endswith(".md") else ""
)
def test_every_plateau_command_in_the_docs_is_valid(page: str, command: str) -> None:
    """Each command parses with today's command line, names a registered game, variant and
    options, and names bots that exist (engines are checked as specs, not started). Running
    them all would take minutes of arena games; the tour's commands run in other tests."""
    args = build_parser().parse_args(shlex.split(command)[1:])
    if hasattr(args, "option"):
        spec_of(args)
    bots = getattr(args, "bots", None)
    for bot in split_bot_list(bots) if isinstance(bots, str) and bots else []:
        if is_engine_spec(bot):
            parse_engine_spec(bot)
        else:
            make_bot(bot, seed=0)
    if isinstance(getattr(args, "bot", None), str):  # plateau suite takes engines too
        if args.command == "suite" and is_engine_spec(args.bot):
            parse_engine_spec(args.bot)
        else:
            make_bot(args.bot, seed=0)
