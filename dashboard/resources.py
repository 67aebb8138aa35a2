"""Where the files citemap ships beside its code are: the browser's assets and the default dataset's inputs.

In a checkout (``pip install -e .``, the Docker image) they are the project's top-level ``assets/`` and ``data/``.
A plain ``pip install .`` copies them into the installed package (``pyproject.toml`` maps the two folders to
``dashboard/assets`` and ``dashboard/default_inputs``), where the checkout's folders are not beside the code."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def shipped(installed: str, checkout: str, package: Path = PACKAGE) -> Path:
    """The folder ``installed`` inside the package when an install copied it there, else the checkout's
    ``checkout`` beside the package (also when neither exists: the error then names the checkout's path)."""
    inside = package / installed
    return inside if inside.is_dir() else package.parent / checkout


ASSETS = shipped("assets", "assets")
INPUTS = shipped("default_inputs", "data")  # the default dataset's inputs (dashboard.importers.defaults builds it)
