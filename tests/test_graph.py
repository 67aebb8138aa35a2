"""Graph logic: neighbourhoods, filters, caps, layouts and Cytoscape elements (plain data)."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from dashboard.dataset.store import Store
from dashboard.graph import force_layout, layouts
from dashboard.graph.discovery import subgraph
from dashboard.graph.layouts import positions
from dashboard.graph.neighbourhood import expand_runs, expand_steps, neighbourhood, show_more, split
from dashboard.graph.state import EXPAND_FIRST, EXPAND_STEP, LIMIT_STEP, ViewState
from dashboard.view.payload import compute_view, payload_nodes, short_label
from tests.conftest import SEED_IDS, make_store

SEEDS = ViewState(SEED_IDS)


def nodes(view) -> dict[str, dict]:
    """Paper nodes of a view's payload by id: the fixed fields, and role, classes and position as
    assets/js/logic/map-elements.js derives them (the browser tests check the browser's own result)."""
    p = json.loads(view.payload_json)
    roles = {"s": "seed", "r": "reference", "c": "citer", "x": "selected"}
    out = {}
    for i, n in enumerate(payload_nodes(p)):
        role = roles[p["role"][i]]
        classes = ["paper", role] + ["expanded"] * (i in p["expanded"]) + ["selected"] * (n["id"] == p["selected"])
        out[n["id"]] = {
            "data": {**n, "label": short_label(n["title"]), "role": role},
            "position": {"x": p["x"][i], "y": p["y"][i]},
            "classes": " ".join(classes),
        }
    return out


def edges(view) -> set[tuple[str, str]]:
    p = json.loads(view.payload_json)
    ids = [n["id"] for n in payload_nodes(p)]
    return {(ids[a], ids[b]) for a, b in zip(p["edges"]["source"], p["edges"]["target"], strict=True)}


def test_initial_view_is_seeds_with_references_and_citers(store: Store) -> None:
    view = compute_view(store, SEEDS)
    ns = nodes(view)
    assert len(ns) == store.n == 156  # the seed pages list every paper of the default dataset
    assert len(edges(view)) == 181
    for pid in SEED_IDS:
        assert "seed" in ns[pid]["classes"].split()
    assert "reference" in ns["1706.03762"]["classes"] and "citer" in ns["2306.14048"]["classes"]
    for pid, n in ns.items():
        row = store.row(pid)
        assert {"label", "year", "areas", "in_cited", "cited_by", "authors"} <= n["data"].keys()
        assert n["data"]["in_cited"] == int(store.in_cited[row]) and n["data"]["title"] == store.titles([row])[0]
        figure = int(store.cited_by([row])[0])
        assert n["data"]["cited_by"] == (figure if figure >= 0 else None)  # the source's figure, kept apart
    assert ns["1706.03762"]["data"]["cited_by"] == 59932 and ns["1706.03762"]["data"]["in_cited"] == 2
    # (node size by citations is drawn by assets/js/logic/map-elements.js: tests/browser checks what the page shows)


def test_edges_point_from_citing_to_cited(store: Store) -> None:
    es = edges(compute_view(store, SEEDS))
    assert ("2110.10090", "1706.03762") in es and ("2306.14048", "2106.03764") in es
    assert ("2106.03764", "2006.04862") in es


def test_an_expand_shows_its_most_cited_few_dozen_then_more_a_step_at_a_time(store: Store) -> None:
    """The first step of an expand: the EXPAND_FIRST most cited of its references and citers, half each; "Show more"
    adds EXPAND_STEP more a step, earlier steps' papers staying; a collapse takes them all away."""
    pid = "2106.03764"  # 30 references and 30 citers in the seed pages
    row = store.row(pid)
    refs, cites = store.ids(store.references(row)), store.ids(store.citers(row))  # most cited first
    assert (len(refs), len(cites)) == (30, 30)
    base = ViewState(("2006.04862",))
    before = set(nodes(compute_view(store, base)))
    assert len(before) == 31
    shown = set()
    for steps in range(3):
        state = replace(base, expand=(pid,), selected=pid, more=((pid, steps),) if steps else ())
        after = set(nodes(compute_view(store, state)))
        total = min(EXPAND_FIRST + steps * EXPAND_STEP, 60)
        want = set(refs[: (total + 1) // 2]) | set(cites[: total // 2])
        assert after == before | want | {pid}, steps
        assert shown <= after, "a step keeps what the steps before it showed"
        shown = after
        cut = {(t.direction, t.shown, t.total) for t in compute_view(store, state).sub.truncated}
        assert cut == ({("references", total // 2, 30), ("citers", total // 2, 30)} if total < 60 else set())
    assert len(shown - before) > len(before)  # every neighbour at the last step
    assert set(nodes(compute_view(store, base))) == before  # collapsed


def test_an_expands_share_of_references_and_citers() -> None:
    """Half each; the share one list cannot fill goes to the other; neither count shrinks as the total grows."""
    assert split(6, 4039, 30) == (6, 24)  # Adam: its six references, and 24 citers
    assert split(100, 3, 30) == (27, 3)
    assert split(10, 10, 30) == (10, 10)
    assert split(40, 40, 31) == (16, 15)
    assert split(0, 0, 30) == (0, 0)
    for n_refs, n_citers in ((5, 500), (500, 5), (40, 40), (0, 90), (17, 13)):
        last = (0, 0)
        for total in range(0, 200):
            got = split(n_refs, n_citers, total)
            assert sum(got) == min(total, n_refs + n_citers) and got[0] <= n_refs and got[1] <= n_citers
            assert got[0] >= last[0] and got[1] >= last[1], (n_refs, n_citers, total)
            last = got


def test_an_expands_steps_come_in_order(store: Store) -> None:
    """The runs of an expand are its first step's references and citers, then each later step's: so a later step's
    papers follow the earlier ones' in the walk, and the places of the earlier ones stay."""
    row = store.row("2106.03764")
    runs, cut = expand_runs(store, row, EXPAND_FIRST + EXPAND_STEP)
    refs, cites = store.references(row), store.citers(row)
    assert [(code, r.tolist()) for code, r in runs] == [
        (1, refs[:15].tolist()),
        (2, cites[:15].tolist()),
        (1, refs[15:30].tolist()),
        (2, cites[15:30].tolist()),
    ]
    assert cut == []


def test_nothing_more_to_show(store: Store) -> None:
    view = compute_view(store, SEEDS)
    leaf = store.row("2306.02010")  # cites 2006.04862 and 2110.10090, both shown
    assert expand_steps(store, view.sub, leaf, SEEDS) is None
    base = ViewState(("2006.04862",))
    assert expand_steps(store, compute_view(store, base).sub, store.row("2106.03764"), base) == 0


def test_an_expand_whose_most_cited_neighbours_are_shown_starts_further_down(tmp_path) -> None:
    """A paper whose EXPAND_FIRST most cited citers are all on the map already: the expand starts at the step that
    brings in the first one that is not."""
    from dashboard.importers.common import PaperRecord

    papers = [PaperRecord(title="Seed", id="s", year=2000), PaperRecord(title="Hub", id="h", year=2000)]
    cites = []
    for i in range(70):
        papers.append(PaperRecord(title=f"Citer {i}", id=f"c{i}", year=2001))
        cites.append((f"c{i}", "h"))
        if i < 40:
            cites.append((f"c{i}", "s"))
    cites.append(("s", "h"))
    st = make_store(tmp_path / "hub", papers, cites)
    state = ViewState(("s",), limit=300)
    sub = neighbourhood(st, state)
    hub = st.row("h")
    order = st.ids(st.citers(hub))
    first_new = next(k for k, pid in enumerate(order) if st.row(pid) not in sub.rows)
    assert first_new >= EXPAND_FIRST  # the first step would add nothing new
    steps = expand_steps(st, sub, hub, state)
    assert steps == -(-(first_new + 1 - EXPAND_FIRST) // EXPAND_STEP) >= 1
    grown = neighbourhood(st, replace(state, expand=("h",), more=(("h", steps),)))
    assert len(grown.rows) > len(sub.rows)
    fewer = neighbourhood(st, replace(state, expand=("h",), more=(("h", steps - 1),) if steps > 1 else ()))
    assert len(fewer.rows) == len(sub.rows), "a step less would have added nothing"


def test_show_more_goes_to_the_selected_expanded_paper_then_the_last_then_the_seeds(store: Store) -> None:
    a, b = "2106.03764", "2110.10090"  # each with more than EXPAND_FIRST references and citers
    base = ViewState(("2006.04862",), expand=(a, b))
    sub = neighbourhood(store, base)
    assert show_more(store, sub, replace(base, selected=a)).more == ((a, 1),)
    assert show_more(store, sub, base).more == ((b, 1),), "none selected: the last expanded"
    done = replace(base, more=((a, 9), (b, 9)))  # every neighbour of both shown
    assert show_more(store, neighbourhood(store, done), done) == done, "nothing cut: nothing more"
    seeds = ViewState(("2110.10090",), limit=10)  # the seed's own lists cut by its limit
    assert show_more(store, neighbourhood(store, seeds), seeds).limit == 10 + LIMIT_STEP


def test_filters_keep_seeds_and_hide_others(store: Store) -> None:
    state = replace(SEEDS, years=(2023, 2023), areas=("cs.LG",))
    view = compute_view(store, state)
    ns = nodes(view)
    assert set(SEED_IDS) <= set(ns)
    for pid, n in ns.items():
        if pid not in SEED_IDS:
            assert n["data"]["year"] == 2023 and "cs.LG" in n["data"]["areas"]
    assert view.sub.hidden > 0
    unknown_only = compute_view(store, replace(SEEDS, areas=("unknown",)))
    assert all("unknown" in n["data"]["areas"] for p, n in nodes(unknown_only).items() if p not in SEED_IDS)


def test_min_citations(store: Store) -> None:
    ns = nodes(compute_view(store, replace(SEEDS, min_citations=2)))  # citers in the dataset
    assert all(n["data"]["in_cited"] >= 2 for p, n in ns.items() if p not in SEED_IDS)
    assert "1706.03762" in ns and "2106.01345" not in ns  # 1,528 per its source, but 1 citer in the dataset
    assert len(ns) == 10


def test_filtering_does_not_move_what_stays(store: Store) -> None:
    for layout in ("force", "timeline", "concentric"):
        full = nodes(compute_view(store, replace(SEEDS, layout=layout)))
        narrow = nodes(compute_view(store, replace(SEEDS, layout=layout, years=(2020, 2022))))
        assert narrow and set(narrow) < set(full)
        for pid, n in narrow.items():
            assert n["position"] == full[pid]["position"], (layout, pid)


def test_expanding_does_not_move_what_is_shown(store: Store) -> None:
    # one seed shows 31 papers; expanding 2106.03764 adds its most cited neighbours around it
    base = nodes(compute_view(store, ViewState(("2006.04862",))))
    grown = nodes(compute_view(store, ViewState(("2006.04862",), expand=("2106.03764",))))
    assert len(base) == 31 and len(grown) - len(base) >= 20
    for pid, n in base.items():
        assert grown[pid]["position"] == n["position"], pid
    # showing more of it moves none of them
    shown_more = ViewState(("2006.04862",), expand=("2106.03764",), more=(("2106.03764", 1),))
    more_of = nodes(compute_view(store, shown_more))
    assert len(more_of) > len(grown)
    for pid, n in grown.items():
        assert more_of[pid]["position"] == n["position"], pid
    # a second expansion moves neither the base nor the first one's papers
    more = nodes(compute_view(store, ViewState(("2006.04862",), expand=("2106.03764", "1706.03762"))))
    for pid, n in grown.items():
        assert more[pid]["position"] == n["position"], pid


@pytest.fixture(scope="module")
def hubs(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """Three papers each cited by 2,000 others of their own, and a fourth by 10: 6,014 papers."""
    from dashboard.importers.common import PaperRecord

    papers, cites = [], []
    for h, n in enumerate((2000, 2000, 2000, 10)):
        papers.append(PaperRecord(title=f"Hub {h}", id=f"hub{h}", year=2000))
        for i in range(n):
            papers.append(PaperRecord(title=f"Citer {h} {i}", id=f"c{h}-{i}", year=2001 + i % 20))
            cites.append((f"c{h}-{i}", f"hub{h}"))
    return make_store(tmp_path_factory.mktemp("hubs") / "hubs", papers, cites)


def test_node_cap_is_5000(hubs: Store) -> None:
    """However many papers a state reaches, a browser gets at most 5,000 (README: the documented cap)."""
    state = ViewState(("hub0", "hub1", "hub2"), limit=3000)
    sub = neighbourhood(hubs, state)
    assert len(sub.rows) == 5000 and sub.capped and len(set(sub.rows.tolist())) == 5000
    assert sub.rows[:3].tolist() == [hubs.row(s) for s in state.seeds]
    assert hubs.ids(sub.rows[-1:]) == ["c2-996"]  # hub2's citers, most cited first then by row, cut at the cap
    two = neighbourhood(hubs, ViewState(("hub0", "hub1"), limit=3000))
    assert two.capped is False and len(two.rows) == 4002
    # the cap reached by the third seed: the fourth adds nothing
    four = neighbourhood(hubs, ViewState(("hub0", "hub1", "hub2", "hub3"), limit=3000))
    assert len(four.rows) == 5000 and four.capped and four.rows[:4].tolist() == [hubs.row(f"hub{h}") for h in range(4)]
    # exactly at the cap is not beyond it
    exact = neighbourhood(hubs, ViewState(("hub0", "hub1", "hub2", "hub3"), limit=1662))
    assert len(exact.rows) == 4 + 3 * 1662 + 10 == 5000 and exact.capped is False
    full = neighbourhood(hubs, ViewState(("hub0", "hub2"), limit=2000))
    assert [(t.shown, t.total) for t in full.truncated] == [] and len(full.rows) == 4002
    # every source's capped lists are reported, and a source after the cap that adds nothing keeps it reached
    both = neighbourhood(hubs, ViewState(("hub0", "hub1"), limit=10))
    assert [(hubs.id(t.paper), t.shown, t.total) for t in both.truncated] == [("hub0", 10, 2000), ("hub1", 10, 2000)]
    after = neighbourhood(hubs, ViewState(("hub0", "hub1", "hub2"), expand=("c0-1",), limit=3000))
    assert after.capped and len(after.rows) == 5000
    cut = neighbourhood(hubs, ViewState(("hub0",), limit=1999))
    got = [(hubs.id(t.paper), t.direction, t.shown, t.total) for t in cut.truncated]
    assert got == [("hub0", "citers", 1999, 2000)]


def test_the_walk_in_detail(store: Store, tiny: Store) -> None:
    """Roles, parents, groups, hidden counts, expanded and selected papers of a subgraph."""
    seed, exp = store.row("2006.04862"), store.row("2106.03764")
    shown = set(neighbourhood(store, ViewState(("2006.04862",), expand=("2106.03764",))).rows.tolist())
    far = next(r for r in range(store.n) if r not in shown)
    sub = neighbourhood(
        store, ViewState(("2006.04862",), expand=("2006.04862", "nope", "2106.03764"), selected=store.id(far))
    )
    assert sub.seeds == [seed] and sub.expanded == [exp] and sub.selected == far
    assert sub.layout_rows is sub.rows and sub.layout_parents[0] == -1 and sub.layout_parents[-1] == -1
    assert sub.role_names()[0] == "seed" and sub.role_names()[-1] == "selected" and sub.rows[-1] == far
    assert sub.hidden == 0 and sub.capped is False
    assert [(t.paper, t.direction, t.shown) for t in sub.truncated] == [(exp, "references", 15), (exp, "citers", 15)]
    assert all(g.end > g.start for g in sub.layout_groups) and [g.paper for g in sub.layout_groups] == [seed, exp]
    for g in sub.layout_groups:
        assert set(sub.layout_parents[g.start : g.end].tolist()) == {g.paper}
    # an expanded paper that is not in view adds nothing, and the next one still does
    gone = neighbourhood(store, ViewState(("2006.04862",), expand=(store.id(far), "2106.03764")))
    assert gone.expanded == [exp] and len(gone.rows) == len(
        neighbourhood(store, ViewState(("2006.04862",), expand=("2106.03764",))).rows
    )
    # hidden: the papers the unfiltered view shows and the filtered one does not, each once
    state = ViewState(("2110.10090", "2106.03764"), years=(2023, 2023))
    filtered = subgraph(store, state)
    plain = set(neighbourhood(store, ViewState(("2110.10090", "2106.03764"))).rows.tolist())
    want = len(plain - set(filtered.rows.tolist()))
    per_list = sum(
        int(len(n) - store.filter_mask(n, years=(2023, 2023)).sum())
        for s in state.seeds
        for n in (store.references(store.row(s)), store.citers(store.row(s)))
    )
    assert filtered.hidden == want > 0 and per_list > want  # a paper in two lists counts once
    assert filtered.layout_rows is not filtered.rows
    limited = subgraph(store, replace(state, limit=10))  # beyond the limit: not in the map, not counted
    assert (
        limited.hidden
        == len(set(neighbourhood(store, ViewState(state.seeds, limit=10)).rows.tolist()) - set(limited.rows.tolist()))
        < want
    )
    # a filter of one citation hides papers no one cites
    pid = next(
        p
        for p in SEED_IDS
        if (store.in_cited[np.concatenate([store.references(store.row(p)), store.citers(store.row(p))])] == 0).any()
    )
    one = subgraph(store, ViewState((pid,), min_citations=1))
    assert all(int(store.in_cited[r]) >= 1 for r in one.rows[1:].tolist()) and one.hidden > 0
    # a paper with no neighbours at all: the base is the seed alone
    alone = neighbourhood(tiny, ViewState(("f",)))
    assert alone.rows.tolist() == [tiny.row("f")] and alone.layout_groups == []
    assert len(alone.edge_i) == 0


def test_an_expanded_papers_references_and_citers_do_not_overlap(store: Store) -> None:
    before = nodes(compute_view(store, ViewState(("2006.04862",))))
    state = ViewState(("2006.04862",), expand=("2106.03764",), more=(("2106.03764", 1),))
    after = nodes(compute_view(store, state))
    new = {p: n for p, n in after.items() if p not in before}
    assert {"reference", "citer"} <= {n["data"]["role"] for n in new.values()}, "needs both kinds to test"
    xy = np.array([[n["position"]["x"], n["position"]["y"]] for n in new.values()])
    gaps = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1]) + np.eye(len(xy)) * 1e9
    assert len(new) > 40 and gaps.min() >= layouts.NODE_GAP * 0.9


def test_layouts_are_deterministic(store: Store) -> None:
    for layout in ("force", "timeline", "concentric"):
        state = replace(SEEDS, layout=layout)
        a = nodes(compute_view(store, state))
        force_layout._CACHE.clear()
        b = nodes(compute_view(store, state))
        assert {k: v["position"] for k, v in a.items()} == {k: v["position"] for k, v in b.items()}


def test_timeline_is_date_by_citations_and_no_two_papers_overlap(default_store: Store) -> None:
    """x = publication month, y = citers in the dataset on a log scale (higher = more cited); no two node bodies
    overlap, even for 1,207 papers of a few years; ticks for years along the bottom and citer counts on the left."""
    from dashboard.graph.layouts import month_of, node_radius

    s = default_store
    view = compute_view(s, ViewState(("1412.6980",), layout="timeline", limit=1200))
    rows = view.sub.rows
    xy = np.column_stack([view.payload["x"], view.payload["y"]])
    when = month_of(s, rows)
    order = np.argsort(when, kind="stable")
    assert np.all(np.diff(xy[order, 0]) >= -1e-6)  # x never goes back in time
    assert len(np.unique(np.round(xy[:, 0]))) > 60  # months, not a dozen year columns
    seeds = set(view.sub.seeds)
    radius = np.array([node_radius(int(s.in_cited[r]), int(r) in seeds) for r in rows.tolist()])
    d = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    np.fill_diagonal(d, np.inf)
    assert not np.any(d < radius[:, None] + radius[None, :] - 0.01)
    cites = s.in_cited[rows]
    top = int(np.argmax(np.where(np.isin(rows, list(seeds)), -1, cites)))
    least = cites <= np.percentile(cites, 25)
    assert xy[top, 1] < np.median(xy[least, 1]) - 300  # the most cited citer is far above the least cited
    w, h = np.ptp(xy[:, 0]), np.ptp(xy[:, 1])
    assert w > 1.5 * h  # a wide picture: the canvas's width is used
    axis = view.payload["axis"]
    years = [a for a in axis if a["id"].startswith("y")]
    assert [int(a["label"]) for a in years] == sorted(int(a["label"]) for a in years) and len(years) >= 5
    assert all(a["y"] > xy[:, 1].max() for a in years)  # along the bottom
    ticks = {a["label"]: a for a in axis if a["id"].startswith("c")}
    assert {"1", "10", "100", "citing"} <= set(ticks) and "0" not in ticks  # the unit once, in the corner
    assert ticks["citing"]["y"] == years[0]["y"] and ticks["citing"]["x"] == ticks["1"]["x"] < xy[:, 0].min()
    assert ticks["100"]["y"] < ticks["10"]["y"] < ticks["1"]["y"]  # more citers higher


def test_concentric_puts_more_cited_papers_nearer_the_centre(store: Store) -> None:
    view = compute_view(store, replace(SEEDS, layout="concentric"))
    ns = nodes(view)
    radius = {p: float(np.hypot(n["position"]["x"], n["position"]["y"])) for p, n in ns.items()}
    assert radius["1706.03762"] < radius["2112.10644"]


def test_big_neighbourhoods_are_capped_most_cited_first(store: Store) -> None:
    state = ViewState(("2110.10090",), limit=10)
    view = compute_view(store, state)
    row = store.row("2110.10090")
    assert {(t["direction"], t["shown"], t["total"]) for t in view.truncated} == {
        ("references", 10, 43),
        ("citers", 10, 50),
    }
    ns = set(nodes(view))
    assert set(store.ids(store.references(row, 10))) <= ns
    assert not set(store.ids(store.references(row)[10:])) & ns - set(store.ids(store.citers(row)))


def test_selected_paper_is_revealed(store: Store) -> None:
    state = ViewState(("2006.04862",), selected="1706.03762")
    sub = neighbourhood(store, state)
    assert store.row("1706.03762") in sub.rows.tolist()
    placed_rows, xy = positions(store, sub, "force")
    assert set(sub.rows.tolist()) <= set(placed_rows.tolist()) and len(xy) == len(placed_rows)


def test_an_expand_counts_what_passes_the_filters(store: Store) -> None:
    """The steps an expand needs to add a paper: the first of its references and citers, in the order the steps
    bring them in, that passes the filters and is not shown."""
    base = ViewState(("2006.04862",))
    row = store.row("2106.03764")
    refs, cites = store.references(row), store.citers(row)
    order = np.concatenate([refs[:15], cites[:15], refs[15:], cites[15:]])  # the two steps of 30
    shown = set(neighbourhood(store, base).rows.tolist())
    seen = set()
    for change in (
        {"years": (2023, 2023)},
        {"areas": ("cs.LG",)},
        {"min_citations": 2},
        {"years": (2016, 2016)},  # none among the first step's: the second step's
        {"min_citations": 100},  # none at all
        {"years": (2021, 2024), "areas": ("unknown",)},
    ):
        state = replace(base, **change)
        keep = store.filter_mask(order, years=state.years, areas=state.areas, min_citations=state.min_citations)
        new = [k for k, r in enumerate(order.tolist()) if keep[k] and r not in shown]
        want = None if not new else max(0, -(-(new[0] + 1 - 30) // 30))
        got = expand_steps(store, subgraph(store, state), row, state)
        assert got == want, change
        seen.add(got)
    assert seen == {0, 1, None}


def test_colour_by_year_spans_the_years_in_view(store: Store) -> None:
    """Viridis over the first to the last year of the papers in view, not the dataset's whole range."""
    from dashboard.view.colors import YEAR_SCALE
    from dashboard.view.payload import view_years

    view = compute_view(store, ViewState(("2110.10090",), color="year", years=(2022, 2024)))
    p = json.loads(view.payload_json)
    years = [n["year"] for n in payload_nodes(p) if n["year"] is not None]
    lo, hi = min(years), max(years)
    assert (lo, hi) == view_years(store, view.sub.rows) and (store.year_min, store.year_max) != (lo, hi)
    pal = p["palette"]
    assert pal["year0"] == lo and len(pal["year"]) == hi - lo + 1
    assert pal["year"][0] == YEAR_SCALE[0] and pal["year"][-1] == YEAR_SCALE[-1]
    whole = json.loads(compute_view(store, ViewState(("2110.10090",), color="year")).payload_json)["palette"]
    assert whole["year0"] < lo  # the unfiltered view reaches further back, so its scale starts earlier


def test_timeline_ticks_share_the_layouts_scale_under_filters(default_store: Store) -> None:
    """A filter hides papers and never moves them; the year and citer ticks stay where the papers are measured
    (a view with no capped list: its layout rows are the same with and without the filter). A years filter narrows
    the year axis to its years, and the citer column stands beside the papers left in view."""
    plain = compute_view(default_store, ViewState(("2110.10090",), layout="timeline"))
    filtered = compute_view(default_store, ViewState(("2110.10090",), layout="timeline", years=(2022, 2023)))
    assert not plain.sub.truncated
    assert len(filtered.sub.rows) < len(plain.sub.rows)
    before = {a["id"]: a for a in plain.payload["axis"]}
    after = {a["id"]: a for a in filtered.payload["axis"]}
    assert sorted(k for k in after if k.startswith("y")) == ["y2022", "y2023"]
    assert len([k for k in before if k.startswith("y")]) > 5
    assert all(after[k] == before[k] for k in after if k.startswith("y"))  # same places
    assert all(after[k]["y"] == before[k]["y"] for k in after if k.startswith("c"))
    assert min(a["x"] for k, a in after.items() if k.startswith("c")) > before["c1"]["x"]  # nearer the papers
    assert after["c1"]["x"] < filtered.payload["x"].min()
    where = dict(
        zip(plain.ids, zip(plain.payload["x"].tolist(), plain.payload["y"].tolist(), strict=True), strict=True)
    )
    for pid, x, y in zip(filtered.ids, filtered.payload["x"].tolist(), filtered.payload["y"].tolist(), strict=True):
        assert where[pid] == (x, y)
