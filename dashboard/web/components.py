"""Accessible pieces of the page that Dash's own components do not give (dash 4's ``dcc.RadioItems`` is a listbox of
options each holding a radio input: no name for the group, interactive inside interactive; ``dcc.Upload``'s file
input has no name).

- ``radio_group``: a WAI-ARIA radio group of buttons (``role="radiogroup"`` named by its visible label, each option
  ``role="radio"`` with ``aria-checked``, one tab stop). Its value is the group's ``data-value`` property: callbacks
  read and write ``Input(id, "data-value")`` as they would ``value``. assets/js/choices.js selects on click, moves and
  selects with the arrow keys (roving tabindex) and keeps ``aria-checked`` in step with ``data-value``.
- ``checkbox_menu``: a multiple choice in a disclosure (dash 4's ``dcc.Dropdown`` opens the same listbox of nested
  checkboxes): a ``<details>`` whose summary names the choice, holding a group of ``role="checkbox"`` buttons. Its
  value is the JSON list in the group's ``data-values`` property (a list as an HTML attribute would be joined with
  commas, which names may hold). assets/js/choices.js toggles on click and keeps ``aria-checked`` and the summary's
  text in step with ``data-values``; Esc closes it (assets/js/page-keys.js).
- ``labelled_upload``: a ``dcc.Upload`` inside a ``<label>`` whose text names its file input; the label's click opens
  the file chooser (the upload's own click handler is off, so it opens once).
- ``visually_hidden``: text for screen readers only (the map's summary and what the keyboard focus is on).
"""

from __future__ import annotations

import json
from typing import Any

from dash import dcc, html


def radio_group(id: str, label: str, options: list[tuple[str, str]], value: str, className: str = "") -> html.Div:
    """A labelled radio group; ``options``: (value, text) pairs; ``value``: the one checked at first."""
    label_id = f"{id}-label"
    buttons = [
        html.Button(
            text,
            type="button",
            role="radio",
            className="radio-option",
            tabIndex="0" if v == value else "-1",
            **{"aria-checked": "true" if v == value else "false", "data-value": v},
        )
        for v, text in options
    ]
    return html.Div(
        className=f"radio-field {className}".strip(),
        children=[
            html.Span(label, id=label_id, className="control-label"),
            html.Div(
                buttons,
                id=id,
                role="radiogroup",
                className="radio",
                **{"aria-labelledby": label_id, "data-value": value},
            ),
        ],
    )


def checkbox_menu(
    id: str, label: str, options: list[tuple[str, str]], placeholder: str, names: dict[str, str] | None = None
) -> html.Div:
    """A labelled multiple choice; ``options``: (value, text) pairs; nothing chosen at first (``placeholder`` says
    what that means, e.g. "All areas"); ``names``: how the summary names a value chosen (else the value)."""
    label_id, summary_id = f"{id}-label", f"{id}-summary"
    buttons = [
        html.Button(
            text,
            type="button",
            role="checkbox",
            className="checkbox-option",
            **{"aria-checked": "false", "data-value": v, "data-name": (names or {}).get(v, v)},
        )
        for v, text in options
    ]
    return html.Div(
        className="checkbox-field",
        children=[
            html.Span(label, id=label_id, className="control-label"),
            html.Details(
                className="checkbox-menu",
                id=f"details-{id.removeprefix('dropdown-')}",
                children=[
                    html.Summary(
                        placeholder,
                        id=summary_id,
                        className="checkbox-summary",
                        **{"aria-labelledby": f"{label_id} {summary_id}"},
                    ),
                    html.Div(
                        buttons,
                        id=id,
                        role="group",
                        className="checkbox-list",
                        **{
                            "aria-labelledby": label_id,
                            "data-values": values_json([]),
                            "data-placeholder": placeholder,
                        },
                    ),
                ],
            ),
        ],
    )


def values_json(values: list[str]) -> str:
    """A checkbox menu's value as its ``data-values`` property holds it."""
    return json.dumps(values, ensure_ascii=False, separators=(",", ":"))


def values_of(data: object) -> list[str]:
    """A checkbox menu's ``data-values`` as a client sent it (anything at all): the strings of its JSON list."""
    try:
        values = json.loads(data) if isinstance(data, str) and len(data) <= 65536 else data
    except ValueError:
        return []
    return [v for v in values if isinstance(v, str)] if isinstance(values, list) else []


def labelled_upload(id: str, text: str, className: str, **upload: Any) -> html.Label:
    """``dcc.Upload`` named by ``text`` (shown as a button); ``upload``: its other properties (accept, max_size...)."""
    button = html.Span(text, className="button small upload-button")
    return html.Label(
        className=f"upload-label {className}",
        children=dcc.Upload(id=id, disable_click=True, className="upload-box", children=button, **upload),
    )


def visually_hidden(id: str, live: str | None = None, text: str = "") -> html.Div:
    """A region only screen readers read; ``live``: "polite" or "assertive" to announce its changes."""
    attrs = {"aria-live": live, "aria-atomic": "true"} if live else {}
    return html.Div(text, id=id, className="visually-hidden", **attrs)
