"""The page as Dash writes it: its script tags less what the page does not use, and a picture made per request.

* Dash puts Babel's whole polyfill (core-js 2 and regenerator-runtime) first on every page, for browsers older
  than any this page supports. Of it, Dash's own bundles use one piece, ``regeneratorRuntime`` (when a component's
  code is loaded lazily), so the page loads that piece alone, vendored as npm publishes it
  (assets/vendor/regenerator-runtime.js), where the polyfill was.
* Dash lists dash_table's bundle whether or not the page holds a table; this page holds none.

``LightDash`` is Dash with these two changes made to every page it serves, and a place in its page for HTML made
for the request (the first page's picture of the map).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from dash import Dash
from flask import has_request_context, request

POLYFILL = re.compile(r'<script src="[^"]*/_dash-component-suites/dash/deps/polyfill@[^"]*"></script>')
DASH_TABLE = re.compile(r'\s*<script src="[^"]*/_dash-component-suites/dash/dash_table/[^"]*"></script>')
REGENERATOR = '<script src="/assets/vendor/regenerator-runtime.js"></script>'
BOOT_PICTURE = "<!-- citemap: boot picture -->"


def lighter(scripts: str) -> str:
    """``scripts`` (Dash's script tags) with the polyfill swapped for regenerator-runtime and without dash_table."""
    scripts, swapped = POLYFILL.subn(REGENERATOR, scripts, count=1)
    if not swapped:  # a Dash that no longer loads the polyfill: load the runtime first all the same
        scripts = REGENERATOR + scripts
    return DASH_TABLE.sub("", scripts)


class LightDash(Dash):
    """Dash whose pages load only the scripts the page uses (see :func:`lighter`) and whose first page may hold a
    picture made for the request: ``boot_picture(query string)`` is HTML put where the index string says
    ``BOOT_PICTURE``."""

    boot_picture: Callable[[str], str] | None = None

    def interpolate_index(self, **kwargs: Any) -> str:
        kwargs["scripts"] = lighter(kwargs.get("scripts", ""))
        page = super().interpolate_index(**kwargs)
        picture = ""
        if self.boot_picture is not None and has_request_context():
            picture = self.boot_picture(request.query_string.decode("utf-8", "replace"))
        return page.replace(BOOT_PICTURE, picture, 1)
