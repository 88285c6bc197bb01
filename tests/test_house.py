"""The house plan holds in the sources: generic modules reach into no game's
room, and no modules import each other in a circle (:mod:`house`)."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import house


def test_generic_modules_reach_into_no_room() -> None:
    found = house.all_reaches()
    assert [str(reach) for reach in found] == [], f"{len(found)} reaches into a room"


def test_rooms_reach_no_public_face() -> None:
    found = house.face_reaches()
    assert [str(reach) for reach in found] == [], f"{len(found)} reaches into a face"


def test_no_modules_import_each_other_in_a_circle() -> None:
    found = house.circles(house.import_graph())
    assert found == [], f"{len(found)} import circles: {found}"


def test_the_faces_are_imported_by_no_module_below_them() -> None:
    # A face imports only downwards (``veletas`` its ``veletas.meridians``).
    graph = house.import_graph()
    wrong = sorted(
        (name, target)
        for name, targets in graph.items()
        for target in targets
        if target in house.FACES and not (name in house.FACES and target.startswith(name + "."))
    )
    assert wrong == []


def test_each_reference_engine_is_a_leaf() -> None:
    graph = house.import_graph()
    # The generic leaves, and the registry (the door to a room, which imports
    # no room itself).
    leaves = {"veletas.errors", "veletas.rng", "veletas._checks", "veletas.games"}
    assert house.import_graph()["veletas.games"] <= {"veletas.rules_options"}
    assert house.import_graph()["veletas.rules_options"] <= {"veletas.errors"}
    for name, targets in graph.items():
        parts = name.split(".")
        if parts[:2] != ["veletas", "games"] or "reference" not in parts:
            continue
        game = ".".join(parts[:3])
        allowed = {f"{game}.types", *leaves}
        outside = sorted(
            t for t in targets if not t.startswith(f"{game}.reference") and t not in allowed
        )
        assert outside == [], f"{name} imports {outside}"


def test_the_walk_sees_each_kind_of_reach() -> None:
    # The counts above are only as good as the walk: each kind is found.
    import ast

    known = house.modules()
    source = '''
import veletas
from veletas.games.meridians import types
if game == "meridians": pass
ENGINES = {"veletas": 1}
ENGINE = ENGINES["meridians"]
CHOICES = ("veletas", "meridians")
path = f"veletas.games.{name}.playouts"
def f(game: str = "veletas", shooters_block: bool = False) -> None:
    """A docstring naming veletas.games.veletas.svg."""
run(variant="small")
swaps = getattr(rules, "pie", True)
'''
    kinds = [r.kind for r in house.reaches("veletas.example", ast.parse(source), known)]
    assert sorted(kinds) == sorted(
        [
            "imports",
            "imports",
            "compares with",
            "keys a table by",
            "looks up by",
            "lists",
            "builds a module path",
            "spells out the rules option",
            "spells out the rules option",
            "reads the rules option",
        ]
    )


def test_the_options_that_only_some_games_have_are_read_from_the_rooms() -> None:
    options = house.rules_options(house.modules())
    assert {"variant", "shooters_block", "claimed_shooters_block", "pie"} <= options
    assert "size" not in options  # every game has it


def test_the_registry_is_imported_under_one_name() -> None:
    import ast

    names = set()
    for path in house.modules().values():
        if path.suffix != ".py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "veletas":
                names |= {
                    alias.asname or alias.name for alias in node.names if alias.name == "games"
                }
            elif isinstance(node, ast.Import):
                names |= {
                    alias.asname or alias.name
                    for alias in node.names
                    if alias.name == "veletas.games"
                }
    assert names == {"registry"}


def test_the_walk_finds_a_circle_through_a_deferred_import() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert house.circles(graph) == [["a", "b", "c"]]


def test_the_walk_counts_an_import_for_type_checkers_only() -> None:
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from b import B\n"
    known = {"a": Path("a.py"), "b": Path("b.py")}
    assert list(house.imports("a", ast.parse(source), known)) == [(3, "b")]


def test_the_contract_types_every_member_by_more_than_any_call() -> None:
    source = (house.PACKAGE / "games" / "__init__.py").read_text()
    loose = [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id == "Callable"
        and ast.unparse(node.slice).strip("()") == "..., Any"
    ]
    assert loose == [], f"members typed Callable[..., Any] at lines {loose}"


def test_an_independent_reading_finds_the_same_imports_and_no_circle() -> None:
    # grimp reads the package's imports with a parser of its own (deferred
    # ones and those under TYPE_CHECKING too). It cannot see the compiled
    # module: it reads `from veletas import _veletas` as an import of the
    # package and drops `from veletas._veletas import X`; the imports of the
    # compiled module are left out of both sides.
    graph = grimp.build_graph("veletas", cache_dir=None)
    compiled = "veletas._veletas"
    ours = {
        (module, imported)
        for module, targets in house.import_graph().items()
        for imported in targets
    }
    of_compiled = {module for module, imported in ours if imported == compiled}
    ours = {(module, imported) for module, imported in ours if imported != compiled}
    theirs = {
        (module, imported)
        for module in graph.modules
        for imported in graph.find_modules_directly_imported_by(module)
        if not (imported == "veletas" and module in of_compiled and (module, imported) not in ours)
    }
    assert theirs == ours
    assert house.circles(_as_graph(theirs)) == []


def _as_graph(edges: set[tuple[str, str]]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, imported in edges:
        graph.setdefault(module, set()).add(imported)
    return graph
