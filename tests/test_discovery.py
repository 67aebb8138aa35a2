"""Maps beyond direct links, through the states that ask for them: similarity maps, paths, clusters, prior and
derivative works; and the actions of the page that lead to them."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pyarrow.parquet as pq

from dashboard.dataset import builds
from dashboard.dataset.store import Store
from dashboard.graph.discovery import path_subgraph, similar_subgraph, subgraph, view_clusters, why
from dashboard.graph.layouts import positions
from dashboard.graph.similarity import prior_derivative
from dashboard.graph.state import ViewState
from dashboard.view.payload import compute_view
from dashboard.web.callbacks.state import apply_action
from tests.conftest import DEFAULT_DATA

ATTENTION = "1706.03762"


def test_a_similarity_map_links_pairs_and_says_why_with_exact_counts(default_store: Store) -> None:
    state = ViewState((ATTENTION,), mode="similar", limit=40)
    sub = similar_subgraph(default_store, state)
    assert default_store.id(int(sub.rows[0])) == ATTENTION and len(sub.rows) == 41
    assert sub.role_names()[0] == "seed" and set(sub.role_names()[1:]) == {"similar"}
    assert len(sub.edge_i) >= 40 and len(sub.edge_why) == len(sub.edge_i)
    for k in range(0, len(sub.edge_i), 7):
        a, b = int(sub.rows[sub.edge_i[k]]), int(sub.rows[sub.edge_j[k]])
        cc = len(set(default_store.citers(a).tolist()) & set(default_store.citers(b).tolist()))
        bc = len(set(default_store.references(a).tolist()) & set(default_store.references(b).tolist()))
        assert sub.edge_why[k] == why(cc, bc) and (cc or bc)
    rows, xy = positions(default_store, sub, "force")
    assert len(rows) == len(sub.rows) and np.isfinite(xy).all()
    gaps = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1)) + np.eye(len(xy)) * 1e9
    assert gaps.min() > 20  # no two papers on top of each other


def test_a_similarity_map_respects_the_filters(default_store: Store) -> None:
    """The filters narrow the map of the 20 most similar papers: they hide those that fail and bring in none."""
    state = ViewState((ATTENTION,), mode="similar", years=(2019, 2020), limit=20)
    whole = similar_subgraph(default_store, replace(state, years=None))
    sub = subgraph(default_store, state)
    years = default_store.year[sub.rows[1:]]
    assert ((years >= 2019) & (years <= 2020)).all() and set(sub.rows.tolist()) < set(whole.rows.tolist())
    assert 1 < len(sub.rows) < len(whole.rows) == 21 and sub.hidden == len(whole.rows) - len(sub.rows)


def test_why_names_each_count_in_words() -> None:
    assert why(14, 9) == "cited together by 14 papers · share 9 references"
    assert why(1, 0) == "cited together by 1 paper"
    assert why(0, 1) == "share 1 reference"


def test_a_path_draws_its_ends_first_then_its_chains(default_store: Store) -> None:
    state = ViewState(("2106.03764",), path=("2106.03764", "1512.03385"))
    sub = path_subgraph(default_store, state)
    ids = default_store.ids(sub.rows)
    assert ids[:2] == ["2106.03764", "1512.03385"] and sub.seeds == [int(sub.rows[0]), int(sub.rows[1])]
    assert sub.chains and all(len(c) == len(sub.chains[0]) for c in sub.chains) and sub.notices == []
    drawn = {(int(sub.rows[i]), int(sub.rows[j])) for i, j in zip(sub.edge_i, sub.edge_j, strict=True)}
    for chain in sub.chains:
        assert chain[0] == sub.rows[0] and chain[-1] == sub.rows[1]
        assert all((x, y) in drawn or (y, x) in drawn for x, y in itertools.pairwise(chain))
    _, xy = positions(default_store, sub, "force")
    assert xy[0][0] < xy[1][0]  # read left to right


def test_no_path_is_a_notice_and_the_two_ends(tiny: Store) -> None:
    sub = path_subgraph(tiny, ViewState(("a",), path=("a", "f")))  # f cites nothing and nothing cites it
    assert tiny.ids(sub.rows) == ["a", "f"] and sub.chains == []
    assert sub.notices == ["No chain of citations joins “Paper a” and “Paper f” within 6 steps."]
    view = compute_view(tiny, ViewState(("a",), path=("a", "f")))
    assert view.payload["role"] == "ss"


def test_clusters_do_not_change_with_a_filter_and_clusters_shows_some(default_store: Store) -> None:
    state = ViewState((ATTENTION,), color="cluster")
    found = view_clusters(default_store, state)
    assert len(found.names) >= 3 and list(found.sizes.values()) == sorted(found.sizes.values(), reverse=True)
    filtered = view_clusters(default_store, replace(state, years=(2019, 2021), layout="timeline"))
    assert filtered.names == found.names and (filtered.labels == found.labels).all()
    whole = subgraph(default_store, state)
    some = subgraph(default_store, replace(state, clusters=(1,)))
    labels = found.labels_of(some.rows)
    assert 0 < len(some.rows) < len(whole.rows)
    assert ((labels == 1) | np.isin(some.rows, some.seeds)).all()
    assert some.hidden == len(whole.rows) - len(some.rows)
    assert np.count_nonzero(found.labels_of(whole.rows) == 1) == found.sizes[1]


def test_prior_and_derivative_counts_match_the_parquet_files(default_store: Store) -> None:
    sub = subgraph(default_store, ViewState((ATTENTION,)))
    prior, derivative = prior_derivative(default_store, sub.rows, k=10)
    folder = builds.served(DEFAULT_DATA)
    cites = pq.read_table(folder / "citations.parquet").to_pandas()
    in_map = set(default_store.ids(sub.rows))
    assert len(prior) == len(derivative) == 10 and all(r.of == len(sub.rows) for r in prior + derivative)
    citing_map = cites[cites.citing.isin(in_map)]
    cited_by_map = cites[cites.cited.isin(in_map)]
    for r in prior:
        pid = default_store.id(r.row)
        assert pid not in in_map and r.count == int((citing_map.cited == pid).sum())
    for r in derivative:
        pid = default_store.id(r.row)
        assert pid not in in_map and r.count == int((cited_by_map.citing == pid).sum())
    outside = citing_map[~citing_map.cited.isin(in_map)].cited.value_counts()
    assert prior[0].count == int(outside.iloc[0])  # none more cited by the map was left out


def test_the_page_actions_of_discovery(default_store: Store) -> None:
    state = ViewState((ATTENTION, "1810.04805"), selected="1412.6980")
    to_seed, _ = apply_action(default_store, state, {"type": "path-to", "index": "1810.04805"}, 1, None)
    assert to_seed.path == ("1412.6980", "1810.04805")
    same, notices = apply_action(
        default_store, replace(state, selected=None), {"type": "path-to", "index": ATTENTION}, 1, None
    )
    assert same.path is None and notices == ["A path joins two different papers: select another paper first."]
    added, _ = apply_action(default_store, to_seed, {"type": "seed-add", "index": "1409.0473"}, 1, None)
    assert added.seeds[-1] == "1409.0473" and added.path is None
    cleared, _ = apply_action(default_store, to_seed, {"type": "path-clear", "index": "path"}, 1, None)
    assert cleared.path is None
    similar = replace(state, mode="similar")
    tapped, _ = apply_action(default_store, similar, "graph-citations", {"id": "1409.0473"}, None)
    assert tapped.selected == "1409.0473" and tapped.expand == ()  # a similarity map has no walk to expand
    back, _ = apply_action(default_store, replace(similar, limit=80), "radio-mode", "citations", None)
    assert back.mode == "citations" and back.limit == 300
    picked, _ = apply_action(default_store, state, {"type": "cluster-toggle", "index": "2"}, 1, None)
    assert picked.color == "cluster" and picked.clusters == (2,)


def test_a_similarity_map_is_mostly_papers_not_directly_linked_to_the_seeds(default_store: Store) -> None:
    from dashboard.graph.discovery import DIRECT_SHARE

    sub = similar_subgraph(default_store, ViewState((ATTENTION,), mode="similar", limit=40))
    seed = default_store.row(ATTENTION)
    direct = set(default_store.references(seed).tolist()) | set(default_store.citers(seed).tolist())
    linked = [r for r in sub.rows[1:].tolist() if r in direct]
    assert len(linked) == int(40 * DIRECT_SHARE) and len(sub.rows) == 41  # enough others: the quota is full


def test_clusters_a_map_does_not_have_are_a_notice(default_store: Store) -> None:
    state = ViewState((ATTENTION,), color="cluster")
    n = len(view_clusters(default_store, state).names)
    sub = subgraph(default_store, replace(state, clusters=(0, 11)))
    assert sub.notices == [f"This map has {n} named clusters (0-{n - 1}); cluster 11 left out."]
    assert len(sub.rows) < len(subgraph(default_store, state).rows)
    none = subgraph(default_store, replace(state, clusters=(11,)))
    assert none.notices[0].endswith("cluster 11 left out: showing them all.")
    assert len(none.rows) == len(subgraph(default_store, state).rows)


def test_keep_rows_keeps_seeds_and_the_selected_paper_and_renumbers_edges(default_store: Store) -> None:
    from dashboard.graph.neighbourhood import SEED, SELECTED, SIMILAR, Subgraph, keep_rows

    rows = np.array([10, 11, 12, 13, 14], dtype=np.int64)
    sub = Subgraph(
        rows=rows,
        roles=np.array([SEED, SIMILAR, SIMILAR, SIMILAR, SELECTED], dtype=np.uint8),
        edge_i=np.array([0, 1, 2, 1]),
        edge_j=np.array([1, 2, 3, 3]),
        expanded=[13],
        seeds=[10],
        selected=14,
        hidden=2,
        edge_weight=np.array([0.1, 0.2, 0.3, 0.4]),
        edge_why=["w0", "w1", "w2", "w3"],
    )
    kept = keep_rows(default_store, sub, np.array([False, True, False, True, False]))
    assert kept.rows.tolist() == [10, 11, 13, 14] and kept.roles.tolist() == [SEED, SIMILAR, SIMILAR, SELECTED]
    # edges whose both ends stay, renumbered: 10-11 and 11-13
    assert list(zip(kept.edge_i.tolist(), kept.edge_j.tolist(), strict=True)) == [(0, 1), (1, 2)]
    assert kept.edge_weight.tolist() == [0.1, 0.4] and kept.edge_why == ["w0", "w3"]
    assert kept.expanded == [13] and kept.hidden == 3
    assert kept.layout_rows.tolist() == rows.tolist()  # positions are still computed on the whole
    plain = replace(sub, edge_weight=None, edge_why=None, layout_rows=np.array([9, 10, 11, 12, 13, 14]))
    kept = keep_rows(default_store, plain, np.array([True, False, False, False, False]))
    assert kept.edge_weight is None and kept.edge_why is None and kept.layout_rows.tolist() == [9, 10, 11, 12, 13, 14]
    assert keep_rows(default_store, sub, np.ones(5, dtype=bool)) is sub
    # an expanded paper is an anchor too: it stays whatever the mask says
    anchored = keep_rows(default_store, replace(sub, expanded=[12]), np.zeros(5, dtype=bool))
    assert anchored.rows.tolist() == [10, 12, 14] and anchored.expanded == [12]


def test_the_filters_of_a_similarity_map_are_all_of_them(default_store: Store) -> None:
    from dashboard.graph.neighbourhood import filter_fn

    assert filter_fn(default_store, ViewState((ATTENTION,))) is None
    state = ViewState((ATTENTION,), mode="similar", limit=200, areas=("cs.CV",), min_citations=20)
    mask = filter_fn(default_store, state)
    rows = np.arange(default_store.n)
    assert (mask(rows) == default_store.filter_mask(rows, areas=("cs.CV",), min_citations=20)).all()
    sub = subgraph(default_store, state)
    others = sub.rows[1:]
    whole = similar_subgraph(default_store, replace(state, areas=None, min_citations=0))
    assert len(others) and set(others.tolist()) < set(whole.rows.tolist())
    assert (default_store.in_cited[others] >= 20).all() and default_store.area_mask(others, ["cs.CV"]).all()
