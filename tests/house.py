"""The house plan read from the sources: which modules reach into a game's
room, and which import each other in circles.

An ``ast`` walk over ``python/veletas``, with no import of the package, so
that it reads the tree as it is written. ``python tests/house.py`` prints
the counts (of another tree with its
``python/veletas`` folder as argument).

A module is *generic* unless it is in a game's room
(``veletas/games/<name>/``), is one of the public faces (:data:`FACES`) or is
the registry (``veletas/games/__init__.py``). A generic module *reaches into
a room* when it

- imports a module of a room or a face (at any depth: a deferred import or
  one under ``TYPE_CHECKING`` counts too),
- compares a value with a game's name (``== "meridians"``, ``in ("veletas",
  ...)``),
- keys a table by game names, looks one up by name, or lists them
  (``{"veletas": ...}``, ``table["veletas"]``, ``choices=("veletas",
  "meridians")``), or
- builds a module path into a room (``f"veletas.games.{name}.playouts"``,
  ``"veletas.games.veletas.svg"``), or
- walks the registry's table (``registry.GAMES``) rather than asking it
  (``registry.every()``, ``registry.get``), or
- spells out a rules option that only some games have (``variant``,
  ``shooters_block``), as a parameter or a keyword argument, or reads one
  by name (``getattr(rules, "pie")``): the options are the room's, passed
  through as ``**rules`` and read by its contract.

A default argument may name the default game (``game: str = "veletas"``).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "veletas"
FACES = frozenset(
    {"veletas", "veletas.reference", "veletas.meridians", "veletas.meridians.reference"}
)
REGISTRY = "veletas.games"
ROOMS = "veletas.games."


@dataclass(frozen=True)
class Reach:
    """One place where a generic module reaches into a game's room."""

    module: str
    line: int
    kind: str
    what: str

    def __str__(self) -> str:
        return f"{self.module}:{self.line}: {self.kind} {self.what}"


def modules() -> dict[str, Path]:
    """Every module of the package, by dotted name (a compiled one by its stub)."""
    found: dict[str, Path] = {}
    stubs = [p for p in PACKAGE.rglob("*.pyi") if not p.with_suffix(".py").exists()]
    for path in sorted([*PACKAGE.rglob("*.py"), *stubs]):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def game_names(known: dict[str, Path]) -> frozenset[str]:
    """The games: the packages of ``veletas/games/``."""
    return frozenset(
        name.split(".")[2] for name in known if name.startswith(ROOMS) and name.count(".") >= 2
    )


def is_package(name: str, known: dict[str, Path]) -> bool:
    return known.get(name, Path()).name == "__init__.py"


def in_room(name: str, games: frozenset[str]) -> bool:
    parts = name.split(".")
    return len(parts) >= 3 and parts[:2] == ["veletas", "games"] and parts[2] in games


def is_generic(name: str, games: frozenset[str]) -> bool:
    return not (in_room(name, games) or name in FACES or name == REGISTRY)


def rules_options(known: dict[str, Path]) -> frozenset[str]:
    """The rules options that some games have and others not: the names of
    the ``RuleOption`` entries of each room's ``options`` module."""
    games = game_names(known)
    owned: dict[str, set[str]] = {}
    for game in games:
        path = known.get(f"{ROOMS}{game}.options")
        if path is None:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "RuleOption"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                owned.setdefault(str(node.args[0].value), set()).add(game)
    return frozenset(name for name, owners in owned.items() if owners != games)


def imports(name: str, tree: ast.Module, known: dict[str, Path]) -> Iterator[tuple[int, str]]:
    """Every module of the package that ``name`` imports, at any depth (under
    ``if TYPE_CHECKING:`` too), with the line. ``from package import x``
    imports the submodule ``x`` where there is one, else the package itself."""
    here = name if is_package(name, known) else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                base = base[: len(base) - node.level + 1]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            if source not in known:
                continue
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                yield node.lineno, sub if sub in known else source


def docstrings(tree: ast.Module) -> set[int]:
    """The ids of the string constants that are docstrings or bare strings."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


def annotations(tree: ast.Module) -> set[int]:
    """The ids of the nodes of type annotations (``Literal["veletas"]``):
    hints to type checkers, not lookups."""
    found: set[int] = set()
    for node in ast.walk(tree):
        hints: list[ast.AST | None] = []
        if isinstance(node, ast.arg):
            hints.append(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            hints.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            hints.append(node.annotation)
        for hint in hints:
            if hint is not None:
                found.update(id(inner) for inner in ast.walk(hint))
    return found


def defaults(tree: ast.Module) -> set[int]:
    """The ids of the constants that are default values of arguments or of
    dataclass fields."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for value in [*node.args.defaults, *node.args.kw_defaults]:
                if value is not None:
                    found.add(id(value))
        elif (isinstance(node, ast.AnnAssign) and node.value is not None) or (
            isinstance(node, ast.keyword) and node.arg == "default"
        ):
            found.add(id(node.value))
    return found


def reaches(name: str, tree: ast.Module, known: dict[str, Path]) -> Iterator[Reach]:
    """The places where the generic module ``name`` reaches into a room (one
    a line and kind)."""
    seen: set[Reach] = set()
    for reach in _reaches(name, tree, known):
        if reach not in seen:
            seen.add(reach)
            yield reach


def _reaches(name: str, tree: ast.Module, known: dict[str, Path]) -> Iterator[Reach]:
    games = game_names(known)
    options = rules_options(known)
    for line, target in imports(name, tree, known):
        if in_room(target, games) or target in FACES:
            yield Reach(name, line, "imports", target)
    skip = docstrings(tree) | defaults(tree) | annotations(tree)

    def names_a_game(node: ast.AST) -> bool:
        return (
            isinstance(node, ast.Constant)
            and id(node) not in skip
            and isinstance(node.value, str)
            and node.value.lower() in games
        )

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for operand in operands:
                elements = (
                    operand.elts
                    if isinstance(operand, (ast.Tuple, ast.List, ast.Set))
                    else [operand]
                )
                named = [e.value for e in elements if names_a_game(e)]  # type: ignore[attr-defined]
                if named:
                    yield Reach(name, node.lineno, "compares with", ", ".join(named))
                    break
        elif isinstance(node, ast.Subscript) and id(node) not in skip and names_a_game(node.slice):
            yield Reach(name, node.lineno, "looks up by", node.slice.value)  # type: ignore[attr-defined]
        elif isinstance(node, ast.Dict):
            named = [key.value for key in node.keys if key is not None and names_a_game(key)]  # type: ignore[union-attr]
            if named:
                yield Reach(name, node.lineno, "keys a table by", ", ".join(named))
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            named = [e.value for e in node.elts if names_a_game(e)]  # type: ignore[attr-defined]
            if named and not _compared(node, tree):
                yield Reach(name, node.lineno, "lists", ", ".join(named))
        elif isinstance(node, ast.JoinedStr):
            head = node.values[0] if node.values else None
            if isinstance(head, ast.Constant) and str(head.value).startswith(ROOMS):
                yield Reach(name, node.lineno, "builds a module path", str(head.value) + "...")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in skip
            and (in_room(node.value, games) or node.value.rstrip(".") == REGISTRY + ".")
        ):
            yield Reach(name, node.lineno, "names the module", node.value)
        elif isinstance(node, (ast.arg, ast.keyword)) and node.arg in options:
            yield Reach(name, node.lineno, "spells out the rules option", str(node.arg))
        elif (
            isinstance(node, ast.Attribute)
            and node.attr == "GAMES"
            and isinstance(node.value, ast.Name)
            and node.value.id == "registry"
        ):
            yield Reach(name, node.lineno, "walks the table", "registry.GAMES")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in options
        ):
            yield Reach(name, node.lineno, "reads the rules option", str(node.args[1].value))


def _compared(node: ast.AST, tree: ast.Module) -> bool:
    """Whether ``node`` is an operand of a comparison (counted there)."""
    for parent in ast.walk(tree):
        if isinstance(parent, ast.Compare) and node in [parent.left, *parent.comparators]:
            return True
    return False


def all_reaches() -> list[Reach]:
    """Every reach of every generic module into a room."""
    known = modules()
    games = game_names(known)
    found: list[Reach] = []
    for name, path in known.items():
        if is_generic(name, games) and path.suffix == ".py":  # a stub is the bindings'
            found.extend(reaches(name, ast.parse(path.read_text(), str(path)), known))
    return found


def face_reaches() -> list[Reach]:
    """Every place where a room's module reaches a public face: by importing
    one, or through the registry (``Game.api()``, ``Game.reference()``). A
    room builds boards with its own engines; the faces sit above it."""
    known = modules()
    games = game_names(known)
    found: list[Reach] = []
    for name, path in known.items():
        if not in_room(name, games) or path.suffix != ".py":
            continue
        tree = ast.parse(path.read_text(), str(path))
        for line, target in imports(name, tree, known):
            if target in FACES:
                found.append(Reach(name, line, "imports the face", target))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("api", "reference")
                and not node.args
            ):
                found.append(Reach(name, node.lineno, "reaches a face by", f"{node.func.attr}()"))
    return found


def import_graph() -> dict[str, set[str]]:
    """Each module of the package and the modules it imports, at any depth: a
    deferred import, and one for type checkers only (under ``TYPE_CHECKING``)
    too, since a contract that names a type is bound to its module as surely
    as a call is."""
    known = modules()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        if path.suffix == ".pyi":  # a compiled module imports no module of the package
            graph[name] = set()
            continue
        tree = ast.parse(path.read_text(), str(path))
        found = imports(name, tree, known)
        graph[name] = {target for _, target in found if target != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph) + 100))
    try:
        for node in sorted(graph):
            if node not in index:
                visit(node)
    finally:
        sys.setrecursionlimit(limit)
    return found


if __name__ == "__main__":
    if len(sys.argv) > 1:  # another tree: python tests/house.py OTHER/python/veletas
        PACKAGE = Path(sys.argv[1]).resolve()
    found = all_reaches()
    for reach in found:
        print(reach)
    print(f"{len(found)} reaches into a room from generic modules")
    for reach in face_reaches():
        print(reach)
    print(f"{len(face_reaches())} reaches of a room into a public face")
    for component in circles(import_graph()):
        print(f"a circle of {len(component)} modules: {', '.join(component)}")
    print(f"{len(circles(import_graph()))} import circles of more than one module")
