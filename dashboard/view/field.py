"""The field view (``mode=field``): every paper of the dataset as a point at its place in the whole field, as plain
data the browser draws (``assets/js/field.js`` makes a WebGL scatter of it).

Two answers, so that a change of state fetches only what the state changes:

* **the points** (:func:`field_points`, ``GET /field/points``): what never changes for a build, columnar, one entry
  a point, least cited first (the most cited drawn on top): ``r``, the paper's row (what a click or a box
  selection sends back; rows are stable within one build), ``x``/``y``, its place (scaled so that the middle 98% of
  the papers span ``0..SPAN``), ``s``, its citers in the dataset (the point's size), ``y0``, its year (-1: not
  known), ``t``, its title (the hover text, cut to ``TITLE_CHARS``); ``build`` names the build; ``regions``, the
  field's clusters with at least ``MIN_REGION`` points, largest first, each at the middle of its points and named as
  a map's clusters are (:func:`dashboard.graph.clusters.clusters_of`, computed once per store over the points'
  citations): the field's geography, the same whatever the filters. The points are every paper, or past
  ``MAX_POINTS`` (what a browser draws smoothly) the ``MAX_POINTS`` most cited.
* **the state's layer** (:func:`field_payload`, ``GET /field?<view query>``): ``c``, each point's colour category
  (bytes, base64: an index into ``names`` and ``colors``: the state's colour, by area, year or field cluster);
  ``mask``, which points pass the filters (bits, base64, least significant first; null: all of them); ``extra``,
  the current map's papers that are not among the points (the same columns as the points, appended after them);
  ``map`` (points of the current citation map: the same view in ``mode=citations``), ``seeds`` and ``selected``
  among them (point positions, extras counted after the points); ``density``,
  past ``MAX_POINTS``, the papers that pass the filters and are not points, counted in a grid of
  ``DENSITY_BINS`` cells each way over the box that holds every paper; ``range``, the box the view opens on;
  ``total`` (papers in the dataset), ``passing`` (papers that pass the filters), ``shown`` (points shown),
  ``dense`` (papers counted in the density grid).

Positions: ``store.field_xy``, an ``(n, 2)`` array aligned with the store's rows (:mod:`dashboard.graph.field_layout`),
made after the build is served (:mod:`dashboard.importers.field_map`). Until it is there both answers are
:func:`field_making` instead: ``build`` and ``making`` (``share`` done, 0..1 or null, and ``text``, what the view
says meanwhile), never cached.
"""

from __future__ import annotations

import base64
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import Any

import numpy as np
import orjson

from dashboard.dataset.store import Store, gather
from dashboard.graph import clusters as clustering
from dashboard.graph.state import ViewState, encode_query
from dashboard.view import colors
from dashboard.view.colour_key import NO_CLUSTER, colour_key
from dashboard.view.naming import cut_title
from dashboard.view.payload import build_subgraph

MAX_POINTS = 50_000  # papers drawn as points at most (the most cited), besides the current map's
DENSITY_BINS = 200  # cells of the density grid across the view's box, each way
TITLE_CHARS = 100  # hover titles cut to this length
SPAN = 1000.0  # positions are scaled into 0..SPAN on their longer side
RANGE = (-0.05 * SPAN, 1.05 * SPAN)  # the box the view opens on, each way
MIN_REGION = 20  # a field cluster with fewer points shown carries no name

_CACHE: weakref.WeakKeyDictionary[Store, dict] = weakref.WeakKeyDictionary()
_LOCK = threading.RLock()  # a value made under it may need another


def _cached(store: Store, key: str, make: Callable[[], Any]) -> Any:
    """One value per store, made once (under a lock: two first requests do not both compute it)."""
    with _LOCK:
        found = _CACHE.setdefault(store, {})
        if key not in found:
            found[key] = make()
        return found[key]


def field_making(store: Store) -> dict[str, Any] | None:
    """None once the build has its field map; until then what the field view shows instead (module docstring): how
    far along the making is, or that it is not being made."""
    if store.field_xy is not None:
        return None
    got = store.field_progress()
    if got is None:
        return {
            "share": None,
            "text": "The map of the whole field is not made yet for this dataset; the server's "
            "`citemap field-map` makes it (and `citemap serve` starts it).",
        }
    share = min(max(float(got["share"]), 0.0), 1.0)
    spent = max(time.time() - float(got.get("started") or time.time()), 0.0)
    text = f"The map of the whole field is being made: {share:.0%} done"
    if share >= 0.05:
        text += f", about {_duration(spent / share * (1 - share))} left"
    return {"share": share, "text": text + ". It appears here when ready."}


def _duration(seconds: float) -> str:
    """Seconds as a person says them: "40 seconds", "3 minutes"."""
    if seconds < 90:
        return f"{max(round(seconds), 1)} seconds"
    return f"{round(seconds / 60)} minutes"


def field_making_json(store: Store) -> tuple[str, bytes] | None:
    """:func:`field_making` as (an ETag key for it, JSON with the build), or None once the map is there."""
    making = field_making(store)
    if making is None:
        return None
    build = store.meta.get("build_id", "")
    key = f"{build}-making-{'none' if making['share'] is None else round(making['share'] * 100)}"
    return key, orjson.dumps({"build": build, "making": making})


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


def point_rows(store: Store) -> np.ndarray:
    """The papers drawn as points whatever the state, least cited first (ties: row order): every paper, or past
    ``MAX_POINTS`` the ``MAX_POINTS`` most cited."""

    def make() -> np.ndarray:
        cited = store.in_cited
        rows = np.arange(store.n, dtype=np.int64)
        if store.n > MAX_POINTS:
            rows = np.sort(np.argsort(-cited, kind="stable")[:MAX_POINTS])
        return rows[np.argsort(cited[rows], kind="stable")]

    return _cached(store, "points", make)


def _point_of(store: Store) -> np.ndarray:
    """Each row's place among :func:`point_rows` (-1: not a point), int32."""

    def make() -> np.ndarray:
        rows = point_rows(store)
        where = np.full(store.n, -1, dtype=np.int32)
        where[rows] = np.arange(len(rows), dtype=np.int32)
        return where

    return _cached(store, "point_of", make)


def field_clusters(store: Store) -> tuple[np.ndarray, dict[int, str]]:
    """The field's clusters: each row's label (``clusters.OTHER`` for none: also every paper that is not a point)
    and each cluster's name, computed once per store over the citations among the points (:func:`point_rows`), named
    as a map's clusters are."""

    def make() -> tuple[np.ndarray, dict[int, str]]:
        rows = np.sort(point_rows(store))
        where = np.full(store.n, -1, dtype=np.int64)
        where[rows] = np.arange(len(rows))
        owner, cited = gather(store.arrays["ref_offsets"], store.arrays["ref_targets"], rows)
        cited_at = where[np.asarray(cited, dtype=np.int64)]
        keep = cited_at >= 0
        labels, names = clustering.clusters_of(store, rows, owner[keep].astype(np.int64), cited_at[keep])
        every = np.full(store.n, clustering.OTHER, dtype=np.int64)
        every[rows] = labels
        return every, names

    return _cached(store, "clusters", make)


def map_state(state: ViewState) -> ViewState:
    """The citation map a field view marks: the same view in ``mode=citations``."""
    return replace(state, mode="citations") if state.mode == "field" else state


def _columns(store: Store, rows: np.ndarray) -> dict[str, Any]:
    """The columns of points (see the module docstring): rows, places, citers, years, titles."""
    xy = _scaled(store)[rows]
    years = store.year[rows].astype(np.int64)
    return {
        "r": rows,
        "x": np.round(xy[:, 0].astype(np.float64), 1),
        "y": np.round(xy[:, 1].astype(np.float64), 1),
        "s": store.in_cited[rows].astype(np.int64),
        "y0": np.where(years >= 0, years, -1),
        "t": [cut_title(t or "", TITLE_CHARS) for t in store.titles(rows)],
    }


def field_points(store: Store) -> dict[str, Any]:
    """The points of the field (see the module docstring): the same for every state of a build."""
    rows = point_rows(store)
    return {
        "build": store.meta.get("build_id", ""),
        "total": int(store.n),
        **_columns(store, rows),
        "regions": regions(store, rows, _scaled(store)[rows]),
    }


def field_points_json(store: Store) -> bytes:
    """:func:`field_points` as JSON (what ``GET /field/points`` sends), made once per store."""
    return _cached(store, "points_json", lambda: orjson.dumps(field_points(store), option=orjson.OPT_SERIALIZE_NUMPY))


def _categories(store: Store, state: ViewState, rows: np.ndarray, shown: np.ndarray) -> tuple[list, list, np.ndarray]:
    """The colour categories (names, colours) and the category of each of ``rows``: by area and year as the map's
    colour key does (years: those of the ``shown`` rows), by cluster the field's clusters."""
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
    color = state.color if state.color in ("area", "year") else "area"
    key = colour_key(store, replace(state, color=color), shown)
    return [c.name for c in key.categories], [c.color for c in key.categories], key.of(rows)


def regions(store: Store, rows: np.ndarray, xy: np.ndarray) -> list[dict[str, Any]]:
    """The named field clusters with at least ``MIN_REGION`` of the points (``rows``, at ``xy``), largest first,
    each at the median of its points. Which names fit on the screen is the browser's choice."""
    labels, names = field_clusters(store)
    own = labels[rows]
    out: list[dict[str, Any]] = []
    for k, name in names.items():
        at = own == k
        n = int(at.sum())
        if n >= MIN_REGION:
            mx, my = np.median(xy[at], axis=0).tolist()
            out.append({"name": name, "x": round(mx, 1), "y": round(my, 1), "n": n, "cluster": int(k)})
    out.sort(key=lambda r: -r["n"])
    return out


def _extent(store: Store) -> np.ndarray:
    """The box that holds every paper's place: ``[[x_lo, y_lo], [x_hi, y_hi]]`` (the density grid's)."""

    def make() -> np.ndarray:
        xy = _scaled(store).astype(np.float64)
        if not len(xy):
            return np.array([[0.0, 0.0], [SPAN, SPAN]])
        lo, hi = xy.min(axis=0), xy.max(axis=0)
        return np.array([lo, np.maximum(hi, lo + 1e-6)])

    return _cached(store, "extent", make)


def density(store: Store, rows: np.ndarray) -> dict[str, Any]:
    """``rows`` counted in a grid of ``DENSITY_BINS`` cells each way over the box that holds every paper:
    ``z[j][i]``, the papers in column ``i`` of row ``j`` (up), ``x0``/``y0`` the middle of the first cell,
    ``dx``/``dy`` a cell's sides."""
    bins = DENSITY_BINS
    (x_lo, y_lo), (x_hi, y_hi) = _extent(store)
    cell = np.array([(x_hi - x_lo) / bins, (y_hi - y_lo) / bins])
    xy = _scaled(store)[rows].astype(np.float64)
    at = np.clip(np.floor((xy - [x_lo, y_lo]) / cell), 0, bins - 1).astype(np.int64)
    z = np.bincount(at[:, 1] * bins + at[:, 0], minlength=bins * bins).reshape(bins, bins)
    return {
        "x0": float(x_lo + cell[0] / 2),
        "y0": float(y_lo + cell[1] / 2),
        "dx": float(cell[0]),
        "dy": float(cell[1]),
        "z": z,
    }


def _bits(mask: np.ndarray) -> str | None:
    """A mask as base64 bits (least significant first), None if all are set."""
    return None if mask.all() else base64.b64encode(np.packbits(mask, bitorder="little").tobytes()).decode()


def field_payload(store: Store, state: ViewState, map_rows: np.ndarray) -> dict[str, Any]:
    """The state's layer of the field view (see the module docstring); ``map_rows``: the current citation map's
    papers (``Subgraph.rows`` of :func:`map_state`)."""
    points = point_rows(store)
    point_of = _point_of(store)
    if state.filtered:
        every = np.arange(store.n, dtype=np.int64)
        passing = store.filter_mask(every, years=state.years, areas=state.areas, min_citations=state.min_citations)
    else:
        passing = np.ones(store.n, dtype=bool)
    map_rows = np.unique(np.asarray(map_rows, dtype=np.int64))
    extra = map_rows[point_of[map_rows] < 0]
    extra = extra[np.argsort(store.in_cited[extra], kind="stable")]
    rows = np.concatenate([points, extra])
    shown = np.concatenate([passing[points], np.ones(len(extra), dtype=bool)])
    shown[point_of[map_rows[point_of[map_rows] >= 0]]] = True  # the map's papers whatever the filters
    at = np.full(store.n, -1, dtype=np.int64)
    at[rows] = np.arange(len(rows))
    names, palette, codes = _categories(store, state, rows, rows[shown])
    seeds = [int(at[r]) for r in (store.row(s) for s in state.seeds) if r is not None and at[r] >= 0]
    sel = store.row(state.selected) if state.selected else None
    out: dict[str, Any] = {
        "query": encode_query(state),
        "build": store.meta.get("build_id", ""),
        "color": state.color,
        "total": int(store.n),
        "passing": int(passing.sum()),
        "shown": int(shown.sum()),
        "dense": 0,
        "points": len(points),
        "c": base64.b64encode(np.minimum(codes, 255).astype(np.uint8).tobytes()).decode(),
        "names": names,
        "colors": palette,
        "mask": _bits(shown[: len(points)]),
        "extra": _columns(store, extra),
        "map": np.sort(at[map_rows]),
        "seeds": seeds,
        "selected": int(at[sel]) if sel is not None and at[sel] >= 0 and shown[at[sel]] else None,
        "range": list(RANGE),
        "density": None,
    }
    if store.n > len(points):
        rest = passing.copy()
        rest[rows] = False
        out["dense"] = int(rest.sum())
        out["density"] = density(store, np.flatnonzero(rest))
    return out


@lru_cache(maxsize=16)
def _state_payload(store: Store, state: ViewState) -> dict[str, Any]:
    """The state's layer, with the map it marks built as the citation map's callbacks build it
    (:func:`dashboard.view.payload.build_subgraph`, cached per state)."""
    return field_payload(store, state, build_subgraph(store, map_state(state)).rows)


@lru_cache(maxsize=16)
def field_json(store: Store, state: ViewState) -> bytes:
    """The state's layer as JSON (what ``GET /field`` sends)."""
    return orjson.dumps(_state_payload(store, state), option=orjson.OPT_SERIALIZE_NUMPY)


def field_status(store: Store, state: ViewState) -> str:
    """The status line of a field view: the papers shown (as points, and as shading), the current map's papers lit
    among them, and those the filters hide: the papers neither shown nor shaded (a map paper that fails the filters
    is shown, faded, so it is not among them), so that shown + shaded + hidden = the papers of the dataset. While
    the map is being made, the papers it will show (the box says how far along it is, and draws the map when it is
    there)."""
    if field_making(store) is not None:
        return f"whole field: {store.n:,} papers"
    p = _state_payload(store, state)
    parts = [f"whole field: {p['shown']:,} papers"]
    if p["dense"]:
        parts[0] += f" as points, {p['dense']:,} shaded"
    if len(p["map"]):
        parts.append(f"{len(p['map']):,} map papers lit")
    hidden = p["total"] - p["shown"] - p["dense"]
    if hidden:
        parts.append(f"filters hide {hidden:,}")
    return " · ".join(parts)


def seeds_from_selection(store: Store, rows: list[int], cap: int) -> tuple[list[str], int]:
    """The seeds a box or lasso selection of the field makes: its most cited ``cap`` papers (ties: the first row),
    and how many were selected (valid rows, once each)."""
    valid = np.unique(np.asarray([r for r in rows if 0 <= r < store.n], dtype=np.int64))
    if not len(valid):
        return [], 0
    order = np.lexsort((valid, -store.in_cited[valid].astype(np.int64)))[:cap]
    return store.ids(valid[order]), len(valid)
