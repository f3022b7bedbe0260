"""The package's exports resolve, and every public class and function states its contract."""

import importlib
import inspect

import pytest

MODULES = ["shared.protocol", "shared.protocol.base", "shared.protocol.messages", "shared.protocol.puzzles",
           "shared.protocol.errors", "shared.protocol.codec", "shared.protocol.submissions"]


@pytest.mark.parametrize("name", MODULES)
def test_exports_resolve_and_are_documented(name):
    module = importlib.import_module(name)
    assert module.__doc__
    for export in module.__all__:
        assert hasattr(module, export), f"{name}.__all__ names {export}, which does not exist"
        value = getattr(module, export)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert inspect.getdoc(value), f"{name}.{export} has no docstring"


def test_the_package_exports_every_public_name_of_its_modules():
    package = importlib.import_module("shared.protocol")
    for name in MODULES[1:]:
        missing = set(importlib.import_module(name).__all__) - set(package.__all__)
        assert missing <= {"explain_invalid", "quote"}, f"shared.protocol does not export {sorted(missing)} of {name}"
