"""Stories: the file format, its checks (each naming the file, the step and the field), the stories a dataset
ships, and the states that present them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dashboard.view.stories import MAX_STEPS, Camera, StoryError, check_views, parse_story, read_story, story_names
from tests.conftest import DEFAULT_DATA


def doc(**over) -> bytes:
    base = {
        "format": "citemap-story",
        "version": 1,
        "title": "T",
        "steps": [
            {"title": "One", "view": "?seeds=a"},
            {"title": "Two", "view": "?seeds=b", "caption": "*c*", "camera": {"zoom": 1.5, "x": 10, "y": -4}},
        ],
    }
    return json.dumps({**base, **over}).encode()


def test_a_story_reads_back_as_written() -> None:
    story = parse_story("s", doc())
    assert story.title == "T" and [s.title for s in story.steps] == ["One", "Two"]
    assert story.steps[0].camera == Camera() and story.steps[1].camera == Camera(False, 1.5, 10.0, -4.0)
    assert parse_story("s", json.dumps(story.as_json()).encode()) == story


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"{nope", "f.json, line 1: not valid JSON"),
        (b"\xff\xfe", "f.json: not UTF-8 text"),
        (doc(format="x"), "f.json: field 'format' must be 'citemap-story'"),
        (doc(version=2), "f.json: field 'version' is 2, this citemap reads 1"),
        (doc(title=""), "f.json: field 'title' must be a non-empty text"),
        (doc(steps=[]), "f.json: field 'steps' must be a non-empty list"),
        (
            doc(steps=[{"title": "x", "view": "?seeds=a"}] * (MAX_STEPS + 1)),
            f"{MAX_STEPS + 1} steps, at most {MAX_STEPS}",
        ),
        (doc(steps=[{"title": "x", "view": "?seeds=a"}, 3]), "f.json, step 2: must be an object"),
        (doc(steps=[{"title": "x", "view": "seeds=a"}]), "f.json, step 1: field 'view' must be a citemap URL query"),
        (doc(steps=[{"title": "x"}]), "f.json, step 1: field 'view' must be a non-empty text"),
        (
            doc(steps=[{"title": "x", "view": "?a", "caption": "c" * 1001}]),
            "step 1: field 'caption' has 1,001 characters",
        ),
        (
            doc(steps=[{"title": "x", "view": "?a", "camera": {"zoom": 9, "x": 0, "y": 0}}]),
            "step 1: field 'camera.zoom' is 9, it must lie in 0.05-4",
        ),
        (
            doc(steps=[{"title": "x", "view": "?a", "camera": {"zoom": 1, "x": "left", "y": 0}}]),
            "step 1: field 'camera.x' must be a finite number",
        ),
        (doc(steps=[{"title": "x", "view": "?a", "colour": "red"}]), "step 1: unknown field(s) 'colour'"),
    ],
)
def test_a_bad_story_names_the_file_the_step_and_the_field(data: bytes, message: str) -> None:
    with pytest.raises(StoryError) as e:
        parse_story("f", data, where="f.json")
    assert message in str(e.value)


def test_views_are_checked_against_the_dataset() -> None:
    story = parse_story("s", doc())
    check_views(story, lambda view: [])
    with pytest.raises(StoryError, match=r"^s, step 2: field 'view': Unknown paper id 'b'$"):
        check_views(story, lambda view: ["Unknown paper id 'b'"] if "b" in view else [])


def test_the_default_dataset_ships_a_story_of_its_seeds(default_store) -> None:
    from dashboard.web.callbacks.common import read_state

    assert story_names(DEFAULT_DATA) == ["seeds"]
    story = read_story(DEFAULT_DATA, "seeds")
    assert len(story.steps) >= 4
    check_views(story, lambda view: read_state(default_store, view)[1])
    for step in story.steps:
        state, _ = read_state(default_store, step.view)
        assert set(state.seeds) == {"2106.03764", "2006.04862", "2110.10090"}


def test_an_unknown_or_malformed_story_name_says_which_there_are(tmp_path: Path) -> None:
    with pytest.raises(StoryError, match="no story 'nope' in this dataset; there are: seeds"):
        read_story(DEFAULT_DATA, "nope")
    with pytest.raises(StoryError, match="is not a story name"):
        read_story(DEFAULT_DATA, "../etc/passwd")
    with pytest.raises(StoryError, match="it ships none"):
        read_story(tmp_path, "seeds")
    (tmp_path / "stories").mkdir()
    (tmp_path / "stories" / "bad.json").write_text('{"format": "citemap-story", "version": 1}')
    with pytest.raises(StoryError, match=f"{tmp_path / 'stories' / 'bad.json'}: field 'title'"):
        read_story(tmp_path, "bad")


def test_drafts_are_edited_as_plain_data_and_listed_for_editing() -> None:
    from dashboard.view.stories import draft_of, edit_draft, story_file
    from dashboard.web.callbacks.story import steps_list

    d = edit_draft(None, "add", value={"title": "A", "view": "?seeds=a"})
    d = edit_draft(d, "add", value={"title": "B", "view": "?seeds=b"})
    d = edit_draft(d, "add", value={"title": "C", "view": "not a view"})  # dropped
    assert [s["title"] for s in d["steps"]] == ["A", "B"]
    d = edit_draft(edit_draft(d, "down", 0), "caption", 0, "*b*")
    assert [(s["title"], s["caption"]) for s in d["steps"]] == [("B", "*b*"), ("A", "")]
    assert edit_draft(d, "up", 0) == d and edit_draft(d, "delete", 7) == d
    d = edit_draft(edit_draft(d, "delete", 1), "story-title", value="Mine")
    assert d == {"title": "Mine", "steps": [{"title": "B", "view": "?seeds=b", "caption": "*b*"}]}
    assert parse_story("x", story_file(d)).steps[0].caption == "*b*"
    with pytest.raises(StoryError, match="this story: field 'steps' must be a non-empty list"):
        story_file(edit_draft(d, "delete", 0))
    assert draft_of("junk") == {"title": "My story", "steps": []}
    listed = str(steps_list(d))
    assert "story-title" in listed and "'index': 0" in listed and "Caption of step 1" in listed


def test_a_link_to_a_story_step_is_that_steps_view_presented(default_store) -> None:
    from dashboard.graph.state import encode_query
    from dashboard.web.callbacks.common import read_state
    from dashboard.web.callbacks.state import apply_action, story_data

    steps = read_story(DEFAULT_DATA, "seeds").steps
    state, notices = read_state(default_store, "?story=seeds&step=2")
    assert notices == [] and (state.story, state.step) == ("seeds", 2)
    assert state.path == ("2110.10090", "2006.04862") and encode_query(state) == "?story=seeds&step=2"
    assert encode_query(read_state(default_store, "?story=seeds&step=1")[0]) == "?story=seeds"
    data = story_data(default_store, state)
    assert (data["source"], data["step"], len(data["steps"])) == ("dataset", 2, len(steps))
    left, _ = apply_action(default_store, state, "store-escape", 1, None)
    assert left.story is None and encode_query(left) == steps[1].view
    far, notices = read_state(default_store, "?story=seeds&step=99")
    assert far.step == len(steps) and notices == [f"step=99 is outside 1-{len(steps)}; using {len(steps)}."]
    # the step holds the view: the link's other names do nothing, and are left out
    other, notices = read_state(default_store, "?story=seeds&step=2&seeds=1706.03762&layout=timeline")
    assert other == state and encode_query(other) == "?story=seeds&step=2"
    assert notices == ["A story's step holds its own view: seeds=, layout= left out."]


def test_a_dataset_story_with_a_bad_step_is_a_notice_naming_its_file_and_step(tiny) -> None:
    from dashboard.web.callbacks.common import read_state

    folder = tiny.folder / "stories"
    folder.mkdir(exist_ok=True)
    (folder / "bad.json").write_text(
        json.dumps(
            {
                "format": "citemap-story",
                "version": 1,
                "title": "B",
                "steps": [{"title": "fine", "view": "?seeds=a"}, {"title": "wrong", "view": "?seeds=zz"}],
            }
        )
    )
    state, notices = read_state(tiny, "?story=bad&seeds=b")
    assert state.story is None and state.seeds == ("b",)
    assert notices == [
        f"Story: {folder / 'bad.json'}, step 2: field 'view': Unknown paper id in seeds: 'zz' (not in "
        "this dataset; left out)."
    ]


def test_a_story_link_without_a_step_opens_at_the_first_and_a_bad_step_is_a_notice(default_store) -> None:
    from dashboard.web.callbacks.common import read_state

    steps = read_story(DEFAULT_DATA, "seeds").steps
    first, notices = read_state(default_store, "?story=seeds")
    plain, _ = read_state(default_store, steps[0].view)
    assert notices == [] and first.step == 1 and first.seeds == plain.seeds and first.path == plain.path
    bad, notices = read_state(default_store, "?story=seeds&step=x")
    assert bad.step == 1 and notices == ["step='x' is not a whole number; ignored."]


def test_a_link_with_a_story_that_cannot_be_read_keeps_the_rest_of_the_link(default_store) -> None:
    from dashboard.web.callbacks.common import read_state

    state, notices = read_state(default_store, "?story=nope&seeds=1706.03762,1810.04805&years=2018-2020&step=3")
    assert (state.story, state.seeds, state.years) == (None, ("1706.03762", "1810.04805"), (2018, 2020))
    assert notices == ["Story: no story 'nope' in this dataset; there are: seeds."]


def test_a_stories_steps_are_checked_with_the_datasets_areas_and_years(tiny) -> None:
    from dashboard.web.callbacks.common import read_state

    folder = tiny.folder / "stories"
    folder.mkdir(exist_ok=True)
    for name, view in (("areas", "?seeds=a&areas=nope"), ("years", "?seeds=a&years=1900-2004")):
        (folder / f"{name}.json").write_text(
            json.dumps({"format": "citemap-story", "version": 1, "title": "T", "steps": [{"title": "x", "view": view}]})
        )
    _, notices = read_state(tiny, "?story=areas")
    assert notices == [
        f"Story: {folder / 'areas.json'}, step 1: field 'view': Unknown area in areas: 'nope' (not in this dataset; "
        "no area filter)."
    ]
    _, notices = read_state(tiny, "?story=years")
    assert notices[0].startswith(f"Story: {folder / 'years.json'}, step 1: field 'view': years=1900-2004 reaches")


def test_a_step_added_with_a_camera_keeps_it_as_the_schema_writes_it() -> None:
    from dashboard.view.stories import edit_draft, story_file

    def added(camera: object) -> dict:
        return edit_draft(None, "add", value={"title": "A", "view": "?seeds=a", "camera": camera})["steps"][0]

    assert added({"zoom": 2.5, "x": 12.25, "y": -3})["camera"] == {"zoom": 2.5, "x": 12.25, "y": -3.0}
    for fit_or_bad in ({"fit": True}, None, {"zoom": 99, "x": 0, "y": 0}, {"zoom": 1, "x": "left", "y": 0}, "close"):
        assert "camera" not in added(fit_or_bad), fit_or_bad  # the fit, the default; a bad one is not kept
    d = edit_draft(None, "add", value={"title": "A", "view": "?seeds=a", "camera": {"zoom": 1e9, "x": 0, "y": 0}})
    assert parse_story("x", story_file(d)).steps[0].camera == Camera()  # still a story that downloads


def test_typing_in_a_steps_boxes_does_not_draw_them_again() -> None:
    """A step's title and caption go into the draft in the browser; the server draws the list of steps only when the
    steps change (a box drawn again while typed in lost the focus and the letters typed meanwhile)."""
    from dashboard.web.app import create_app
    from tests.conftest import seed_data

    app = create_app(seed_data())
    typed = {"story-title", "story-caption"}
    for output, spec in app.callback_map.items():
        inputs = {json.loads(i["id"])["type"] if i["id"].startswith("{") else i["id"] for i in spec["inputs"]}
        if inputs & typed:
            assert "callback" not in spec, f"{output} runs on the server at each key typed"
            assert "div-story-steps" not in output


def test_an_edited_steps_map_is_never_answered_304_with_the_old_one(tmp_path: Path) -> None:
    """Stories live beside the builds, not in them: a step's map (and its picture) is named by the view the story
    holds for it now, so a browser asking again with the ETag of the map before the story's file changed gets the new
    map, and a step that shows the same view as a plain link has that link's ETag."""
    import os
    import shutil

    from dashboard.web.app import create_app
    from tests.conftest import seed_data

    data = tmp_path / "d"
    shutil.copytree(seed_data(), data)
    (data / "stories").mkdir()
    path = data / "stories" / "s.json"
    path.write_bytes(doc(steps=[{"title": "One", "view": "?seeds=2106.03764"}]))
    client = create_app(data).server.test_client()
    for route in ("/graph", "/preview.svg"):
        before = client.get(f"{route}?story=s")
        assert before.headers["ETag"] == client.get(f"{route}?seeds=2106.03764").headers["ETag"]
        assert client.get(f"{route}?story=s", headers={"If-None-Match": before.headers["ETag"]}).status_code == 304
    old = {route: client.get(f"{route}?story=s") for route in ("/graph", "/preview.svg")}
    path.write_bytes(doc(steps=[{"title": "One", "view": "?seeds=2106.03764,2110.10090&expand=1706.03762"}]))
    os.utime(path, ns=(path.stat().st_mtime_ns + 10**9,) * 2)  # a later time than the first write, however quick
    for route, before in old.items():
        after = client.get(f"{route}?story=s", headers={"If-None-Match": before.headers["ETag"]})
        assert after.status_code == 200 and after.headers["ETag"] != before.headers["ETag"], route
        assert after.data != before.data
    papers = len(json.loads(client.get("/graph?story=s").data)["nodes"])
    assert papers > len(json.loads(old["/graph"].data)["nodes"])
