"""The view model: everything a state shows, as plain lists and dicts (Cytoscape elements included).

``build_view(store, state)`` is cached per canonical URL, so the several Dash callbacks that render
one state (graph, panel, charts) compute the neighbourhood and layout once per worker.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

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
    elements: list[dict]
    ids: list[str]  # visible paper ids, in element order
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


def short_label(title: str) -> str:
    title = " ".join(title.split())
    return title if len(title) <= LABEL_CHARS else title[: LABEL_CHARS - 1].rstrip() + "…"


def node_size(citations: int, seed: bool = False) -> float:
    size = 14.0 + 5.5 * math.log10(1.0 + max(citations, 0))
    return round(max(size, 42.0) if seed else size, 1)


@lru_cache(maxsize=32)
def _area_color_map(names: tuple[str, ...]) -> dict[str, str]:
    return {a: colors.area_color(list(names), a) for a in names}


def node_colors(store: Store, rows: np.ndarray, mode: str) -> list[str]:
    if mode == "year":
        return [colors.year_color(int(y), store.year_min, store.year_max) for y in store.year[rows].tolist()]
    cmap = _area_color_map(tuple(store.area_names))
    names = store.area_names
    return [cmap[names[c]] if c >= 0 else colors.UNKNOWN_COLOR for c in store.primary_area[rows].tolist()]


def elements_for(store: Store, sub: Subgraph, state: ViewState) -> tuple[list[dict], list[str]]:
    rows = sub.rows
    pos = positions(store, sub, state.layout)
    ids = store.ids(rows)
    titles = store.titles(rows)
    areas = store.areas_of(rows)
    years = store.year[rows].tolist()
    cites = store.citations[rows].tolist()
    in_cited = store.in_cited[rows].tolist()
    cols = node_colors(store, rows, state.color)
    order = np.argsort(-store.citations[rows], kind="stable")[:ALWAYS_LABELLED].tolist()
    top = {int(rows[i]) for i in order}
    expanded = set(sub.expanded)
    truncated = {t.paper for t in sub.truncated}
    nodes: list[dict] = []
    for i, r in enumerate(rows.tolist()):
        role = sub.role[r]
        classes = ["paper", role]
        if r in expanded:
            classes.append("expanded")
        if r == sub.selected:
            classes.append("selected")
        if role == "seed" or r in expanded or r == sub.selected or r in top:
            classes.append("labelled")
        if r in truncated:
            classes.append("truncated")
        if state.layout == "timeline":
            classes.append("tl")
        x, y = pos.get(r, (0.0, 0.0))
        nodes.append({
            "data": {"id": ids[i], "label": short_label(titles[i]), "title": titles[i],
                     "year": years[i] if years[i] >= 0 else None, "areas": areas[i],
                     "citations": cites[i], "in_cited": in_cited[i], "color": cols[i],
                     "size": node_size(cites[i], role == "seed"), "role": role},
            "position": {"x": round(x, 1), "y": round(y, 1)},
            "classes": " ".join(classes),
        })
    where = {r: i for i, r in enumerate(rows.tolist())}
    edges: list[dict] = []
    sel = sub.selected
    for a, b in zip(sub.src.tolist(), sub.dst.tolist(), strict=True):
        sa, sb = ids[where[a]], ids[where[b]]
        edges.append({"data": {"id": f"{sa}>{sb}", "source": sa, "target": sb},
                      "classes": "cites touching" if sel in (a, b) else "cites"})
    axis = year_axis(pos, rows.tolist(), years) if state.layout == "timeline" else []
    return nodes + axis + edges, ids


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
    return [{"data": {"id": f"axis-{y}", "label": str(y)}, "position": {"x": round(x, 1), "y": round(ceiling, 1)},
             "classes": "axis", "selectable": False, "grabbable": False}
            for y, (x, _) in sorted(top.items())]


def _truncation_info(store: Store, t: Truncation) -> dict:
    return {"id": store.id(t.paper), "title": short_label(store.titles([t.paper])[0]),
            "direction": t.direction, "shown": t.shown, "total": t.total}


def compute_view(store: Store, state: ViewState) -> View:
    sub = neighbourhood(store, state)
    elements, ids = elements_for(store, sub, state)
    shown_areas: list[str] = []
    if len(sub.rows):
        codes = np.unique(store.primary_area[sub.rows])
        shown_areas = [store.area_names[c] for c in sorted(codes.tolist()) if c >= 0]
    return View(
        state=state, sub=sub, elements=elements, ids=ids,
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
