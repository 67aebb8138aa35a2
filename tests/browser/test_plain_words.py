"""Plain words on the real page, for a newcomer: the header names what the papers are, how many and where they
come from, whole, on a laptop and on a phone; a source's own citation figure names its source on the hover card and
in the panel's lists."""

from __future__ import annotations

import pytest

from dashboard.dataset.store import Store
from dashboard.view.naming import about_parts
from tests.browser.conftest import Page

SIZES = {"laptop": ((1280, 800), False), "phone": ((390, 844), True)}

# The About line: its text, whether it (or a line of it) is cut, its box, and whether it covers the search box, the
# buttons or the logo.
HEADER = """() => {
  const el = document.getElementById('span-dataset-name'), r = el.getBoundingClientRect();
  const cut = e => e.scrollWidth > e.clientWidth + 0.5 || e.scrollHeight > e.clientHeight + 0.5;
  const hits = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const covered = ['.search', '.actions', '.logo']
    .filter(s => hits(r, document.querySelector(s).getBoundingClientRect()));
  return {text: el.innerText, cut: [el, ...el.children].filter(cut).map(e => e.className),
          box: [r.left, r.top, r.right, r.bottom], covered: covered, width: innerWidth,
          styles: getComputedStyle(el).visibility + ' ' + getComputedStyle(el).display};
}"""


@pytest.mark.parametrize("size", SIZES)
def test_the_header_says_what_the_papers_are_how_many_and_from_where(
    browser, default_server, default_store: Store, size: str
) -> None:
    viewport, touch = SIZES[size]
    what, where = about_parts(default_store)
    with Page(browser, default_server.url, viewport, touch=touch) as p:
        p.open()
        got = p.page.evaluate(HEADER)
        text = " ".join(got["text"].split())
        assert text == f"{what} {where}", got
        assert f"{default_store.n:,} computer-science papers" in text
        assert f"{default_store.n_citations:,} citations" in text
        assert "arXiv" in text and "mlsanity.com" in text  # both sources, by names a visitor knows
        assert got["cut"] == [], f"the About line is cut at {size}: {got}"
        left, top, right, bottom = got["box"]
        assert left >= 0 and right <= got["width"] and bottom - top > 0 and "hidden" not in got["styles"]
        assert got["covered"] == [], got


def test_a_figure_from_a_source_names_it_on_hover_and_in_the_lists(
    browser, default_server, default_store: Store
) -> None:
    seed = "2110.10090"
    p_ = default_store.paper(default_store.row(seed))
    assert p_["cited_by"] is not None and p_["cited_by_from"] == "mlsanity pages"
    with Page(browser, default_server.url, (1280, 800)) as p:
        p.open()
        x, y = p.page.evaluate(
            """id => { const r = cy.getElementById(id).renderedPosition();
                       const b = cy.container().getBoundingClientRect(); return [b.left + r.x, b.top + r.y]; }""",
            seed,
        )
        p.page.mouse.move(x, y, steps=4)  # the real mouse: dash-cytoscape's mouseoverNodeData
        p.page.wait_for_function(
            "t => document.getElementById('div-hover').innerText.startsWith(t)", arg=p_["title"], timeout=5000
        )
        card = p.text("#div-hover")
        assert f"{p_['in_cited']:,} citing in dataset · {p_['cited_by']:,} according to mlsanity.com" in card, card
        assert "per source" not in card
        metas = p.page.evaluate("() => [...document.querySelectorAll('.lists li.entry .meta')].map(m => m.innerText)")
        figures = [m for m in metas if m.count(" · ") == 2]
        assert figures and all(m.endswith(" according to mlsanity.com") for m in figures), metas
        assert not any("per source" in m for m in metas)
