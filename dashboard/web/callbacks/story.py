"""Callbacks of stories: writing one in the page (kept in the visitor's browser: nothing is written on the server),
loading a story file, downloading the one written. Presenting is done in the browser (assets/js/story.js)
and by the state callback (``?story=<name>&step=N``: dashboard/web/callbacks/state.py).

The steps' title and caption boxes are written into the draft in the browser (``citemap.storyText``), and the list
of steps is drawn again only when the steps themselves change (added, moved, deleted, loaded): a box drawn again
while the visitor types in it lost the focus and the letters typed while the server answered."""

from __future__ import annotations

import base64
import re

from dash import ALL, ClientsideFunction, Dash, Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from dashboard.dataset.store import Store
from dashboard.graph.state import encode_query
from dashboard.view.stories import StoryError, check_views, draft_of, edit_draft, parse_story, story_file
from dashboard.web.callbacks.common import read_state

STEP_ACTIONS = {"story-up": "up", "story-down": "down", "story-delete": "delete"}


def steps_list(draft: dict) -> list:
    """The steps of a story being written: each one's title and caption to edit, and buttons to move or delete."""
    steps = draft_of(draft)["steps"]
    if not steps:
        return [html.P("No step yet: “Add this view” adds the map as it is now.", className="story-empty")]
    return [
        html.Ol(
            className="story-steps",
            children=[
                html.Li(
                    className="story-step",
                    children=[
                        dcc.Input(
                            id={"type": "story-title", "index": k},
                            value=s["title"],
                            maxLength=200,
                            className="story-input",
                            placeholder=f"Title of step {k + 1}",
                        ),
                        dcc.Textarea(
                            id={"type": "story-caption", "index": k},
                            value=s.get("caption", ""),
                            maxLength=1000,
                            className="story-caption",
                            placeholder=f"Caption of step {k + 1} (Markdown)",
                        ),
                        html.Div(
                            className="story-step-actions",
                            children=[
                                html.Code(
                                    s["view"][:60] + ("…" if len(s["view"]) > 60 else ""), className="story-view"
                                ),
                                html.Button(
                                    "↑",
                                    id={"type": "story-up", "index": k},
                                    n_clicks=0,
                                    className="button tiny",
                                    title="move up",
                                    disabled=k == 0,
                                    **{"aria-label": f"Move step {k + 1} up"},
                                ),
                                html.Button(
                                    "↓",
                                    id={"type": "story-down", "index": k},
                                    n_clicks=0,
                                    className="button tiny",
                                    title="move down",
                                    disabled=k == len(steps) - 1,
                                    **{"aria-label": f"Move step {k + 1} down"},
                                ),
                                html.Button(
                                    "×",
                                    id={"type": "story-delete", "index": k},
                                    n_clicks=0,
                                    className="button tiny",
                                    title="delete this step",
                                    **{"aria-label": f"Delete step {k + 1}"},
                                ),
                            ],
                        ),
                    ],
                )
                for k, s in enumerate(steps)
            ],
        )
    ]


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60] or "story"


def register(app: Dash, store: Store) -> None:
    def view_notices(view: str) -> list[str]:
        return read_state(store, view)[1]

    app.clientside_callback(  # "Add this view": the camera too, when the visitor moved the map away from its fit
        ClientsideFunction(namespace="citemap", function_name="storyCamera"),
        Output("store-story-add", "data"),
        Input("button-story-add", "n_clicks"),
        prevent_initial_call=True,
    )
    app.clientside_callback(  # a step's title or caption typed: into the draft, in the browser, boxes untouched
        ClientsideFunction(namespace="citemap", function_name="storyText"),
        Output("store-story-draft", "data", allow_duplicate=True),
        Output("store-story-shown", "data", allow_duplicate=True),
        Input({"type": "story-title", "index": ALL}, "value"),
        Input({"type": "story-caption", "index": ALL}, "value"),
        State("store-story-draft", "data"),
        prevent_initial_call=True,
    )

    @app.callback(
        Output("store-story-draft", "data"),
        Output("div-story-status", "children"),
        Input("store-story-add", "data"),
        Input("input-story-title", "value"),
        Input({"type": "story-up", "index": ALL}, "n_clicks"),
        Input({"type": "story-down", "index": ALL}, "n_clicks"),
        Input({"type": "story-delete", "index": ALL}, "n_clicks"),
        Input("upload-story", "contents"),
        State("upload-story", "filename"),
        State("store-story-draft", "data"),
        State("store-view-state", "data"),
        prevent_initial_call=True,
    )
    def edit_story(add, story_title, _up, _down, _delete, contents, filename, draft, query):
        trig = ctx.triggered_id
        value = ctx.triggered[0]["value"] if ctx.triggered else None
        if trig == "store-story-add":
            if not isinstance(add, dict):
                raise PreventUpdate
            state, _ = read_state(store, query)
            pid = state.selected or state.seeds[0]
            view = encode_query(state)
            step = {"title": store.titles([store.row(pid)])[0][:200], "view": view, "camera": add.get("camera")}
            new = edit_draft(draft, "add", value=step)
            camera = " (zoom and centre as shown)" if new["steps"] and "camera" in new["steps"][-1] else ""
            return new, f"Step {len(new['steps'])} added: {view}{camera}"
        if trig == "input-story-title":
            return edit_draft(draft, "story-title", value=story_title if isinstance(story_title, str) else ""), ""
        if trig == "upload-story":
            name = filename if isinstance(filename, str) else "the story file"
            try:
                if not isinstance(contents, str) or "," not in contents:
                    raise StoryError(f"{name}: not a file")
                data = base64.b64decode(contents.split(",", 1)[1], validate=False)
                story = parse_story(slug(name), data, where=name)
                check_views(story, view_notices, where=name)
            except (StoryError, ValueError) as e:
                return no_update, f"Could not load the story: {e}. Nothing was changed."
            loaded = story.as_json()
            return draft_of(loaded), f"Loaded {name}: “{story.title}”, {len(story.steps)} steps."
        if isinstance(trig, dict):
            kind, index = trig.get("type"), trig.get("index")
            if isinstance(index, int) and kind in STEP_ACTIONS and value:
                return edit_draft(draft, STEP_ACTIONS[kind], index), ""
        raise PreventUpdate

    @app.callback(
        Output("div-story-steps", "children"),
        Output("store-story-shown", "data"),
        Input("store-story-draft", "data"),
        State("store-story-shown", "data"),
    )
    def render_steps(draft, shown):
        # the boxes already say what the draft says when only their own text changed: drawing them again would
        # take the focus and the letters typed since from the visitor
        if shown is not None and draft_of(draft) == draft_of(shown):
            raise PreventUpdate
        return steps_list(draft), draft_of(draft)

    @app.callback(
        Output("download-story", "data"),
        Output("div-story-status", "children", allow_duplicate=True),
        Input("button-story-download", "n_clicks"),
        State("store-story-draft", "data"),
        prevent_initial_call=True,
    )
    def download_story(n, draft):
        if not n:
            raise PreventUpdate
        try:
            data = story_file(draft)
        except StoryError as e:
            return no_update, f"Nothing to download yet: {e}."
        title = draft_of(draft)["title"]
        return dict(content=data.decode(), filename=f"{slug(title)}.json", type="application/json"), ""
