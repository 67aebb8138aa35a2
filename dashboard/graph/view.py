"""The view model: everything a state shows, as plain lists and dicts.

The graph goes to the browser as a compact columnar *payload* (one list per node field, edges as
pairs of node positions), serialised once with orjson; ``assets/citemap.js`` (``elementsFromPayload``)
turns it into Cytoscape elements. Node ids are paper ids; node data carries ``label``, ``title``,
``year``, ``areas``, ``citations``, ``in_cited``, ``color``, ``size``, ``role``; classes say
seed / reference / citer / selected / expanded / labelled / truncated; edge ids are ``citing>cited``.

``build_view(store, state)`` is cached per canonical URL, so the several Dash callbacks that render
one state (graph, panel, charts) compute the neighbourhood and layout once per worker.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np
import orjson

from dashboard.graph import colors
from dashboard.graph.layouts import positions
from dashboard.graph.neighbourhood import Subgraph, Truncation, neighbourhood
from dashboard.graph.state import ViewState, encode_query
from dashboard.store import Store

LABEL_CHARS = 42
ALWAYS_LABELLED = 8  # most cited papers in view that keep their label at any zoom


@dataclass
class View:
    state: ViewState
    sub: Subgraph
    payload: dict  # columnar graph for the browser (see module docstring)
    ids: list[str]  # visible paper ids, in node order
    legend: list[tuple[str, str]]  # (name, colour) for colour by area
    truncated: list[dict] = field(default_factory=list)
    hidden: int = 0
    capped: bool = False

    @property
    def n_nodes(self) -> int:
        return len(self.ids)

    @property
    def n_edges(self) -> int:
        return len(self.sub.src)

    @cached_property
    def payload_json(self) -> str:
        return orjson.dumps(self.payload).decode()


def short_label(title: str) -> str:
    title = " ".join(title.split())
    return title if len(title) <= LABEL_CHARS else title[: LABEL_CHARS - 1].rstrip() + "…"


@lru_cache(maxsize=32)
def _area_color_map(names: tuple[str, ...]) -> dict[str, str]:
    return {a: colors.area_color(list(names), a) for a in names}


def node_colors(store: Store, rows: np.ndarray, mode: str) -> list[str]:
    if mode == "year":
        return [colors.year_color(int(y), store.year_min, store.year_max) for y in store.year[rows].tolist()]
    cmap = _area_color_map(tuple(store.area_names))
    names = store.area_names
    return [cmap[names[c]] if c >= 0 else colors.UNKNOWN_COLOR for c in store.primary_area[rows].tolist()]


def graph_payload(store: Store, sub: Subgraph, state: ViewState) -> tuple[dict, list[str]]:
    """The columnar graph payload of a subgraph, and the node ids."""
    rows = sub.rows
    row_list = rows.tolist()
    pos = positions(store, sub, state.layout)
    ids = store.ids(rows)
    titles = store.titles(rows)
    years = store.year[rows].tolist()
    cites_arr = store.citations[rows]
    roles = [sub.role[r] for r in row_list]
    seed_mask = np.fromiter((role == "seed" for role in roles), dtype=bool, count=len(roles))
    sizes = np.round(14.0 + 5.5 * np.log10(1.0 + np.maximum(cites_arr, 0)), 1)
    sizes = np.where(seed_mask, np.maximum(sizes, 42.0), sizes)
    top = {row_list[i] for i in np.argsort(-cites_arr, kind="stable")[:ALWAYS_LABELLED].tolist()}
    expanded = set(sub.expanded)
    truncated = {t.paper for t in sub.truncated}
    labelled = top | expanded | set(sub.seeds) | {sub.selected}
    tail = " tl" if state.layout == "timeline" else ""
    classes = []
    for r, role in zip(row_list, roles, strict=True):
        c = "paper " + role
        if r in expanded:
            c += " expanded"
        if r == sub.selected:
            c += " selected"
        if r in labelled:
            c += " labelled"
        if r in truncated:
            c += " truncated"
        classes.append(c + tail)
    xy = [pos.get(r, (0.0, 0.0)) for r in row_list]
    order = np.argsort(rows, kind="stable")
    nodes = {
        "id": ids, "label": [short_label(t) for t in titles], "title": titles,
        "year": [y if y >= 0 else None for y in years], "areas": store.areas_of(rows),
        "citations": cites_arr.tolist(), "in_cited": store.in_cited[rows].tolist(),
        "color": node_colors(store, rows, state.color), "size": sizes.tolist(), "role": roles,
        "x": [round(p[0], 1) for p in xy], "y": [round(p[1], 1) for p in xy], "classes": classes,
    }
    edges = {
        "source": order[np.searchsorted(rows[order], sub.src)].tolist(),
        "target": order[np.searchsorted(rows[order], sub.dst)].tolist(),
    }
    axis = year_axis(pos, row_list, years) if state.layout == "timeline" else []
    selected = store.id(sub.selected) if sub.selected is not None else None
    return {"query": encode_query(state), "nodes": nodes, "edges": edges, "axis": axis,
            "selected": selected}, ids


def year_axis(pos: dict, rows: list[int], years: list[int]) -> list[dict]:
    """Year labels above the columns of the timeline (not papers: class ``axis``, no events)."""
    top: dict[int, tuple[float, float]] = {}
    for r, y in zip(rows, years, strict=True):
        if y < 0 or r not in pos:
            continue
        x, yy = pos[r]
        top[y] = (x, min(yy, top.get(y, (x, yy))[1]))
    if not top:
        return []
    ceiling = min(v[1] for v in top.values()) - 60.0
    return [{"year": y, "x": round(x, 1), "y": round(ceiling, 1)} for y, (x, _) in sorted(top.items())]


def _truncation_info(store: Store, t: Truncation) -> dict:
    return {"id": store.id(t.paper), "title": short_label(store.titles([t.paper])[0]),
            "direction": t.direction, "shown": t.shown, "total": t.total}


def compute_view(store: Store, state: ViewState) -> View:
    sub = neighbourhood(store, state)
    payload, ids = graph_payload(store, sub, state)
    shown_areas: list[str] = []
    if len(sub.rows):
        codes = np.unique(store.primary_area[sub.rows])
        shown_areas = [store.area_names[c] for c in sorted(codes.tolist()) if c >= 0]
    return View(
        state=state, sub=sub, payload=payload, ids=ids,
        legend=colors.area_legend(store.area_names, shown_areas),
        truncated=[_truncation_info(store, t) for t in sub.truncated],
        hidden=sub.hidden, capped=sub.capped,
    )


_CACHE: OrderedDict[tuple[int, str], View] = OrderedDict()
_LOCK = threading.Lock()
_CACHE_SIZE = 48


def build_view(store: Store, state: ViewState) -> View:
    """The view of a state, cached per worker by canonical URL."""
    key = (id(store), encode_query(state))
    with _LOCK:
        view = _CACHE.get(key)
        if view is not None:
            _CACHE.move_to_end(key)
            return view
    view = compute_view(store, state)
    with _LOCK:
        _CACHE[key] = view
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return view
