"""The WSGI entry: ``dashboard.app:server`` (gunicorn, the Procfile) and ``dashboard.app:app``.

Both are made on first access (gunicorn's ``--preload`` does that once in the master) from the dataset folder in
``$CITEMAP_DATA``, or from the default dataset, which is built from data/ first if the cache does not hold it yet.
The work each client address may cause is bounded (dashboard/web/budget.py) unless ``CITEMAP_BUDGET=0``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from dash import Dash

from dashboard.errors import DatasetError
from dashboard.importers.defaults import default_data
from dashboard.web import budget
from dashboard.web.app import create_app

_APP: Dash | None = None


def get_app() -> Dash:
    global _APP
    if _APP is None:
        data = os.environ.get("CITEMAP_DATA") or default_data()
        from dashboard.importers import field_map

        field_map.start(data)  # the build's field map, if it has none yet (the field view says how far along it is)
        try:
            spend = budget.from_env() if budget.wanted() else None
        except ValueError as e:  # a setting that is not one (CITEMAP_BUDGET_UNITS=lots)
            print(f"citemap: error: {e}", file=sys.stderr, flush=True)
            raise SystemExit(2) from None
        try:
            _APP = create_app(data, library=os.environ.get("CITEMAP_LIBRARY") or None, budget=spend)
        except DatasetError as e:  # fail fast, with the file named, and no traceback to dig through
            print(f"citemap: error: cannot load the dataset: {e}", file=sys.stderr, flush=True)
            raise SystemExit(3) from None
    return _APP


def __getattr__(name: str) -> Any:
    if name == "server":
        return get_app().server
    if name == "app":
        return get_app()
    raise AttributeError(name)
