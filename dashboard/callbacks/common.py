"""What the callbacks share: turning client-sent state into a valid ViewState."""

from __future__ import annotations

from functools import lru_cache

from dashboard.graph.state import Context, ViewState, parse_query
from dashboard.store import Store


def default_seeds(store: Store) -> list[str]:
    """The dataset's own seeds (its metadata), else its most cited paper."""
    seeds = [s for s in store.meta.get("seeds") or [] if isinstance(s, str) and store.row(s) is not None]
    if not seeds and store.n:
        seeds = [store.id(int(store.arrays["rank_rows"][0]))]
    return seeds


@lru_cache(maxsize=4)
def _context_parts(store: Store) -> tuple[tuple[str, ...], tuple[str, ...], tuple[int, int] | None]:
    bounds = (store.year_min, store.year_max) if store.year_min is not None else None
    return tuple(default_seeds(store)), tuple(store.area_names), bounds


def context(store: Store) -> Context:
    seeds, areas, bounds = _context_parts(store)
    return Context(is_paper=lambda pid: store.row(pid) is not None, default_seeds=seeds, areas=areas,
                   year_bounds=bounds)


def read_state(store: Store, query: object) -> tuple[ViewState, list[str]]:
    """A valid state from whatever a client sent as the canonical query (hostile input included)."""
    return parse_query(query if isinstance(query, str) else "", context(store))
