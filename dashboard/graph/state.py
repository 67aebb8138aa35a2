"""The view state and its URL form: the single source of truth of what the page shows.

``parse_query`` never raises: every unknown id or malformed value becomes a notice and is dropped,
so that the rest of the view still loads; so does every part of a link that would do nothing (``expand=`` while a
path is shown, ``clusters=`` without ``color=cluster``, ...), so that the canonical query holds only what has an
effect (what only the map can tell, an expanded paper that is not in it: ``dashboard.graph.discovery.without_no_ops``).
Areas are matched whatever their case. ``encode_query`` writes the canonical query string
(defaults left out), which is also the cache key of everything derived from a state.

URL names: ``seeds=ID,ID`` ``expand=ID,ID`` ``selected=ID`` ``years=FROM-TO`` ``areas=A,B``
``min_citations=N`` ``layout=force|timeline|concentric`` ``color=area|year|cluster`` ``clusters=0,2`` (the
clusters shown, by number, with ``color=cluster``) ``mode=citations|similar|field`` ``limit=N`` (citations: neighbours
shown per seed and direction; similar: papers similar to the seeds, default 40, at most 200) ``more=ID:N,ID:N`` (an
expanded paper shows its ``EXPAND_FIRST`` most cited references and citers, and ``EXPAND_STEP`` more for each of the N
times "Show more" was asked for it)
``path=A,B`` (the shortest chains of citations between two papers, instead of the seeds' map). ``mode=field``: the
whole dataset at a glance, every paper a point, the papers of the same view in ``mode=citations`` marked (the seeds,
expanded papers, path and filters are kept, so that going back shows that map). ``story=NAME``
``step=N``: step N of a story the dataset ships (its view; the other names are then left out).

Every name that takes ids (``seeds``, ``expand``, ``selected``, ``path``) takes them in any form the store
resolves (``arXiv:1706.03762``, ``https://arxiv.org/abs/1706.03762v5``, a DOI or doi.org link, an OpenAlex or
Semantic Scholar id: :mod:`dashboard.dataset.id_forms`); the state holds, and the canonical query writes, the
dataset's own id of each.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from urllib.parse import parse_qsl, quote

from dashboard.dataset.id_forms import readable

LAYOUTS = ("force", "timeline", "concentric")
COLORS = ("area", "year", "cluster")
MODES = ("citations", "similar", "field")
SIMILAR_LIMIT = 40  # papers of a similarity map unless limit says
MAX_SIMILAR = 200
MAX_CLUSTERS = 12
MAX_SEEDS = 20
MAX_EXPAND = 60
MAX_AREAS = 100
DEFAULT_LIMIT = 300
LIMIT_STEP = 300
MAX_LIMIT = 3000
MAX_QUERY = 8000
EXPAND_FIRST = 30  # references and citers together that an expand shows first: what a reader can take in
EXPAND_STEP = 30  # and each "Show more" of an expanded paper adds
MAX_MORE = 99  # "Show more" steps of one expanded paper
YEAR_RANGE = re.compile(r"^\s*(\d{1,9})\s*(?:-|–|\.\.)\s*(\d{1,9})\s*$")
ID_OK = re.compile(r"^[A-Za-z0-9._~\-]{1,128}$")  # a dataset id as it is (what a context without a resolver takes)


@dataclass(frozen=True)
class ViewState:
    seeds: tuple[str, ...]
    expand: tuple[str, ...] = ()
    selected: str | None = None
    years: tuple[int, int] | None = None
    areas: tuple[str, ...] | None = None  # None: every area
    min_citations: int = 0
    layout: str = "force"
    color: str = "area"
    limit: int = DEFAULT_LIMIT
    mode: str = "citations"
    path: tuple[str, str] | None = None
    clusters: tuple[int, ...] | None = None  # None: every cluster
    story: str | None = None  # a dataset's story being presented: the view is its step's (``story=NAME&step=N``)
    step: int = 1
    more: tuple[tuple[str, int], ...] = ()  # (expanded paper, "Show more" steps asked for it), in ``expand`` order

    @property
    def filtered(self) -> bool:
        """Whether a filter narrows the papers shown (years, areas, minimum citations)."""
        return self.years is not None or self.areas is not None or self.min_citations > 0

    def expand_total(self, pid: str) -> int:
        """How many of its references and citers together expanded paper ``pid`` shows (at most)."""
        steps = dict(self.more).get(pid, 0)
        return EXPAND_FIRST + EXPAND_STEP * steps


def default_limit(mode: str) -> int:
    return SIMILAR_LIMIT if mode == "similar" else DEFAULT_LIMIT


def switch_mode(state: ViewState, mode: str) -> ViewState:
    """The state shown in another mode. Between the citation map and the field view (which marks that map's papers)
    the map is kept (expanded papers, path, limit); into or out of a similarity map it starts afresh."""
    if mode not in MODES or mode == state.mode:
        return state
    if {mode, state.mode} == {"citations", "field"}:
        return replace(state, mode=mode)
    return replace(state, mode=mode, limit=default_limit(mode), path=None, expand=(), more=())


@dataclass
class Context:
    """What the parser may check values against (a store, without importing it)."""

    is_paper: Callable[[str], bool]
    default_seeds: Sequence[str]
    areas: Sequence[str] = ()
    year_bounds: tuple[int, int] | None = None
    notices: list[str] = field(default_factory=list)
    # the views of a story's steps (the step queries, in order), or an error naming what is wrong with it
    story_views: Callable[[str], list[str]] | None = None
    # the dataset id of the paper a text names in any id form, or None (without it: the text must be the id)
    resolve: Callable[[str], str | None] | None = None

    def paper_id(self, text: str) -> str | None:
        """The dataset id of the paper ``text`` names, or None (always for over-long text, or text holding a
        control character)."""
        if readable(text) != text:
            return None
        if self.resolve is not None:
            return self.resolve(text)
        return text if ID_OK.match(text) and self.is_paper(text) else None


def _ids(
    value: str, name: str, ctx: Context, cap: int, skip: Sequence[str] = (), skipped: list[str] | None = None
) -> list[str]:
    """The known ids of a comma list in order (each as the dataset spells it, whatever form it came in), without
    repeats or ``skip`` (those met are added to ``skipped``), at most ``cap``."""
    out: list[str] = []
    bad: list[str] = []
    for raw in value.split(","):
        text = raw.strip()
        if not text:
            continue
        pid = ctx.paper_id(text)
        if pid is None:
            bad.append(text[:60])
        elif pid in skip:
            if skipped is not None and pid not in skipped:
                skipped.append(pid)
        elif pid not in out:
            out.append(pid)
    if bad:
        shown = ", ".join(f"'{b}'" for b in bad[:5]) + (f" and {len(bad) - 5} more" if len(bad) > 5 else "")
        ctx.notices.append(f"Unknown paper id in {name}: {shown} (not in this dataset; left out).")
    if len(out) > cap:
        ctx.notices.append(f"Too many papers in {name}: kept the first {cap} of {len(out)}.")
        out = out[:cap]
    return out


def _int(value: str, name: str, ctx: Context, lo: int, hi: int) -> int | None:
    try:
        n = int(value.strip())
    except ValueError:
        ctx.notices.append(f"{name}={value[:40]!r} is not a whole number; ignored.")
        return None
    if not lo <= n <= hi:
        ctx.notices.append(f"{name}={n} is outside {lo}-{hi}; using {min(max(n, lo), hi)}.")
        n = min(max(n, lo), hi)
    return n


def _years(value: str, ctx: Context) -> tuple[int, int] | None:
    m = YEAR_RANGE.match(value)
    if not m:
        ctx.notices.append(f"years={value[:40]!r} is not a range like 2018-2023; ignored.")
        return None
    lo, hi = int(m[1]), int(m[2])
    if lo > hi:
        lo, hi = hi, lo
    if ctx.year_bounds:
        blo, bhi = ctx.year_bounds
        if hi < blo or lo > bhi:
            ctx.notices.append(f"years={lo}-{hi} holds no paper of this dataset ({blo}-{bhi}); ignored.")
            return None
        if lo <= blo and hi >= bhi:
            ctx.notices.append(f"years={lo}-{hi} holds every year of this dataset ({blo}-{bhi}): no year filter.")
            return None
        if lo < blo or hi > bhi:
            ctx.notices.append(f"years={lo}-{hi} reaches beyond this dataset; using {max(lo, blo)}-{min(hi, bhi)}.")
            lo, hi = max(lo, blo), min(hi, bhi)
    return lo, hi


def _choice(value: str, name: str, options: Sequence[str], default: str, ctx: Context) -> str:
    v = value.strip().lower()
    if v in options:
        return v
    ctx.notices.append(f"{name}={value[:40]!r} is not one of {', '.join(options)}; using {default}.")
    return default


def parse_query(search: str | None, ctx: Context) -> tuple[ViewState, list[str]]:
    """A valid state from a URL query string (with or without ``?``), and notices about what was dropped."""
    ctx.notices = []
    search = search or ""
    if not isinstance(search, str):
        search = ""
    if len(search) > MAX_QUERY:
        ctx.notices.append(f"The link is too long ({len(search):,} characters); read the first {MAX_QUERY:,}.")
        search = search[:MAX_QUERY]
    params: dict[str, str] = {}
    repeated: list[str] = []
    for key, value in parse_qsl(search.lstrip("?"), keep_blank_values=True):
        if key in params and key not in repeated:
            repeated.append(key)
        params[key] = value  # the last value of a repeated name wins
    if repeated:
        names = ", ".join(f"{k[:30]}=" for k in repeated[:5])
        ctx.notices.append(f"{names} given more than once in the link: the last value used.")
    if params.get("story") and ctx.story_views is not None:
        return _story_state(params, ctx)
    known = {
        "seeds",
        "expand",
        "selected",
        "years",
        "areas",
        "min_citations",
        "layout",
        "color",
        "limit",
        "mode",
        "path",
        "clusters",
        "story",
        "step",
        "more",
    }
    unknown = sorted(k for k in params if k not in known)
    if unknown:
        ctx.notices.append(f"Unknown link parameter(s) ignored: {', '.join(k[:30] for k in unknown[:5])}.")
    seeds = _ids(params["seeds"], "seeds", ctx, MAX_SEEDS) if "seeds" in params else []
    if not seeds:
        if "seeds" in params:
            ctx.notices.append("No known seed paper in the link; showing the default seeds.")
        seeds = [s for s in ctx.default_seeds if ctx.is_paper(s)][:MAX_SEEDS]
    also_seeds: list[str] = []
    expand = _ids(params["expand"], "expand", ctx, MAX_EXPAND, seeds, also_seeds) if "expand" in params else []
    if also_seeds:
        ctx.notices.append(
            f"A seed's references and citers are always shown: {', '.join(also_seeds[:5])} left out of expand."
        )
    selected = None
    if params.get("selected"):
        sel = _ids(params["selected"], "selected", ctx, 1)
        selected = sel[0] if sel else None
    years = _years(params["years"], ctx) if params.get("years") else None
    areas = _areas(params["areas"], ctx) if "areas" in params else None
    min_c = 0
    if params.get("min_citations"):
        min_c = _int(params["min_citations"], "min_citations", ctx, 0, 10**9) or 0
    layout = _choice(params["layout"], "layout", LAYOUTS, "force", ctx) if "layout" in params else "force"
    color = _choice(params["color"], "color", COLORS, "area", ctx) if "color" in params else "area"
    mode = _choice(params["mode"], "mode", MODES, "citations", ctx) if "mode" in params else "citations"
    limit = default_limit(mode)
    if params.get("limit"):
        lo, hi = (5, MAX_SIMILAR) if mode == "similar" else (10, MAX_LIMIT)
        limit = _int(params["limit"], "limit", ctx, lo, hi) or limit
    path = _path(params["path"], ctx) if params.get("path") else None
    clusters = None
    if params.get("clusters"):
        if color == "cluster":
            clusters = _clusters(params["clusters"], ctx)
        else:
            ctx.notices.append("clusters= applies with color=cluster only; left out.")
    if "story" in params:  # not read as a story: empty, or a story's own step
        ctx.notices.append("story= names no story of this dataset; left out.")
    elif "step" in params:
        ctx.notices.append("step= applies to a story (story=NAME) only; left out.")
    if path:  # the chains between two papers replace the seeds' map: what shapes that map does nothing
        if expand:
            ctx.notices.append("expand= does nothing while a path is shown; left out.")
            expand = []
        if params.get("limit"):
            ctx.notices.append("limit= does nothing while a path is shown; left out.")
            limit = default_limit(mode)
        if mode == "similar":
            ctx.notices.append("mode=similar does nothing while a path is shown (the path is drawn); left out.")
            mode, limit = "citations", default_limit("citations")
    elif mode == "similar" and expand:
        ctx.notices.append("expand= does nothing on a map of similar papers; left out.")
        expand = []
    more = _more(params["more"], ctx, expand) if params.get("more") else ()
    state = ViewState(
        tuple(seeds),
        tuple(expand),
        selected,
        years,
        areas,
        min_c,
        layout,
        color,
        limit,
        mode,
        path,
        clusters,
        more=more,
    )
    return state, list(ctx.notices)


def _areas(value: str, ctx: Context) -> tuple[str, ...] | None:
    """The areas of ``areas=`` as the dataset names them (matched whatever their case), unknown ones left out with a
    notice; None (no area filter) when none is left or when they are every area of the dataset."""
    names = [a.strip() for a in value.split(",") if a.strip()]
    if not ctx.areas:  # nothing to check against: as given
        return tuple(dict.fromkeys(names))[:MAX_AREAS] or None
    known = {a.lower(): a for a in ctx.areas}
    bad = [a for a in names if a.lower() not in known]
    found = tuple(dict.fromkeys(known[a.lower()] for a in names if a.lower() in known))[:MAX_AREAS]
    if bad:
        shown = ", ".join(f"'{b[:30]}'" for b in bad[:5]) + (f" and {len(bad) - 5} more" if len(bad) > 5 else "")
        rest = "left out" if found else "no area filter"
        ctx.notices.append(f"Unknown area in areas: {shown} (not in this dataset; {rest}).")
    elif not found:
        ctx.notices.append("areas= names no area: no area filter.")
    if found and set(found) >= set(ctx.areas):
        ctx.notices.append("areas= names every area of this dataset: no area filter.")
        return None
    return found or None


def _more(value: str, ctx: Context, expand: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """``more=ID:N,ID:N``: "Show more" steps per expanded paper, in ``expand`` order; an entry that is not an id and
    a count, or names a paper that is not expanded, is a notice and left out."""
    steps: dict[str, int] = {}
    bad: list[str] = []
    for raw in value.split(",")[: MAX_EXPAND * 2]:
        text = raw.strip()
        if not text:
            continue
        pid, colon, count = text.rpartition(":")
        known = ctx.paper_id(pid.strip()) if colon and count.strip().isdigit() else None
        if known is None or known not in expand:
            bad.append(text[:60])
        elif int(count) > 0:
            steps[known] = min(int(count), MAX_MORE)
    if bad:
        ctx.notices.append(
            "more= takes expanded papers and a count, like more=1706.03762:2; left out: "
            + ", ".join(f"'{b}'" for b in bad[:5])
            + "."
        )
    return tuple((e, steps[e]) for e in expand if e in steps)


def _story_state(params: dict[str, str], ctx: Context) -> tuple[ViewState, list[str]]:
    """A story's step: its view, presented (``story``, ``step`` set), the link's other names left out with a notice;
    a story that cannot be read is a notice and the rest of the link is read as a view."""
    name = params["story"][:64]
    try:
        views = ctx.story_views(name)  # type: ignore[misc]
    except ValueError as e:
        rest = "&".join(f"{k}={quote(v, safe=',._~-')}" for k, v in params.items() if k not in ("story", "step"))
        state, notices = parse_query(rest, replace_ctx(ctx))
        return state, [f"Story: {str(e).rstrip('.')}.", *notices]
    step = 1
    if params.get("step"):
        step = _int(params["step"], "step", ctx, 1, len(views)) or 1
    notices = list(ctx.notices)
    others = [k for k in params if k not in ("story", "step")]
    if others:
        names = ", ".join(f"{k[:30]}=" for k in others[:5])
        names += f" and {len(others) - 5} more" if len(others) > 5 else ""
        notices.append(f"A story's step holds its own view: {names} left out.")
    state, more = parse_query(views[step - 1], replace_ctx(ctx))
    return replace(state, story=name, step=step), notices + more


def replace_ctx(ctx: Context) -> Context:
    """The same context without stories (a step's view is a plain view)."""
    return replace(ctx, notices=[], story_views=None)


def _clusters(value: str, ctx: Context) -> tuple[int, ...] | None:
    picked, bad = set(), []
    for raw in value.split(",")[: MAX_CLUSTERS * 2]:
        c = raw.strip()
        if c.isdigit() and int(c) < MAX_CLUSTERS:
            picked.add(int(c))
        elif c:
            bad.append(c[:10])
    if bad:
        ctx.notices.append(f"clusters= takes cluster numbers 0-{MAX_CLUSTERS - 1}; left out: {', '.join(bad[:5])}.")
    return tuple(sorted(picked)) or None


def _path(value: str, ctx: Context) -> tuple[str, str] | None:
    ends = [p.strip() for p in value.split(",") if p.strip()]
    if len(ends) != 2:
        ctx.notices.append("path= needs two paper ids, like path=1706.03762,1810.04805; ignored.")
        return None
    known = _ids(value, "path", ctx, 2)
    if len(known) < 2:
        if len(known) == 1 and ctx.paper_id(ends[0]) == ctx.paper_id(ends[1]):
            ctx.notices.append("path= joins a paper to itself; give two different papers.")
        return None
    return known[0], known[1]


def encode_query(state: ViewState) -> str:
    """The canonical query string of a state (starting with ``?``); defaults are left out."""

    def ids(values: Sequence[str]) -> str:
        return ",".join(quote(v, safe="._~-") for v in values)

    if state.story:  # a story's step: the story holds the view
        return f"?story={quote(state.story, safe='_-')}" + (f"&step={state.step}" if state.step != 1 else "")

    parts = [f"seeds={ids(state.seeds)}"]
    if state.expand:
        parts.append(f"expand={ids(state.expand)}")
    if state.selected:
        parts.append(f"selected={ids([state.selected])}")
    if state.years:
        parts.append(f"years={state.years[0]}-{state.years[1]}")
    if state.areas is not None:
        parts.append("areas=" + ",".join(quote(a, safe="._~-") for a in state.areas))
    if state.min_citations:
        parts.append(f"min_citations={state.min_citations}")
    if state.layout != "force":
        parts.append(f"layout={state.layout}")
    if state.color != "area":
        parts.append(f"color={state.color}")
    if state.clusters is not None and state.color == "cluster":
        parts.append("clusters=" + ",".join(str(c) for c in state.clusters))
    if state.mode != "citations":
        parts.append(f"mode={state.mode}")
    if state.limit != default_limit(state.mode):
        parts.append(f"limit={state.limit}")
    if state.path:
        parts.append(f"path={ids(state.path)}")
    more = [f"{ids([pid])}:{n}" for pid, n in state.more if pid in state.expand and n > 0]
    if more:
        parts.append("more=" + ",".join(more))
    return "?" + "&".join(parts)


def view_query(state: ViewState) -> str:
    """The canonical query of the view a state shows: a story's step as the view the story holds for it now (what a
    cache of the step's map must be keyed by: the story's file may change), any other state as itself."""
    return encode_query(replace(state, story=None, step=1))


# -- transitions: what a user action does to a state ------------------------------------------------


def toggle_expand(state: ViewState, pid: str, steps: int = 0) -> ViewState:
    """Tap on a paper: select it, and expand it (or collapse it if it was expanded). Seeds stay expanded. ``steps``:
    "Show more" steps an expand starts with (its most cited neighbours may all be shown already)."""
    if pid in state.seeds:
        return replace(state, selected=pid)
    if pid in state.expand:
        return replace(
            state, expand=tuple(e for e in state.expand if e != pid), selected=pid, more=_more_of(state, pid)
        )
    expand = (*state.expand, pid)[-MAX_EXPAND:]
    more = tuple(m for m in state.more if m[0] in expand) + (((pid, min(steps, MAX_MORE)),) if steps > 0 else ())
    return replace(state, expand=expand, selected=pid, more=tuple(m for e in expand for m in more if m[0] == e))


def _more_of(state: ViewState, drop: str) -> tuple[tuple[str, int], ...]:
    return tuple(m for m in state.more if m[0] != drop)


def show_more_of(state: ViewState, pid: str) -> ViewState:
    """One more "Show more" step of expanded paper ``pid`` (``EXPAND_STEP`` more of its references and citers)."""
    if pid not in state.expand:
        return state
    steps = min(MAX_MORE, dict(state.more).get(pid, 0) + 1)
    more = dict(state.more) | {pid: steps}
    return replace(state, more=tuple((e, more[e]) for e in state.expand if e in more))


def seeds_full(state: ViewState, pid: str) -> bool:
    """Whether adding ``pid`` as a seed would go beyond ``MAX_SEEDS`` (the action then only selects it, and says
    so: see ``dashboard.web.callbacks.state.apply_action``)."""
    return pid not in state.seeds and len(state.seeds) >= MAX_SEEDS


def add_seed(state: ViewState, pid: str) -> ViewState:
    """Add a seed (it is selected). With ``MAX_SEEDS`` seeds already it is selected only: the seeds and the expanded
    papers stay as they were."""
    if pid in state.seeds:
        return state
    if seeds_full(state, pid):
        return replace(state, selected=pid)
    return replace(
        state,
        seeds=(*state.seeds, pid),
        expand=tuple(e for e in state.expand if e != pid),
        selected=pid,
        more=_more_of(state, pid),
    )


def remove_seed(state: ViewState, pid: str) -> ViewState:
    if pid not in state.seeds or len(state.seeds) == 1:
        return state
    return replace(state, seeds=tuple(s for s in state.seeds if s != pid))


def toggle_cluster(state: ViewState, index: object) -> ViewState:
    """A cluster's legend entry clicked: show only the clusters picked so far plus (or minus) this one; none picked
    again means all."""
    try:
        label = int(str(index))
    except ValueError:
        return state
    if not 0 <= label < MAX_CLUSTERS:
        return state
    shown = set(state.clusters or ())
    shown ^= {label}
    return replace(state, color="cluster", clusters=tuple(sorted(shown)) or None)
