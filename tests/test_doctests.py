"""The examples in the package's docstrings run and print what they say."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import plateau
from support import require_extra

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(plateau.__path__, "plateau.")
    if m.name != "plateau.__main__"
)


#: modules that import an optional extra: (a module of the extra, the extra)
OPTIONAL = {
    "plateau.openspiel": ("pyspiel", "openspiel"),
    "plateau.pettingzoo": ("pettingzoo", "pettingzoo"),
    "plateau.gymnasium": ("gymnasium", "pettingzoo"),
}


#: the marker of each extra, so that CI's run of the extras' tests runs these examples too
MARKS = {"openspiel": pytest.mark.openspiel, "pettingzoo": pytest.mark.pettingzoo}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=MARKS[OPTIONAL[n][1]]) if n in OPTIONAL else n
        for n in ["plateau", *MODULES]
    ],
)
def test_docstring_examples(name: str) -> None:
    if name in OPTIONAL:
        require_extra(*OPTIONAL[name])
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_package_has_examples() -> None:
    attempted = sum(
        doctest.testmod(importlib.import_module(n)).attempted
        for n in ["plateau", *MODULES]
        if n not in OPTIONAL
    )
    assert attempted >= 15
