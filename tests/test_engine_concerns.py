"""The engine interface stays split by concern (boardctl/engines/base.py).

:class:`Engine` is composed of one mixin per concern (rules, notation, the
physical board, presentation, ...), each in a module of its own. These checks
keep it so: a method added to ``Engine`` itself, or defined in two concerns, or
declared only as another concern's stub, fails here; and every game still
implements every abstract method of every concern. The concerns are read from
``Engine``'s bases, so a new one is checked the moment it joins them.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from boardctl.engines import GAMES, engine_class
from boardctl.engines.base import Engine

#: what Engine holds itself: the game's name and options, and its construction
ENGINE_OWN = {"name", "Options", "OPTIONS", "option_specs", "variants", "players", "from_options"}

CONCERNS = [c for c in Engine.__bases__ if c.__module__.startswith("boardctl.engines.")]


def _members(cls: type) -> set[str]:
    """The public names ``cls`` itself defines or declares."""
    names = {n for n in vars(cls) if not n.startswith("_")}
    return names | {n for n in vars(cls).get("__annotations__", {}) if not n.startswith("_")}


def test_engine_is_made_of_its_concerns_alone() -> None:
    assert len(CONCERNS) >= 4
    assert set(Engine.__bases__) == set(CONCERNS), "every base of Engine is a concern"
    modules = [c.__module__ for c in CONCERNS]
    assert len(set(modules)) == len(modules), "one concern per module"
    assert "boardctl.engines.base" not in modules


def test_every_public_member_of_engine_belongs_to_exactly_one_concern() -> None:
    public = {n for n in dir(Engine) if not n.startswith("_")} | _members(Engine)
    assert _members(Engine) == ENGINE_OWN, (
        "Engine itself holds only the game's name, options and construction: "
        "put a new method in the concern whose readers use it (docs/plugins.md)"
    )
    for name in sorted(public - ENGINE_OWN):
        owners = [c.__name__ for c in CONCERNS if name in _members(c)]
        assert len(owners) == 1, f"Engine.{name} belongs to {owners or 'no concern'}"


def _stubs(concern: type) -> set[str]:
    """The names ``concern`` declares under ``if TYPE_CHECKING:``: another
    concern's methods (or Engine's attributes) that its defaults use."""
    tree = ast.parse(Path(inspect.getfile(concern)).read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == concern.__name__:
            for stmt in node.body:
                if isinstance(stmt, ast.If) and ast.unparse(stmt.test) == "TYPE_CHECKING":
                    for decl in stmt.body:
                        if isinstance(decl, ast.AnnAssign) and isinstance(decl.target, ast.Name):
                            found.add(decl.target.id)
                            continue
                        assert isinstance(decl, ast.FunctionDef), ast.unparse(decl)
                        assert ast.get_docstring(decl) is None, (
                            f"{concern.__name__}.{decl.name} is a stub: its docstring is "
                            "in its own concern"
                        )
                        found.add(decl.name)
    return found


@pytest.mark.parametrize("concern", CONCERNS, ids=lambda c: c.__name__)
def test_a_concern_declares_only_other_concerns_methods_as_stubs(concern: type) -> None:
    for name in sorted(_stubs(concern)):
        homes = [c.__name__ for c in CONCERNS if c is not concern and name in _members(c)]
        if name in ENGINE_OWN:
            homes.append("Engine")
        assert len(homes) == 1, f"{concern.__name__} stubs {name}, which no other concern defines"


def test_engine_is_abstract_in_exactly_its_concerns_abstract_methods() -> None:
    declared = set().union(*(c.__abstractmethods__ for c in CONCERNS))
    assert Engine.__abstractmethods__ == declared


@pytest.mark.parametrize("game", GAMES)
def test_every_engine_implements_every_abstract_method(game: str) -> None:
    cls = engine_class(game)
    assert issubclass(cls, Engine)
    missing = sorted(
        name
        for name in Engine.__abstractmethods__
        if getattr(getattr(cls, name), "__isabstractmethod__", False)
    )
    assert not missing, f"{game} does not implement {', '.join(missing)}"
    assert not inspect.isabstract(cls)
