"""The package's layout shows its architecture: a few modules at the top, layers as folders, imports one way."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "dashboard"
LOWER_THAN_IMPORTERS = ("dashboard.dataset", "dashboard.graph", "dashboard.view", "dashboard.web", "dashboard.serving")
WEB_LIBRARIES = ("dash", "dash_cytoscape", "flask", "werkzeug", "flask_compress")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports_of(path: Path) -> set[str]:
    """The modules a file imports, anywhere in it (function-level imports too): for ``from X import y``, X.y when
    that is a module of the package, else X."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in MODULES else node.module)
    return found


GRAPH = {name: {m for m in imports_of(path) if m in MODULES and m != name} for name, path in MODULES.items()}


def test_at_most_eight_modules_at_the_top_and_the_layers_are_folders() -> None:
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 8, top
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert folders == {"dataset", "importers", "fetch", "graph", "view", "web", "serving"}
    for folder in folders:  # each says what it holds
        assert ast.get_docstring(ast.parse((PACKAGE / folder / "__init__.py").read_text())), folder


def test_no_import_cycle() -> None:
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done

    def walk(name: str, path: list[str]) -> None:
        state[name] = 1
        for dep in sorted(GRAPH[name] - {p for p in GRAPH if name.startswith(p + ".")}):  # a package's own modules
            if state.get(dep) == 1:
                raise AssertionError(" -> ".join([*path, name, dep]))
            if dep not in state:
                walk(dep, [*path, name])
        state[name] = 2

    for name in sorted(GRAPH):
        if name not in state:
            walk(name, [])
    assert len(state) == len(MODULES) > 60


def test_serving_and_the_layers_below_never_import_the_importers_or_fetchers() -> None:
    for name, deps in GRAPH.items():
        if name.startswith(LOWER_THAN_IMPORTERS):
            bad = sorted(d for d in deps if d.startswith(("dashboard.importers", "dashboard.fetch")))
            assert not bad, (name, bad)


def test_only_the_web_layer_imports_dash_and_flask() -> None:
    for name, path in MODULES.items():
        web = [m for m in imports_of(path) if m.split(".")[0] in WEB_LIBRARIES]
        if web:
            assert name.startswith("dashboard.web") or name == "dashboard.app", (name, web)
    assert any(m.split(".")[0] == "dash" for m in imports_of(PACKAGE / "web" / "layout.py"))
