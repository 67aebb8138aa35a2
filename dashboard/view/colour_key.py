"""One colour key for a view: the map, its charts and its legend colour papers the same way.

The map takes each paper's colour from the payload's palette (:func:`dashboard.view.payload.palette`, drawn by
``assets/js/logic/colour-key.js``): by primary area, by year over the years of the papers in view, or by cluster.
:class:`ColourKey` groups those colours into named categories, one a colour: the charts stack by them and the
legend lists them, so that a colour means one thing wherever it is shown.

- area: each of the palette's areas, then "other areas" (every area beyond the palette, one dark grey), then "no
  area given";
- year: each year from the first to the last of the papers in view (a year outside them, which only a chart can
  show, takes the nearest end's colour), then "year not known";
- cluster: each named cluster of the map, then "in no named cluster" (a paper outside the map included).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from dashboard.dataset.index import UNKNOWN_AREA
from dashboard.dataset.store import Store
from dashboard.graph.discovery import Clusters, view_clusters
from dashboard.graph.state import ViewState
from dashboard.view import colors
from dashboard.view.naming import NO_AREA, area_label
from dashboard.view.payload import view_years

OTHER_AREAS = "other areas"
NO_YEAR = "year not known"
NO_CLUSTER = "in no named cluster"


@dataclass(frozen=True)
class Category:
    """A colour of the key and what it stands for."""

    name: str
    color: str


@dataclass(frozen=True, eq=False)  # compared by identity: it holds arrays
class ColourKey:
    """How a view colours papers (``by``: "area", "year" or "cluster"): its categories in the legend's order, and
    each paper's category."""

    store: Store = field(repr=False)
    by: str
    categories: tuple[Category, ...]
    first_year: int | None = None  # by year: the year of the first category
    area_codes: np.ndarray | None = field(default=None, repr=False)  # by area: each area's category, by number
    clusters: Clusters | None = field(default=None, repr=False)  # by cluster: the map's clusters

    @property
    def unknown(self) -> int:
        """The category of papers with no area, no year or no named cluster: the last one."""
        return len(self.categories) - 1

    def of(self, rows: np.ndarray) -> np.ndarray:
        """Each row's category (an index into ``categories``)."""
        rows = np.asarray(rows, dtype=np.int64)
        if self.clusters is not None:
            labels = self.clusters.labels_of(rows)
            return np.where(labels >= 0, np.minimum(labels, self.unknown), self.unknown)
        if self.area_codes is not None:
            area = self.store.primary_area[rows].astype(np.int64)
            return np.where(area >= 0, self.area_codes[np.maximum(area, 0)], self.unknown)
        years = self.store.year[rows].astype(np.int64)
        if self.first_year is None:  # no paper in view has a year
            return np.full(len(rows), self.unknown, dtype=np.int64)
        return np.where(years >= 0, np.clip(years - self.first_year, 0, self.unknown - 1), self.unknown)

    def used(self, rows: np.ndarray) -> list[int]:
        """The categories of some rows, in the legend's order."""
        return sorted(set(self.of(rows).tolist()))

    def in_view(self, rows: np.ndarray) -> list[int]:
        """The categories the legend lists for a map of ``rows``: those of its papers; by year every year from the
        first to the last (a scale), and "year not known" if a paper has none."""
        used = self.used(rows)
        if self.by == "year":
            return [*range(self.unknown), *([self.unknown] if self.unknown in used else [])]
        return used

    def year_code(self, year: int) -> int:
        """By year: a year's category (a year outside the papers in view takes the nearest end's)."""
        if self.first_year is None or year < 0:
            return self.unknown
        return min(max(year - self.first_year, 0), self.unknown - 1)

    def year_color(self, year: int) -> str:
        """By year: a year's colour (a year outside the papers in view takes the nearest end's)."""
        return self.categories[self.year_code(year)].color


def source_counts(source: str) -> Category:
    """The one colour of a source's counts of citing papers by year in a chart (``source``: its name as the page
    writes it), apart from the key's: the source says nothing of area, cluster or the dataset's papers."""
    return Category(f"citing papers according to {source}", colors.SOURCE_COLOR)


def colour_key(store: Store, state: ViewState, rows: np.ndarray) -> ColourKey:
    """The colour key of a state whose map shows ``rows`` (``Subgraph.rows``)."""
    if state.color == "year":
        lo, hi = view_years(store, rows)
        years = range(lo, hi + 1) if lo is not None and hi is not None else range(0)
        return ColourKey(
            store,
            "year",
            (*(Category(str(y), colors.year_color(y, lo, hi)) for y in years), Category(NO_YEAR, colors.UNKNOWN_COLOR)),
            first_year=lo,
        )
    if state.color == "cluster":
        found = view_clusters(store, state)
        named = tuple(Category(found.names[k], colors.cluster_color(k)) for k in range(len(found.names)))
        return ColourKey(store, "cluster", (*named, Category(NO_CLUSTER, colors.UNKNOWN_COLOR)), clusters=found)
    categories, codes = _area_categories(tuple(store.area_names))
    return ColourKey(store, "area", categories, area_codes=codes)


@lru_cache(maxsize=8)
def _area_categories(area_names: tuple[str, ...]) -> tuple[tuple[Category, ...], np.ndarray]:
    """By area: the categories (the palette's areas, "other areas", "no area given") and each area's category, by
    the area's number in the dataset, as the payload's palette colours it."""
    names = list(area_names)
    in_palette = [a for a in names if colors.area_color(names, a) in colors.AREA_PALETTE]
    categories = (
        *(Category(area_label(a), colors.area_color(names, a)) for a in in_palette),
        Category(OTHER_AREAS, colors.OTHER_COLOR),
        Category(NO_AREA, colors.UNKNOWN_COLOR),
    )
    other, unknown = len(in_palette), len(in_palette) + 1
    place = {a: k for k, a in enumerate(in_palette)}
    codes = np.array([unknown if a == UNKNOWN_AREA else place.get(a, other) for a in names], dtype=np.int64)
    return categories, codes
