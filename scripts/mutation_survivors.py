#!/usr/bin/env python3
"""After `mutmut run`: the surviving mutants as Markdown, each with its change and why no test can tell it from
the code (what docs/mutation-survivors.md holds). A survivor that neither a rule nor the list of named mutants
below explains goes under "not yet explained" and makes the script exit 1: kill it with a test, or say why it
is equivalent here.

    mutmut run --max-children 2 && python scripts/mutation_survivors.py > docs/mutation-survivors.md

Rules look only at what a mutant changed (the tokens removed and added), never at the rest of its line.
"""

from __future__ import annotations

import difflib
import re
import subprocess
import sys
from collections import defaultdict

TOKEN = re.compile(r"\w+(?:\.\w+)*|\"[^\"]*\"|'[^']*'|\S")

# (reason, pattern of the removed tokens, of the added tokens (both matched in full), and of the line the change
# is in, or "" for any)
RULES: list[tuple[str, str, str, str]] = [
    (
        "dtype: the values already have that dtype, or numpy's default for them gives the same result",
        r"(, )?(dtype = )?np\.(int64|int32|uint8)",
        r"(, )?(dtype = )?(None)?",
        "",
    ),
    (
        "zip(strict=True): the sequences zipped always have equal lengths",
        r"(, )?(strict = )?True",
        r"(, )?(strict = )?(None|False)?",
        r".*\bzip\(.*",
    ),
    (
        "the same codec or SQL in another letter case",
        r'"utf-8"|"SELECT rowid FROM titles WHERE titles MATCH \? '
        r'ORDER BY rowid LIMIT \?"|"stable"',
        r'"UTF-8"|"(select|SELECT) (rowid|ROWID) .*"|"STABLE"',
        "",
    ),
    (
        "a cut-off one higher that no input reaches (values in messages cut at 30/40/80 characters, lists at 5, "
        "queries at 200 characters and 12 words)",
        r"30|40|80|200|12|5",
        r"31|41|81|201|13|6",
        r".*\[:(30|40|80|200|12|5)\].*",
    ),
]

# mutants that only a reading of their code shows to be equivalent (name -> why)
_UTF8_LOCALE = "an encoding left to the locale: UTF-8 on every machine this runs on (Debian, C.UTF-8), so the same text"
_ONLY_SLOWER = "the same result by a slower path"
_UNIVERSAL_NEWLINES = "universal newlines split lines where newline='' does; JSON reads the same"
_STORY_NAMES_KNOWN = (
    "story and step are names the plain parser knows and leaves alone (its context has no stories): the same state"
)
_QUOTE_ROUND_TRIP = "parse_qsl decodes what quote encoded, whatever it kept: the same values"
_SIMILAR_HAS_BOTH = "a similarity map always has its links' strengths and reasons"
NAMED: dict[str, str] = {
    "dashboard.web.security.x_validate_update__mutmut_49": "every server callback's spec has inputs and state",
    "dashboard.graph.state.x__story_state__mutmut_4": "a story name longer than 64 characters is no story name "
    "(NAME_OK): refused either way",
    "dashboard.graph.state.x__story_state__mutmut_13": _QUOTE_ROUND_TRIP,
    "dashboard.graph.state.x__story_state__mutmut_14": _QUOTE_ROUND_TRIP,
    "dashboard.graph.state.x__story_state__mutmut_16": _STORY_NAMES_KNOWN,
    "dashboard.graph.state.x__story_state__mutmut_17": _STORY_NAMES_KNOWN,
    "dashboard.graph.state.x__story_state__mutmut_18": _STORY_NAMES_KNOWN,
    "dashboard.graph.state.x__story_state__mutmut_19": _STORY_NAMES_KNOWN,
    "dashboard.graph.state.x__story_state__mutmut_29": "no story message ends in X: stripping X too changes nothing",
    "dashboard.graph.state.x__path__mutmut_20": "path= with other than two ids is refused before: at most two reach "
    "the cap",
    "dashboard.view.export.x__similar_attrs__mutmut_5": _SIMILAR_HAS_BOTH,
    "dashboard.view.export.x__similar_attrs__mutmut_16": _SIMILAR_HAS_BOTH,
    "dashboard.view.export.x__similar_attrs__mutmut_18": _SIMILAR_HAS_BOTH,
    "dashboard.graph.neighbourhood.x_keep_rows__mutmut_8": "with no selected paper, None in the list matches no row",
    "dashboard.graph.neighbourhood.x_keep_rows__mutmut_18": "new positions are read only at the rows kept: the fill "
    "of the others is never read",
    "dashboard.graph.neighbourhood.x_keep_rows__mutmut_19": "new positions are read only at the rows kept: the fill "
    "of the others is never read",
    "dashboard.web.security.x_validate_update__mutmut_7": "orjson's messages are shorter than the 80 characters kept",
    "dashboard.web.security.x_validate_update__mutmut_51": "every server callback's spec has inputs and state",
    "dashboard.web.security.x_validate_update__mutmut_53": "every server callback's spec has inputs and state",
    "dashboard.dataset.store.x_gather__mutmut_14": "with no rows, a total of 1 still gathers nothing (empty owner array)",
    "dashboard.dataset.store.xǁRowSlotsǁadd__mutmut_13": "clear() then zeroes the whole array instead of the rows added: "
    "the same zeros, slower",
    "dashboard.dataset.store.xǁRowSlotsǁclear__mutmut_3": "a cleared RowSlots is never used again (row_slots() makes a new "
    "one around the same array)",
    "dashboard.dataset.store.xǁRowSlotsǁclear__mutmut_4": "a cleared RowSlots is never used again (row_slots() makes a new "
    "one around the same array)",
    "dashboard.dataset.store.xǁStoreǁnode_json__mutmut_17": "a take's offsets buffer holds exactly len + 1 offsets",
    "dashboard.dataset.store.xǁStoreǁnode_json__mutmut_18": "a take returns a fresh array: its offset is 0",
    "dashboard.dataset.store.xǁStoreǁnode_json__mutmut_23": "a take returns a fresh array: its offset is 0",
    "dashboard.dataset.store.xǁStoreǁpaper__mutmut_3": "slicing to the end instead of one row: the first row is the same",
    "dashboard.dataset.store.xǁStoreǁpaper__mutmut_5": "slicing to the end instead of one row: the first row is the same",
    "dashboard.dataset.store.xǁStoreǁpaper__mutmut_6": "slicing two rows instead of one: the first row is the same",
    "dashboard.dataset.store.xǁStoreǁcited_by__mutmut_12": "the filled column has no nulls and one chunk: to_numpy gives the "
    "same int64 values, copied or not",
    "dashboard.dataset.store.xǁStoreǁcited_by__mutmut_16": "the filled column has no nulls and one chunk: to_numpy gives the "
    "same int64 values, copied or not",
    "dashboard.dataset.store.xǁStoreǁsource_counts__mutmut_7": "an empty list has no value counts: {} either way",
    "dashboard.dataset.store.xǁStoreǁyear_at_percentile__mutmut_2": "year 0 cannot be stored (years are 1-9999; -1 = "
    "unknown)",
    "dashboard.dataset.store.xǁStoreǁyear_at_percentile__mutmut_3": "year 0 cannot be stored (years are 1-9999; -1 = "
    "unknown)",
    "dashboard.graph.neighbourhood.x_neighbourhood__mutmut_96": "hidden=0 is the field's default",
    "dashboard.dataset.store.xǁStoreǁarea_mask__mutmut_10": "with no wanted area the mask stays all False either way",
    "dashboard.dataset.store.xǁStoreǁarea_mask__mutmut_26": "the unknown code is only used when 'unknown' is an area name",
    "dashboard.dataset.store.xǁStoreǁarea_mask__mutmut_27": "the unknown code is only used when 'unknown' is an area name",
    "dashboard.dataset.store.xǁStoreǁarea_mask__mutmut_34": "the mask is still all False there, so = and |= agree",
    "dashboard.dataset.store.xǁStoreǁfilter_mask__mutmut_28": "year 0 cannot be stored (years are 1-9999; -1 = unknown)",
    "dashboard.dataset.store.xǁStoreǁfilter_mask__mutmut_29": "year 0 cannot be stored (years are 1-9999; -1 = unknown)",
    "dashboard.dataset.store.xǁStoreǁfilter_mask__mutmut_30": "the mask is still all True there, so = and &= agree",
    "dashboard.dataset.store.xǁStoreǁ_search_db__mutmut_15": "the pid is read only once a connection exists, and both are "
    "set together",
    "dashboard.view.export_bibtex.x_bibtex_key__mutmut_15": "the fallback word is lower-cased right after",
    "dashboard.view.export.x_to_graphml__mutmut_7": "prettyprint=True is networkx's default",
    "dashboard.graph.state.x__years__mutmut_11": "swapping two equal years changes nothing",
    "dashboard.graph.state.x_encode_query__mutmut_7": "'X' is already a character quote() leaves alone",
    "dashboard.graph.state.x_encode_query__mutmut_28": "'X' is already a character quote() leaves alone",
    "dashboard.graph.neighbourhood.x_neighbourhood__mutmut_13": "store.row(None) is None: " + _ONLY_SLOWER,
    "dashboard.graph.neighbourhood.x_neighbourhood__mutmut_38": "with no filter set every paper passes the "
    "filters: " + _ONLY_SLOWER,
    "dashboard.graph.neighbourhood.x_neighbourhood__mutmut_68": "edge_positions builds the same slots itself: "
    + _ONLY_SLOWER,
    "dashboard.graph.neighbourhood.x_neighbourhood__mutmut_70": "edge_positions builds the same slots itself: "
    + _ONLY_SLOWER,
    "dashboard.importers.common.x_read_lines__mutmut_2": _UTF8_LOCALE,
    "dashboard.importers.fields.x_open_text__mutmut_5": _UNIVERSAL_NEWLINES,
    "dashboard.importers.fields.x_open_text__mutmut_8": _UNIVERSAL_NEWLINES,
    "dashboard.importers.fields.x_open_bytes__mutmut_6": "'rb' is gzip.open's default mode",
    "dashboard.importers.fields.x__bad_utf8_line__mutmut_19": "one read of the whole file: " + _ONLY_SLOWER,
    "dashboard.importers.fields.x__bad_utf8_line__mutmut_21": "another block size counts the same lines",
    "dashboard.importers.fields.x__bad_utf8_line__mutmut_22": "another block size counts the same lines",
    "dashboard.importers.fields.x__bad_utf8_line__mutmut_31": "at e.start == pending the first byte is the bad "
    "one itself, never a line break",
    "dashboard.importers.fields.x_arxiv_key__mutmut_7": "a found arXiv id has one '/' (the patterns allow no more)",
    "dashboard.importers.fields.x_arxiv_key__mutmut_8": "a found arXiv id has one '/' (the patterns allow no more)",
    "dashboard.importers.fields.x_arxiv_key__mutmut_10": "a found arXiv id has one '/' (the patterns allow no more)",
    "dashboard.importers.fields.x_iter_json__mutmut_1": "'' and None are both false, and lines is set before any read",
    "dashboard.importers.fields.x_iter_json__mutmut_11": "lines is always set when a read fails (opening reads "
    "nothing)",
    "dashboard.importers.fields.x_iter_json__mutmut_12": "lines is always set when a read fails (opening reads "
    "nothing)",
    "dashboard.importers.fields.x_iter_json__mutmut_26": "lines is always set when a read fails (opening reads "
    "nothing)",
    "dashboard.importers.fields.x_iter_json__mutmut_27": "lines is always set when a read fails (opening reads "
    "nothing)",
}


def survivors() -> list[str]:
    out = subprocess.run(["mutmut", "results"], capture_output=True, text=True, check=True).stdout
    return [line.split(":")[0].strip() for line in out.splitlines() if line.strip().endswith("survived")]


def change(name: str) -> tuple[str, str]:
    diff = subprocess.run(["mutmut", "show", name], capture_output=True, text=True).stdout.splitlines()
    old = " ".join(line[1:].strip() for line in diff if line.startswith("-") and not line.startswith("---"))
    new = " ".join(line[1:].strip() for line in diff if line.startswith("+") and not line.startswith("+++"))
    return old, new


def delta(old: str, new: str) -> tuple[str, str]:
    """The tokens a mutant removed and added, each joined by spaces."""
    a, b = TOKEN.findall(old), TOKEN.findall(new)
    removed, added = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag != "equal":
            removed += a[i1:i2]
            added += b[j1:j2]
    return " ".join(removed).replace(" ,", ","), " ".join(added).replace(" ,", ",")


def reason(name: str, old: str, new: str) -> str | None:
    if name in NAMED:
        return NAMED[name]
    removed, added = delta(old, new)
    for why, gone, came, line in RULES:
        if re.fullmatch(gone, removed) and re.fullmatch(came, added) and (not line or re.fullmatch(line, old)):
            return why
    return None


def main() -> int:
    groups: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for name in survivors():
        old, new = change(name)
        groups[reason(name, old, new) or "not yet explained"].append((name, old, new))
    total = sum(len(v) for v in groups.values())
    print(f"# Surviving mutants ({total})\n")
    print("Made by `python scripts/mutation_survivors.py` after `mutmut run`. Each heading says why no test can tell")
    print("its mutants from the code; `mutmut show NAME` prints one in full.\n")
    for why in sorted(groups, key=lambda w: (w == "not yet explained", -len(groups[w]), w)):
        print(f"## {why} ({len(groups[why])})\n")
        for name, old, new in groups[why]:
            print(f"- `{name}`: `{old}` → `{new}`")
        print()
    return 1 if "not yet explained" in groups else 0


if __name__ == "__main__":
    sys.exit(main())
