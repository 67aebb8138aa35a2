"""What surrounds the code: the licence, one version written once, the project's metadata and extras, and what CI
installs before it runs the tools of the `dev` extra."""

from __future__ import annotations

import re
import tomllib

from packaging.requirements import Requirement

import dashboard
from tests.conftest import ROOT

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def names(requirements: list[str]) -> set[str]:
    return {Requirement(r).name.lower() for r in requirements}


def test_the_licence_file_is_the_one_pyproject_names() -> None:
    project = PROJECT["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n\nCopyright (c) ") and "Permission is hereby granted, free of charge" in text


def test_the_version_is_written_once_in_the_package() -> None:
    project = PROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert PROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "dashboard.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", dashboard.__version__)
    # written nowhere else in the package's code or its metadata
    written = [
        p.relative_to(ROOT)
        for p in [ROOT / "pyproject.toml", *(ROOT / "dashboard").rglob("*.py")]
        if re.search(rf"""["']{re.escape(dashboard.__version__)}["']""", p.read_text())
    ]
    assert written == [ROOT.joinpath("dashboard", "__init__.py").relative_to(ROOT)]


def test_metadata_a_maintainer_expects() -> None:
    project = PROJECT["project"]
    assert project["authors"] and project["urls"]["Documentation"]
    assert (ROOT / project["urls"]["Documentation"]).is_dir()  # the guides' folder, until a public address exists
    classifiers = project["classifiers"]
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")]  # the licence is the SPDX expression


def test_developer_tools_are_apart_from_what_the_tests_need() -> None:
    extras = PROJECT["project"]["optional-dependencies"]
    tools = {"ruff", "mutmut", "pip-tools"}
    assert tools <= names(extras["dev"]) and not tools & names(extras["test"])
    assert "citemap[test]" in extras["dev"]  # a developer gets the test extra too
    # CI installs the dev extra after the README's test command, before it runs ruff
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    install = next(i for i, line in enumerate(ci) if "pip install" in line and ".[dev]" in line)
    assert install < next(i for i, line in enumerate(ci) if line.startswith("ruff check"))
