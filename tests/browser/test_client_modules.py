"""The page's own code as ES modules (assets/js/): what it leaves on window is only what Dash and external checks
read (the clientside callbacks, window.cy), and the calls it makes beyond Cytoscape's public API
(assets/js/cytoscape-private.js) are all in the Cytoscape that dash-cytoscape ships."""

from __future__ import annotations

import re

from tests.browser.conftest import Page
from tests.conftest import ROOT

CALLBACKS = ROOT / "dashboard" / "web" / "callbacks"


def clientside_names() -> set[str]:
    """The clientside functions the app's callbacks name (namespace "citemap")."""
    text = "".join(p.read_text(encoding="utf-8") for p in CALLBACKS.glob("*.py"))
    return set(re.findall(r'ClientsideFunction\(namespace="citemap", function_name="(\w+)"\)', text))


def test_the_cytoscape_calls_beyond_its_public_api_are_all_there(page: Page) -> None:
    """The export draws the map with the canvas renderer's own calls, a touch picks its paper through the renderer's
    own search, and a big view sets two renderer options: an upgrade of dash-cytoscape that drops any of them fails
    here, not in a visitor's export or tap."""
    page.open("?seeds=2006.04862")
    page.modules()
    assert page.page.evaluate("() => modules.cytoscape.missing(cy)") == []
    assert page.page.evaluate("() => modules.cytoscape.RENDERER_METHODS.length") == 4


def test_dash_cytoscapes_copies_of_the_map_into_props_are_off(page: Page) -> None:
    """dash-cytoscape's listeners that serialise every element into its ``elements`` prop on each add or remove, and
    send ``extent`` and the selection on each pan, zoom or selection, are taken off as the map is made (the page
    reads none of those props); its tap and hover listeners, which the page's callbacks read, stay. An upgrade of
    dash-cytoscape that registers them otherwise fails here."""
    page.open("?seeds=2006.04862")
    page.modules()
    assert page.page.evaluate("() => modules.cytoscape.quieted") == [13]
    kept = page.page.evaluate(
        """() => { const quiet = new Set(modules.cytoscape.QUIET_EVENTS.split(' '));
        return cy.emitter().listeners.filter(l => quiet.has(l.event) || /^(tap|mouseover)$/.test(l.event))
          .map(l => [l.event, /setProps/.test(String(l.callback))]); }"""
    )
    assert [e for e, dash in kept if dash] == ["tap", "tap", "mouseover", "mouseover"]
    assert page.page.evaluate("() => cy.nodes('.paper').length") == 31
    page.tap("2106.03764")  # a tap still reaches the state callback through dash-cytoscape's tapNodeData
    assert "selected=2106.03764" in page.query()


def test_dashs_resets_that_change_nothing_are_left_out(page: Page) -> None:
    """Each component Dash draws asks its store to drop the update counts kept at its path; for a component drawn
    where none are kept that changes nothing and is left out (assets/js/dash-private.js), the others go through. A
    version of Dash whose store is made otherwise, or that no longer dispatches these, fails here; the page still
    works through them: a tap reaches the state callback, whose output redraws the panel."""
    page.open("?seeds=2006.04862")
    page.modules()
    resets = page.page.evaluate("() => ({...modules.dash.resets})")
    assert resets["skipped"] > 100, resets  # the page's first load draws hundreds of components
    page.tap("2106.03764")
    assert "selected=2106.03764" in page.query()
    after = page.page.evaluate("() => ({...modules.dash.resets})")
    assert after["skipped"] + after["dispatched"] > resets["skipped"] + resets["dispatched"]


def test_the_page_code_leaves_only_the_clientside_callbacks_and_the_map_on_window(page: Page) -> None:
    page.open("?seeds=2006.04862")
    own = page.page.evaluate("() => Object.keys(window).filter(k => /citemap/i.test(k))")
    assert own == ["__citemapErrorNotice"]  # the tests' own (conftest.py), none of the page's
    names = page.page.evaluate("() => Object.keys(window.dash_clientside.citemap)")
    assert set(names) == clientside_names() and len(names) == len(set(names)) > 10
    assert page.page.evaluate("() => window.cy.nodes('.paper').length") == 31
    # the page's scripts from assets/js/: one module, the entry, which started Dash's renderer
    scripts = page.page.evaluate(
        "() => [...document.querySelectorAll('script[src*=\"/assets/js/\"]')].map(s => [s.type, s.src])"
    )
    assert [(kind, src.split("/assets/", 1)[1]) for kind, src in scripts] == [("module", "js/main.js")]
