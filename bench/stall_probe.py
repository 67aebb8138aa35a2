"""bench/browser.py's main-thread stall probe: a 100 ms ``setInterval``
whose longest gap beyond its 100 ms is ``window.__stall.max``, and the pan and zoom both measure it during."""

from __future__ import annotations

from typing import Any

PROBE = """
window.__stall = {max: 0, last: performance.now()};
setInterval(() => { const t = performance.now(), gap = t - window.__stall.last - 100;
  if (gap > window.__stall.max) window.__stall.max = gap; window.__stall.last = t; }, 100);
"""


def longest(page: Any) -> float:
    """The longest stall so far, in ms."""
    return float(page.evaluate("() => window.__stall.max"))


def reset(page: Any) -> None:
    page.evaluate("() => { window.__stall.max = 0; window.__stall.last = performance.now(); }")


def pan_and_zoom(page: Any) -> float:
    """The longest stall while the mouse wheel zooms 6 notches into the middle of a 1280x800 page and the map is
    dragged, in ms."""
    reset(page)
    page.mouse.move(640, 400)
    for _ in range(6):
        page.mouse.wheel(0, -120)
        page.wait_for_timeout(60)
    page.mouse.down()
    page.mouse.move(520, 330, steps=12)
    page.mouse.up()
    page.wait_for_timeout(1500)
    return longest(page)
