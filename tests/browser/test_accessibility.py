"""axe-core (WCAG 2.0 and 2.1, A and AA) finds no serious or critical violation in any state of the page: the default
view, a selected paper with its panel, search suggestions, the timeline, colour by year, a notice, a phone, a story
presented. Each test prints the rules axe found (``pytest -s``), the moderate and minor ones too."""

from __future__ import annotations

from tests.browser.axe import assert_no_serious
from tests.browser.conftest import Page


def test_default_view(page: Page) -> None:
    page.open()
    assert_no_serious(page.page, "default view")


def test_a_selected_paper_and_its_panel(page: Page) -> None:
    page.open()
    page.tap("1810.04805")  # not a seed: the panel's badge says "selected"
    assert "selected=1810.04805" in page.query() and page.page.is_visible(".badge-selected")
    assert_no_serious(page.page, "selected paper")


def test_search_suggestions_open(page: Page) -> None:
    page.open()
    page.page.fill("#input-search", "attention")
    page.page.wait_for_selector("#div-search-results .search-select", state="visible", timeout=15000)
    assert_no_serious(page.page, "search suggestions")


def test_timeline_layout(page: Page) -> None:
    page.open("?layout=timeline")
    assert_no_serious(page.page, "timeline")


def test_colour_by_year(page: Page) -> None:
    page.open("?color=year")
    assert page.page.is_visible(".year-bar")
    assert_no_serious(page.page, "colour by year")


def test_a_notice(page: Page) -> None:
    page.open("?seeds=nope,2110.10090")
    assert "nope" in page.text("#div-notices")
    assert_no_serious(page.page, "notice")


def test_a_phone(browser, server) -> None:
    with Page(browser, server.url, (390, 844), touch=True) as p:
        p.open()
        assert_no_serious(p.page, "phone, map")
        p.page.click(".tab[data-tab=filters]")
        assert_no_serious(p.page, "phone, filters")
        p.page.click(".tab[data-tab=paper]")
        assert_no_serious(p.page, "phone, paper")


def test_presenting_a_story(browser, default_server) -> None:
    with Page(browser, default_server.url) as p:
        p.open("?story=seeds")
        assert p.page.is_visible("#div-present")
        assert_no_serious(p.page, "presenting")


def test_menus_and_disclosures_open(page: Page) -> None:
    """The areas dropdown, the help card, the export menu, and the story being written with a step of it."""
    page.open("?color=cluster")
    page.page.click("#dropdown-areas-summary")
    page.page.click("#dropdown-areas [role=checkbox] >> nth=0")
    page.page.wait_for_function("() => location.search.includes('areas=')", timeout=15000)
    page.settle()
    assert_no_serious(page.page, "areas menu open, an area chosen")
    page.page.keyboard.press("Escape")
    page.page.click(".help summary")
    assert_no_serious(page.page, "help open")
    page.page.click(".export summary")
    assert_no_serious(page.page, "export menu open")
    page.page.keyboard.press("Escape")
    page.page.click("#details-story summary")
    page.page.click("#button-story-add")
    page.page.wait_for_selector(".story-step", timeout=15000)
    assert_no_serious(page.page, "story being written")
