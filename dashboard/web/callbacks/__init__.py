"""Dash callbacks, registered by one function per module; only this package and the app import Dash."""

from __future__ import annotations

from dash import Dash

from dashboard.dataset.store import Store
from dashboard.web.callbacks import clientside, export, field, render, search, state, story


def register_callbacks(app: Dash, store: Store) -> None:
    state.register(app, store)
    render.register(app, store)
    search.register(app, store)
    export.register(app, store)
    story.register(app, store)
    field.register(app, store)
    clientside.register(app)
