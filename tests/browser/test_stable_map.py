"""A stable mental map, measured on the real page node by node: adding a seed, showing more, expanding and removing a
seed never move a paper that stays in view; what an action added is marked, the paper it selected in view."""

from __future__ import annotations

from tests.browser.conftest import Page

ATTENTION, BERT, GPT3 = "1706.03762", "1810.04805", "2005.14165"
PLACES = "() => Object.fromEntries(cy.nodes('.paper').map(n => [n.id(), [n.position('x'), n.position('y')]]))"


def places(p: Page) -> dict[str, list[float]]:
    return p.page.evaluate(PLACES)


def moved(before: dict, after: dict) -> list[str]:
    return [k for k, (x, y) in before.items() if k in after and abs(after[k][0] - x) + abs(after[k][1] - y) > 0.5]


def add_seed(p: Page, words: str, pid: str) -> None:
    p.page.fill("#input-search", words)
    p.page.wait_for_selector(f".search-item:has(.search-seed[id*='{pid}'])")
    p.page.click(f".search-seed[id*='{pid}']")
    p.page.wait_for_function("pid => window.location.search.includes(pid)", arg=pid, timeout=15000)
    p.settle()


def in_view(p: Page, ids: list[str]) -> float:
    """The share of ``ids`` whose node centre is inside the viewport."""
    return p.page.evaluate(
        """ids => {
        const e = cy.extent();
        const inside = ids.filter(id => { const q = cy.getElementById(id).position();
                                          return q.x >= e.x1 && q.x <= e.x2 && q.y >= e.y1 && q.y <= e.y2; });
        return inside.length / ids.length; }""",
        ids,
    )


def test_actions_keep_every_paper_in_place(browser, default_server) -> None:
    with Page(browser, default_server.url, (1280, 800)) as p:
        p.open(f"?seeds={ATTENTION}")
        first = places(p)
        # add a seed from the search box: every paper on the map stays put, the new ones are marked, the new seed (the
        # paper selected) in view at the zoom the map had
        zoom = p.page.evaluate("() => cy.zoom()")
        add_seed(p, "BERT: Pre-training of Deep Bidirectional", BERT)
        second = places(p)
        new = [k for k in second if k not in first]
        assert len(new) > 100 and moved(first, second) == []
        assert all("new" in p.classes(k) for k in new[:50]) and "new" not in p.classes(ATTENTION)
        assert in_view(p, [BERT]) == 1.0 and p.page.evaluate("() => cy.zoom()") == zoom
        # a third seed, then remove the middle one: the server would lay [Attention, GPT-3] out afresh; the page
        # keeps what stays where it was
        add_seed(p, "Language Models are Few-Shot Learners", GPT3)
        third = places(p)
        assert moved(second, third) == []
        p.page.click("#div-seeds .seed-item:has-text('BERT') .remove")
        p.page.wait_for_function("b => !window.location.search.includes(b)", arg=BERT, timeout=15000)
        p.settle()
        fourth = places(p)
        assert len(fourth) < len(third) and moved(third, fourth) == []
        # expand a paper in view (Luong et al.), then show more of it: still nothing moves
        p.tap("1508.04025")
        fifth = places(p)
        assert len(fifth) > len(fourth) and moved(fourth, fifth) == []
        p.page.click("#button-show-more")
        p.page.wait_for_function("() => window.location.search.includes('more=1508.04025:1')", timeout=15000)
        p.settle()
        sixth = places(p)
        assert len(sixth) > len(fifth) and moved(fifth, sixth) == []


def test_a_reload_draws_what_the_steps_drew_for_one_seed_and_more(browser, default_server) -> None:
    """For adding seeds and showing more of one seed the server places step by step: a reload of the final URL gives
    the very picture the steps built (the browser needs to keep nothing)."""
    with Page(browser, default_server.url, (1280, 800)) as p:
        p.open(f"?seeds={ATTENTION}")
        p.page.click("#button-show-more")
        p.page.wait_for_function("() => window.location.search.includes('limit=600')", timeout=15000)
        p.settle()
        add_seed(p, "BERT: Pre-training of Deep Bidirectional", BERT)
        stepped = places(p)
        query = p.page.evaluate("() => window.location.search")
    with Page(browser, default_server.url, (1280, 800)) as p:
        p.open(query)
        fresh = places(p)
    assert set(fresh) == set(stepped) and moved(stepped, fresh) == []
