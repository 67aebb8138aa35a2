"""The field view (mode=field): its data (dashboard/view/field.py: the points, the same for every state, and a
state's layer over them), its state in the URL, its actions and its endpoints (GET /field/points, GET /field)."""

from __future__ import annotations

import base64
import re
from dataclasses import replace
from functools import lru_cache

import numpy as np
import orjson
import pytest

from dashboard.graph.state import MAX_SEEDS, encode_query, switch_mode
from dashboard.view import colors, field
from dashboard.view.colour_key import colour_key
from dashboard.view.payload import build_subgraph
from dashboard.web.callbacks.common import read_state
from dashboard.web.callbacks.field import field_action


def joined(points: dict, layer: dict) -> dict:
    """The points and a state's layer as the browser joins them: the columns of the points then of the layer's extra
    ones, each point's colour code, and only the points shown (``at``: their positions among all)."""
    cols = {k: list(points[k]) + list(layer["extra"][k]) for k in ("r", "x", "y", "s", "y0", "t")}
    codes = list(base64.b64decode(layer["c"]))
    n = len(points["r"])
    shown = [True] * len(cols["r"])
    if layer["mask"] is not None:
        bits = np.unpackbits(np.frombuffer(base64.b64decode(layer["mask"]), dtype=np.uint8), bitorder="little")
        shown[:n] = [bool(b) for b in bits[:n]]
    assert len(codes) == len(cols["r"])
    at = [i for i, on in enumerate(shown) if on]
    out = {k: [v[i] for i in at] for k, v in cols.items()}
    back = {i: j for j, i in enumerate(at)}
    return {
        **layer,
        **out,
        "regions": points["regions"],
        "c": [codes[i] for i in at],
        "map": [back[i] for i in layer["map"]],
        "seeds": [back[i] for i in layer["seeds"]],
        "selected": None if layer["selected"] is None else back[layer["selected"]],
    }


def payload(store, query: str) -> dict:
    """The field view of a query: its points shown, joined with its layer."""
    state, notices = read_state(store, query)
    assert notices == []
    return joined(orjson.loads(field.field_points_json(store)), orjson.loads(field.field_json(store, state)))


def map_rows(store, query: str) -> set[int]:
    state, _ = read_state(store, query)
    return set(build_subgraph(store, field.map_state(state)).rows.tolist())


def test_every_paper_is_a_point_once_least_cited_first(store) -> None:
    p = payload(store, "?mode=field")
    assert sorted(p["r"]) == list(range(store.n))
    assert p["total"] == p["shown"] == p["passing"] == store.n and p["dense"] == 0 and p["density"] is None
    n = store.n
    for name in ("x", "y", "s", "c", "t", "y0"):
        assert len(p[name]) == n, name
    assert p["s"] == store.in_cited[p["r"]].tolist()
    assert p["s"] == sorted(p["s"])  # the most cited drawn last, on top
    title = " ".join(store.titles([p["r"][0]])[0].split())
    assert (
        p["t"][0] == title
        if len(title) <= field.TITLE_CHARS
        else p["t"][0] == title[: field.TITLE_CHARS - 1].rstrip() + "…"
    )
    xy = np.column_stack([p["x"], p["y"]])
    inner = (xy >= 0) & (xy <= field.SPAN)
    assert inner.all(axis=1).mean() > 0.9  # the bulk spans the box the view opens on


def test_colours_come_from_the_palette(store) -> None:
    p = payload(store, "?mode=field")
    state, _ = read_state(store, "?mode=field")
    key = colour_key(store, state, np.asarray(p["r"]))
    assert p["colors"] == [c.color for c in key.categories]
    assert p["c"] == key.of(np.asarray(p["r"])).tolist()
    assert set(p["colors"]) <= {*colors.AREA_PALETTE, colors.OTHER_COLOR, colors.UNKNOWN_COLOR}
    by_cluster = payload(store, "?mode=field&color=cluster")
    _, names = field.field_clusters(store)
    assert by_cluster["names"][: len(names)] == [names[k] for k in range(len(names))]
    assert by_cluster["colors"][:-1] == [colors.cluster_color(k) for k in range(len(names))]
    assert max(by_cluster["c"]) <= len(names)
    by_year = payload(store, "?mode=field&color=year")
    assert all(c in by_year["colors"] for c in by_year["colors"])
    assert len(by_year["names"]) == len(by_year["colors"])


def test_the_current_maps_papers_are_marked(store) -> None:
    for query in ("?mode=field", "?seeds=2106.03764&expand=2006.04862&mode=field&selected=2110.10090"):
        p = payload(store, query)
        marked = {p["r"][k] for k in p["map"]}
        assert marked == map_rows(store, query)
        state, _ = read_state(store, query)
        assert [p["r"][k] for k in p["seeds"]] == [store.row(s) for s in state.seeds]
        if state.selected:
            assert p["r"][p["selected"]] == store.row(state.selected)
        else:
            assert p["selected"] is None


def test_filters_narrow_the_points_but_keep_the_map(store) -> None:
    query = "?mode=field&min_citations=2&years=2019-2022"
    state, _ = read_state(store, query)
    p = payload(store, query)
    rows = np.asarray(p["r"])
    passing = store.filter_mask(rows, years=state.years, min_citations=state.min_citations)
    kept = set(rows[~passing].tolist())
    assert kept <= map_rows(store, query)  # only the map's papers may fail the filters
    every = np.arange(store.n)
    expected = set(every[store.filter_mask(every, years=state.years, min_citations=2)].tolist())
    assert p["passing"] == len(expected) < store.n
    assert set(rows.tolist()) == expected | map_rows(store, query)


def test_the_points_are_the_same_for_every_state_and_the_layer_is_small(store) -> None:
    points = field.field_points_json(store)
    assert field.field_points_json(store) is points  # made once per store
    assert orjson.loads(points)["build"] == store.meta["build_id"]
    layers = [field.field_json(store, read_state(store, q)[0]) for q in ("?mode=field", "?mode=field&color=year")]
    for layer in layers:
        assert "t" not in orjson.loads(layer) and len(layer) < len(points) / 5


def test_past_the_cap_the_most_cited_are_points_over_a_density_of_the_rest(default_store, monkeypatch) -> None:
    store, cap = default_store, 2000
    monkeypatch.setattr(field, "MAX_POINTS", cap)
    monkeypatch.setattr(field, "_CACHE", type(field._CACHE)())  # the store's points made anew with the small cap
    for query in ("?mode=field", "?mode=field&min_citations=3&expand=2006.04862&color=cluster"):
        state, _ = read_state(store, query)
        marked = build_subgraph(store, field.map_state(state)).rows
        points = field.field_points(store)
        layer = orjson.loads(orjson.dumps(field.field_payload(store, state, marked), option=orjson.OPT_SERIALIZE_NUMPY))
        p = joined(points, layer)
        top = np.argsort(-store.in_cited, kind="stable")[:cap]
        assert sorted(points["r"].tolist()) == sorted(top.tolist())
        every = np.arange(store.n)
        passing = set(every[store.filter_mask(every, min_citations=state.min_citations)].tolist())
        assert set(p["r"]) == (set(top.tolist()) & passing) | set(marked.tolist())  # points: top N + the map's
        assert set(marked.tolist()) - set(top.tolist())  # some of the map's are not among the top
        assert {p["r"][k] for k in p["map"]} == set(marked.tolist())
        z = np.asarray(layer["density"]["z"])
        assert z.shape == (field.DENSITY_BINS, field.DENSITY_BINS)
        rest = passing - set(p["r"])
        assert int(z.sum()) == layer["dense"] == len(rest) > 0  # the density counts the rest, once each
        assert layer["passing"] == len(passing) and layer["shown"] == len(p["r"])
        # each paper of the rest counted in the cell of its place
        xy = field._scaled(store)[sorted(rest)]
        d = layer["density"]
        i = np.clip(((xy[:, 0] - d["x0"] + d["dx"] / 2) // d["dx"]).astype(int), 0, field.DENSITY_BINS - 1)
        j = np.clip(((xy[:, 1] - d["y0"] + d["dy"] / 2) // d["dy"]).astype(int), 0, field.DENSITY_BINS - 1)
        assert (np.bincount(j * field.DENSITY_BINS + i, minlength=z.size) == z.ravel()).all()


def status_figures(text: str) -> tuple[int, int, int, int]:
    """(papers shown, shaded, map papers lit, hidden by filters) as the field's status line states them."""

    def figure(pattern: str) -> int:
        m = re.search(pattern, text)
        return int(m[1].replace(",", "")) if m else 0

    return (
        figure(r"whole field: ([\d,]+) papers"),
        figure(r"([\d,]+) shaded"),
        figure(r"([\d,]+) map papers lit"),
        figure(r"filters hide ([\d,]+)"),
    )


@pytest.mark.parametrize("cap", [None, 2000])
def test_the_status_lines_figures_add_up(default_store, monkeypatch, cap) -> None:
    """Shown + shaded + hidden = the papers of the dataset: a map paper that fails the filters is shown (faded), not
    hidden (``?seeds=1706.03762&mode=field&years=2019-2020&areas=cs.CV&min_citations=20`` once said 97 papers and
    30,281 hidden of 30,377)."""
    store = default_store
    if cap is not None:  # past the cap: the rest that passes is shaded
        monkeypatch.setattr(field, "MAX_POINTS", cap)
        monkeypatch.setattr(field, "_CACHE", type(field._CACHE)())
    monkeypatch.setattr(field, "_state_payload", lru_cache(maxsize=16)(field._state_payload.__wrapped__))
    for query in (
        "?seeds=1706.03762&mode=field&years=2019-2020&areas=cs.CV&min_citations=20",
        "?seeds=1706.03762&mode=field&min_citations=3",
        "?seeds=2106.03764&expand=2006.04862&mode=field&years=2021-2021",
    ):
        state, _ = read_state(store, query)
        shown, shaded, lit, hidden = status_figures(field.field_status(store, state))
        every = np.arange(store.n)
        passing = every[
            store.filter_mask(every, years=state.years, areas=state.areas, min_citations=state.min_citations)
        ]
        marked = build_subgraph(store, field.map_state(state)).rows
        if "cs.CV" in query:
            assert store.row("1706.03762") not in set(passing.tolist())  # the seed fails the filters, and is shown
        assert hidden == store.n - len(set(passing.tolist()) | set(marked.tolist())) > 0, query
        assert shown + shaded + hidden == store.n, query
        assert lit == len(set(marked.tolist())) and (shaded > 0) == (cap is not None), query


def test_regions_are_named_field_clusters_at_their_points(store) -> None:
    p = payload(store, "?mode=field")
    labels, names = field.field_clusters(store)
    assert labels.shape == (store.n,)
    for r in p["regions"]:
        assert r["name"] == names[r["cluster"]] and r["n"] >= field.MIN_REGION
    assert [r["n"] for r in p["regions"]] == sorted((r["n"] for r in p["regions"]), reverse=True)  # largest first
    assert field.field_clusters(store) is field.field_clusters(store)  # once per store


def test_mode_field_round_trips_and_keeps_the_map(store) -> None:
    query = "?seeds=2106.03764&expand=2006.04862&min_citations=2&mode=field&limit=600"
    state, notices = read_state(store, query)
    assert notices == [] and state.mode == "field" and state.expand == ("2006.04862",) and state.limit == 600
    assert encode_query(state) == query
    back = switch_mode(state, "citations")
    assert encode_query(back) == query.replace("&mode=field", "")
    assert switch_mode(back, "field") == state
    similar = switch_mode(state, "similar")
    assert similar.expand == () and similar.limit == 40
    bad, notices = read_state(store, "?mode=fields")
    assert bad.mode == "citations" and notices


def test_a_click_selects_and_a_selection_becomes_the_seeds(store) -> None:
    state, _ = read_state(store, "?mode=field&expand=2006.04862")
    row = store.row("2110.10090")
    clicked, notices = field_action(store, state, "store-field-click", {"row": row, "at": 1})
    assert clicked.selected == "2110.10090" and clicked.mode == "field" and notices == []
    for junk in (None, {}, {"row": "x"}, {"row": -1}, {"row": store.n}, {"row": True}, {"points": [{"customdata": 1}]}):
        assert field_action(store, state, "store-field-click", junk)[0] == state
    top = np.lexsort((np.arange(store.n), -store.in_cited.astype(np.int64)))[:MAX_SEEDS]
    selection = {"rows": top.tolist(), "n": store.n}  # as the page sends it: the most cited, and how many
    mapped, notices = field_action(store, state, "button-field-map", selection)
    assert mapped.seeds == tuple(store.ids(top))
    assert mapped.mode == "citations" and mapped.expand == () and mapped.selected is None
    assert notices and f"{MAX_SEEDS} most cited of the {store.n:,} selected" in notices[0]
    few, notices = field_action(store, state, "button-field-map", {"rows": [row, row], "n": 1})
    assert few.seeds == ("2110.10090",) and notices == []
    for junk in (None, {}, {"rows": "x"}, {"rows": [-1, "2", True]}):
        none, notices = field_action(store, state, "button-field-map", junk)
        assert none == state and notices


def test_the_endpoint_answers_the_views_points(client, store) -> None:
    r = client.get("/field?mode=field&min_citations=3")
    assert r.status_code == 200 and r.mimetype == "application/json"
    p = r.get_json()
    assert p["query"].endswith("min_citations=3&mode=field")
    again = client.get("/field?mode=field&min_citations=3", headers={"If-None-Match": r.headers["ETag"]})
    assert again.status_code == 304
    points = client.get("/field/points")
    assert points.status_code == 200 and points.get_json()["r"] == field.point_rows(store).tolist()
    assert store.meta["build_id"] in points.headers["ETag"]  # a new build is a new answer
    again = client.get("/field/points", headers={"If-None-Match": points.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    # any view's query answers its field (the map it marks is that view's)
    plain = client.get("/field?seeds=2106.03764").get_json()
    assert plain["query"] == "?seeds=2106.03764&mode=field" and plain["points"] == store.n


@pytest.mark.parametrize("query", ["?mode=field&color=year", "?mode=field&areas=cs.LG"])
def test_other_colours_and_filters_answer(store, query) -> None:
    p = payload(store, query)
    assert len(p["r"]) == p["shown"] and all(0 <= c < len(p["names"]) for c in p["c"])
    assert replace(read_state(store, query)[0], mode="citations").mode == "citations"


def test_the_field_bundle_is_plotlys_strict_one_of_dashs_version() -> None:
    """The field's WebGL points need a plotly.js bundle with scattergl: the strict one (its shaders compiled ahead:
    the page's Content Security Policy forbids eval), vendored as npm's plotly.js-strict-dist-min publishes it, of the
    same version as the full bundle Dash serves, with its MIT licence; asked for by the field view only."""
    import re
    from pathlib import Path

    import plotly

    from tests.conftest import ROOT

    def version(path: Path) -> str:
        found = re.search(
            r"plotly\.js(?: \(\w+ - minified\))? v(\d+\.\d+\.\d+)", path.read_text(errors="replace")[:400]
        )
        assert found, path
        return found[1]

    vendor = ROOT / "assets" / "vendor"
    strict = vendor / "plotly-strict.min.js"
    assert "(strict - minified)" in strict.read_text(encoding="utf-8")[:200]
    assert version(strict) == version(Path(plotly.__file__).parent / "package_data" / "plotly.min.js")
    assert (vendor / "plotly-strict.LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    charts = (ROOT / "assets" / "js" / "charts.js").read_text(encoding="utf-8")
    assert 'assets/vendor/plotly-strict.min.js"' in charts and "export function plotlyFull" in charts


def test_a_big_stores_points_are_made_when_the_app_starts(default_store, monkeypatch) -> None:
    """Past MAX_POINTS papers the app makes the field's points (and its regions) as it starts, in gunicorn's master,
    not on the first visitor's request; a store under it waits for the field to be asked for."""
    from dashboard.web.app import create_app

    monkeypatch.setattr(field, "_CACHE", type(field._CACHE)())
    create_app(default_store.folder, store=default_store)
    assert "points_json" not in field._CACHE.get(default_store, {})
    monkeypatch.setattr(field, "MAX_POINTS", default_store.n - 1)
    create_app(default_store.folder, store=default_store)
    assert "points_json" in field._CACHE[default_store] and "clusters" in field._CACHE[default_store]
