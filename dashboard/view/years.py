"""The year slider's scale: its first position is "that year and every earlier one", so that a long thin tail of
old papers (arxiv-2023 reaches back to 1971 for a small share of its papers) does not squeeze the years where the papers
are into a sliver of the slider."""

from __future__ import annotations

from functools import lru_cache

from dashboard.dataset.store import Store

SLIDER_FLOOR_PERCENTILE = 1  # the slider starts at the year of the oldest percent of papers


@lru_cache(maxsize=4)
def year_floor(store: Store) -> int | None:
    """The year slider's first position, meaning "that year and every earlier one"."""
    return store.year_at_percentile(SLIDER_FLOOR_PERCENTILE)


def slider_value(store: Store, years: tuple[int, int] | None) -> list[int]:
    """The year slider's handles for a state's year filter (None: the whole range)."""
    floor, top = year_floor(store), store.year_max
    if years is None or floor is None:
        return [floor, top]
    return [max(years[0], floor), max(years[1], floor)]


def slider_years(store: Store, lo: int, hi: int) -> tuple[int, int] | None:
    """A state's year filter for the slider's handles: the first position reaches back to the oldest paper."""
    lo = store.year_min if lo <= (year_floor(store) or lo) else lo
    return None if (lo, hi) == (store.year_min, store.year_max) else (lo, hi)
