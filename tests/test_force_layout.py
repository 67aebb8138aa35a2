"""The force layout keeps what is on screen where it is, puts new papers in free space, and does bounded work."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from dashboard.dataset.store import Store
from dashboard.graph import force_layout
from dashboard.graph.geometry import NODE_GAP
from dashboard.graph.state import ViewState
from dashboard.view.payload import compute_view

ATTENTION, BERT, GPT3 = "1706.03762", "1810.04805", "2005.14165"
LUONG = "1508.04025"  # in Attention's view; expanding it adds papers


def placed(store: Store, state: ViewState, cold: bool = True) -> dict[str, tuple[float, float]]:
    """Paper id -> position of a view as the browser gets it; ``cold``: nothing cached (as after a restart)."""
    if cold:
        force_layout._CACHE.clear()
    view = compute_view(store, state)
    return dict(zip(view.ids, zip(view.payload["x"].tolist(), view.payload["y"].tolist(), strict=True), strict=True))


def moved(before: dict, after: dict) -> list[str]:
    return [p for p in before if p in after and np.hypot(before[p][0] - after[p][0], before[p][1] - after[p][1]) > 0.05]


@pytest.mark.parametrize(
    ("first", "then"),
    [
        (ViewState((ATTENTION,)), ViewState((ATTENTION, BERT))),  # adding a seed that shares papers with the first
        (ViewState((ATTENTION, BERT)), ViewState((ATTENTION, BERT, GPT3))),  # and a third
        (ViewState((ATTENTION,)), ViewState((ATTENTION,), limit=600)),  # "Show more" of one seed
        (ViewState((ATTENTION,), limit=600), ViewState((ATTENTION,), limit=900)),
        (ViewState((ATTENTION,)), ViewState((ATTENTION,), expand=(LUONG,))),  # expanding a paper in view
        (ViewState((ATTENTION, BERT)), ViewState((ATTENTION, BERT), expand=(LUONG,))),
    ],
)
def test_an_action_moves_no_paper_that_stays(default_store: Store, first: ViewState, then: ViewState) -> None:
    """Node by node, whether the second view is computed after the first (cached) or on its own (a reload)."""
    before = placed(default_store, first)
    for cold in (False, True):
        after = placed(default_store, then, cold=cold)
        common = set(before) & set(after)
        assert len(after) > len(before) and len(common) == len(before), "the action should only add papers"
        assert moved(before, after) == []


def test_new_papers_go_to_free_space_around_what_brought_them(default_store: Store) -> None:
    """The papers a second seed adds keep clear of those already drawn, and gather around that seed."""
    before = placed(default_store, ViewState((ATTENTION,)))
    after = placed(default_store, ViewState((ATTENTION, BERT)))
    new = [p for p in after if p not in before]
    old_xy = np.array([before[p] for p in before])
    new_xy = np.array([after[p] for p in new])
    gaps = np.hypot(new_xy[:, None, 0] - old_xy[None, :, 0], new_xy[:, None, 1] - old_xy[None, :, 1]).min(axis=1)
    assert len(new) > 100
    assert np.mean(gaps < NODE_GAP * 0.5) < 0.02  # (a few may stay close after the bounded nudging)
    # around BERT (already on the map, near Attention), on the side away from Attention
    bert, attention = np.array(after[BERT]), np.array(after[ATTENTION])
    assert np.median(np.hypot(*(new_xy - bert).T)) < np.median(np.hypot(*(new_xy - attention).T))


def test_the_force_work_of_any_view_is_bounded(default_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The heaviest views (several big seeds at the largest limit) spend at most the budget of force iterations,
    counted on the igraph calls themselves; a small view still gets a real force layout."""
    spent: list[int] = []
    real = force_layout.fruchterman_reingold

    def counting(n, i, j, start, iters, *args, **kwargs):
        spent.append(iters * force_layout.cost(n, len(i)))
        return real(n, i, j, start, iters, *args, **kwargs)

    monkeypatch.setattr(force_layout, "fruchterman_reingold", counting)
    heavy = ViewState((ATTENTION, BERT, GPT3, "1512.03385", "1412.6980"), limit=3000)
    for state in (heavy, replace(heavy, seeds=heavy.seeds[::-1]), ViewState((BERT,), limit=3000)):
        spent.clear()
        view = placed(default_store, state)
        assert len(view) > 1000
        assert 0 < sum(spent) <= force_layout.BUDGET
    spent.clear()
    placed(default_store, ViewState((ATTENTION,)))
    assert spent and spent[0] >= 60 * force_layout.cost(50, 0)  # dozens of iterations on the first seed's star


def test_small_stars_are_rings_and_layouts_are_deterministic(tiny: Store, default_store: Store) -> None:
    ring = placed(tiny, ViewState(("a",)))
    centre = np.array(ring["a"])
    radii = [np.hypot(*(np.array(xy) - centre)) for p, xy in ring.items() if p != "a"]
    assert radii and max(radii) - min(radii) < 1e-6  # one ring
    a = placed(default_store, ViewState((ATTENTION, GPT3), expand=(LUONG,)))
    b = placed(default_store, ViewState((ATTENTION, GPT3), expand=(LUONG,)))
    assert a == b


def test_a_big_view_draws_its_own_lines_first_and_says_how_many(default_store: Store) -> None:
    """Above MAX_DRAWN_EDGES the payload keeps the citations of the seeds (and expanded, selected papers) first,
    then those between the most cited papers; the total stays in the payload and the counts."""
    from dashboard.view.payload import MAX_DRAWN_EDGES, drawn_edges

    view = compute_view(default_store, ViewState((ATTENTION, BERT, GPT3), limit=3000))
    sub = view.sub
    assert len(sub.edge_i) > MAX_DRAWN_EDGES  # the case under test: 19,626 citations, 3,190 of them the seeds'
    keep = drawn_edges(default_store, sub)
    assert len(keep) == MAX_DRAWN_EDGES == len(view.payload["edges"]["source"])
    assert view.payload["edges_total"] == len(sub.edge_i)
    seeds = np.arange(len(sub.seeds))
    touching = np.flatnonzero(np.isin(sub.edge_i, seeds) | np.isin(sub.edge_j, seeds))
    kept = set(keep.tolist())
    assert len(touching) < MAX_DRAWN_EDGES and kept >= set(touching.tolist())  # every line of a seed
    rest = np.setdiff1d(np.arange(len(sub.edge_i)), touching)
    cites = default_store.in_cited[sub.rows]
    weight = np.minimum(cites[sub.edge_i[rest]], cites[sub.edge_j[rest]])
    dropped = [w for e, w in zip(rest.tolist(), weight.tolist(), strict=True) if e not in kept]
    drawn = [w for e, w in zip(rest.tolist(), weight.tolist(), strict=True) if e in kept]
    assert drawn and dropped and min(drawn) >= max(dropped)  # then the lines between the most cited
    small = compute_view(default_store, ViewState((ATTENTION,)))
    assert len(small.payload["edges"]["source"]) == len(small.sub.edge_i)  # a small view draws them all


def test_the_layout_follows_the_views_limit(default_store: Store) -> None:
    """The seeds' papers of a view are all placed by the seed chain of that view's limit (the steps a reload and
    "Show more" share), not some of them around the seed afterwards."""
    from dashboard.graph.neighbourhood import neighbourhood

    for limit in (50, 600, 900):
        sub = neighbourhood(default_store, ViewState((ATTENTION,), limit=limit))
        assert sub.limit == limit
        chain = force_layout.seed_chain(default_store, sub.seeds, limit)
        assert set(chain.rows.tolist()) == set(sub.rows.tolist())
        rows, xy = force_layout.force(default_store, sub)
        at = {r: k for k, r in enumerate(chain.rows.tolist())}
        assert np.array_equal(xy, chain.xy[[at[r] for r in rows.tolist()]])


VIEWS_ANY_LAYOUT = [
    ViewState(("2106.03764", "2006.04862", "2110.10090")),  # the default view
    ViewState((ATTENTION,)),
    ViewState((BERT,), limit=1462),
    ViewState((ATTENTION, BERT), expand=(LUONG,)),
    ViewState((ATTENTION,), layout="concentric"),
    ViewState((ATTENTION,), layout="timeline"),
    ViewState(("2106.03764", "2006.04862", "2110.10090"), mode="similar"),
]


@pytest.mark.parametrize("state", VIEWS_ANY_LAYOUT, ids=lambda s: f"{s.layout}-{s.mode}-{len(s.seeds)}-{s.limit}")
def test_no_two_papers_overlap_and_titles_have_room(default_store: Store, state: ViewState) -> None:
    """Bodies (drawn sizes, node_radius, with their border) never overlap; in force layouts, the room under each
    seed for its title (title_rooms) holds no paper that was placed with it or after it (the first seed's room: no
    paper at all)."""
    from scipy.spatial import cKDTree

    from dashboard.graph.geometry import NODE_GAP, in_rooms, title_rooms
    from dashboard.graph.layouts import node_radius

    force_layout._CACHE.clear()
    view = compute_view(default_store, state)
    rows = np.array([default_store.row(p) for p in view.ids])
    xy = np.column_stack([view.payload["x"], view.payload["y"]])
    seed = np.zeros(len(rows), dtype=bool)
    seed[view.payload["seeds"]] = True
    r = node_radius(default_store.in_cited[rows], seed) + 0.75  # the border
    pairs = cKDTree(xy).query_pairs(float(2 * r.max()), output_type="ndarray")
    gap = np.hypot(*(xy[pairs[:, 0]] - xy[pairs[:, 1]]).T) - r[pairs[:, 0]] - r[pairs[:, 1]]
    if len(pairs):
        assert gap.min() >= -0.05, view.ids[pairs[np.argmin(gap), 0]]
    if state.layout == "force" and state.mode == "citations":
        first = title_rooms(xy, np.array([0]))  # the walk puts the seeds first
        inside = np.flatnonzero(in_rooms(xy, first))
        assert inside.tolist() == [], [view.ids[i] for i in inside]
        assert 2 * float(r.max()) < NODE_GAP  # layouts keep papers a gap apart: bodies are smaller than it


def test_clear_rooms_moves_only_what_may_move_out_of_the_rooms(default_store: Store) -> None:
    """On a crowd: afterwards no movable point lies in an owner's room or nearer than three quarters of the gap to
    another, and the points that may not move stay where they were."""
    from dashboard.graph.geometry import NODE_GAP, clear_rooms, in_rooms, title_rooms

    rng = np.random.default_rng(7)
    xy = rng.uniform(-400, 400, size=(300, 2))
    movable = np.ones(len(xy), dtype=bool)
    movable[:50] = False
    owners = np.array([0, 60, 70])
    out = clear_rooms(xy, owners, movable, NODE_GAP * 0.6)
    assert np.array_equal(out[~movable], xy[~movable])
    rooms = title_rooms(out, owners)
    others = movable.copy()
    others[owners] = False
    assert not in_rooms(out[others], rooms).any()
    assert (np.abs(out - xy).sum(axis=1) > 0).sum() > 20  # a crowd: many had to move
