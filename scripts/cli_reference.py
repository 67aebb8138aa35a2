#!/usr/bin/env python3
"""The `citemap` command's reference, as Markdown: each command's `--help`, generated from its parser (what
docs/cli.md holds; tests/test_cli_reference.py fails when the two differ).

    python scripts/cli_reference.py > docs/cli.md

The help is wrapped at WIDTH columns whatever the terminal, so the file is the same on every machine.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout: this tree's dashboard

from dashboard.cli import parser

WIDTH = 116
INTRO = """# The `citemap` command

Every command and option of `citemap`, as `citemap [COMMAND] --help` prints it. This file is generated from the
command's parser by `python scripts/cli_reference.py > docs/cli.md`; `tests/test_cli_reference.py` fails when it
differs, so change the parser's help, never this file. What the commands do, with examples, is in
[data.md](data.md) (import, fetch, the default dataset), [hosting.md](hosting.md) (serve --production, builds,
verify) and the [README](../README.md).
"""


def commands(ap: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command line with its own parser: (), ("serve",), ..., ("fetch", "openalex"), in the parser's order."""
    yield path
    for action in ap._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from commands(sub, (*path, name))


def help_text(path: tuple[str, ...]) -> str:
    """What ``citemap *path --help`` prints, wrapped at WIDTH columns."""
    out = io.StringIO()
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(WIDTH)  # what argparse's formatter reads for the width
    try:
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            parser().parse_args([*path, "--help"])
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before
    return out.getvalue().rstrip() + "\n"


def reference() -> str:
    parts = [INTRO]
    for path in commands(parser()):
        name = " ".join(["citemap", *path])
        parts.append(f"## `{name}`\n\n```text\n{help_text(path)}```\n")
    return "\n".join(parts)


if __name__ == "__main__":
    sys.stdout.write(reference())
