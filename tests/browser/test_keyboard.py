"""The page without a mouse: every control in reading order with a visible focus ring, the map driven by keys (arrows
move a focus between papers, Shift+arrows along citations, Enter selects as a click does, + - 0 zoom), radio groups
and search suggestions by arrows, Esc closing menus; a story's keys unchanged; no motion when the visitor asks for
none."""

from __future__ import annotations

from tests.browser.conftest import Page
from tests.conftest import SEED_IDS

ACTIVE = """() => { const e = document.activeElement, s = getComputedStyle(e);
    return {id: e.id, tag: e.tagName, role: e.getAttribute('role'), value: e.getAttribute('data-value'),
            outline: s.outlineStyle, width: parseFloat(s.outlineWidth)}; }"""


def tab_until(p: Page, done: str, limit: int = 80) -> list[dict]:
    """Press Tab until the JavaScript predicate ``done`` (of the focused element) holds; what got the focus on the
    way, in order."""
    seen = []
    for _ in range(limit):
        p.page.keyboard.press("Tab")
        seen.append(p.page.evaluate(ACTIVE))
        if p.page.evaluate(f"() => {{ const e = document.activeElement; return !!({done}); }}"):
            return seen
    raise AssertionError(f"Tab never reached {done}: {seen}")


def focused(p: Page) -> str | None:
    p.modules()
    return p.page.evaluate("() => modules.focus.focusedPaper()")


def wait_focus_moves(p: Page, before: str | None) -> str:
    p.modules()
    p.page.wait_for_function(
        "b => modules.focus.focusedPaper() && modules.focus.focusedPaper() !== b", arg=before, timeout=5000
    )
    return focused(p)


def nearest_right(positions: dict[str, dict], start: str) -> str:
    """The paper the map's focus should go to with ArrowRight: within 45 degrees of straight right, the smallest
    distance ahead plus twice the distance aside (assets/js/logic/keyboard.js)."""
    x0, y0 = positions[start]["x"], positions[start]["y"]
    scored = []
    for pid, q in positions.items():
        along, across = q["x"] - x0, abs(q["y"] - y0)
        if pid != start and along > 0 and across <= along:
            scored.append((along + 2 * across, pid))
    return min(scored)[1]


def test_the_map_by_keyboard_alone(page: Page) -> None:
    page.open()
    order = tab_until(page, "e.id === 'div-map-region'")
    ids = [e["id"] for e in order]
    assert ids.index("input-search") < ids.index("button-reset") < ids.index("div-map-region")  # reading order
    assert "button-zoom-in" not in ids  # the map before its zoom buttons and the panel
    region = order[-1]
    assert region["outline"] == "solid" and region["width"] >= 3  # a visible focus ring on the map
    first = focused(page)
    assert first == SEED_IDS[0]  # nothing selected: the first seed
    assert page.page.evaluate("id => cy.getElementById(id).style('outline-width')", first) == "4px"
    title = page.page.evaluate("id => cy.getElementById(id).data('title')", first)
    assert page.text("#div-map-focus").startswith(title) and "citing in this dataset" in page.text("#div-map-focus")
    assert title in page.text("#div-hover")  # its hover card, for sighted keyboard users
    assert page.page.evaluate("id => cy.getElementById(id).hasClass('lbl')", first)  # and its label

    positions = page.page.evaluate("() => Object.fromEntries(cy.nodes('.paper').map(n => [n.id(), n.position()]))")
    page.page.keyboard.press("ArrowRight")
    second = wait_focus_moves(page, first)
    assert second == nearest_right(positions, first)
    assert page.page.evaluate("id => cy.getElementById(id).style('outline-width')", first) == "0px"  # one ring

    linked = set(page.page.evaluate("id => cy.getElementById(id).neighborhood('node.paper').map(n => n.id())", second))
    for key in ("Shift+ArrowLeft", "Shift+ArrowRight", "Shift+ArrowUp", "Shift+ArrowDown"):
        page.page.keyboard.press(key)
        if focused(page) != second:
            break
    third = focused(page)
    assert third in linked  # along a citation
    assert page.text("#div-map-focus").startswith(("Cited by it: ", "Citing it: "))

    page.page.keyboard.press("Enter")  # selects and expands it, as a click does
    page.page.wait_for_function("id => location.search.includes('selected=' + id)", arg=third, timeout=15000)
    page.settle()
    # as a tap: a seed (expanded already) is selected; another paper is selected and expanded
    assert (f"expand={third}" in page.query()) == (third not in SEED_IDS), page.query()
    title = page.page.evaluate("id => cy.getElementById(id).data('title')", third)
    assert page.text("#paper-title") == title
    badges = page.page.evaluate("() => [...document.querySelectorAll('#div-paper .badge')].map(b => b.textContent)")
    assert "selected" in badges and ("★ seed: the map starts from it" in badges) == (third in SEED_IDS), badges
    assert f"selected: {' '.join(title.split())}" in page.page.text_content("#div-map-summary")
    assert page.page.evaluate("() => document.activeElement.id") == "div-map-region" and focused(page) == third

    zoom = page.page.evaluate("() => cy.zoom()")
    page.page.keyboard.press("+")
    page.page.wait_for_function("z => cy.zoom() > z * 1.2 && !cy.animated()", arg=zoom, timeout=5000)
    page.page.keyboard.press("0")  # fit: back to the whole map
    page.modules()
    page.page.wait_for_function(
        """z => !cy.animated() && cy.zoom() < z * 1.1 && modules.viewport.fitted(cy)
        && Math.abs(cy.zoom() - modules.viewport.fitted(cy).zoom) < 1e-9""",
        arg=zoom,
        timeout=5000,
    )
    page.page.keyboard.press("-")
    page.page.wait_for_function("z => cy.zoom() < z / 1.2 && !cy.animated()", arg=zoom, timeout=5000)
    page.page.keyboard.press("Escape")  # clears the selection
    page.page.wait_for_function("() => !location.search.includes('selected=')", timeout=15000)
    page.settle()


def test_every_control_is_reached_in_reading_order_with_a_ring(page: Page) -> None:
    page.open()
    order = tab_until(page, "e.closest('.panel') && e.closest('.lists')")
    visible_ring = [e for e in order if e["outline"] != "none" and e["width"] >= 2]
    # Dash's text and number boxes draw the ring on their box (:focus-within, assets/style.css)
    boxes = [e for e in order if e["tag"] == "INPUT" and e["id"] in ("input-search", "input-min-citations")]
    assert len(visible_ring) + len(boxes) == len(order), [e for e in order if e not in visible_ring + boxes]
    for sel in ("input-search", "input-min-citations"):
        page.page.focus(f"#{sel}")
        ring = page.page.evaluate(
            "s => getComputedStyle(document.getElementById(s).closest('.dash-input-container')).outlineWidth", sel
        )
        assert float(ring.removesuffix("px")) >= 2
    reached = {e["id"] for e in order} | {e["value"] for e in order if e["role"] == "radio"}
    for control in (
        "input-search",
        "button-reset",
        "dropdown-areas-summary",
        "input-min-citations",
        "div-map-region",
        "button-zoom-in",
        "button-zoom-out",
        "button-fit",
        "area",
        "citations",
        "force",
    ):
        assert control in reached, control
    assert sum(1 for e in order if e["role"] == "radio") == 4  # one stop a radio group: colour, mode, layout, sort


def test_radio_groups_by_arrow_keys(page: Page) -> None:
    page.open()
    tab_until(page, "e.getAttribute('role') === 'radio' && e.closest('#radio-color')")
    assert page.page.evaluate(ACTIVE)["value"] == "area"
    page.page.keyboard.press("ArrowRight")
    page.page.wait_for_function("() => location.search.includes('color=year')", timeout=15000)
    page.settle()
    assert page.page.evaluate(ACTIVE)["value"] == "year"
    assert page.page.is_checked("#radio-color [data-value=year]") and not page.page.is_checked(
        "#radio-color [data-value=area]"
    )
    assert page.page.get_attribute("#radio-color [data-value=year]", "tabindex") == "0"
    page.page.click("#button-reset")  # the URL changes the group back, and its tab stop with it
    page.page.wait_for_function("() => !location.search.includes('color=')", timeout=15000)
    page.settle()
    assert page.page.is_checked("#radio-color [data-value=area]")
    assert page.page.get_attribute("#radio-color [data-value=year]", "tabindex") == "-1"


def test_escape_closes_menus_and_arrows_reach_suggestions(page: Page) -> None:
    page.open()
    before = page.query()
    page.page.focus(".export summary")
    page.page.keyboard.press("Enter")
    assert page.page.is_visible(".export-menu")
    page.page.keyboard.press("Tab")
    page.page.keyboard.press("Escape")
    assert not page.page.is_visible(".export-menu")
    assert page.page.evaluate("() => document.activeElement.closest('summary') !== null")
    page.page.focus(".help summary")
    page.page.keyboard.press("Enter")
    assert page.page.is_visible(".help-card")
    page.page.keyboard.press("Escape")
    assert not page.page.is_visible(".help-card") and page.query() == before
    page.page.fill("#input-search", "attention is all")
    page.page.wait_for_selector("#div-search-results .search-select", state="visible", timeout=15000)
    page.page.keyboard.press("ArrowDown")
    assert page.page.evaluate("() => document.activeElement.classList.contains('search-select')")
    page.page.keyboard.press("Enter")
    page.page.wait_for_function("() => location.search.includes('selected=1706.03762')", timeout=15000)
    page.settle()


def test_a_story_keeps_its_keys_when_the_map_has_the_focus(browser, default_server) -> None:
    with Page(browser, default_server.url) as p:
        p.open("?story=seeds")
        p.page.focus("#div-map-region")
        p.page.keyboard.press("ArrowRight")
        p.page.wait_for_function("() => location.search === '?story=seeds&step=2'", timeout=15000)
        p.settle()
        assert focused(p) is None


TRANSITION = "() => getComputedStyle(document.getElementById('button-reset')).transitionDuration"


def test_no_motion_when_the_visitor_asks_for_none(browser, server) -> None:
    zoom_now = """() => { const before = cy.zoom(); document.getElementById('button-zoom-in').click();
        return [before, cy.zoom(), cy.animated()]; }"""
    with Page(browser, server.url, reduced_motion=True) as p:
        p.open()
        before, after, moving = p.page.evaluate(zoom_now)
        assert after > before * 1.2 and not moving  # at once, not animated
        p.modules()
        assert p.page.evaluate("() => modules.draw.glideMs()") == 0  # a story's glides and fades
        assert float(p.page.evaluate(TRANSITION).removesuffix("s")) < 0.001  # CSS transitions
    with Page(browser, server.url) as p:  # the same click animates for everyone else
        p.open()
        before, after, moving = p.page.evaluate(zoom_now)
        assert after == before and moving
        p.modules()
        assert p.page.evaluate("() => modules.draw.glideMs()") == 300
        assert p.page.evaluate(TRANSITION) == "0.15s"
