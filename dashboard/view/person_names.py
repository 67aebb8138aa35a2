"""Authors' names as the BibTeX and RIS exports write them: a person's family name, given names and suffix, or an
organisation's name kept whole.

A dataset gives each author as one text, as its source wrote it ("Martin Luther King Jr.", "Devlin, Jacob",
"Google DeepMind"): OpenAlex and Semantic Scholar give a display name and no sign of whether it is a person's.
:func:`split_name` reads it so:

- **An organisation** (kept whole, never split into first and last names) by this rule, and no other: a name of two
  or more words one of which is a word that names of organisations use and people's names do not
  (:data:`ORGANISATION_WORDS`: Collaboration, Consortium, Team, Group, Project, Institute, University, Laboratory,
  Foundation, Society, Research, Inc, ..., and "AI" in capitals: "The ATLAS Collaboration", "Meta AI"), or the name
  of a research organisation whose name holds no such word (:data:`ORGANISATIONS`: Google, DeepMind, OpenAI,
  Microsoft, NVIDIA, IBM, Anthropic: "Google DeepMind"). Words are compared without regard to case, but for "AI"
  ("Qingyao Ai" is a person). A first word "The" is no sign: "The" is also a Vietnamese given name.
- **A name of one word** ("Plato", "王小明") is kept whole too.
- **"Family, Given"** (a name holding a comma) is read as written; "Given Family, Jr." and "Family, Jr., Given"
  (BibTeX's order) and "Family, Given, Jr." (RIS's order) as a name with a suffix.
- **"Given Family"** otherwise: the family name is the last word, with the lower-case particles just before it
  (van, von, de, der, ...: "Ludwig van Beethoven"); a last word Jr., Sr., II, III or IV after two or more words is
  the suffix ("Martin Luther King Jr.").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PARTICLES = frozenset(
    {"van", "von", "de", "der", "den", "del", "della", "di", "da", "du", "dos", "das", "la", "le", "ter"}
)
SUFFIX = re.compile(r"^(?:[JS]r\.?|[IVX]{2,4})$")  # Jr., Sr., II, III, IV
ORGANISATION_WORDS = frozenset(
    {
        "agency",
        "alliance",
        "association",
        "authors",
        "center",
        "centre",
        "collaboration",
        "college",
        "commission",
        "committee",
        "community",
        "company",
        "consortium",
        "contributors",
        "corp",
        "corporation",
        "council",
        "department",
        "federation",
        "foundation",
        "gmbh",
        "group",
        "inc",
        "initiative",
        "institute",
        "institution",
        "investigators",
        "lab",
        "laboratories",
        "laboratory",
        "labs",
        "llc",
        "ltd",
        "ministry",
        "network",
        "office",
        "organisation",
        "organization",
        "project",
        "research",
        "school",
        "society",
        "team",
        "university",
    }
)
ORGANISATIONS = frozenset({"anthropic", "deepmind", "google", "ibm", "microsoft", "nvidia", "openai"})
CASED_ORGANISATION_WORDS = frozenset({"AI"})  # words that mark an organisation only as written ("Meta AI")
_WORDS = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True)
class Name:
    """An author as :func:`split_name` reads one: ``whole`` (an organisation or a one-word name, kept as one), else a
    person's ``family`` name (with its particles), ``given`` names and ``suffix`` (each "" when there is none)."""

    whole: str | None = None
    family: str = ""
    given: str = ""
    suffix: str = ""
    organisation: bool = False


def is_organisation(name: str) -> bool:
    """Whether ``name`` is an organisation's by the rule of this module's docstring."""
    words = _WORDS.findall(name)
    return len(words) > 1 and any(
        w.lower() in ORGANISATION_WORDS or w.lower() in ORGANISATIONS or w in CASED_ORGANISATION_WORDS for w in words
    )


def split_name(name: str) -> Name:
    """An author's name as a person's parts, or kept whole (the rules are in this module's docstring); line breaks
    and runs of spaces are read as one space."""
    text = " ".join(name.split())
    if is_organisation(text):
        return Name(whole=text, organisation=True)
    if "," in text:
        parts = [p.strip() for p in text.split(",")]
        if len(parts) == 2 and SUFFIX.match(parts[1]):  # "Given Family, Jr."
            return _given_first(parts[0].split(), parts[1])
        if len(parts) == 2:
            return Name(family=parts[0], given=parts[1])
        if len(parts) == 3 and SUFFIX.match(parts[1]):  # BibTeX's "Family, Jr., Given"
            return Name(family=parts[0], suffix=parts[1], given=parts[2])
        if len(parts) == 3 and SUFFIX.match(parts[2]):  # RIS's "Family, Given, Jr."
            return Name(family=parts[0], given=parts[1], suffix=parts[2])
        return Name(whole=text)
    words = text.split()
    if len(words) < 2:
        return Name(whole=text)
    suffix = words.pop() if len(words) > 2 and SUFFIX.match(words[-1]) else ""
    return _given_first(words, suffix)


def _given_first(words: list[str], suffix: str) -> Name:
    if len(words) < 2:
        return Name(family=" ".join(words), suffix=suffix)
    k = len(words) - 1  # where the family name begins: its last word, and the particles just before it
    while k > 1 and words[k - 1] in PARTICLES:
        k -= 1
    return Name(family=" ".join(words[k:]), given=" ".join(words[:k]), suffix=suffix)
