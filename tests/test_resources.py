"""The assets and the default dataset's inputs are found in a checkout and in a plain (non-editable) install."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from dashboard.resources import ASSETS, INPUTS, shipped
from tests.conftest import ROOT

SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_shipped_prefers_the_installed_copy(tmp_path: Path) -> None:
    package = tmp_path / "site" / "dashboard"
    package.mkdir(parents=True)
    (tmp_path / "site" / "data").mkdir()
    assert shipped("default_inputs", "data", package) == tmp_path / "site" / "data"  # a checkout
    (package / "default_inputs").mkdir()
    assert shipped("default_inputs", "data", package) == package / "default_inputs"  # an install copied it
    assert shipped("assets", "assets", package) == tmp_path / "site" / "assets"  # neither: the checkout's path


def test_a_checkout_reads_the_top_level_folders() -> None:
    assert ASSETS == ROOT / "assets" and (ASSETS / "style.css").is_file()
    assert INPUTS == ROOT / "data" and (INPUTS / "arxiv-2023" / "edges.csv.gz").is_file()


def test_every_package_and_shipped_file_is_in_pyproject() -> None:
    """A new subpackage, or an asset or data file the globs miss, would be left out of a plain install."""
    code = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "dashboard").rglob("__init__.py")}
    mapped = SETUPTOOLS["package-dir"]
    assert set(SETUPTOOLS["packages"]) == code | set(mapped)
    for package, folder in mapped.items():
        root = ROOT / folder
        globbed = {p for pattern in SETUPTOOLS["package-data"][package] for p in root.glob(pattern) if p.is_file()}
        wanted = {p for p in root.rglob("*") if p.is_file()}
        assert wanted and globbed == wanted, (package, sorted(map(str, wanted - globbed)))


@pytest.mark.slow
def test_a_built_wheel_serves_the_default_data_from_inside(tmp_path: Path) -> None:
    """``pip install .`` installs a wheel: built here, unpacked and run, the app finds its assets and the
    default dataset's inputs inside the package, not in this checkout, and builds the dataset from them."""
    source = tmp_path / "source"  # a copy: building in the checkout would leave build/ there, reused by the next
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        copy = source / name
        copy.parent.mkdir(exist_ok=True)
        shutil.copy(ROOT / name, copy)
    for name in ("dashboard", "assets", "data"):
        shutil.copytree(ROOT / name, source / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    r = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    (wheel,) = tmp_path.glob("citemap-*.whl")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    for inside, checkout in (("assets", ROOT / "assets"), ("default_inputs", ROOT / "data")):
        files = {p.relative_to(checkout) for p in checkout.rglob("*") if p.is_file()}
        assert {
            p.relative_to(site / "dashboard" / inside) for p in (site / "dashboard" / inside).rglob("*") if p.is_file()
        } == files
    probe = (
        "import dashboard, dashboard.web.app as a; from dashboard.resources import INPUTS; "
        "print(dashboard.__file__, a.ASSETS, INPUTS, sep='\\n')"
    )
    cache = tmp_path / "cache"
    env = {**os.environ, "PYTHONPATH": str(site), "CITEMAP_CACHE": str(cache)}
    r = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120
    )
    assert r.returncode == 0, r.stderr
    package = site / "dashboard"
    assert r.stdout.split() == [str(package / "__init__.py"), str(package / "assets"), str(package / "default_inputs")]
    r = subprocess.run(
        [sys.executable, "-m", "dashboard", "info"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120
    )
    assert r.returncode == 0, r.stderr
    (built,) = cache.glob("default-*/")
    assert f"({built})" in r.stdout and "papers     30,352" in r.stdout
