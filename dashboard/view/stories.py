"""Stories: ordered views to present, step by step. Plain data; nothing here knows of Dash.

A story is a JSON file (``<dataset>/stories/<name>.json`` for the stories a dataset ships; any file a visitor
loads in the page; what the page's story editor downloads)::

    {
      "format": "citemap-story",            # required, this exact value
      "version": 1,                         # required
      "title": "How self-attention was understood",          # required, at most 200 characters
      "steps": [                            # required, 1 to 50 steps
        {
          "title": "Attention Is All You Need",               # required, at most 200 characters
          "caption": "Cited by **743** papers of this dataset.",  # optional Markdown, at most 1,000 characters
          "view": "?seeds=1706.03762&layout=timeline",          # required: a citemap URL query (the state)
          "camera": {"fit": true}                             # optional: {"fit": true} (the default), or
                                                              # {"zoom": 1.5, "x": 120, "y": -40} (centre)
        }
      ]
    }

:func:`read_story` checks all of it and raises :class:`StoryError` naming the file, the step and the field. A
step's view is checked by the caller against the dataset (unknown ids: :func:`check_views`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

FORMAT = "citemap-story"
VERSION = 1
STORIES_DIR = "stories"
NAME_OK = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
MAX_BYTES = 256 * 1024
MAX_STEPS = 50
MAX_TITLE = 200
MAX_CAPTION = 1000
MAX_VIEW = 2000
MAX_ZOOM = 4.0
MIN_ZOOM = 0.05


class StoryError(ValueError):
    """A story file that cannot be used; the message names the file, the step and the field."""


@dataclass(frozen=True)
class Camera:
    """Where the map looks at a step: fitted to its papers, or a zoom level centred on a model point."""

    fit: bool = True
    zoom: float | None = None
    x: float | None = None
    y: float | None = None

    def as_json(self) -> dict[str, Any]:
        return {"fit": True} if self.fit else {"zoom": self.zoom, "x": self.x, "y": self.y}


@dataclass(frozen=True)
class Step:
    title: str
    view: str
    caption: str = ""
    camera: Camera = Camera()

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"title": self.title, "view": self.view}
        if self.caption:
            out["caption"] = self.caption
        if not self.camera.fit:
            out["camera"] = self.camera.as_json()
        return out


@dataclass(frozen=True)
class Story:
    name: str
    title: str
    steps: tuple[Step, ...]

    def as_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "title": self.title, "steps": [s.as_json() for s in self.steps]}


def _text(value: Any, where: str, field: str, limit: int, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise StoryError(f"{where}: field '{field}' must be {'a non-empty' if required else 'a'} text")
    if len(value) > limit:
        raise StoryError(f"{where}: field '{field}' has {len(value):,} characters, at most {limit:,}")
    return value.strip()


def _number(value: Any, where: str, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise StoryError(f"{where}: field 'camera.{field}' must be a finite number")
    return float(value)


def _camera(value: Any, where: str) -> Camera:
    if value is None:
        return Camera()
    if not isinstance(value, dict):
        raise StoryError(f"{where}: field 'camera' must be an object ({{\"fit\": true}} or zoom, x, y)")
    if value.get("fit") is True and len(value) == 1:
        return Camera()
    unknown = sorted(set(value) - {"zoom", "x", "y", "fit"})
    if unknown or value.get("fit") not in (None, False):
        raise StoryError(f'{where}: field \'camera\' must be {{"fit": true}} or {{"zoom", "x", "y"}}')
    zoom = _number(value.get("zoom"), where, "zoom")
    if not MIN_ZOOM <= zoom <= MAX_ZOOM:
        raise StoryError(f"{where}: field 'camera.zoom' is {zoom:g}, it must lie in {MIN_ZOOM:g}-{MAX_ZOOM:g}")
    return Camera(False, zoom, _number(value.get("x"), where, "x"), _number(value.get("y"), where, "y"))


def parse_story(name: str, data: bytes, where: str | None = None) -> Story:
    """A story from the bytes of its file (``where``: how messages name the file; its name by default)."""
    where = where or name
    if len(data) > MAX_BYTES:
        raise StoryError(f"{where}: {len(data):,} bytes, a story file may have at most {MAX_BYTES:,}")
    try:
        doc = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise StoryError(f"{where}: not UTF-8 text ({e.reason})") from e
    except json.JSONDecodeError as e:
        raise StoryError(f"{where}, line {e.lineno}: not valid JSON ({e.msg})") from e
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise StoryError(f"{where}: field 'format' must be {FORMAT!r}")
    if doc.get("version") != VERSION:
        raise StoryError(f"{where}: field 'version' is {doc.get('version')!r}, this citemap reads {VERSION}")
    title = _text(doc.get("title"), where, "title", MAX_TITLE)
    steps = doc.get("steps")
    if not isinstance(steps, list) or not steps:
        raise StoryError(f"{where}: field 'steps' must be a non-empty list")
    if len(steps) > MAX_STEPS:
        raise StoryError(f"{where}: {len(steps)} steps, at most {MAX_STEPS}")
    out = []
    for k, step in enumerate(steps, 1):
        at = f"{where}, step {k}"
        if not isinstance(step, dict):
            raise StoryError(f"{at}: must be an object with title, view and optionally caption and camera")
        unknown = sorted(set(step) - {"title", "view", "caption", "camera"})
        if unknown:
            raise StoryError(f"{at}: unknown field(s) {', '.join(map(repr, unknown[:5]))}")
        view = _text(step.get("view"), at, "view", MAX_VIEW)
        if not view.startswith("?"):
            raise StoryError(f"{at}: field 'view' must be a citemap URL query starting with '?'")
        out.append(
            Step(
                _text(step.get("title"), at, "title", MAX_TITLE),
                view,
                _text(step.get("caption"), at, "caption", MAX_CAPTION, required=False),
                _camera(step.get("camera"), at),
            )
        )
    return Story(name, title, tuple(out))


def check_views(story: Story, notices_of: Callable[[str], list[str]], where: str | None = None) -> None:
    """Each step's view as the dataset reads it: a view with anything it would drop (an unknown id, a bad value:
    ``notices_of(view)`` says what) is a StoryError naming the step."""
    for k, step in enumerate(story.steps, 1):
        notices = notices_of(step.view)
        if notices:
            raise StoryError(f"{where or story.name}, step {k}: field 'view': {notices[0]}")


def story_names(folder: Path) -> list[str]:
    """The names of the stories a dataset folder ships (``stories/<name>.json``), sorted."""
    d = folder / STORIES_DIR
    if not d.is_dir():
        return []
    return sorted(p.stem for p in d.glob("*.json") if NAME_OK.match(p.stem) and p.is_file())


def read_story(folder: Path, name: str) -> Story:
    """The story ``name`` a dataset folder ships; a StoryError names the file (and the step) when it cannot be
    used, or says which stories there are."""
    if not NAME_OK.match(name or ""):
        raise StoryError(f"story={name[:40]!r} is not a story name (lower-case letters, digits, - and _)")
    path = folder / STORIES_DIR / f"{name}.json"
    if not path.is_file():
        known = story_names(folder)
        raise StoryError(
            f"no story {name!r} in this dataset" + (f"; there are: {', '.join(known)}" if known else "; it ships none")
        )
    return parse_story(name, path.read_bytes(), where=str(path))


def story_of_seeds(folder: Path, seeds: list[str]) -> Story | None:
    """The first story a dataset folder ships whose first step shows ``seeds`` (in any order), or None (a story
    that cannot be read is passed over)."""
    for name in story_names(folder):
        try:
            story = read_story(folder, name)
        except StoryError:
            continue
        first = parse_qs(urlsplit(story.steps[0].view).query).get("seeds", [""])[0].split(",") if story.steps else []
        if seeds and set(first) == set(seeds):
            return story
    return None


# -- a story being written in the page (a plain dict the browser keeps: {"title", "steps": [step dicts]}) ----------


def empty_draft() -> dict[str, Any]:
    return {"title": "My story", "steps": []}


def draft_of(value: Any) -> dict[str, Any]:
    """What the browser sent as its draft, as a valid draft (anything else: an empty one)."""
    if not isinstance(value, dict) or not isinstance(value.get("steps"), list):
        return empty_draft()
    title = value.get("title") if isinstance(value.get("title"), str) else "My story"
    steps = []
    for s in value["steps"][:MAX_STEPS]:
        if isinstance(s, dict) and isinstance(s.get("view"), str) and s["view"].startswith("?"):
            step = {
                "title": str(s.get("title") or "Step")[:MAX_TITLE],
                "view": s["view"][:MAX_VIEW],
                "caption": str(s.get("caption") or "")[:MAX_CAPTION],
            }
            camera = _draft_camera(s.get("camera"))
            if camera:
                step["camera"] = camera
            steps.append(step)
    return {"title": title[:MAX_TITLE], "steps": steps}


def _draft_camera(value: Any) -> dict[str, float] | None:
    """A step's camera as the schema writes it ({"zoom", "x", "y"}), or None for the fit and for anything the schema
    would refuse (the browser sends what the map shows; a bad one must not make the whole story undownloadable)."""
    try:
        camera = _camera(value, "camera")
    except StoryError:
        return None
    return None if camera.fit else camera.as_json()


def edit_draft(draft: dict[str, Any], action: str, index: int = -1, value: Any = None) -> dict[str, Any]:
    """The draft after one edit: ``add`` (value: {"title", "view"}), ``title`` / ``caption`` of step ``index``
    (value: the text), ``story-title``, ``up`` / ``down`` / ``delete`` step ``index``."""
    d = draft_of(draft)
    steps = d["steps"]
    if action == "add":
        new = draft_of({"steps": [value]})["steps"]
        if new and len(steps) < MAX_STEPS:
            steps.append(new[0])
    elif action == "story-title" and isinstance(value, str):
        d["title"] = value[:MAX_TITLE]
    elif 0 <= index < len(steps):
        if action in ("title", "caption") and isinstance(value, str):
            steps[index][action] = value[: MAX_TITLE if action == "title" else MAX_CAPTION]
        elif action == "up" and index > 0:
            steps[index - 1], steps[index] = steps[index], steps[index - 1]
        elif action == "down" and index < len(steps) - 1:
            steps[index + 1], steps[index] = steps[index], steps[index + 1]
        elif action == "delete":
            del steps[index]
    return d


def story_file(draft: dict[str, Any]) -> bytes:
    """The file of a draft (checked as any story file is: a StoryError says what is missing)."""
    d = draft_of(draft)
    doc = {"format": FORMAT, "version": VERSION, "title": d["title"] or "My story", "steps": d["steps"]}
    data = json.dumps(doc, indent=2, ensure_ascii=False).encode()
    parse_story("draft", data, where="this story")
    return data
