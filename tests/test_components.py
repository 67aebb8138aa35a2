"""The page's accessible pieces (dashboard/web/components.py) and what the layout does with them: radio groups named by
their labels, one tab stop each; uploads named; the map a named, focusable region with live summaries; every
symbol-only button named."""

from __future__ import annotations

from typing import Any

from dash import dcc, html

from dashboard.dataset.store import Store
from dashboard.web.components import (
    checkbox_menu,
    labelled_upload,
    radio_group,
    values_json,
    values_of,
    visually_hidden,
)
from dashboard.web.layout import make_layout


def walk(node: Any):
    yield node
    children = getattr(node, "children", None)
    for child in children if isinstance(children, list | tuple) else [children] if children is not None else []:
        if hasattr(child, "to_plotly_json"):
            yield from walk(child)


def attr(node: Any, name: str) -> Any:
    return node.to_plotly_json()["props"].get(name)


def test_a_radio_group() -> None:
    field = radio_group("radio-x", "Colour by", [("a", "first"), ("b", "second")], "b")
    label, group = field.children
    assert label.id == "radio-x-label" and label.children == "Colour by"
    assert attr(group, "role") == "radiogroup" and attr(group, "aria-labelledby") == "radio-x-label"
    assert attr(group, "data-value") == "b"
    options = group.children
    assert [attr(o, "role") for o in options] == ["radio", "radio"]
    assert [attr(o, "aria-checked") for o in options] == ["false", "true"]
    assert [o.tabIndex for o in options] == ["-1", "0"]  # one tab stop: the checked option
    assert [o.children for o in options] == ["first", "second"] and all(o.type == "button" for o in options)


def test_a_checkbox_menu() -> None:
    field = checkbox_menu("dropdown-x", "Areas", [("cs.LG", "cs.LG (12)"), ("a, b", "a, b (1)")], "All areas")
    label, details = field.children
    summary, group = details.children
    assert label.id == "dropdown-x-label" and details.id == "details-x" and summary.children == "All areas"
    assert attr(summary, "aria-labelledby") == "dropdown-x-label dropdown-x-summary"  # "Areas All areas"
    assert attr(group, "role") == "group" and attr(group, "aria-labelledby") == "dropdown-x-label"
    assert attr(group, "data-values") == "[]" and attr(group, "data-placeholder") == "All areas"
    assert [attr(b, "role") for b in group.children] == ["checkbox", "checkbox"]
    assert [attr(b, "data-value") for b in group.children] == ["cs.LG", "a, b"]


def test_checkbox_menu_values_are_json() -> None:
    assert values_of(values_json(["cs.LG", "a, b"])) == ["cs.LG", "a, b"]  # a comma in a name survives
    assert values_json([]) == "[]"
    for bad in (None, 3, "not json", "{}", '"x"', "[" * 100, "x" * 70000):
        assert values_of(bad) == []
    assert values_of('["a", 1, null, "b"]') == ["a", "b"]
    assert values_of(["a", 2]) == ["a"]


def test_an_upload_is_named_by_its_label() -> None:
    label = labelled_upload("upload-x", "Load a file", "upload-x", accept=".json")
    assert isinstance(label, html.Label)
    upload = label.children
    assert isinstance(upload, dcc.Upload) and upload.disable_click  # the label's click opens the chooser, once
    assert upload.children.children == "Load a file" and upload.accept == ".json"


def test_visually_hidden_live_region() -> None:
    region = visually_hidden("div-x", live="polite")
    assert attr(region, "aria-live") == "polite" and attr(region, "aria-atomic") == "true"
    assert attr(visually_hidden("div-y"), "aria-live") is None


def test_the_layout(store: Store) -> None:
    nodes = list(walk(make_layout(store)))
    ids = {n.id: n for n in nodes if isinstance(getattr(n, "id", None), str)}
    groups = [n for n in nodes if attr(n, "role") == "radiogroup"]
    assert {g.id for g in groups} == {"radio-color", "radio-mode", "radio-layout", "radio-library", "radio-list-sort"}
    for g in groups:
        assert attr(g, "aria-labelledby") in ids  # named by a label on the page
    assert not any(isinstance(n, dcc.RadioItems | dcc.Dropdown) for n in nodes)  # dash 4's: unnamed listboxes
    assert attr(ids["dropdown-areas"], "role") == "group"
    region = ids["div-map-region"]
    assert region.tabIndex == "0" and attr(region, "aria-label") == "Citation map"
    assert all(d in ids for d in attr(region, "aria-describedby").split())
    assert attr(ids["div-map-summary"], "aria-live") == "polite" and attr(ids["div-map-focus"], "aria-live")
    assert attr(ids["div-notices"], "aria-live") == "polite"
    for n in nodes:  # a button whose text is a symbol says what it does
        if isinstance(n, html.Button) and isinstance(n.children, str) and not any(c.isalpha() for c in n.children):
            assert attr(n, "aria-label"), n.id
    uploads = [n for n in nodes if isinstance(n, dcc.Upload)]
    assert uploads and all(u.disable_click for u in uploads)
    assert all(
        isinstance(p, html.Label) for p in nodes for c in [getattr(p, "children", None)] if isinstance(c, dcc.Upload)
    )
