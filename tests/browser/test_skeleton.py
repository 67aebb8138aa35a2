"""End to end in headless Chromium: the first view, clicks that expand and collapse, the panel."""

from __future__ import annotations

from dashboard.dataset.store import Store
from tests.browser.conftest import Page, first_step
from tests.conftest import SEED_IDS


def test_page_loads_with_seeds_and_no_console_errors(page: Page) -> None:
    page.open()
    ids = page.node_ids()
    assert len(ids) == 156
    assert page.node_ids(".seed") == set(SEED_IDS)
    assert "1706.03762" in page.node_ids(".reference") and "2306.14048" in page.node_ids(".citer")
    data = page.page.evaluate("() => window.cy.getElementById('2110.10090').data()")
    assert data["label"].startswith("Inductive Biases") and data["year"] == 2021
    assert data["areas"] == ["cs.LG", "stat.ML"] and data["in_cited"] == 50 and data["cited_by"] == 144
    assert page.page.evaluate("() => window.cy.edges().not('.leader').length") == 181
    assert "seeds=2106.03764,2006.04862,2110.10090" in page.query()
    assert "On the Expressive Power of Self-Attention Matrices" in page.text("#paper-title")
    # node size grows with the citers in the dataset (not with a source's figure: 2106.01345 has 1,528 per its page)
    sizes = page.page.evaluate("() => cy.nodes('.paper').not('.seed').map(n => [n.data('in_cited'), n.width()])")
    by_count = {}
    for count, width in sizes:
        by_count.setdefault(count, set()).add(round(width, 1))
    assert all(len(w) == 1 for w in by_count.values()) and len(by_count) >= 3
    widths = [by_count[c].pop() for c in sorted(by_count)]
    assert widths == sorted(widths) and len(set(widths)) == len(widths)


def test_tapping_a_seed_selects_it(page: Page) -> None:
    page.open()
    page.tap("2110.10090")
    assert "selected=2110.10090" in page.query()
    assert "selected" in page.classes("2110.10090")
    assert page.text("#paper-title") == "Inductive Biases and Variable Creation in Self-Attention Mechanisms"
    panel = page.text("#div-paper")
    assert "Cited by 50 papers in this dataset" in panel
    assert "Cited by 144 papers according to mlsanity.com (its own figure)" in panel
    assert "Sources: mlsanity.com" in panel
    assert len(page.node_ids()) == 156  # a seed is already expanded: nothing added


def test_tap_expands_and_tap_again_collapses(page: Page, store: Store) -> None:
    page.open("?seeds=2006.04862")
    before = page.node_ids()
    assert len(before) == 31
    page.tap("2106.03764")
    after = page.node_ids()
    step = first_step(store, "2106.03764", before)  # its most cited references and citers; "Show more" the rest
    assert step and after == before | step
    assert "1706.03762" in after  # one of 2106.03764's references
    assert "expanded" in page.classes("2106.03764")
    assert "expand=2106.03764" in page.query()
    assert "On the Expressive Power of Self-Attention Matrices" in page.text("#paper-title")
    page.tap("2106.03764")
    assert page.node_ids() == before
    assert "expand=" not in page.query()


def test_a_paper_with_nothing_more_to_show_says_so(page: Page) -> None:
    page.open()
    page.tap("2306.02010")  # cites two seeds, both shown; nothing else in the dataset
    assert "has no references or citers to add" in page.text("#div-notices")
    assert "expand=" not in page.query() and "selected=2306.02010" in page.query()


def test_the_error_watch_sees_what_a_visitor_would(browser, server) -> None:
    """The check every browser test ends with does fail: on a console error or warning, a page error, an error-id
    notice."""
    p = Page(browser, server.url)
    try:
        p.open("?seeds=2006.04862")
        assert p.problems() == []
        p.page.evaluate(
            "() => { document.getElementById('div-notices').textContent = "
            "'Something went wrong while updating the view (error id 0123456789)'; }"
        )
        p.page.evaluate("() => { console.error('boom in the console'); }")
        p.page.evaluate("() => { console.warn('a warning in the console'); }")
        p.page.evaluate("() => { setTimeout(() => { throw new Error('uncaught boom'); }, 0); }")
        p.page.wait_for_function("() => true")  # a round trip: the console event is in
        for _ in range(100):
            if len(p.problems()) >= 4:
                break
            p.page.wait_for_timeout(100)
        found = p.problems()
        assert "boom in the console" in found and any("uncaught boom" in e for e in found)
        assert "warning: a warning in the console" in found
        assert "notice: Something went wrong while updating the view (error id 0123456789)" in found
        try:
            p.assert_clean()
        except AssertionError:
            pass
        else:
            raise AssertionError("assert_clean passed on a page with errors")
    finally:
        p.close()


def test_papers_an_action_added_are_marked_until_the_next(page: Page) -> None:
    page.open("?seeds=2006.04862")
    assert page.node_ids(".new") == set()  # the first view: nothing is "new"
    before = page.node_ids()
    page.tap("2106.03764")
    added = page.node_ids() - before
    assert added and page.node_ids(".new") == added
    page.tap("2106.03764")  # collapse: nothing added
    assert page.node_ids(".new") == set()
