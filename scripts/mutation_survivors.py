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
    ("dtype: the values already have that dtype, or numpy's default for them gives the same result",
     r"(, )?(dtype = )?np\.(int64|int32|uint8)", r"(, )?(dtype = )?(None)?", ""),
    ("zip(strict=True): the sequences zipped always have equal lengths", r"(, )?(strict = )?True",
     r"(, )?(strict = )?(None|False)?", r".*\bzip\(.*"),
    ("the same codec or SQL in another letter case", r'"utf-8"|"SELECT rowid FROM titles WHERE titles MATCH \? '
     r'ORDER BY rowid LIMIT \?"|"stable"', r'"UTF-8"|"(select|SELECT) (rowid|ROWID) .*"|"STABLE"', ""),
    ("a cut-off one higher that no input reaches (values in messages cut at 30/40/80 characters, lists at 5, "
     "queries at 200 characters and 12 words)", r"30|40|80|200|12|5", r"31|41|81|201|13|6",
     r".*\[:(30|40|80|200|12|5)\].*"),
]

# mutants that only a reading of their code shows to be equivalent (name -> why)
NAMED: dict[str, str] = {}


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
