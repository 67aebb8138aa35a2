"""Filters narrow the map a reader sees: they hide papers of the unfiltered map that fail them, never add one, and
keep the seeds, expanded and selected papers as (dimmed) anchors; the limits apply to the unfiltered map."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dashboard.dataset.store import Store
from dashboard.graph.discovery import subgraph, unfiltered
from dashboard.graph.neighbourhood import Subgraph
from dashboard.graph.state import ViewState
from dashboard.view.payload import compute_view, payload_nodes


def passing(store: Store, state: ViewState, rows: np.ndarray) -> np.ndarray:
    return store.filter_mask(rows, years=state.years, areas=state.areas, min_citations=state.min_citations)


def check_narrows(store: Store, state: ViewState) -> tuple[Subgraph, Subgraph]:
    """The filtered map against the unfiltered one, measured row by row."""
    whole = subgraph(store, unfiltered(state))
    narrow = subgraph(store, state)
    shown, full = set(narrow.rows.tolist()), set(whole.rows.tolist())
    assert shown <= full, "a filter added papers the unfiltered map lacks"
    anchors = set(whole.seeds) | set(whole.expanded) | ({whole.selected} if whole.selected is not None else set())
    ok = passing(store, state, whole.rows)
    passes = set(whole.rows[ok].tolist())
    assert shown == passes | anchors, "a paper of the unfiltered map that passes is hidden, or one that fails shown"
    assert narrow.hidden == len(full) - len(shown), "'hidden by filters' is not what the filters removed"
    assert set(narrow.dimmed) == anchors - passes

    # the citations drawn are exactly the unfiltered map's among the papers kept
    def pairs(sub: Subgraph) -> set[tuple[int, int]]:
        return set(zip(sub.src.tolist(), sub.dst.tolist(), strict=True))

    assert pairs(narrow) == {(a, b) for a, b in pairs(whole) if a in shown and b in shown}
    assert [(t.paper, t.direction, t.shown, t.total) for t in narrow.truncated] == [
        (t.paper, t.direction, t.shown, t.total) for t in whole.truncated
    ], "the limits apply to the unfiltered map"
    return whole, narrow


def test_one_seed_and_a_years_filter_only_hides(default_store: Store) -> None:
    """``?seeds=1706.03762&years=2019-2020`` once showed papers the unfiltered map did not have."""
    s = default_store
    whole, narrow = check_narrows(s, ViewState(("1706.03762",), years=(2019, 2020)))
    assert len(narrow.rows) < len(whole.rows)
    assert all(2019 <= int(s.year[r]) <= 2020 for r in narrow.rows.tolist() if r not in narrow.seeds)


def test_expanded_papers_that_fail_stay_as_dimmed_anchors(default_store: Store) -> None:
    """Expanded papers of 2017 and 2018 fail ``years=2019-2020`` but stay, so their neighbours that pass stay too."""
    s = default_store
    state = ViewState(("2106.03764", "2006.04862", "2110.10090"), expand=("1706.03762", "1810.04805"))
    whole, narrow = check_narrows(s, replace(state, years=(2019, 2020)))
    expanded = [s.row("1706.03762"), s.row("1810.04805")]
    assert set(expanded) <= set(narrow.dimmed) and set(expanded) <= set(narrow.rows.tolist())
    # their neighbours that pass are shown: most of what passes comes from them
    through = set(np.concatenate([np.concatenate((s.references(r), s.citers(r))) for r in expanded]).tolist())
    kept = set(narrow.rows.tolist()) - set(narrow.seeds) - set(expanded)
    assert len(kept & through) > len(kept) // 2
    # the page says so: the payload marks them, and the count of hidden papers is the difference
    view = compute_view(s, replace(state, years=(2019, 2020)))
    p = json.loads(view.payload_json)
    ids = [n["id"] for n in payload_nodes(p)]
    assert sorted(ids[i] for i in p["dimmed"]) == sorted(s.ids(narrow.dimmed))
    assert view.n_nodes + view.sub.hidden == len(whole.rows)


def test_filters_move_no_paper(default_store: Store) -> None:
    s = default_store
    state = ViewState(("2106.03764", "2006.04862", "2110.10090"), expand=("1706.03762",))
    for layout in ("force", "timeline", "concentric"):
        full = {n["id"]: (x, y) for n, x, y in _placed(compute_view(s, replace(state, layout=layout)))}
        for n, x, y in _placed(compute_view(s, replace(state, layout=layout, years=(2019, 2020), min_citations=3))):
            assert full[n["id"]] == (x, y), (layout, n["id"])


def test_filters_move_no_paper_of_a_similarity_map(default_store: Store) -> None:
    """A similarity map is laid out on its links without filters: a filter hides papers and their links, and the
    papers left stay where they were, in every layout (``?seeds=1810.04805&mode=similar&areas=cs.CL`` once moved
    every paper kept)."""
    s = default_store
    state = ViewState(("1810.04805",), mode="similar")
    filters = ({"areas": ("cs.CL",)}, {"years": (2019, 2020), "min_citations": 3}, {"areas": ("cs.LG", "cs.CV")})
    for layout in ("force", "timeline", "concentric"):
        full = {n["id"]: (x, y) for n, x, y in _placed(compute_view(s, replace(state, layout=layout)))}
        for f in filters:
            kept = _placed(compute_view(s, replace(state, layout=layout, **f)))
            assert 1 < len(kept) < len(full), (layout, f)
            for n, x, y in kept:
                assert full[n["id"]] == (x, y), (layout, f, n["id"])


def _placed(view) -> list:
    p = json.loads(view.payload_json)
    return list(zip(payload_nodes(p), p["x"], p["y"], strict=True))


POOL = ("2106.03764", "2006.04862", "2110.10090", "1706.03762", "1810.04805", "1412.6980", "2005.14165")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seeds=st.lists(st.sampled_from(POOL), min_size=1, max_size=3, unique=True),
    n_expand=st.integers(0, 3),
    pick=st.integers(0, 10**6),
    mode=st.sampled_from(["citations", "citations", "similar", "path"]),
    limit=st.sampled_from([20, 100, 300]),
    years=st.one_of(st.none(), st.tuples(st.integers(2010, 2023), st.integers(0, 6))),
    area=st.one_of(st.none(), st.sampled_from(["cs.LG", "cs.CL", "cs.CV", "stat.ML", "unknown"])),
    min_citations=st.sampled_from([0, 0, 2, 10]),
    with_selected=st.booleans(),
)
def test_random_views_and_filters_narrow(
    default_store: Store,
    seeds: list[str],
    n_expand: int,
    pick: int,
    mode: str,
    limit: int,
    years: tuple[int, int] | None,
    area: str | None,
    min_citations: int,
    with_selected: bool,
) -> None:
    s = default_store
    base = ViewState(tuple(seeds), mode="similar" if mode == "similar" else "citations")
    if mode == "path" and len(seeds) >= 2:
        base = replace(base, path=(seeds[0], seeds[1]))
    else:
        base = replace(base, limit=min(limit, 200) if base.mode == "similar" else limit)
    whole = subgraph(s, base)
    others = [r for r in whole.rows.tolist() if r not in whole.seeds]
    rng = np.random.default_rng(pick)
    if base.mode == "citations" and not base.path and others:
        base = replace(base, expand=tuple(s.ids(rng.choice(others, size=min(n_expand, len(others)), replace=False))))
    if with_selected:
        base = replace(base, selected=s.id(int(rng.integers(s.n))))
    filters = {
        "years": None if years is None else (years[0], years[0] + years[1]),
        "areas": None if area is None else (area,),
        "min_citations": min_citations,
    }
    state = replace(base, **filters)
    if not state.filtered:
        state = replace(state, min_citations=1)
    check_narrows(s, state)
