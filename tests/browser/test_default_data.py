"""End to end on the default dataset (the seed pages merged with arxiv-2023) and the visitor's library."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboard.dataset.store import Store
from tests.browser.conftest import Page, first_step
from tests.conftest import DEFAULT_DATA, SEED_IDS

THREE_BIB = r"""@article{a, title = {Attention Is All You Need}, year = {2017}, eprint = {1706.03762},
  archivePrefix = {arXiv}}
@article{b, title = {{BERT}: Pre-training of Deep Bidirectional Transformers for Language Understanding}, year = {2019}}
@misc{c, title = {On the Expressive Power of Self-Attention Matrices}, year = {2021}}
@book{d, title = {A Book That Is Not In The Dataset}, year = {1999}}
"""
THREE = {"1706.03762", "1810.04805", "2106.03764"}


@pytest.fixture()
def dpage(browser, default_server) -> Iterator[Page]:
    with Page(browser, default_server.url) as p:
        yield p


def tree_hash(folder: Path) -> str:
    h = hashlib.sha256()
    for f in sorted(folder.rglob("*")):
        if f.is_file():
            h.update(str(f.relative_to(folder)).encode() + f.read_bytes())
    return h.hexdigest()


def test_clicking_a_shared_paper_expands_it_and_its_panel_keeps_the_counts_apart(
    dpage: Page, default_store: Store
) -> None:
    dpage.open()
    before = dpage.node_ids()
    assert dpage.node_ids(".seed") == set(SEED_IDS) and len(before) == 156
    dpage.tap("1706.03762")
    after = dpage.node_ids()
    step = first_step(default_store, "1706.03762", before)  # of its 743 citers, the most cited first
    assert step and after == before | step
    assert "expanded" in dpage.classes("1706.03762") and "expand=1706.03762" in dpage.query()
    panel = dpage.text("#div-paper")
    assert "Cited by 743 papers in this dataset" in panel
    assert "Cited by 59,932 papers according to mlsanity.com (its own figure)" in panel
    assert "Sources: mlsanity.com, arXiv citation dataset (2023)" in panel
    # sizes follow the citers in the dataset: BERT (1,671 here) is drawn bigger than Attention (743), though the
    # pages' own figures say the opposite (40,204 against 59,932)
    w = dpage.page.evaluate("() => ['1706.03762', '1810.04805'].map(id => cy.getElementById(id).width())")
    assert w[0] < w[1]


def test_a_seed_of_the_merged_data_shows_hundreds(dpage: Page) -> None:
    dpage.open("?seeds=1706.03762")
    before = dpage.node_ids()
    assert len(before) > 300
    assert "showing 300 of 743 citers" in dpage.text("#span-status")
    # "Show more" says what the next click adds, and adds exactly that
    label = dpage.text("#button-show-more")
    assert label.startswith("Show ") and label.endswith(" more")
    n = int(label.split()[1].replace(",", ""))
    dpage.page.click("#button-show-more")
    dpage.page.wait_for_function("() => window.location.search.includes('limit=600')", timeout=15000)
    dpage.settle()
    after = dpage.node_ids()
    assert before < after and len(after) - len(before) == n == 300
    assert dpage.text("#button-show-more") == "Show 143 more"  # the last 143 of 743 citers
    # filters: each hidden paper counted once, among those the map would show
    dpage.open("?seeds=1706.03762&years=2019-2019")
    status = dpage.text("#span-status")
    hidden = int(status.split(" hidden by filters")[0].split(" · ")[-1].replace(",", ""))
    assert 0 < hidden < 323


def test_a_filter_narrows_the_map_on_the_page(dpage: Page, default_store: Store) -> None:
    """With the default seeds and two expanded papers of 2017 and 2018, ``years=2019-2020`` hides what fails and keeps
    the rest where it was: the expanded papers stay, faded, so their neighbours of 2019-2020 stay too."""
    view = "?seeds=2106.03764,2006.04862,2110.10090&expand=1706.03762,1810.04805"
    dpage.open(view)
    whole = dpage.page.evaluate(
        "() => Object.fromEntries(cy.nodes('.paper').map(n => [n.id(), [n.data('year'), n.position()]]))"
    )
    dpage.open(view + "&years=2019-2020")
    narrow = dpage.page.evaluate(
        "() => Object.fromEntries(cy.nodes('.paper').map(n => [n.id(), [n.data('year'), n.position()]]))"
    )
    anchors = set(SEED_IDS) | {"1706.03762", "1810.04805"}
    passing = {pid for pid, (year, _) in whole.items() if year is not None and 2019 <= year <= 2020}
    assert set(narrow) == passing | anchors
    rows = [default_store.row(pid) for pid in ("1706.03762", "1810.04805")]
    near = set(default_store.ids([n for r in rows for n in (*default_store.references(r), *default_store.citers(r))]))
    assert near & passing and near & set(whole) - passing  # the expanded papers' neighbours, some kept, some hidden
    assert all(narrow[pid][1] == whole[pid][1] for pid in narrow)  # nothing moved
    assert dpage.node_ids(".dimmed") == {pid for pid in anchors if pid not in passing} >= {"1706.03762", "1810.04805"}
    status = dpage.text("#span-status")
    hidden = int(status.split(" hidden by filters")[0].split(" · ")[-1].replace(",", ""))
    assert hidden == len(whole) - len(narrow)


def test_uploading_a_library_marks_exactly_its_papers(dpage: Page, tmp_path: Path) -> None:
    before = tree_hash(DEFAULT_DATA)
    dpage.open()
    good = tmp_path / "mine.bib"
    good.write_text(THREE_BIB)
    dpage.page.set_input_files("#upload-library input[type=file]", str(good))
    dpage.page.wait_for_function("() => cy.nodes('.lib').length > 0", timeout=15000)
    assert dpage.node_ids(".lib") == THREE
    assert dpage.text("#div-library-status").startswith("mine.bib: 3 of 4 entries are papers of this dataset.")
    assert dpage.text("#span-library-count") == "in your library: 3 of 156 papers in view"
    # the panel marks them too (2106.03764 is the first seed, shown by default)
    assert "IN YOUR LIBRARY" in dpage.text("#div-paper").upper()
    # the filter: only the library's papers (and the seeds) stay; positions do not move
    pos = dpage.page.evaluate("() => cy.getElementById('1706.03762').position()")
    dpage.page.click("#radio-library >> text=in it")
    dpage.page.wait_for_function("() => cy.nodes('.paper:visible').length < 10", timeout=15000)
    visible = set(dpage.page.evaluate("() => cy.nodes('.paper:visible').map(n => n.id())"))
    assert visible == THREE | set(SEED_IDS)
    assert dpage.page.evaluate("() => cy.getElementById('1706.03762').position()") == pos
    dpage.page.click("#radio-library >> text=not in it")
    dpage.page.wait_for_function("() => cy.nodes('.paper:visible').length > 100", timeout=15000)
    visible = set(dpage.page.evaluate("() => cy.nodes('.paper:visible').map(n => n.id())"))
    assert not (visible & (THREE - set(SEED_IDS))) and "2106.03764" in visible  # a seed always shows
    dpage.page.click("#radio-library >> text=all")
    # a broken file: a clear notice, and the library loaded before stays as it was
    bad = tmp_path / "broken.bib"
    bad.write_text("@misc{b, title = {Broken\n@article{c title={No comma}}\n")  # no entry readable
    dpage.page.set_input_files("#upload-library input[type=file]", str(bad))
    dpage.page.wait_for_function(
        "() => document.getElementById('div-library-status').innerText.includes('broken')", timeout=15000
    )
    status = dpage.text("#div-library-status")
    assert status.startswith("Could not read the library: broken.bib, line 1: not a valid BibTeX entry")
    assert "Nothing was changed." in status and dpage.node_ids(".lib") == THREE
    # the browser logs the refused upload (HTTP 400) in the console: that one message, and nothing else
    refused = [e for e in dpage.errors if "status of 400" in e]
    assert len(refused) == 1
    dpage.errors.remove(refused[0])
    # a file over the cap is refused in the page before it is sent, and changes nothing either
    huge = tmp_path / "huge.bib"
    huge.write_bytes(b"%" * (2 * 1024 * 1024 + 1))
    dpage.page.set_input_files("#upload-library input[type=file]", str(huge))
    dpage.page.wait_for_function(
        "() => document.getElementById('div-library-status').innerText.includes('huge')", timeout=15000
    )
    assert dpage.text("#div-library-status").startswith(
        "huge.bib is too big: a library file may have at most 2,097,152 bytes. Nothing was changed."
    )
    assert dpage.node_ids(".lib") == THREE
    # forget it: no marks
    dpage.page.click("#button-library-clear")
    dpage.page.wait_for_function("() => cy.nodes('.lib').length === 0", timeout=15000)
    assert tree_hash(DEFAULT_DATA) == before  # nothing was written on the server


def test_the_library_stays_with_the_visitor(browser, default_server, tmp_path: Path) -> None:
    """Two visitors: one loads a library, the other's page marks nothing."""
    lib = tmp_path / "mine.bib"
    lib.write_text(THREE_BIB)
    with Page(browser, default_server.url) as a, Page(browser, default_server.url) as b:
        a.open()
        a.page.set_input_files("#upload-library input[type=file]", str(lib))
        a.page.wait_for_function("() => cy.nodes('.lib').length === 3", timeout=15000)
        b.open()
        assert b.node_ids(".lib") == set() and b.text("#span-library-count") == ""
        a.page.reload()  # the tab keeps it
        a.wait_graph()
        a.page.wait_for_function("() => cy.nodes('.lib').length === 3", timeout=15000)


def test_the_year_slider_gives_the_recent_years_room(dpage: Page) -> None:
    dpage.open()
    marks = dpage.page.evaluate(
        "() => Array.from(document.querySelectorAll('#range-years .dash-slider-mark'))"
        ".map(m => [m.innerText, m.getBoundingClientRect().left])"
    )
    texts = [t for t, _ in marks]
    assert texts[0] == "≤2010" and texts[-1] == "2025"
    track = dpage.page.locator("#range-years .dash-slider-track").bounding_box()
    # 2016-2025 (nine tenths of the papers) take more than half of the slider, not a sixth as on 1971-2025
    left = {t: x for t, x in marks}
    assert left["2025"] - left["2015"] > track["width"] / 2
    dpage.page.focus("#range-years [role=slider] >> nth=0")
    for _ in range(8):
        dpage.page.keyboard.press("ArrowRight")
    dpage.page.wait_for_function("() => decodeURIComponent(location.search).includes('years=2018-2025')", timeout=15000)
    dpage.settle()
    years = dpage.page.evaluate("() => cy.nodes('.paper').not('.seed').map(n => n.data('year'))")
    assert years and min(years) >= 2018
    dpage.page.focus("#range-years [role=slider] >> nth=0")
    for _ in range(8):
        dpage.page.keyboard.press("ArrowLeft")
    dpage.page.wait_for_function("() => !location.search.includes('years=')", timeout=15000)  # back to all years
