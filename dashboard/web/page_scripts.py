"""The page's script tags as Dash writes them, less what the page does not use.

* Dash puts Babel's polyfill (core-js 2 and regenerator-runtime, ~100 kB) first on every page, for browsers older
  than any this page supports. Of it, Dash's own bundles use one piece, ``regeneratorRuntime`` (when a component's
  code is loaded lazily), so the page loads that piece alone, vendored as npm publishes it
  (assets/vendor/regenerator-runtime.js), where the polyfill was.
* Dash lists dash_table's bundle whether or not the page holds a table; this page holds none.

``LightDash`` is Dash with these two changes made to every page it serves.
"""

from __future__ import annotations

import re
from typing import Any

from dash import Dash

POLYFILL = re.compile(r'<script src="[^"]*/_dash-component-suites/dash/deps/polyfill@[^"]*"></script>')
DASH_TABLE = re.compile(r'\s*<script src="[^"]*/_dash-component-suites/dash/dash_table/[^"]*"></script>')
REGENERATOR = '<script src="/assets/vendor/regenerator-runtime.js"></script>'


def lighter(scripts: str) -> str:
    """``scripts`` (Dash's script tags) with the polyfill swapped for regenerator-runtime and without dash_table."""
    scripts, swapped = POLYFILL.subn(REGENERATOR, scripts, count=1)
    if not swapped:  # a Dash that no longer loads the polyfill: load the runtime first all the same
        scripts = REGENERATOR + scripts
    return DASH_TABLE.sub("", scripts)


class LightDash(Dash):
    """Dash whose pages load only the scripts the page uses (see :func:`lighter`)."""

    def interpolate_index(self, **kwargs: Any) -> str:
        kwargs["scripts"] = lighter(kwargs.get("scripts", ""))
        return super().interpolate_index(**kwargs)
