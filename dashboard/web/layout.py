"""The page: components only, no logic. Ids are kebab-case and say what the component is."""

from __future__ import annotations

import dash_cytoscape as cyto
from dash import dcc, html

from dashboard.dataset.store import Store
from dashboard.graph.state import LAYOUTS
from dashboard.view.colors import NEW_MARK_COLOR
from dashboard.view.describe import first_view_line
from dashboard.view.figures import OVERVIEW_HEIGHT
from dashboard.view.naming import LAYOUT_NAMES, about_line, about_parts, area_label, one_figure_source
from dashboard.view.stories import StoryError, read_story, story_names, story_of_seeds
from dashboard.view.years import year_floor
from dashboard.web.callbacks.common import default_seeds
from dashboard.web.components import checkbox_menu, labelled_upload, radio_group, visually_hidden

# dash-cytoscape's plain bundle, not its extra one (cyto.load_extra_layouts()): positions come from the server
# (preset) and the SVG export draws through canvas2svg, loaded on first use (assets/js/export-image.js).

STYLESHEET: list[dict] = [
    {
        "selector": "node",
        "style": {
            "width": "data(size)",
            "height": "data(size)",
            # no label unless assets/js/labels.js chose to draw it (class lbl): drawn labels never collide
            "label": "",
            "font-size": 12,
            "font-family": "Helvetica, Arial, sans-serif",
            "color": "#1d2430",
            "text-valign": "bottom",
            "text-halign": "center",
            "text-margin-y": 4,
            "text-wrap": "ellipsis",
            "text-max-width": "220px",
            "border-width": 1.5,
            "border-color": "#ffffff",
            "text-background-color": "#ffffff",
            "text-background-opacity": 0.85,
            "text-background-padding": "2px",
            "text-background-shape": "roundrectangle",
        },
    },
    # papers have a colour; the timeline's axis ticks have none (a mapping to a missing field makes Cytoscape warn)
    {"selector": "node[color]", "style": {"background-color": "data(color)"}},
    {"selector": "node.lbl", "style": {"label": "data(wrapped)", "text-wrap": "wrap", "z-index": 15}},
    {"selector": "node.reference", "style": {"shape": "round-rectangle"}},
    {"selector": "node.citer", "style": {"shape": "ellipse"}},
    {
        "selector": "node.seed",
        "style": {"shape": "star", "border-width": 3, "border-color": "#1d2430", "font-weight": "bold", "z-index": 20},
    },
    {"selector": "node.expanded", "style": {"border-width": 3, "border-color": "#1d2430", "border-style": "double"}},
    {"selector": "node.truncated", "style": {"border-style": "dashed", "border-color": "#b45309", "border-width": 3}},
    # a seed, expanded or selected paper kept although it fails the filters: there, but faded
    {"selector": "node.dimmed", "style": {"background-opacity": 0.3, "border-opacity": 0.5}},
    {
        "selector": "node.selected",
        "style": {
            "border-width": 5,
            "border-color": "#e11d48",
            "font-weight": "bold",
            "z-index": 30,
            "overlay-opacity": 0,
        },
    },
    {
        "selector": "node.tl",
        "style": {
            "text-halign": "right",
            "text-valign": "center",
            "text-margin-x": 6,
            "text-margin-y": 0,
        },
    },
    {"selector": "node:active", "style": {"overlay-opacity": 0.15}},
    # in the visitor's library: a teal halo, whatever the border says; the library filter hides with display
    {
        "selector": "node.lib",
        "style": {
            "underlay-color": "#0d9488",
            "underlay-opacity": 0.55,
            "underlay-padding": 7,
            "underlay-shape": "ellipse",
        },
    },
    {"selector": "node.lib-hidden", "style": {"display": "none"}},
    # added to the map by the last action (assets/js/draw.js), until the next one: a dotted ring in the page's ink,
    # a mark no area colour can be taken for (the colour key names it; presenting hides it, assets/js/story.js)
    {
        "selector": "node.new",
        "style": {
            "outline-color": NEW_MARK_COLOR,
            "outline-style": "dotted",
            "outline-width": 2.5,
            "outline-offset": 2.5,
            "outline-opacity": 1,
        },
    },
    {
        "selector": "node.axis",
        "style": {
            "shape": "round-rectangle",
            "background-opacity": 0,
            "border-width": 0,
            "width": 1,
            "height": 1,
            "label": "data(label)",
            "font-size": 15,
            "font-weight": "bold",
            "color": "#5b6472",
            "text-valign": "center",
            "text-wrap": "none",
            "text-background-opacity": 0,
            "events": "no",
        },
    },
    # the citer ticks' labels end at their place, left of the papers (dashboard/graph/layouts.py, timeline_axis)
    {"selector": "node.axis-c", "style": {"text-halign": "left", "text-margin-x": -6}},
    # year ticks left out where they would touch at this zoom (assets/js/labels.js)
    {"selector": "node.axis-thinned", "style": {"display": "none"}},
    {
        "selector": "edge",
        "style": {
            "width": 1,
            "line-color": "#b9c1cd",
            "curve-style": "straight",
            "target-arrow-shape": "triangle",
            "target-arrow-color": "#b9c1cd",
            "arrow-scale": 0.7,
            # faint: the links of the selected paper (touching) and of the paper under the pointer (near) stand out
            "opacity": 0.4,
        },
    },
    # a big view (assets/js/logic/map-elements.js BIG_VIEW): straight lines without arrows, fainter (a hairball reads
    # as its structure; Cytoscape draws them several times faster), those of the selected paper as before
    {
        "selector": "edge.big",
        "style": {"curve-style": "haystack", "haystack-radius": 0, "target-arrow-shape": "none", "opacity": 0.3},
    },
    {
        "selector": "edge.touching",
        "style": {"line-color": "#e11d48", "target-arrow-color": "#e11d48", "width": 2, "opacity": 1, "z-index": 10},
    },
    {
        "selector": "edge.near",
        "style": {"line-color": "#1d4ed8", "target-arrow-color": "#1d4ed8", "width": 2, "opacity": 1, "z-index": 9},
    },
    {
        "selector": "edge.big.touching, edge.big.near",
        "style": {"curve-style": "straight", "target-arrow-shape": "triangle"},
    },
    # a similarity map's links (dashboard/graph/similarity.py): no direction, width by strength; hover says why
    {
        "selector": "edge.similar",
        "style": {
            "width": "data(width)",
            "line-color": "#0f766e",
            "opacity": 0.45,
            "target-arrow-shape": "none",
            "curve-style": "haystack",
        },
    },
    {"selector": "edge.similar:active", "style": {"overlay-opacity": 0.2}},
    # a title set apart from its paper (assets/js/labels.js): no body, a thin line to the paper
    {
        "selector": "node.callout",
        "style": {
            "width": 1,
            "height": 1,
            "background-opacity": 0,
            "border-width": 0,
            "label": "data(wrapped)",
            "text-wrap": "wrap",
            "text-valign": "center",
            "text-halign": "center",
            "text-margin-y": 0,
            "events": "no",
            "z-index": 15,
        },
    },
    {
        "selector": "edge.leader",
        "style": {
            "width": 1,
            "line-color": "#1d2430",
            "opacity": 0.7,
            "target-arrow-shape": "none",
            "curve-style": "straight",
            "events": "no",
        },
    },
    {"selector": "node.similar", "style": {"shape": "diamond"}},
    {"selector": "node.onpath", "style": {"shape": "hexagon"}},
    {
        "selector": "edge.onpath",
        "style": {"line-color": "#b45309", "target-arrow-color": "#b45309", "width": 2.5, "opacity": 1},
    },
]


def _filters(store: Store) -> html.Div:
    lo, hi = year_floor(store) or 2000, store.year_max or 2000
    step = max(1, -(-(hi - lo) // 3))
    marks = {y: str(y) for y in range(lo, hi + 1, step) if hi - y >= step / 2}
    marks[hi] = str(hi)
    if store.year_min is not None and store.year_min < lo:
        marks[lo] = f"≤{lo}"  # the first position reaches back to the oldest paper
    area_counts = store.area_counts()
    return html.Div(
        className="filters",
        children=[
            html.H2("Filters"),
            html.Span(
                [
                    "Years ",
                    # the range chosen, in words (assets/js/logic/years-range.js): the slider shows no numbers
                    html.Span(
                        id="span-years-range",
                        className="years-range",
                        **{"data-floor": str(lo), "data-oldest": str(store.year_min if store.year_min else lo)},
                    ),
                ],
                id="label-years",
                className="control-label",
            ),
            html.Div(
                role="group",
                className="years-slider",
                **{"aria-labelledby": "label-years"},
                children=dcc.RangeSlider(
                    # the two thumbs are the keyboard's (arrows, Home, End); dash 4's number boxes beside them had no
                    # names
                    id="range-years",
                    min=lo,
                    max=hi,
                    step=1,
                    value=[lo, hi],
                    marks=marks,
                    allow_direct_input=False,
                    allowCross=False,
                    tooltip={"placement": "bottom", "always_visible": False},
                    className="range-years",
                ),
            ),
            # the papers in view by year, under the years they are filtered by: in sight without scrolling
            dcc.Graph(
                id="graph-overview",
                config={"displayModeBar": False},
                className="graph-overview",
                figure={"data": [], "layout": {"height": OVERVIEW_HEIGHT}},
            ),
            checkbox_menu(
                "dropdown-areas",
                "Areas",
                [(a, f"{area_label(a)} ({n:,})") for a, n in area_counts.items()],
                "All areas",
                {a: area_label(a) for a in area_counts},
            ),
            html.Label("Minimum citations in this dataset", htmlFor="input-min-citations", className="control-label"),
            dcc.Input(
                id="input-min-citations",
                type="number",
                min=0,
                step=1,
                value=0,
                debounce=0.4,
                className="input-min-citations",
            ),
            *_library(),
            radio_group(
                "radio-color", "Colour by", [("area", "area"), ("year", "year"), ("cluster", "cluster")], "area"
            ),
            radio_group(
                "radio-mode",
                "Map of",
                [("citations", "citations"), ("similar", "similar papers"), ("field", "the whole field")],
                "citations",
            ),
            radio_group("radio-layout", "Layout", [(name, LAYOUT_NAMES[name]) for name in LAYOUTS], "force"),
            html.Div(
                className="legend",
                children=[
                    html.Div("Shapes", className="legend-title"),
                    html.Div(
                        className="shapes",
                        children=[
                            html.Span("★ seed", className="key-seed"),
                            html.Span("■ builds on (reference)"),
                            html.Span("● built on by (citer)"),
                            html.Span("◆ similar"),
                            html.Span("⬢ on a path"),
                            html.Span("◎ expanded  ◌ more links not shown", className="key-more"),
                            html.Span("size: papers citing it in this dataset", className="key-size"),
                        ],
                    ),
                ],
            ),
            html.Div(id="div-legend", className="legend"),
            html.H2("Seeds"),
            html.Div(id="div-seeds", className="seeds"),
            _story(store),
        ],
    )


def _story(store: Store) -> html.Details:
    """Stories: the dataset's own (presented from the link ``?story=NAME``), and one written here, step by step
    (kept in this browser; downloaded as a file; a file loaded back)."""
    shipped = []
    for name in story_names(store.folder):
        try:
            title = read_story(store.folder, name).title
        except StoryError:
            continue  # presenting it says what is wrong with it
        shipped.append(html.Li(html.A(title, href=f"?story={name}", className="story-link", id=f"a-story-{name}")))
    return html.Details(
        className="story",
        id="details-story",
        children=[
            html.Summary("Stories and presenting", className="story-summary"),
            html.Ul(shipped, className="story-shipped") if shipped else None,
            html.Label("A story of your own", htmlFor="input-story-title", className="control-label"),
            dcc.Input(
                id="input-story-title",
                value="My story",
                debounce=True,
                maxLength=200,
                className="story-input",
                persistence=True,
                persistence_type="local",
            ),
            html.Div(
                className="story-buttons",
                children=[
                    html.Button("Add this view", id="button-story-add", className="button small", n_clicks=0),
                    html.Button("Present", id="button-story-present", className="button small", n_clicks=0),
                    html.Button("Download", id="button-story-download", className="button small", n_clicks=0),
                    labelled_upload(
                        "upload-story",
                        "Load a file",
                        "upload-story",
                        accept=".json",
                        multiple=False,
                        max_size=256 * 1024,
                    ),
                ],
            ),
            html.Div(id="div-story-status", className="story-status", role="status"),
            html.Div(id="div-story-steps"),
            dcc.Download(id="download-story"),
            dcc.Store(id="store-story-add"),  # "Add this view": {n, camera} (assets/js/story.js storyCamera)
            dcc.Store(
                id="store-story-shown"
            ),  # the draft the list of steps was drawn from (dashboard/web/callbacks/story.py)
        ],
    )


def _present() -> html.Div:
    """Presenting a story: the step's title and caption over the map, its number, and the keys' buttons
    (assets/js/story.js: Right, Space, PageDown next; Left, PageUp back; Home, End; Esc leaves)."""
    return html.Div(
        id="div-present",
        className="present",
        style={"display": "none"},
        children=[
            html.Div(
                className="present-text",
                **{"aria-live": "polite"},
                children=[
                    html.Div(id="div-present-title", className="present-title"),
                    # the step's caption, a dcc.Markdown made while presenting (assets/js/story.js): its
                    # renderer is then fetched, not on every page
                    html.Div(id="md-present-caption", className="present-caption"),
                ],
            ),
            html.Div(
                className="present-controls",
                children=[
                    html.Button(
                        "‹",
                        id="button-present-prev",
                        className="present-button",
                        title="back (Left, PageUp)",
                        **{"aria-label": "Previous step"},
                    ),
                    html.Span(id="span-present-count", className="present-count", role="status"),
                    html.Button(
                        "›",
                        id="button-present-next",
                        className="present-button",
                        title="next (Right, PageDown)",
                        **{"aria-label": "Next step"},
                    ),
                    html.Button("full screen", id="button-present-full", className="present-button small-text"),
                    html.Button(
                        "PNGs",
                        id="button-present-zip",
                        className="present-button small-text",
                        title="every step as a PNG, in one zip",
                    ),
                    html.Button(
                        "PDF",
                        id="button-present-pdf",
                        className="present-button small-text",
                        title="every step on a page of one PDF handout",
                    ),
                    html.Button(
                        "✕",
                        id="button-present-exit",
                        className="present-button",
                        title="leave (Esc)",
                        **{"aria-label": "Leave the story"},
                    ),
                ],
            ),
        ],
    )


def _library() -> list:
    """'In my library': a file the visitor loads stays in their browser; the filter hides papers in the map."""
    return [
        html.Span("My library", className="control-label"),
        labelled_upload(
            "upload-library",
            "Load .bib, .ris, .txt or CSL .json",
            "upload-library",
            accept=".bib,.bibtex,.ris,.txt,.json",
            multiple=False,
            max_size=-1,
        ),
        html.Div(id="div-library-status", className="library-status", role="status"),
        html.Div(
            id="div-library-controls",
            className="library-controls",
            children=[
                radio_group(
                    "radio-library",
                    "Show papers",
                    [("all", "all"), ("in", "in it"), ("out", "not in it")],
                    "all",
                    className="inline",
                ),
                html.Button(
                    "Forget",
                    id="button-library-clear",
                    n_clicks=0,
                    className="link",
                    title="forget the library file (nothing of it was sent to be kept)",
                ),
            ],
        ),
    ]


def search_prompt(store: Store) -> str:
    """What the search box finds: authors only where the data names them, common names ("BERT") where the build
    keeps them."""
    kinds = ["a title"] + (["an author"] if store.has_authors else []) + (["a name (BERT)"] if store.has_names else [])
    return "Search " + ", ".join(kinds) + " or an id"


def _header(store: Store) -> html.Header:
    return html.Header(
        className="header",
        children=[
            html.Div(
                className="brand",
                children=[
                    html.Span("citemap", className="logo"),
                    # the About line: what the papers are, how many, and where they come from, in two lines (on a
                    # phone a row of its own); all of it on hover and in "?"
                    html.Span(
                        [  # one line each; on a phone one paragraph (the space between them)
                            html.Span(about_parts(store)[0], className="about-what"),
                            " ",
                            html.Span(about_parts(store)[1], className="about-where"),
                        ],
                        className="dataset-name",
                        id="span-dataset-name",
                        title=about_line(store),
                    ),
                ],
            ),
            html.Div(
                className="search",
                role="search",
                children=[
                    html.Label("Search papers", htmlFor="input-search", className="visually-hidden"),
                    dcc.Input(
                        id="input-search",
                        type="search",
                        placeholder=f"{search_prompt(store)}…",
                        debounce=0.15,
                        autoComplete="off",
                        className="input-search",
                    ),
                    html.Div(id="div-search-results", className="search-results"),
                ],
            ),
            html.Div(
                className="actions",
                children=[
                    _help(store),
                    html.Button("Reset view", id="button-reset", className="button", n_clicks=0),
                    html.Details(
                        className="export",
                        children=[
                            html.Summary("Export", className="button"),
                            html.Div(
                                className="export-menu",
                                children=[
                                    html.Button("Graph as PNG", id="button-export-png", n_clicks=0),
                                    html.Button("Graph as SVG", id="button-export-svg", n_clicks=0),
                                    html.Button("Papers as CSV", id="button-export-csv", n_clicks=0),
                                    html.Button(
                                        "Papers as BibTeX",
                                        id="button-export-bibtex",
                                        title="For LaTeX, BibTeX, biber, JabRef and Overleaf",
                                        n_clicks=0,
                                    ),
                                    html.Button(
                                        "Papers as RIS",
                                        id="button-export-ris",
                                        title="For Zotero, EndNote, Mendeley and other reference managers",
                                        n_clicks=0,
                                    ),
                                    html.Button("Papers as JSON", id="button-export-json", n_clicks=0),
                                    html.Button("Subgraph as GraphML", id="button-export-graphml", n_clicks=0),
                                ],
                            ),
                        ],
                    ),
                ],
            ),
        ],
    )


def _help(store: Store) -> html.Details:
    """ "?": what the page shows and how to use it (a native disclosure: no script, Esc and clicks as the browser
    does them)."""
    return html.Details(
        className="help",
        id="details-help",
        children=[
            html.Summary(
                "?", className="button help-button", title="About citemap and how to use it", **{"aria-label": "Help"}
            ),
            html.Div(
                className="help-card",
                tabIndex="0",  # it scrolls on a short window: the keyboard can scroll it too
                **{"role": "region", "aria-label": "Help"},
                children=[
                    html.P(about_line(store), className="about", id="p-about"),
                    html.P(
                        "A map of papers: each seed (★) with the papers it builds on (■, its references) and the "
                        "papers "
                        "built on it (●, its citers); size says how often a paper is cited in this dataset."
                    ),
                    html.Ul(
                        children=[
                            html.Li(
                                "Click or tap a paper: expand it (its own references and citers join the map); again: "
                                'collapse. Its facts, citations by year and lists show in the panel ("Paper" on a '
                                "phone)."
                            ),
                            html.Li(f'{search_prompt(store)}; "+ seed" adds it as a seed.'),
                            html.Li(
                                "Wheel or pinch: zoom; drag: move the map; + − Fit: zoom buttons; Esc: clear the "
                                "selection."
                            ),
                            html.Li(
                                "Keyboard: Tab to the map, then arrow keys move between papers (Shift+arrow: along a "
                                "citation), Enter selects and expands, + and − zoom, 0 fits."
                            ),
                            html.Li(
                                "Filters narrow the map by years, areas and citations; the chart's bars select years."
                            ),
                            html.Li(
                                '"Map of: similar papers" shows the papers that share references and citers with the '
                                'seeds (hover a link: why); "Colour by: cluster" colours the map\'s groups of papers '
                                "that cite each other, each named by its words."
                            ),
                            html.Li(
                                '"Chain of citations to" in the panel draws the shortest chains of citations from the '
                                'paper to a seed; "Show more" brings in papers a list cut short left out.'
                            ),
                            html.Li(
                                '"My library" reads your .bib, .ris, .txt or CSL JSON file in this page and rings the '
                                "papers of the map it holds; nothing is sent anywhere but this site, or kept."
                            ),
                            html.Li(
                                '"Stories and presenting" steps through saved views full screen (arrow keys), and '
                                'makes your own; "Export" saves the map (PNG, SVG) and its papers (CSV, BibTeX, RIS, '
                                "JSON, GraphML)."
                            ),
                            html.Li(
                                "The address bar holds the whole view: copy it to share or bookmark exactly this map."
                            ),
                        ]
                    ),
                ],
            ),
        ],
    )


def _tabs() -> html.Nav:
    """On a narrow screen the map takes the page and the filters and the paper panel open over it from these tabs
    (assets/js/controls.js sets ``data-tab`` on the page; the CSS does the rest; hidden on wide screens)."""
    return html.Nav(
        className="tabs",
        role="tablist",
        **{"aria-label": "Views of the page"},
        children=[
            html.Button(
                label,
                id=f"button-tab-{name}",
                className="tab",
                role="tab",
                n_clicks=0,
                **{"data-tab": name, "aria-selected": "true" if name == "map" else "false"},
            )
            for name, label in (("filters", "Filters"), ("map", "Map"), ("paper", "Paper"))
        ],
    )


MAP_KEYS = (
    "Arrow keys: the nearest paper in that direction; Shift+arrow: along a citation; Enter: select "
    "and expand (again: collapse); + and −: zoom; 0: fit; Esc: clear the selection."
)


def _first_view(store: Store) -> html.Div:
    """One line over the first view (the dataset's own seeds): what it shows, and the dataset's story about those
    seeds, offered. Shown while the address shows those seeds (assets/js/logic/url-state.js isFirstView)."""
    seeds = default_seeds(store)
    story = story_of_seeds(store.folder, seeds)
    offer = []
    if story:
        steps = len(story.steps)
        offer = [" ", html.A(f"Show their story ({steps} steps) →", href=f"?story={story.name}", id="a-first-story")]
    line = first_view_line(store, seeds, story.title if story else None)
    return html.Div(
        id="div-first-view",
        className="first-view",
        children=[html.Span(line), *offer],
        **{"data-seeds": ",".join(seeds)},
    )


def _graph_area(store: Store) -> html.Main:
    return html.Main(
        className="graph-area",
        children=[
            _first_view(store),
            html.Div(id="div-notices", className="notices", role="status", **{"aria-live": "polite"}),
            _present(),
            html.Div(
                className="map-box",
                children=[  # the map, with its zoom controls over its top right corner
                    _field(),  # mode=field: the whole dataset, over the map (which it hides)
                    # the map for the keyboard and screen readers (assets/js/map-keys.js): one tab stop; arrows move a
                    # focus
                    # between papers, announced in div-map-focus; its summary (papers, citations, the selected paper)
                    # is read
                    # when it is reached and when it changes
                    html.Div(
                        id="div-map-region",
                        className="map-region",
                        tabIndex="0",
                        role="application",
                        children=[
                            visually_hidden("div-map-summary", live="polite"),
                            visually_hidden("div-map-focus", live="assertive"),
                            html.P(MAP_KEYS, id="p-map-keys", className="visually-hidden"),
                            _map(),
                        ],
                        **{
                            "aria-label": "Citation map",
                            "aria-roledescription": "citation map",
                            "aria-describedby": "div-map-summary p-map-keys",
                        },
                    ),
                    html.Div(
                        className="zoom-controls",
                        children=[  # assets/js/controls.js handles them in the browser
                            html.Button(
                                "+",
                                id="button-zoom-in",
                                className="zoom-button",
                                title="zoom in (+)",
                                n_clicks=0,
                                **{"aria-label": "Zoom in"},
                            ),
                            html.Button(
                                "−",
                                id="button-zoom-out",
                                className="zoom-button",
                                title="zoom out (−)",
                                n_clicks=0,
                                **{"aria-label": "Zoom out"},
                            ),
                            html.Button(
                                "Fit",
                                id="button-fit",
                                className="zoom-button fit",
                                title="fit the map (0)",
                                n_clicks=0,
                                **{"aria-label": "Fit the map"},
                            ),
                        ],
                    ),
                    # the map's colours over its top left corner while presenting (the sidebar's legend is hidden)
                    html.Div(id="div-map-legend", className="map-legend"),
                ],
            ),
            html.Div(id="div-hover", className="hover-card", **{"aria-hidden": "true"}),  # the map's text says it all
            html.Div(
                className="status",
                children=[
                    html.Span(id="span-status"),
                    html.Span(id="span-library-count", className="library-count", role="status"),
                    html.Button(
                        "Show more",
                        id="button-show-more",
                        n_clicks=0,
                        className="button small",
                        style={"display": "none"},
                    ),
                    html.Span(
                        "click: expand / collapse · Esc: clear · arrows: move · wheel, + −: zoom",
                        id="span-keys",
                        className="key",
                    ),
                ],
            ),
        ],
    )


def _field() -> html.Div:
    """The field view (``mode=field``): every paper a point (WebGL), drawn by assets/js/field.js from
    ``GET /field`` (dashboard/web/callbacks/field.py); shown (class ``on``) instead of the citation map. Its figure
    is set only then: nothing of it loads on the other views."""
    return html.Div(
        id="div-field",
        className="field-box",
        children=[
            html.Div(
                className="field-bar",
                children=[
                    html.Span(id="span-field-status", className="field-status", role="status"),
                    html.Button(
                        "Map these papers",
                        id="button-field-map",
                        className="button small",
                        n_clicks=0,
                        style={"display": "none"},
                        title="make the selected papers (the most cited 20) the seeds of a citation map",
                    ),
                    # the selection's most cited papers and how many it holds, and the row clicked
                    # (assets/js/field.js)
                    dcc.Store(id="store-field-selection"),
                    dcc.Store(id="store-field-click"),
                ],
            ),
            dcc.Graph(
                id="graph-field",
                className="graph-field",
                figure={"data": [], "layout": {}},
                config={
                    "displaylogo": False,
                    "scrollZoom": True,
                    "modeBarButtonsToRemove": ["autoScale2d", "toImage"],
                    "doubleClick": "reset",
                },
                style={"height": "100%"},
            ),
        ],
    )


def _map() -> dcc.Loading:
    return dcc.Loading(
        id="loading-graph",
        type="circle",
        delay_show=200,
        parent_className="loading-graph",
        overlay_style={"visibility": "visible", "opacity": 0.6},
        children=[
            cyto.Cytoscape(  # elements: drawn by assets/js/draw.js (draw), not a prop
                id="graph-citations",
                elements=[],
                stylesheet=STYLESHEET,
                layout={"name": "preset", "fit": True, "padding": 40, "animate": False},
                style={"width": "100%", "height": "100%"},
                minZoom=0.05,
                maxZoom=4,
                boxSelectionEnabled=False,  # resizes: assets/js/viewport.js
                autoRefreshLayout=False,
                className="graph-citations",
            ),
            dcc.Store(id="store-drawn"),
        ],
    )


def _figure_words(store: Store) -> str:
    """The sources' own citation figures, as a choice of sort: ``according to mlsanity.com`` (a dataset's one
    source of them), else ``source's figure``."""
    one = one_figure_source(store)
    return f"according to {one}" if one else "source's figure"


def _panel(store: Store) -> html.Aside:
    return html.Aside(
        className="panel",
        children=[
            dcc.Loading(
                type="dot",
                delay_show=200,
                overlay_style={"visibility": "visible", "opacity": 0.6},
                children=html.Div(id="div-paper", className="paper"),
            ),
            html.Div(
                className="chart-box",
                children=[
                    dcc.Graph(
                        id="graph-by-year",
                        config={"displayModeBar": False, "doubleClick": "reset"},
                        figure={"data": [], "layout": {"height": 190}},
                        className="graph-by-year",
                    ),
                    html.Div(id="div-chart-caption", className="caption"),
                ],
            ),
            radio_group(
                "radio-list-sort",
                "Sort lists by",
                # the source's own figure, named as the lists name it ("59,932 according to mlsanity.com")
                [("citations", "citing in dataset"), ("source", _figure_words(store)), ("year", "year")],
                "citations",
                className="list-sort",
            ),
            html.Div(id="div-lists", className="lists"),
        ],
    )


def make_layout(store: Store, library: dict | None = None, *, bench_ping: bool = False) -> html.Div:
    """The page; ``library``: the server's default "in my library" match (``citemap serve --library``);
    ``bench_ping``: with the two stores of the benchmarks' no-op callback (``store-ping -> store-pong``)."""
    ping = [dcc.Store(id="store-ping"), dcc.Store(id="store-pong")] if bench_ping else []
    return html.Div(
        className="app",
        id="div-app",
        children=[
            dcc.Location(id="url", refresh=False),
            dcc.Store(id="store-view-state"),
            dcc.Store(id="store-story"),  # the story being presented: {source, name, title, steps, step} or null
            dcc.Store(id="store-story-draft", storage_type="local"),  # the story written in this browser
            # {"name", "entries", "matched", "ids"}: the visitor's library, matched by POST /library; kept in this tab
            dcc.Store(id="store-library", storage_type="session", data=library),
            dcc.Store(id="store-library-error"),
            dcc.Store(id="store-escape"),
            dcc.Store(id="store-lists-full", data=False),  # the panel lists every entry ("Show all" pressed)
            dcc.Store(id="store-chart-clear"),  # a double-click on the by-year chart (assets/js/controls.js)
            *ping,
            dcc.Download(id="download-export"),
            html.Div(id="div-rendered-graph", hidden=True),  # the query last drawn: a sync point for tests
            html.Div(id="div-rendered-panel", hidden=True),
            html.Div(id="div-rendered-side", hidden=True),
            # whose figure a paper's own citation count is, for the hover card (assets/js/page.js
            # figureSource): the one source of them, else the view's (dashboard/web/callbacks/render.py)
            html.Div(id="div-figure-sources", hidden=True, **{"data-source": one_figure_source(store)}),
            _header(store),
            html.Div(
                className="body",
                children=[
                    html.Nav(className="sidebar", children=_filters(store)),
                    _graph_area(store),
                    _panel(store),
                ],
            ),
            _tabs(),
        ],
    )
