"""The view model: everything a state shows, as plain data, and the graph payload the browser draws.

The payload is JSON text built for speed (an expand must cost about one no-op callback):

* ``nodes``: each paper's fixed fields as an array (``fields`` names them: ``id``, ``title``,
  ``year``, ``areas``, ``in_cited``, ``cited_by``, ``authors``), spliced in as prepared JSON from the index
  (``Store.node_json``); :func:`payload_nodes` turns them into dicts;
* per view, as short columns: ``role`` (one letter a node: s seed, r reference, c citer,
  x selected), ``x``/``y`` positions, and node positions in ``nodes`` of the ``seeds``, ``expanded``,
  ``truncated``, ``dimmed`` (anchors that fail the filters) papers; ``edges`` as ``source``/``target`` node
  positions (at most ``MAX_DRAWN_EDGES``, see :func:`drawn_edges`; ``edges_total``: how many the view has); timeline
  ``axis`` tick labels (``id``, ``label``, ``x``, ``y``); the ``palette`` for colour by area or by year; for a
  similarity map, each link's ``weight`` and ``why``, and ``approximate`` (true when the seeds' lists were too long to
  read whole: a more similar paper may be missing).

``assets/js/logic/map-elements.js`` (``elementsFrom``) turns it into Cytoscape elements: node ids are paper
ids; node data carries ``label`` (the title on one line, cut on the map to the room it has), ``title``, ``year``,
``areas``, ``in_cited``, ``cited_by``, ``authors``, ``color``, ``size`` (by ``in_cited``, as room allows), ``role``;
classes say paper + seed / reference / citer / selected, then expanded / selected / truncated / dimmed (and ``tl``
on the timeline); edge ids are ``citing>cited``.

``build_subgraph(store, state)`` and ``graph_json(store, state)`` are cached per state (a frozen,
canonical dataclass), so the Dash callbacks that draw one state compute its neighbourhood and layout
once per worker.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np
import orjson

from dashboard.dataset.index import NODE_FIELDS, UNKNOWN_AREA
from dashboard.dataset.store import Store
from dashboard.graph.discovery import subgraph, view_clusters
from dashboard.graph.layouts import positions, positions_of, timeline_axis
from dashboard.graph.neighbourhood import Subgraph, Truncation
from dashboard.graph.state import ViewState, encode_query
from dashboard.view import colors
from dashboard.view.naming import area_labels, cut_title

LABEL_CHARS = 42  # a title named in a notice or the panel's headings is cut to this many characters
MAX_DRAWN_EDGES = 6000  # citations a browser draws at most (see drawn_edges)
ROLE_LETTERS = np.frombuffer(b"srcxmp", dtype="S1")  # by role code (neighbourhood.ROLES)


@dataclass
class View:
    store: Store
    state: ViewState
    sub: Subgraph
    payload: dict  # the per-view part of the payload (see the module docstring)
    payload_json: str  # the whole payload, fixed node fields included
    truncated: list[dict] = field(default_factory=list)

    @cached_property
    def ids(self) -> list[str]:
        """Visible paper ids, in node order."""
        return self.store.ids(self.sub.rows)

    @property
    def n_nodes(self) -> int:
        return len(self.sub.rows)

    @property
    def n_edges(self) -> int:
        return len(self.sub.edge_i)


def short_label(title: str) -> str:
    return cut_title(title, LABEL_CHARS)


def palette(area_names: tuple[str, ...], year_min: int | None, year_max: int | None) -> dict:
    """Colours the browser needs: by primary area, and by year from ``year0``; and each area's name as the page
    writes it (``area_names``: ``cs.LG`` -> ``Machine learning (cs.LG)``)."""
    return {
        "area": _area_colors(area_names),
        "area_names": area_labels(area_names),
        "unknown": colors.UNKNOWN_COLOR,
        "year0": year_min,
        "year": _year_colors(year_min, year_max),
    }


@lru_cache(maxsize=8)
def _area_colors(area_names: tuple[str, ...]) -> dict[str, str]:
    return {a: colors.area_color(list(area_names), a) for a in area_names} | {UNKNOWN_AREA: colors.UNKNOWN_COLOR}


@lru_cache(maxsize=4096)  # one per range of years in view: a few hundred at most
def _year_colors(lo: int | None, hi: int | None) -> list[str]:
    return [colors.year_color(y, lo, hi) for y in range(lo, hi + 1)] if lo is not None and hi is not None else []


def view_years(store: Store, rows: np.ndarray) -> tuple[int | None, int | None]:
    """The first and last year of the papers in view (what colour by year spans), or (None, None)."""
    years = store.year[rows]
    known = years[years >= 0]
    return (int(known.min()), int(known.max())) if len(known) else (None, None)


def _where(rows: np.ndarray, wanted: Iterable[int]) -> list[int]:
    """Positions in ``rows`` of a few ``wanted`` rows (a broadcast compare: no sorting)."""
    w = np.fromiter(wanted, dtype=np.int64)
    if not len(w) or not len(rows):
        return []
    return np.flatnonzero((rows[:, None] == w[None, :]).any(axis=1)).tolist()


def drawn_edges(store: Store, sub: Subgraph) -> np.ndarray:
    """Which citations of a view the browser draws (positions in ``sub.edge_i``), at most ``MAX_DRAWN_EDGES``: a
    browser stalls on tens of thousands of edges, and a hairball says less than its structure. First
    those of the seeds, the selected paper and the expanded ones (the view's own lines), then the others between
    the most cited papers; all of them when there are few enough."""
    n = len(sub.edge_i)
    if n <= MAX_DRAWN_EDGES:
        return np.arange(n)
    key = np.zeros(len(sub.rows), dtype=bool)
    key[: len(sub.seeds)] = True  # the walk puts the seeds first
    key[_where(sub.rows, [*sub.expanded, *([sub.selected] if sub.selected is not None else [])])] = True
    cites = store.in_cited[sub.rows].astype(np.int64)
    weight = np.minimum(cites[sub.edge_i], cites[sub.edge_j])  # an edge between two much-cited papers first
    order = np.lexsort((np.arange(n), -weight, ~(key[sub.edge_i] | key[sub.edge_j])))
    return np.sort(order[:MAX_DRAWN_EDGES])


def graph_payload(store: Store, sub: Subgraph, state: ViewState) -> tuple[dict, str]:
    """The per-view part of the graph payload, and the whole payload as JSON text."""
    rows = sub.rows
    placed = positions(store, sub, state.layout)
    drawn = drawn_edges(store, sub)
    xy = np.round(positions_of(placed, rows), 1)
    payload = {
        "query": encode_query(state),
        "layout": state.layout,
        "color": state.color,
        "selected": store.id(sub.selected) if sub.selected is not None else None,
        "role": ROLE_LETTERS[sub.roles].tobytes().decode(),
        "x": np.ascontiguousarray(xy[:, 0]),
        "y": np.ascontiguousarray(xy[:, 1]),
        "seeds": list(range(len(sub.seeds))),  # the walk puts them first
        "expanded": _where(rows, sub.expanded),
        "truncated": _where(rows, [t.paper for t in sub.truncated]),
        "dimmed": _where(rows, sub.dimmed),
        "edges": {"source": sub.edge_i[drawn], "target": sub.edge_j[drawn], "kind": sub.kind},
        "edges_total": len(sub.edge_i),
        "axis": timeline_axis(store, *placed, xy, state.years) if state.layout == "timeline" and len(rows) else [],
        "palette": palette(tuple(store.area_names), *view_years(store, rows)),  # years: those in view
        "fields": NODE_FIELDS,
    }
    if sub.edge_weight is not None:  # a similarity map: each link's strength and why, and whether it is exact
        payload["approximate"] = sub.approximate
        payload["edges"]["weight"] = np.round(sub.edge_weight[drawn], 3)
        payload["edges"]["why"] = [sub.edge_why[k] for k in drawn.tolist()] if sub.edge_why is not None else []
    if state.color == "cluster":
        found = view_clusters(store, state)
        payload["cluster"] = found.labels_of(rows)
        payload["palette"]["cluster"] = [colors.cluster_color(k) for k in range(len(found.names))]
        payload["palette"]["cluster_names"] = [found.names[k] for k in range(len(found.names))]
    text = orjson.dumps(payload, option=orjson.OPT_SERIALIZE_NUMPY).decode()
    return payload, text[:-1] + ',"nodes":[' + store.node_json(rows) + "]}"


def payload_nodes(payload: dict) -> list[dict]:
    """The nodes of a parsed graph payload as dicts of their ``fields``."""
    fields = payload["fields"]
    return [dict(zip(fields, n, strict=True)) for n in payload["nodes"]]


def _truncation_info(store: Store, t: Truncation) -> dict:
    return {
        "id": store.id(t.paper),
        "title": short_label(store.titles([t.paper])[0]),
        "direction": t.direction,
        "shown": t.shown,
        "total": t.total,
    }


def compute_view(store: Store, state: ViewState) -> View:
    sub = build_subgraph(store, state)
    payload, text = graph_payload(store, sub, state)
    return View(
        store=store,
        state=state,
        sub=sub,
        payload=payload,
        payload_json=text,
        truncated=[_truncation_info(store, t) for t in sub.truncated],
    )


# Per-worker caches, keyed by the (frozen, canonical) state: the callbacks that draw one state share the
# subgraph; the graph is kept as its JSON text only (a View holds thousands of small objects, and keeping
# many alive costs more in allocation and garbage collection than it saves).
build_subgraph = lru_cache(maxsize=32)(subgraph)


@lru_cache(maxsize=64)
def graph_json(store: Store, state: ViewState) -> str:
    """The graph payload of a state as JSON text (what ``GET /graph`` sends)."""
    return graph_payload(store, build_subgraph(store, state), state)[1]
