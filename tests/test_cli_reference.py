"""The command's reference cannot drift: docs/cli.md is the parser's `--help`, and every option the README and the
guides write after a `citemap` command is one that command takes."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "data" / "README.md"]


def load_reference():
    spec = importlib.util.spec_from_file_location("cli_reference", ROOT / "scripts" / "cli_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


reference = load_reference()


def test_docs_cli_md_is_the_parsers_help() -> None:
    assert (ROOT / "docs" / "cli.md").read_text() == reference.reference(), (
        "run python scripts/cli_reference.py > docs/cli.md"
    )


def test_the_reference_covers_every_command_and_option() -> None:
    text = (ROOT / "docs" / "cli.md").read_text()
    paths = list(reference.commands(reference.parser()))
    assert ("import",) in paths and ("fetch", "s2") in paths
    for path in paths:
        assert f"## `{' '.join(['citemap', *path])}`" in text
    for option in ("--mapping", "--meta", "--engine", "--merge", "--max-citers", "--production", "--version"):
        assert option in text, option


def options_of() -> dict[str, set[str]]:
    """Each command's name (``import``, ``fetch openalex``, ``""`` for citemap alone) -> the options it takes."""
    taken = {}
    for path in reference.commands(reference.parser()):
        help_text = reference.help_text(path)
        taken[" ".join(path)] = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", help_text))
    return taken


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_every_option_a_doc_gives_a_command_is_one_it_takes(path: Path) -> None:
    taken = options_of()
    commands = sorted((c for c in taken if c), key=len, reverse=True)  # "fetch openalex" before "fetch"
    wrong = []
    # a command written out: in a code span, or on a line of a code block
    for written in re.findall(r"`(citemap [^`]+)`|^(citemap .+)$", path.read_text(), flags=re.M):
        line = " ".join(written).strip()
        command = next((c for c in commands if line.startswith(f"citemap {c}")), "")
        for option in re.findall(r"(?<![\w-])--[a-z][a-z-]*", line.split("#")[0]):
            if option not in taken[command] | taken[""]:
                wrong.append(f"{line!r}: {option}")
    assert not wrong, wrong
