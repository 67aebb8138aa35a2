"""The first view explains itself, and the filters read back, measured on the real page at 1280x800, 1920x1080 and on
a phone: one line over the map says what the first view shows and offers the story; a click on a seed answers; the
years slider shows its range in numbers; the status line is never cut; the chart of papers in view by year is in
sight without scrolling."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from dashboard.dataset.store import Store
from dashboard.view.describe import first_view_line
from dashboard.view.stories import story_of_seeds
from dashboard.view.years import year_floor
from dashboard.web.callbacks.common import default_seeds
from tests.browser.conftest import Page

SIZES = {"laptop": ((1280, 800), False), "presenting": ((1920, 1080), False), "phone": ((390, 844), True)}

# an element's box, whether it is shown, and whether its text is cut (wider or taller than its box)
BOX = """sel => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
  return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, text: el.innerText,
          shown: !el.hidden && cs.display !== 'none' && cs.visibility !== 'hidden' && r.height > 0,
          cut: el.scrollWidth > el.clientWidth + 0.5 || el.scrollHeight > el.clientHeight + 0.5,
          width: innerWidth, height: innerHeight};
}"""


def _box(p: Page, sel: str) -> dict:
    return p.page.evaluate(BOX, sel)


@pytest.mark.parametrize("size", SIZES)
def test_the_first_view_says_what_it_shows_offers_the_story_and_a_seed_answers_a_click(
    browser, default_server, default_store: Store, size: str
) -> None:
    viewport, touch = SIZES[size]
    seeds = default_seeds(default_store)
    story = story_of_seeds(default_store.folder, seeds)
    assert story is not None
    with Page(browser, default_server.url, viewport, touch=touch) as p:
        p.open()
        line = _box(p, "#div-first-view")
        assert line["shown"] and not line["cut"], line
        expected = f"{first_view_line(default_store, seeds, story.title)} Show their story ({len(story.steps)} steps) →"
        assert " ".join(line["text"].split()) == " ".join(expected.split())
        # in sight over the map, not over it: above the map's box, inside the window
        map_box = _box(p, ".map-box")
        assert line["top"] >= 0 and line["bottom"] <= map_box["top"] + 0.5 and line["right"] <= line["width"] + 0.5
        assert line["bottom"] < line["height"] / 3  # near the top of the page, seen first

        # a click on a seed: it is selected, the page says what the click did, the line stays (still the first view)
        seed = seeds[1]
        p.tap(seed)
        assert parse_qs(urlsplit(p.page.url).query)["selected"] == [seed]
        title = default_store.paper(default_store.row(seed))["title"]
        notice = p.text("#div-notices")
        assert f"“{title}” is a seed" in notice and "already on the map" in notice
        assert p.page.evaluate("id => cy.getElementById(id).hasClass('selected')", seed)
        assert _box(p, "#div-first-view")["shown"]

        # the story, from the line's link: presented, and the line gives the room to the story
        p.page.click("#a-first-story")
        p.page.wait_for_function("() => /story=seeds/.test(location.search) && !!document.querySelector('.presenting')")
        p.settle()
        assert not _box(p, "#div-first-view")["shown"]

    with Page(browser, default_server.url, viewport, touch=touch) as p:
        p.open("?seeds=1706.03762")  # another map: the line is about the first view only
        assert not _box(p, "#div-first-view")["shown"]


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_filters_read_back_the_years_the_status_and_the_chart(
    browser, default_server, default_store: Store, size: str
) -> None:
    viewport, touch = SIZES[size]
    floor, top = year_floor(default_store), default_store.year_max
    assert default_store.year_min < floor  # the slider's first position reaches back further
    with Page(browser, default_server.url, viewport, touch=touch) as p:
        # a view with a long status line: three capped lists of citers
        p.open("?seeds=1706.03762,1810.04805,1412.6980")
        status = _box(p, "#span-status")
        assert "showing 300 of" in status["text"] and len(status["text"]) > 100
        assert status["shown"] and not status["cut"], status  # the whole of it is on the page, none cut off
        assert status["left"] >= 0 and status["right"] <= status["width"] + 0.5 and status["bottom"] <= status["height"]
        if touch:
            p.page.click(".tab[data-tab=filters]")
        years = _box(p, "#span-years-range")
        assert years["shown"] and years["text"] == f"≤{floor}–{top}"
        chart = _box(p, "#graph-overview")
        assert chart["shown"] and chart["top"] < chart["height"] - 100, chart  # in sight without scrolling
        p.page.wait_for_function("() => document.querySelector('#graph-overview .trace.bars') !== null")  # drawn

        # a filter from the address reads back on the slider's label; a thumb moved by the keyboard too
        p.open("?seeds=1706.03762,1810.04805,1412.6980&years=2018-2021")
        if touch:
            p.page.click(".tab[data-tab=filters]")
        assert _box(p, "#span-years-range")["text"] == "2018–2021"
        p.page.locator("#range-years [role=slider]").first.focus()
        before = p.page.url
        p.page.keyboard.press("ArrowRight")
        p.page.wait_for_function("b => location.href !== b", arg=before)
        p.settle()
        assert parse_qs(urlsplit(p.page.url).query)["years"] == ["2019-2021"]
        assert _box(p, "#span-years-range")["text"] == "2019–2021"
