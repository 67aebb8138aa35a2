"""The paper panel's lists (dashboard/web/callbacks/render.py render_panel): the first entries of each, then all
of them (up to LIST_SHOWN) once the visitor presses "Show more" (store-lists-full)."""

from __future__ import annotations

import json

import pytest

from dashboard.view.panel import LIST_FIRST, LIST_SHOWN
from tests.conftest import DEFAULT_DATA
from tests.servers import dash_payload

OUTPUTS = ["div-paper.children", "div-lists.children", "graph-by-year.figure", "div-chart-caption.children"]
PANEL = ".." + "...".join([*OUTPUTS, "div-rendered-panel.children"]) + ".."


@pytest.fixture(scope="module")
def app():
    from dashboard.web.app import create_app

    return create_app(DEFAULT_DATA)


def lists(app, query: str, full: bool | None) -> dict[str, list[dict]]:
    """Each list of the panel (by its class) -> its items as the page gets them."""
    spec = app.callback_map[PANEL]
    values = {"store-view-state.data": query, "radio-list-sort.data-value": "citations", "store-lists-full.data": full}
    body = dash_payload({**spec, "output": PANEL}, values)
    resp = app.server.test_client().post("/_dash-update-component", data=body, content_type="application/json")
    assert resp.status_code == 200
    blocks = json.loads(resp.data)["response"]["div-lists"]["children"]
    out = {}
    for block in blocks:
        name = block["props"]["className"].split()[-1]
        out[name] = block["props"]["children"][1]["props"]["children"]
    return out


def entries(items: list[dict]) -> list[str]:
    return [i["props"]["children"][0]["props"]["id"]["index"] for i in items if "entry" in i["props"]["className"]]


def test_a_long_list_shows_its_first_entries_and_a_button_for_the_rest(app, default_store) -> None:
    query = "?seeds=1706.03762"
    citers = len(default_store.citers(default_store.row("1706.03762")))
    assert citers > LIST_SHOWN
    first = lists(app, query, False)["list-citers"]
    assert len(entries(first)) == LIST_FIRST
    button = first[-1]["props"]["children"]
    assert button["props"]["id"] == {"type": "list-more", "index": "citers"}
    assert button["props"]["children"] == f"Show {LIST_SHOWN - LIST_FIRST} more (of {citers - LIST_FIRST:,})"
    whole = lists(app, query, True)["list-citers"]
    assert entries(whole)[:LIST_FIRST] == entries(first)  # the same order: the first ones, then the rest
    assert len(entries(whole)) == LIST_SHOWN and len(set(entries(whole))) == LIST_SHOWN
    assert whole[-1]["props"]["children"] == f"… and {citers - LIST_SHOWN:,} more"


def test_a_short_list_shows_every_entry_and_no_button(app, default_store) -> None:
    refs = len(default_store.references(default_store.row("2110.10090")))
    assert LIST_FIRST < refs <= LIST_SHOWN or refs <= LIST_FIRST
    got = lists(app, "?seeds=2110.10090", False)["list-references"]
    shown = entries(got)
    assert len(shown) == min(refs, LIST_FIRST)
    has_button = any(isinstance(i["props"]["children"], dict) for i in got if i["props"]["className"] == "more")
    assert has_button == (refs > LIST_FIRST)
