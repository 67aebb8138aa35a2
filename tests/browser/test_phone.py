"""Phones and tablets in portrait: the map takes the width, the filters and the paper open from tabs, search and
export are on screen, touch pans and pinches the map; and what any visitor sees first (the page's frame and what it
shows, before and after the script has drawn it, and the "?" help)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import Page

SIZES = [(390, 844), (768, 1024)]


def box(p: Page, selector: str) -> dict:
    return p.page.evaluate(
        """s => { const e = document.querySelector(s); if (!e) return null;
        const r = e.getBoundingClientRect(); const st = getComputedStyle(e);
        return {x: r.x, y: r.y, w: r.width, h: r.height, shown: st.display !== 'none' && st.visibility !== 'hidden'
                && r.width > 0 && r.height > 0}; }""",
        selector,
    )


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_map_takes_the_width_and_the_panels_open_from_tabs(browser, server, size) -> None:
    width, height = size
    with Page(browser, server.url, size, touch=True) as p:
        p.open()
        graph = box(p, "#graph-citations")
        assert graph["w"] >= 0.9 * width and graph["h"] >= 0.5 * height
        assert p.page.evaluate("() => document.documentElement.scrollWidth") <= width
        for sel in ("#input-search", ".export summary", "#button-reset", "#button-fit", ".tab[data-tab=paper]"):
            b = box(p, sel)
            assert b["shown"] and b["x"] >= 0 and b["x"] + b["w"] <= width and b["y"] + b["h"] <= height, sel
        assert box(p, "#input-search")["w"] >= 0.8 * width
        # the map's papers are drawn across the width, not in a strip
        spread = p.page.evaluate("""() => { const xs = cy.nodes('.paper').map(n => n.renderedPosition().x);
            return Math.max(...xs) - Math.min(...xs); }""")
        assert spread >= 0.6 * width
        assert not box(p, ".panel")["shown"] and not box(p, ".sidebar")["shown"]
        p.page.click(".tab[data-tab=paper]")
        panel = box(p, ".panel")
        assert panel["shown"] and panel["w"] >= 0.95 * width
        assert p.page.is_visible("#div-paper .paper-title")
        p.page.click(".tab[data-tab=filters]")
        assert box(p, ".sidebar")["shown"] and not box(p, ".panel")["shown"]
        assert p.page.is_visible("#input-min-citations")
        p.page.click(".tab[data-tab=map]")
        assert not box(p, ".sidebar")["shown"] and not box(p, ".panel")["shown"]
        assert p.page.get_attribute(".tab[data-tab=map]", "aria-selected") == "true"
        assert box(p, "#graph-citations")["w"] == graph["w"]  # the map kept its size underneath
        p.page.click(".export summary")
        menu = box(p, ".export-menu")
        assert menu["shown"] and menu["x"] >= 0 and menu["x"] + menu["w"] <= width
        p.page.click(".export summary")
        p.page.click(".help summary")
        card = box(p, ".help-card")
        assert card["shown"] and card["x"] >= 0 and card["x"] + card["w"] <= width and card["y"] + card["h"] <= height
        p.page.click(".help summary")
        # a paper chosen in the panel's lists is shown on the map
        p.page.click(".tab[data-tab=paper]")
        p.page.locator("#div-lists .link").first.click()
        p.settle()
        assert p.page.get_attribute(".app", "data-tab") == "map" and not box(p, ".panel")["shown"]
        assert "selected=" in p.query()


def touch(p: Page, kind: str, points: list[tuple[float, float]]) -> None:
    p.cdp.send(
        "Input.dispatchTouchEvent",
        {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]},
    )


def test_touch_pans_and_pinch_zooms_the_map(browser, server) -> None:
    with Page(browser, server.url, (390, 844), touch=True) as p:
        p.open()
        p.cdp = p.context.new_cdp_session(p.page)
        g = box(p, "#graph-citations")
        cx, cy_ = g["x"] + g["w"] / 2, g["y"] + g["h"] * 0.8  # below the papers: a drag of the background
        before = p.page.evaluate("() => ({zoom: cy.zoom(), pan: cy.pan()})")
        touch(p, "touchStart", [(cx, cy_)])
        for i in range(1, 11):
            touch(p, "touchMove", [(cx + 6 * i, cy_ - 4 * i)])
            p.page.wait_for_timeout(16)
        touch(p, "touchEnd", [])
        p.page.wait_for_timeout(300)
        after = p.page.evaluate("() => ({zoom: cy.zoom(), pan: cy.pan()})")
        assert after["pan"]["x"] - before["pan"]["x"] == pytest.approx(60, abs=15)
        assert after["pan"]["y"] - before["pan"]["y"] == pytest.approx(-40, abs=15)
        assert after["zoom"] == pytest.approx(before["zoom"])
        assert p.page.evaluate("() => window.scrollX + window.scrollY") == 0  # the page itself did not move
        cx, cy_ = g["x"] + g["w"] / 2, g["y"] + g["h"] / 2
        touch(p, "touchStart", [(cx - 40, cy_), (cx + 40, cy_)])
        for i in range(1, 11):
            touch(p, "touchMove", [(cx - 40 - 8 * i, cy_), (cx + 40 + 8 * i, cy_)])
            p.page.wait_for_timeout(16)
        touch(p, "touchEnd", [])
        p.page.wait_for_timeout(300)
        pinched = p.page.evaluate("() => cy.zoom()")
        assert pinched > 1.5 * after["zoom"]  # fingers 80 px apart, then 240 px: ~3x


def test_first_paint_says_what_the_page_shows_and_help_opens(browser, server, store) -> None:
    from dashboard.view.naming import about_line

    with Page(browser, server.url, (1280, 800)) as p:
        p.page.route("**/_dash-component-suites/**", lambda route: route.abort())  # no scripts: the first paint
        p.page.goto(server.url + "/", wait_until="load")
        boot = p.page.inner_text(".boot")
        assert "Loading the map" in boot and about_line(store) in boot
        assert "Loading..." not in p.page.inner_text("body")
        p.errors.clear()  # the refused scripts' own failures
    with Page(browser, server.url, (1280, 800)) as p:
        p.open()
        assert not p.page.is_visible(".boot") or box(p, ".app")["shown"]  # the app covers the frame
        assert not p.page.is_visible(".help-card")
        p.page.click(".help summary")
        card = p.page.inner_text(".help-card")
        assert about_line(store) in card and "address bar" in card and "Esc" in card
        b = box(p, ".help-card")
        assert b["x"] >= 0 and b["x"] + b["w"] <= 1280
