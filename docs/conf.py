"""Sphinx configuration of plateau's documentation: the pages of ``docs/`` (Markdown, read by
MyST) as chapters, and the API reference (``reference.rst``) made by autodoc from the installed
package's docstrings. Built offline with warnings as errors:

    pip install ".[docs]" && sphinx-build -W --keep-going -b html docs docs/_build/html
"""

from __future__ import annotations

import plateau

project = "plateau"
author = "the plateau authors"
release = version = plateau.__version__

root_doc = "contents"
extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]

# Markdown: headings get anchors (the pages link to each other's sections); a link to a file
# outside docs/ (the README, a source file) is a plain link to it in the repository
myst_heading_anchors = 4
myst_enable_extensions = ["deflist"]

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}

# every cross-reference must resolve (nitpicky), except to names outside the package, which
# an offline build cannot link to
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(np|npt|numpy|numbers|typing|typing_extensions|collections|os|io|random|abc)\..*"),
    (r"py:.*", r"pathlib\..*"),
    (r"py:.*", r"(Any|Callable|Iterable|Iterator|Mapping|Sequence|Generator|Self|TypeVar)"),
    (r"py:.*", r"(gymnasium|pettingzoo|pyspiel|ray|tqdm)\..*"),
    (r"py:class", r"(int|float|str|bytes|bool|object|dict|list|tuple|type|None|NoneType)"),
    (r"py:class", r"(ValueError|Exception|BaseException|SystemExit|EnvironmentError)"),
    (r"py:class", r"(_\w+|.*\._\w+)"),  # private helpers named in signatures
]

html_theme = "alabaster"
html_static_path: list[str] = []
