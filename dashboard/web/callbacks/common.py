"""What the callbacks share: turning client-sent state into a valid ViewState."""

from __future__ import annotations

from functools import lru_cache

from dashboard.dataset.store import Store
from dashboard.graph.discovery import without_no_ops
from dashboard.graph.state import Context, ViewState, parse_query, replace_ctx
from dashboard.view.payload import build_subgraph
from dashboard.view.stories import STORIES_DIR, Story, check_views, read_story


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
    return Context(
        is_paper=lambda pid: store.row(pid) is not None,
        default_seeds=seeds,
        areas=areas,
        year_bounds=bounds,
        story_views=lambda name: [s.view for s in dataset_story(store, name).steps],
        resolve=store.resolve_id,
    )


def dataset_story(store: Store, name: str) -> Story:
    """A story the dataset ships, its views checked against it (a StoryError says what is wrong, naming the file
    and the step); read again when its file changes."""
    path = store.folder / STORIES_DIR / f"{name}.json"
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = 0
    return _dataset_story(store, name, stamp)


@lru_cache(maxsize=16)
def _dataset_story(store: Store, name: str, stamp: int) -> Story:
    story = read_story(store.folder, name)
    plain = replace_ctx(context(store))
    check_views(story, lambda view: parse_query(view, plain)[1], where=str(store.folder / STORIES_DIR / f"{name}.json"))
    return story


def read_state(store: Store, query: object) -> tuple[ViewState, list[str]]:
    """A valid state from whatever a client sent as the canonical query (hostile input included), without the
    parts that do nothing in its map (:func:`dashboard.graph.discovery.without_no_ops`), with a notice for each
    thing left out. A story's step is its view as the story holds it."""
    state, notices = parse_query(query if isinstance(query, str) else "", context(store))
    if state.story or not (state.expand or state.clusters):  # nothing only the map can tell
        return state, notices
    state, more = _without_no_ops(store, state)
    return state, notices + list(more)


@lru_cache(maxsize=1024)
def _without_no_ops(store: Store, state: ViewState) -> tuple[ViewState, tuple[str, ...]]:
    """:func:`without_no_ops` of a state, kept (a small answer) so that a view asked for again (a browser
    revalidating ``GET /graph``) does not build its map again once the map has left its own cache."""
    state, notices = without_no_ops(store, state, build_subgraph)
    return state, tuple(notices)
