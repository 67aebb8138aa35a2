"""The benchmarks' no-op callback (``store-ping -> store-pong``) is in an app created for a benchmark only: the shipped
app has neither the callback nor its two stores."""

from __future__ import annotations

import json

import pytest

from dashboard.web.app import create_app
from tests.conftest import seed_data
from tests.servers import dash_payload

PING = ("store-ping", "store-pong")


def layout_ids(app) -> set[str]:
    ids: set[str] = set()
    todo = [app.layout]
    while todo:
        node = todo.pop()
        if isinstance(getattr(node, "id", None), str):
            ids.add(node.id)
        children = getattr(node, "children", None)
        todo += [
            c for c in (children if isinstance(children, list | tuple) else [children]) if hasattr(c, "to_plotly_json")
        ]
    return ids


def has_ping(app) -> bool:
    return any("store-pong" in output for output in app.callback_map)


def test_the_shipped_app_has_no_ping(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CITEMAP_BENCH_PING", raising=False)
    app = create_app(seed_data())
    ids = layout_ids(app)
    assert "div-app" in ids and "store-view-state" in ids  # the walk sees the page's stores
    assert not has_ping(app) and not ids & set(PING)
    monkeypatch.setenv("CITEMAP_BENCH_PING", "0")
    assert not has_ping(create_app(seed_data()))


def test_the_flag_adds_the_ping(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITEMAP_BENCH_PING", "1")  # what bench/run.py sets for the servers it starts
    app = create_app(seed_data())
    assert has_ping(app) and set(PING) <= layout_ids(app)
    spec = app.callback_map["store-pong.data"]
    body = dash_payload({**spec, "output": "store-pong.data"}, {"store-ping.data": 5})
    resp = app.server.test_client().post("/_dash-update-component", data=body, content_type="application/json")
    assert resp.status_code == 200 and json.loads(resp.data)["response"]["store-pong"]["data"] == 5
    monkeypatch.delenv("CITEMAP_BENCH_PING")
    assert has_ping(create_app(seed_data(), bench_ping=True))
    monkeypatch.setenv("CITEMAP_BENCH_PING", "1")
    assert not has_ping(create_app(seed_data(), bench_ping=False))
