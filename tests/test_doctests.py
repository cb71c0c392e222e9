"""The examples in the package's docstrings run and print what they say."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import plateau

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(plateau.__path__, "plateau.")
    if m.name != "plateau.__main__"
)


@pytest.mark.parametrize("name", ["plateau", *MODULES])
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_package_has_examples() -> None:
    attempted = sum(
        doctest.testmod(importlib.import_module(n)).attempted for n in ["plateau", *MODULES]
    )
    assert attempted >= 15
