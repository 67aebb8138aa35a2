"""Plain words for a newcomer: the header says what the papers are, how many and where they come from; a source's
own citation figure always names its source; the panel's badges say what its paper is in this view."""

from __future__ import annotations

from pathlib import Path

import pytest

from dashboard.dataset.store import Store
from dashboard.importers import defaults, mlsanity
from dashboard.view import naming
from dashboard.view.panel import ListEntry, paper_badges, paper_panel
from dashboard.view.payload import build_subgraph
from dashboard.web.callbacks.common import read_state
from dashboard.web.callbacks.render import entry_meta, paper_facts
from tests.conftest import ROOT, SEED_IDS, make_store


def test_the_default_dataset_in_one_line(default_store: Store) -> None:
    what, where = naming.about_parts(default_store)
    assert (
        what
        == f"{default_store.n:,} computer-science papers and the {default_store.n_citations:,} citations among them"
    )
    pages = len(defaults.seed_pages())
    # the bigger source first: arxiv-2023 describes 30,256 papers, the pages 156
    assert where == f"from an arXiv citation dataset (2023) and {pages} paper pages of mlsanity.com"
    assert naming.about_line(default_store) == f"{what}, {where}"
    assert "mlsanity seed pages" not in naming.about_line(default_store)  # the build's own name is not shown


def test_papers_are_named_by_their_field_only_when_nearly_all_share_it(tmp_path: Path, store: Store, tiny) -> None:
    from dashboard.importers.common import PaperRecord

    def field(areas: list[list[str]]) -> str:
        papers = [PaperRecord(title=f"Paper {i}", id=f"p{i}", areas=a) for i, a in enumerate(areas)]
        return naming.papers_field(make_store(tmp_path / str(len(list(tmp_path.iterdir()))), papers))

    assert field([["cs.LG"]] * 9 + [["stat.ML"]]) == "computer-science"  # 9 in 10
    assert field([["cs.LG"]] * 8 + [["stat.ML"]] * 2) == ""  # 8 in 10: not "nearly all"
    assert field([["cs.LG"]] * 9 + [[]]) == "computer-science"  # one without an area
    assert field([["math.OC"], ["math.PR"]]) == "mathematics"
    assert field([["Computer science"]] * 3) == ""  # not arXiv categories: no field is guessed
    assert naming.papers_field(store) == ""  # the pages alone: 106 of 156 papers have no area
    assert naming.papers_field(tiny) == ""


def test_sources_are_named_as_a_visitor_reads_them() -> None:
    assert naming.source_name(mlsanity.SOURCE) == "mlsanity.com"  # the importer's own name of its pages
    assert naming.source_name("arxiv-2023") == "arXiv citation dataset (2023)"
    assert naming.source_name("OpenAlex") == "OpenAlex" and naming.source_name("works.csv") == "works.csv"
    assert naming.source_name(None) == naming.source_name("") == "its source"
    assert naming._files_listed("saved mlsanity.com paper pages: a.txt, b.txt; arxiv-2023", "mlsanity.com") == 2
    assert naming._files_listed("arxiv-2023", "mlsanity.com") == 0


def test_a_source_figure_in_a_list_names_its_source() -> None:
    e = ListEntry("1706.03762", "Attention Is All You Need", 2017, 2, 59932, True, "mlsanity pages")
    assert entry_meta(e) == "2017 · 2 citing in dataset · 59,932 according to mlsanity.com"
    bare = ListEntry("x", "X", None, 0, None, False, None)
    assert entry_meta(bare) == "? · 0 citing in dataset"


def test_the_panel_lists_and_facts_name_the_source(store: Store) -> None:
    state, _ = read_state(store, "?seeds=2110.10090")
    row = store.row("2110.10090")
    panel = paper_panel(store, row, build_subgraph(store, state), state)
    metas = [entry_meta(e) for e in panel.references.entries]
    figures = [m for m in metas if m.count(" · ") == 2]
    assert len(figures) > 20 and all(m.endswith(" according to mlsanity.com") for m in figures)
    assert not any("per " in m for m in metas)
    texts = [li.children for li in paper_facts(panel.paper)]
    assert "Cited by 144 papers according to mlsanity.com (its own figure)" in texts
    assert "Sources: mlsanity.com" in texts


def badges(store: Store, query: str) -> list[str]:
    state, _ = read_state(store, query)
    pid = state.selected or (state.path[0] if state.path else state.seeds[0])
    return [b.text for b in paper_panel(store, store.row(pid), build_subgraph(store, state), state).badges]


def test_badges_say_what_the_paper_is_in_this_view(store: Store) -> None:
    seed = "★ seed: the map starts from it"
    assert badges(store, "") == [seed]  # nothing selected: the first seed is shown
    assert badges(store, f"?selected={SEED_IDS[2]}") == [seed, "selected"]
    other = "1706.03762"
    assert badges(store, f"?expand={other}&selected={other}") == [
        "selected",
        "expanded: its references and citers are shown",
    ]
    assert badges(store, f"?selected={other}") == ["selected"]  # clicked again: collapsed
    a, b = SEED_IDS[2], SEED_IDS[0]
    assert badges(store, f"?path={a},{b}") == ["★ seed", "start of the chains of citations"]
    assert badges(store, f"?path={a},{b}&selected={b}") == ["★ seed", "selected", "end of the chains of citations"]
    state, _ = read_state(store, f"?seeds={a}")
    sub = build_subgraph(store, state)
    away = next(r for r in range(store.n) if r not in set(sub.rows.tolist()))
    assert [b.text for b in paper_badges(away, store.id(away), sub, state)] == ["not in the map"]
    state, _ = read_state(store, f"?seeds={a}&mode=similar")
    similar = next(p for p in build_subgraph(store, state).rows.tolist() if store.id(p) != a)
    assert badges(store, f"?seeds={a}&mode=similar&selected={store.id(similar)}") == [
        "selected",
        "similar to the seeds",
    ]


@pytest.fixture(scope="module")
def two_sources(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """Papers whose own figures come from two sources: a paper page, then OpenAlex."""
    from dashboard.dataset.write import write_dataset
    from dashboard.importers.common import DatasetBuilder, PaperRecord

    b = DatasetBuilder(mlsanity.SOURCE)
    keys = [b.add(PaperRecord(title="On a page", id="a", cited_by=10)), b.add(PaperRecord(title="No figure", id="b"))]
    b.source = "OpenAlex"
    keys += [b.add(PaperRecord(title=f"From OpenAlex {i}", id=f"o{i}", cited_by=i)) for i in range(3)]
    for k in keys[1:]:
        b.cite(k, keys[0])
    tables, citations, _ = b.build()
    folder = tmp_path_factory.mktemp("two") / "two"
    return Store.load(write_dataset(folder, tables, citations, {"name": "two"}))


def test_whose_figure_each_paper_has(store: Store, two_sources: Store) -> None:
    assert naming.figure_sources(store) == (mlsanity.SOURCE,) and naming.one_figure_source(store) == "mlsanity.com"
    assert naming.figure_sources(two_sources) == ("OpenAlex", mlsanity.SOURCE)  # most papers first
    assert naming.one_figure_source(two_sources) == ""  # several: each view says its papers' sources
    rows = [two_sources.row(p) for p in ("a", "b", "o0", "o2")]
    sent = naming.figure_sources_of(two_sources, rows)
    assert sent == {"names": ["mlsanity.com", "OpenAlex"], "of": {"a": 0, "o0": 1, "o2": 1}}


def test_the_page_carries_whose_figures_they_are(store: Store, two_sources: Store) -> None:
    from dashboard.web.app import create_app

    def hidden(app) -> dict:
        found = [c for c in app.layout.children if getattr(c, "id", None) == "div-figure-sources"]
        return found[0].to_plotly_json()["props"]

    one = create_app(store.folder, store=store)
    assert hidden(one)["data-source"] == "mlsanity.com"
    assert "div-figure-sources.children" not in one.callback_map  # one source: nothing to send per view
    two = create_app(two_sources.folder, store=two_sources)
    assert hidden(two)["data-source"] == ""
    assert "div-figure-sources.children" in two.callback_map


def test_the_guide_quotes_the_header_as_the_page_shows_it(default_store: Store) -> None:
    guide = " ".join((ROOT / "docs" / "using.md").read_text().split())
    assert f'"{naming.about_line(default_store)}"' in guide
