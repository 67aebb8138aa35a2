"""The field view (``mode=field``): every paper of the dataset as a point at its place in the whole field, as plain
data the browser draws (``assets/citemap-11-field.js`` makes a WebGL scatter of it).

The payload (:func:`field_payload`, served as JSON by ``GET /field?<view query>``) is columnar, one entry a point:

* ``r``: the paper's row (what a click or a box selection sends back; rows are stable within one dataset build),
  ``x``/``y``: its place (scaled so that the middle 98% of the papers span ``0..SPAN``; ``range``: the box the view
  opens on), ``s``: its citers in the dataset (the point's size), ``c``: its
  colour's category (an index into ``names`` and ``colors``: the state's colour, by area, year or field cluster),
  ``t``: its title (the hover text, cut to ``TITLE_CHARS``), ``y0``: its year (-1: not known);
* ``map``: the points of the current citation map (the same view in ``mode=citations``), ``seeds`` and
  ``selected`` among them (point positions);
* ``regions``: the field's clusters, each named as a map's clusters are (:func:`dashboard.graph.clusters
  .clusters_of`, computed once per store over the whole citation graph), at the middle of its points (those whose
  name would cover a larger one's left unnamed);
* ``total`` (papers in the dataset), ``passing`` (papers that pass the filters), ``shown`` (points sent).

Points are the papers that pass the filters, plus the current map's papers (which stay marked whatever the
filters). Past ``MAX_POINTS`` (what a browser draws smoothly) the most cited ``MAX_POINTS`` are sent, plus the
map's; ``capped`` then says how many were left out. Points come least cited first, so that the most cited are drawn
on top.

Positions: ``store.field_xy``, an ``(n, 2)`` array aligned with the store's rows, computed at import
(:mod:`dashboard.graph.field_layout`).
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import replace
from functools import lru_cache

import numpy as np
import orjson

from dashboard.dataset.store import Store
from dashboard.graph import clusters as clustering
from dashboard.graph.field_layout import edges_of
from dashboard.graph.state import ViewState, encode_query
from dashboard.view import colors
from dashboard.view.colour_key import NO_CLUSTER, colour_key
from dashboard.view.naming import cut_title
from dashboard.view.payload import build_subgraph

MAX_POINTS = 50_000  # points sent at most (the most cited), besides the current map's
TITLE_CHARS = 100  # hover titles cut to this length
SPAN = 1000.0  # positions are scaled into 0..SPAN on their longer side
MIN_REGION = 20  # a field cluster with fewer points shown carries no name
REGION_GAP = 0.04 * SPAN  # names' middles at least this far apart up or down (three times across: names are wide)

_CACHE: weakref.WeakKeyDictionary[Store, dict] = weakref.WeakKeyDictionary()
_LOCK = threading.RLock()  # a value made under it may need another


def _cached(store: Store, key: str, make):
    """One value per store, made once (under a lock: two first requests do not both compute it)."""
    with _LOCK:
        found = _CACHE.setdefault(store, {})
        if key not in found:
            found[key] = make()
        return found[key]


def _scaled(store: Store) -> np.ndarray:
    """The field positions scaled so that the middle 98% of the papers span ``0..SPAN`` on the longer side
    (float32)."""

    def make() -> np.ndarray:
        xy = np.asarray(store.field_xy, dtype=np.float64)
        if not len(xy):
            return xy.astype(np.float32)
        # by the bulk of the papers (a layout's loose ends, papers without citations, lie far out)
        lo, hi = np.percentile(xy, 1, axis=0), np.percentile(xy, 99, axis=0)
        size = float((hi - lo).max()) or 1.0
        return ((xy - lo) * (SPAN / size)).astype(np.float32)

    return _cached(store, "scaled", make)


def field_clusters(store: Store) -> tuple[np.ndarray, dict[int, str]]:
    """The field's clusters: each row's label (``clusters.OTHER`` for none) and each cluster's name, computed once
    per store over the whole citation graph, named as a map's clusters are."""

    def make() -> tuple[np.ndarray, dict[int, str]]:
        rows = np.arange(store.n, dtype=np.int64)
        src, dst = edges_of(store.arrays["ref_offsets"], store.arrays["ref_targets"])
        return clustering.clusters_of(store, rows, src.astype(np.int64), dst.astype(np.int64))

    return _cached(store, "clusters", make)


def map_state(state: ViewState) -> ViewState:
    """The citation map a field view marks: the same view in ``mode=citations``."""
    return replace(state, mode="citations") if state.mode == "field" else state


def _categories(store: Store, state: ViewState, rows: np.ndarray) -> tuple[list[str], list[str], np.ndarray]:
    """The colour categories of the points (names, colours) and each point's: by area and year as the map's colour
    key does (years: those of the points), by cluster the field's clusters."""
    if state.color == "cluster":
        labels, names = field_clusters(store)
        k = len(names)
        own = labels[rows]
        codes = np.where(own >= 0, np.minimum(own, k), k)
        return (
            [*(names[i] for i in range(k)), NO_CLUSTER],
            [*(colors.cluster_color(i) for i in range(k)), colors.UNKNOWN_COLOR],
            codes,
        )
    key = colour_key(store, replace(state, color=state.color if state.color in ("area", "year") else "area"), rows)
    return [c.name for c in key.categories], [c.color for c in key.categories], key.of(rows)


def _regions(store: Store, rows: np.ndarray, xy: np.ndarray) -> list[dict]:
    """The named field clusters with at least ``MIN_REGION`` of the points, each at the median of its points; one
    whose middle is within ``REGION_GAP`` of a larger one's is left unnamed (its name would cover the other's)."""
    labels, names = field_clusters(store)
    own = labels[rows]
    out: list[dict] = []
    for k, name in names.items():  # the largest first
        at = own == k
        n = int(at.sum())
        if n < MIN_REGION:
            continue
        mx, my = np.median(xy[at], axis=0).tolist()
        if all(abs(mx - r["x"]) > REGION_GAP * 3 or abs(my - r["y"]) > REGION_GAP for r in out):
            out.append({"name": name, "x": round(mx, 1), "y": round(my, 1), "n": n, "cluster": int(k)})
    return out


def field_payload(store: Store, state: ViewState, map_rows: np.ndarray) -> dict:
    """The field view of a state (see the module docstring); ``map_rows``: the current citation map's papers
    (``Subgraph.rows`` of :func:`map_state`)."""
    every = np.arange(store.n, dtype=np.int64)
    passing = every[store.filter_mask(every, years=state.years, areas=state.areas, min_citations=state.min_citations)]
    map_rows = np.asarray(map_rows, dtype=np.int64)
    capped = 0
    if len(passing) > MAX_POINTS:
        top = passing[np.argsort(-store.in_cited[passing], kind="stable")[:MAX_POINTS]]
        capped = len(passing) - MAX_POINTS
        passing = np.sort(top)
    rows = np.union1d(passing, map_rows)
    rows = rows[np.argsort(store.in_cited[rows], kind="stable")]  # least cited first: the most cited drawn on top
    xy = _scaled(store)[rows]
    names, palette, codes = _categories(store, state, rows)
    where = np.full(store.n, -1, dtype=np.int64)
    where[rows] = np.arange(len(rows))
    seeds = [int(where[r]) for r in (store.row(s) for s in state.seeds) if r is not None and where[r] >= 0]
    sel = store.row(state.selected) if state.selected else None
    years = store.year[rows].astype(np.int64)
    return {
        "query": encode_query(state),
        "color": state.color,
        "total": int(store.n),
        "passing": int(len(passing) + capped),
        "shown": len(rows),
        "capped": int(capped),
        "r": rows,
        "x": np.round(xy[:, 0].astype(np.float64), 1),
        "y": np.round(xy[:, 1].astype(np.float64), 1),
        "s": store.in_cited[rows].astype(np.int64),
        "y0": np.where(years >= 0, years, -1),
        "c": codes.astype(np.int64),
        "names": names,
        "colors": palette,
        "t": [cut_title(t or "", TITLE_CHARS) for t in store.titles(rows)],
        "map": np.sort(where[map_rows[where[map_rows] >= 0]]) if len(map_rows) else [],
        "seeds": seeds,
        "selected": int(where[sel]) if sel is not None and where[sel] >= 0 else None,
        "regions": _regions(store, rows, xy),
        "range": [-0.05 * SPAN, 1.05 * SPAN],
    }


@lru_cache(maxsize=16)
def field_json(store: Store, state: ViewState) -> bytes:
    """The field payload of a state as JSON (what ``GET /field`` sends); the map it marks is built as the citation
    map's callbacks build it (:func:`dashboard.view.payload.build_subgraph`, cached per state)."""
    sub = build_subgraph(store, map_state(state))
    return orjson.dumps(field_payload(store, state, sub.rows), option=orjson.OPT_SERIALIZE_NUMPY)


def seeds_from_selection(store: Store, rows: list[int], cap: int) -> tuple[list[str], int]:
    """The seeds a box or lasso selection of the field makes: its most cited ``cap`` papers (ties: the first row),
    and how many were selected (valid rows, once each)."""
    valid = np.unique(np.asarray([r for r in rows if 0 <= r < store.n], dtype=np.int64))
    if not len(valid):
        return [], 0
    order = np.lexsort((valid, -store.in_cited[valid].astype(np.int64)))[:cap]
    return store.ids(valid[order]), len(valid)
