"""The package's layout shows its architecture: a few modules at the top, layers as folders, imports one way."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "dashboard"


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


LINT_IMPORTS = "from importlinter.cli import lint_imports_command; lint_imports_command()"


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    """import-linter on the package in ``tree`` with the contracts of ``tree``'s pyproject.toml."""
    return subprocess.run(
        [sys.executable, "-c", LINT_IMPORTS, "pyproject.toml", "--no-cache"],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(tree)},
    )


def test_the_layer_contracts_hold() -> None:
    """pyproject.toml's [tool.importlinter] contracts: dataset < graph < view < web, importers/ and fetch/ beside,
    serving/ apart, Dash and Flask in web/ alone. The tool's own report says which import broke which."""
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    ids = {c["id"] for c in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]}
    assert {"layers", "importers-beside", "dash-in-web", "serving-apart"} <= ids
    assert f"Contracts: {len(ids)} kept, 0 broken." in run.stdout


def test_an_upward_import_breaks_the_layer_contract(tmp_path: Path) -> None:
    """The contracts catch an import against the layers: a copy of the package whose graph layer imports a view
    module, and whose view layer imports Dash, fails both."""
    copy = tmp_path / "tree"
    shutil.copytree(PACKAGE, copy / "dashboard", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    with (copy / "dashboard" / "graph" / "paths.py").open("a") as f:
        f.write("\nfrom dashboard.view import naming  # noqa\n")
    with (copy / "dashboard" / "view" / "years.py").open("a") as f:
        f.write("\nimport dash  # noqa\n")
    run = lint_imports(copy)
    assert run.returncode != 0
    assert "dashboard.graph.paths -> dashboard.view.naming" in run.stdout
    assert "dashboard.view.years -> dash" in run.stdout
    assert "2 broken" in run.stdout
