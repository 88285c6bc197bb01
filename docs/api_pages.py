"""The pages of the API reference, written before each build of the site:
one page per public module of the installed ``veletas``, each an autodoc
``automodule`` of its ``__all__``, and an index grouping them by game.

A public module is one whose dotted name has no part starting with ``_``;
the command line's own modules (``veletas.cli.*``) are left out, since the
command line is documented by ``--help`` and its pages, and ``veletas.cli``
itself stays. The pages are generated into docs/api/, which holds nothing
else (and is not kept in git): a new module appears in the reference by
itself.

Where a module's name is also a name of its parent (``veletas.match`` is a
module and, in ``veletas``, its function ``match``), the name is documented
on the module's page (``veletas.match.match``), so that the two do not
claim one address.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

ENTRY_POINTS = ("veletas", "veletas.meridians")
"""The modules of the two games' main names."""

GROUPS = {
    "veletas": "Veletas",
    "meridians": "Meridians",
    "shared": "Shared by both games",
}
"""The index's sections, in order."""


def public_modules() -> list[str]:
    """The dotted names of the public modules, sorted."""
    package = importlib.import_module("veletas")
    names = {"veletas"}
    for found in pkgutil.walk_packages(package.__path__, prefix="veletas."):
        parts = found.name.split(".")
        if any(part.startswith("_") for part in parts):
            continue
        if found.name.startswith("veletas.cli."):
            continue
        names.add(found.name)
    return sorted(names)


def group(name: str) -> str:
    """The index section of a module: a game's own rooms and entry points, or shared."""
    if name in ("veletas", "veletas.reference") or name.startswith(
        ("veletas.games.veletas", "veletas.reference.")
    ):
        return "veletas"
    if name.startswith(("veletas.meridians", "veletas.games.meridians")):
        return "meridians"
    return "shared"


def exports(module: str, attribute: str, value: object) -> bool:
    """Whether ``module`` lists ``value`` in its ``__all__`` as ``attribute``."""
    found = importlib.import_module(module)
    return attribute in getattr(found, "__all__", ()) and getattr(found, attribute, None) is value


def moved(name: str, modules: list[str]) -> dict[str, str]:
    """The names of module ``name``'s ``__all__`` documented elsewhere, with
    their address there: a name that is also a public module of its own
    holding something else (on the page of the module that defines it), a
    name that a module other than an entry point re-exports from the public
    module that defines it while an entry point exports it too (on its
    home's page: one alias besides the entry point's would claim the same
    canonical address), and a native class re-exported here that an entry
    point of a game also exports (on the entry point's page: its home,
    ``veletas._veletas``, has none)."""
    module = importlib.import_module(name)
    found = {}
    for attribute in getattr(module, "__all__", ()):
        value = getattr(module, attribute)
        child = f"{name}.{attribute}"
        home = getattr(value, "__module__", None) or ""
        at_home = home != name and home in modules and exports(home, attribute, value)
        if child in modules and value is not importlib.import_module(child):
            found[attribute] = f"{home if at_home else child}.{attribute}"
            continue
        if (
            at_home
            and name not in ENTRY_POINTS
            and any(exports(entry, attribute, value) for entry in ENTRY_POINTS)
        ):
            found[attribute] = f"{home}.{attribute}"
            continue
        if isinstance(value, type) and any(part.startswith("_") for part in home.split(".")):
            for entry in ENTRY_POINTS:
                if (
                    entry != name
                    and getattr(importlib.import_module(entry), attribute, None) is value
                ):
                    found[attribute] = f"{entry}.{attribute}"
                    break
    return found


def reference_name(module: str, attribute: str, modules: list[str]) -> str:
    """Where ``module.attribute`` of an ``__all__`` is documented."""
    return moved(module, modules).get(attribute, f"{module}.{attribute}")


def explicit_members(name: str, modules: list[str]) -> list[tuple[str, str]]:
    """The names of module ``name``'s ``__all__`` that ``automodule`` would
    leave out, with the directive that documents each: values (autodoc takes
    a value defined in another module for an import, and the squares'
    constants, ``SIZES`` and the like are re-exported), and names that the
    module provides on first use, which ``dir()`` does not list."""
    module = importlib.import_module(name)
    listed = set(dir(module))
    elsewhere = moved(name, modules)
    found = []
    for attribute in getattr(module, "__all__", ()):
        if attribute in elsewhere:
            continue
        value = getattr(module, attribute)
        if isinstance(value, type):
            kind = "exception" if issubclass(value, BaseException) else "class"
        elif inspect.isroutine(value):
            kind = "function"
        elif inspect.ismodule(value):
            continue
        else:
            kind = "data"
        if kind == "data" or attribute not in listed:
            found.append((attribute, kind))
    return found


def page(name: str, modules: list[str]) -> str:
    title = f"``{name}``"
    lines = [title, "=" * len(title), "", f".. automodule:: {name}", "   :members:"]
    lines += ["   :undoc-members:", "   :show-inheritance:"]
    elsewhere = moved(name, modules)
    explicit = explicit_members(name, modules)
    excluded = [*elsewhere, *(attribute for attribute, _ in explicit)]
    if excluded:
        lines.append(f"   :exclude-members: {', '.join(excluded)}")
    for attribute, kind in explicit:
        lines += ["", f".. auto{kind}:: {name}.{attribute}"]
        if kind in ("class", "exception"):
            lines += ["   :members:", "   :undoc-members:", "   :show-inheritance:"]
    if elsewhere:
        lines += ["", "Documented elsewhere:", ""]
        lines += [
            f"- ``{name}.{attribute}`` is :py:obj:`{address}`"
            for attribute, address in elsewhere.items()
        ]
    return "\n".join(lines) + "\n"


def index(names: list[str]) -> str:
    lines = [
        "API reference",
        "=============",
        "",
        "Every public module of the package, generated from the docstrings of",
        "the names in its ``__all__``. ``veletas`` and ``veletas.meridians`` are",
        "the entry points of the two games; ``veletas.games.<game>`` are the",
        "games' own modules, whose main names those re-export.",
        "",
    ]
    for key, heading in GROUPS.items():
        members = [name for name in names if group(name) == key]
        lines += [heading, "-" * len(heading), "", ".. toctree::", "   :maxdepth: 1", ""]
        lines += [f"   {name}" for name in members]
        lines.append("")
    return "\n".join(lines)


def write_api_pages(folder: Path) -> list[str]:
    """Write the pages into ``folder`` (removing pages of modules that are
    gone); returns the modules."""
    names = public_modules()
    folder.mkdir(exist_ok=True)
    wanted = {f"{name}.rst": page(name, names) for name in names}
    wanted["index.rst"] = index(names)
    for stale in folder.glob("*.rst"):
        if stale.name not in wanted:
            stale.unlink()
    for file_name, text in wanted.items():
        path = folder / file_name
        # Unchanged pages keep their time, so that Sphinx rebuilds only what changed.
        if not path.is_file() or path.read_text() != text:
            path.write_text(text)
    return names
