"""The page as Dash writes it: its script tags less what the page does not use, and a picture made per request.

* Dash puts Babel's whole polyfill (core-js 2 and regenerator-runtime) first on every page, for browsers older
  than any this page supports. Of it, Dash's own bundles use one piece, ``regeneratorRuntime`` (when a component's
  code is loaded lazily), so the page loads that piece alone, vendored as npm publishes it
  (assets/vendor/regenerator-runtime.js), where the polyfill was.
* Dash lists dash_table's bundle whether or not the page holds a table; this page holds none.
* The page's own code is ES modules in ``assets/js/`` (which Dash does not put in the page as classic scripts:
  ``assets_path_ignore``), with one entry, ``main.js``. It takes the place of Dash's inline script that starts the
  renderer, and starts it itself once the clientside callbacks exist (a module runs after the page is parsed, after
  Dash's scripts). Each module is announced with ``modulepreload``, so that the browser fetches them all at once
  rather than one import after another.

``LightDash`` is Dash with these changes made to every page it serves, and a place in its page for HTML made for the
request (the first page's picture of the map).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dash import Dash
from flask import has_request_context, request

POLYFILL = re.compile(r'<script src="[^"]*/_dash-component-suites/dash/deps/polyfill@[^"]*"></script>')
DASH_TABLE = re.compile(r'\s*<script src="[^"]*/_dash-component-suites/dash/dash_table/[^"]*"></script>')
REGENERATOR = '<script src="/assets/vendor/regenerator-runtime.js"></script>'
BOOT_PICTURE = "<!-- citemap: boot picture -->"
MODULES = "js"  # the folder of assets/ that holds the page's modules
ENTRY = "main.js"


def lighter(scripts: str) -> str:
    """``scripts`` (Dash's script tags) with the polyfill swapped for regenerator-runtime and without dash_table."""
    scripts, swapped = POLYFILL.subn(REGENERATOR, scripts, count=1)
    if not swapped:  # a Dash that no longer loads the polyfill: load the runtime first all the same
        scripts = REGENERATOR + scripts
    return DASH_TABLE.sub("", scripts)


def module_tags(asset_url: Callable[[str], str], modules: list[str]) -> str:
    """The page's modules announced (``modulepreload``) and its entry as a module script; ``modules``: their file
    names, ``asset_url``: a file of assets/ -> its URL."""
    preload = "".join(f'<link rel="modulepreload" href="{asset_url(f"{MODULES}/{m}")}">' for m in modules)
    # the id Dash gives its renderer's script (and checks the page has)
    return preload + f'<script type="module" id="_dash-renderer" src="{asset_url(f"{MODULES}/{ENTRY}")}"></script>'


def page_modules(assets: Path) -> list[str]:
    """The page's modules: their paths in assets/js/ (``main.js``, ``logic/fit.js``, ...)."""
    folder = assets / MODULES
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.js"))


class LightDash(Dash):
    """Dash whose pages load only the scripts the page uses (see :func:`lighter`), start with the page's modules (see
    :func:`module_tags`), and whose first page may hold a picture made for the request: ``boot_picture(query
    string)`` is HTML put where the index string says ``BOOT_PICTURE``."""

    boot_picture: Callable[[str], str] | None = None

    def interpolate_index(self, **kwargs: Any) -> str:
        kwargs["scripts"] = lighter(kwargs.get("scripts", ""))
        kwargs["renderer"] = module_tags(self.get_asset_url, page_modules(Path(self.config.assets_folder)))
        page = super().interpolate_index(**kwargs)
        picture = ""
        if self.boot_picture is not None and has_request_context():
            picture = self.boot_picture(request.query_string.decode("utf-8", "replace"))
        return page.replace(BOOT_PICTURE, picture, 1)
