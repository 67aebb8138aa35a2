"""The BibTeX export: a view's papers as ``@misc`` entries that BibTeX, biber, pybtex and bibtexparser read, and that
plain pdflatex prints (no package needed: every character beyond ASCII is written as LaTeX, :func:`latex_unicode`).

Each paper is one entry of the records :func:`dashboard.view.export.references` makes (a row of the CSV export and
its arXiv id). The fields, in this order:

- ``title``: the title as written (:func:`bib_title`):

  - **Math kept.** Titles are plain text, but some carry LaTeX math, such as ``Scaling Up Models with
    $\\texttt{t5x}$``. When every ``$`` of a title that is not escaped (``\\$``) pairs up into non-empty
    spans (:func:`math_spans`), each span balanced in its braces and without a ``%``, ``#`` or line break, those
    spans are written verbatim, each in a brace group (``{$L_2$}``) so that styles do not lower-case it; a span
    whose closing ``$`` is followed by a digit ("from $5 to $10") is not math. Otherwise the title has no math:
    every ``$`` is a dollar sign and is escaped with the rest.
  - **Everything else escaped.** Outside math, LaTeX's special characters (``\\ { } & % $ # _ ~ ^``) are escaped
    so that LaTeX prints them, and ``<``, ``>``, ``|`` written as math, which LaTeX's default font prints as those
    signs (:func:`bib_escape`); LaTeX commands written in a title outside math (``\\&``) are text like any other,
    and so print as written. Characters beyond ASCII are written as LaTeX (:func:`latex_unicode`): accented letters
    as accent commands (``Caf{\\'e}``), Greek letters and mathematical signs as math (``{$\\beta$}-VAE``).
  - **Capitals protected.** Bibliography styles lower-case titles (``plain`` prints "Bert: Pre-training of deep
    ..."), as BibTeX expects titles in title case. A word of the title (letters and digits, joined by hyphens or
    apostrophes) is put in a brace group, so that styles print it as written, when a part of it (between hyphens)
    has a capital after its first letter (``BERT``, ``GPT-3``, ``ImageNet``, ``LSTM``, ``ResNet-50``, ``3D``), when
    a capital letter stands alone before or after a hyphen (``U-Net``) or joined to another word by ``&`` or ``/``
    (``Q&A``, ``I/O``), or when it has a capital and touches math (``S$^3$``): ``{BERT}: Pre-training of Deep ...``
    prints "BERT: Pre-training of deep ...". The title's first
    word is protected too when it begins with a small letter (``{word2vec} Explained``), which was written so on
    purpose and which some formatters would capitalise. Words whose one capital is their first letter (``Deep``,
    ``English``, ``Multi-Modal``) are left to the style, as in DBLP's exports: titles here are in title case, and
    a style's sentence case is what its user asked for.

  LaTeX-decoded with math kept as written (pylatexenc's ``math_mode="verbatim"``), the field is the title again,
  character for character, but for the characters :func:`latex_unicode` writes as math or as ligatures (and for
  ``<``, ``>``, ``|``), which come back as that math (``$\\alpha$``) or those ASCII quotes; decoded with math read
  as text, those come back as themselves.
- ``author``: names joined by " and ", escaped like text (:func:`bib_name`): an organisation's name in a group, so
  that BibTeX keeps it whole (``{Google DeepMind}``, ``{The ATLAS Collaboration}``), a name with a suffix as
  ``King, Jr., Martin Luther``, any other as written; which names are organisations' and which words are suffixes
  is decided by the rule of :mod:`dashboard.view.person_names`.
- ``year``, ``journal`` (the venue, escaped like text), ``doi`` (as it is; :func:`bib_verbatim`).
- For a paper with an arXiv id (its id, one of its other ids, or an arXiv DOI): ``eprint`` (the id: ``1810.04805``,
  ``hep-th/9901001``), ``archivePrefix = {arXiv}``, ``url`` (its arxiv.org page), and ``primaryClass`` when its
  first area is an arXiv category (``cs.CL``), the fields arXiv's own BibTeX and biblatex use.
- ``citemapid``: the paper's id in this dataset, by which citemap's library reader finds the paper again. No style
  prints a field it does not know, so the id stays out of the printed reference (earlier exports wrote it in
  ``note``, which styles print; the library reader still reads that form).

Entries come in view order, with keys from :func:`bibtex_key` (made unique with ``_2``, ``_3``, ...)."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping

from dashboard.view.person_names import split_name

ARXIV_PREFIX = "arXiv"
ARXIV_ABS = "https://arxiv.org/abs/"
CITEMAP_ID_FIELD = "citemapid"  # the field holding the paper's citemap id (styles print no field they do not know)

# LaTeX's special characters, each written so that LaTeX (and a LaTeX decoder such as pylatexenc, which
# bibtexparser's LatexDecodingMiddleware and dashboard.view.library use) reads the character itself: a backslash
# escape where LaTeX has one; \textbackslash and \textasciitilde (a bare ~ is a non-breaking space); \string^ for ^
# (a bare ^ is a superscript, and \textasciicircum reads back as the modifier letter ˆ; a decoder that does not know
# \string drops it and keeps the ^)
# < > | as math: LaTeX's default font encoding (OT1) has no such signs in text, and prints < as ¡, > as ¿, | as —
_LATEX = {
    "\\": r"\textbackslash{}",
    "~": r"\textasciitilde{}",
    "^": r"\string^",
    **{c: "\\" + c for c in "{}&%$#_"},
    **{c: "{$" + c + "$}" for c in "<>|"},
}
_LATEX_SPECIAL = re.compile(r"[\\{}&%$#_~^<>|]")
# typographic quotes as LaTeX's ligatures, which pybtex and pylatexenc both read back
_QUOTES = {"\u2018": "`", "\u2019": "'", "\u201c": "``", "\u201d": "''"}
# pairs LaTeX reads as one character (-- an en dash, ``  and '' curly quotes, !` and ?` inverted marks): an empty
# group between the two keeps them two characters
_LIGATURE = re.compile(r"(?<=-)(?=-)|(?<=`)(?=`)|(?<=')(?=')|(?<=[!?])(?=`)")
# an @ that begins a line, which bibtexparser would take for the start of the next entry: put in a group
_LINE_START_AT = re.compile(r"(?<=\n)(\s*)@")
# an author who would not come back as one name from splitting the field at " and " (bibtexparser's splitter also
# reads a backslash as escaping the character after it, which can move where it sees a name begin or end)
_NAME_AND = re.compile(r"(?:^|\s)and(?:\s|$)", re.IGNORECASE)
_NOT_VERBATIM = re.compile(r"[\\{}\n]")  # what could end a field's value early or leave its braces unbalanced

# a math delimiter: a $ after an even number of backslashes (\$ is a dollar sign)
_DOLLAR = re.compile(r"(?<!\\)(?:\\\\)*\$")
# what math must not hold: a comment sign, a parameter sign (both unescaped), a line break
_NOT_IN_MATH = re.compile(r"(?<!\\)(?:\\\\)*[%#]|\n")
# a word of a title: letters and digits, joined by single hyphens or apostrophes (GPT-3, ResNet-50, don't)
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
# an arXiv category: an archive and its subject class (cs.CL, physics.comp-ph), or an archive with a hyphen (hep-th)
_ARXIV_CATEGORY = re.compile(r"^(?:[a-z]+-[a-z]+|[a-z]+(?:-[a-z]+)?\.[A-Za-z]+(?:-[a-z]+)?)$")


def bib_escape(text: str) -> str:
    """``text`` as the LaTeX of a BibTeX field's value, which plain pdflatex prints as ``text``: LaTeX's special
    characters escaped, ``<``, ``>`` and ``|`` as math, and characters beyond ASCII as LaTeX (:func:`latex_unicode`).
    LaTeX-decoded (pylatexenc, with math read as text), it is ``text`` again, but for what :func:`latex_unicode`
    says. Its braces are all escaped or paired, so they never end the value (bibtexparser does not count an escaped
    brace; BibTeX itself does, and so finds a value whose text has an unpaired brace unbalanced)."""
    return latex_unicode(_escape_ascii(unicodedata.normalize("NFC", text)))


def _escape_ascii(text: str) -> str:
    out = _LATEX_SPECIAL.sub(lambda m: _LATEX[m[0]], text)
    return _LINE_START_AT.sub(r"\1{@}", _LIGATURE.sub("{}", out))


_ENSUREMATH = "\\ensuremath{"
_CYRILLIC = re.compile(r"\\(?:cyrchar|CYR|cyr)")  # pylatexenc's Cyrillic: commands of the T2A font encoding only


@functools.cache
def _pylatexenc_table() -> Mapping[int, str]:
    from pylatexenc.latexencode import get_builtin_conversion_rules

    return get_builtin_conversion_rules("defaults")[0].rule


@functools.cache
def _latex_char(c: str, math: bool) -> str:
    latex = _QUOTES.get(c) or _pylatexenc_table().get(ord(c))
    if not latex or _CYRILLIC.match(latex):
        return c
    if latex.startswith(_ENSUREMATH) and latex.endswith("}"):
        inner = latex[len(_ENSUREMATH) : -1]
        return "{" + inner + "}" if math else "{$" + inner + "$}"
    return c if math else "{" + latex + "}"


def latex_unicode(text: str, *, math: bool = False) -> str:
    """Each character of ``text`` beyond ASCII as the LaTeX that plain pdflatex prints it by (pylatexenc's table),
    in a group: an accented letter as its accent command (``{\\'e}``, ``{\\"U}``, ``{\\o}``, ``{\\ss}``: a group
    BibTeX takes as one letter, for initials, sorting and case), a Greek letter or a mathematical sign as math
    (``{$\\alpha$}``, ``{$\\Delta$}``, ``{$\\leq$}``; ``{\\alpha}`` inside math: ``math``), a typographic quote
    as LaTeX's ligature (``{``}``), other signs as their text commands (``{\\textendash}``, ``{\\textdegree}``).
    Read back, a letter written as math comes back as that math when math is kept as written (``$\\alpha$`` for
    α), and a typographic single quote as the ASCII quote LaTeX turns into it. Characters with no such LaTeX are
    kept as they are: Chinese, Japanese and Korean, and Cyrillic (which pdflatex prints with
    ``\\usepackage[T2A]{fontenc}``, XeLaTeX and LuaLaTeX as they are); so are letters in math, other than math
    signs."""
    if text.isascii():
        return text
    return "".join(c if c.isascii() else _latex_char(c, math) for c in text)


def bib_name(name: str) -> str:
    """One author of an ``author`` field (names joined by " and "), escaped: an organisation's name in a group, which
    BibTeX takes as a name not to be split into first and last ("{Google DeepMind}"); a name with a suffix as
    "Last, Jr., First", the order in which BibTeX reads a suffix; any other name as written, which BibTeX reads as
    "First von Last" (how a name is read: :mod:`dashboard.view.person_names`)."""
    parts = split_name(name) if name.strip() else None
    if parts is not None and parts.organisation:
        return "{" + bib_escape(parts.whole or "") + "}"
    if parts is not None and parts.suffix:
        return ", ".join(_name_text(p) for p in (parts.family, parts.suffix, parts.given))
    return _name_text(name)


def _name_text(name: str) -> str:
    """A name, or a part of one, escaped; in a group (which LaTeX drops, and which BibTeX takes as one name or part)
    when splitting the ``author`` field could cut or trim it."""
    name = unicodedata.normalize("NFC", name)
    ascii_escaped = _escape_ascii(name)
    text = latex_unicode(ascii_escaped)
    if not name or name != name.strip() or "\\" in ascii_escaped or _NAME_AND.search(name):
        return "{" + text + "}"
    return text


def bib_verbatim(text: str) -> str:
    """An identifier (DOI, id, category) as it is, for readers that take it as written; escaped like text only if it
    holds a brace, a backslash or a line break, which could break the entry."""
    return bib_escape(text) if _NOT_VERBATIM.search(text) else text


def _braces_balanced(text: str, *, escaped_count: bool) -> bool:
    """Whether every brace of ``text`` is paired, counting escaped braces (``\\{``) as BibTeX does or leaving them
    out as bibtexparser does."""
    depth = 0
    for m in re.finditer(r"\\\\|\\[{}]|[{}]", text):
        brace = m[0][-1]
        if m[0] == "\\\\" or (m[0][0] == "\\" and not escaped_count):
            continue
        depth += 1 if brace == "{" else -1
        if depth < 0:
            return False
    return depth == 0


def math_spans(title: str) -> list[tuple[int, int]]:
    """The math of ``title`` as (start, end) of each ``$...$`` span, delimiters included; none unless every
    unescaped ``$`` pairs into a non-empty span whose braces are paired (counted as BibTeX and as bibtexparser count
    them), which holds no unescaped ``%`` or ``#`` and no line break, and whose closing ``$`` is not followed by a
    digit (as in "from $5 to $10")."""
    ends = [m.end() - 1 for m in _DOLLAR.finditer(title)]
    if not ends or len(ends) % 2:
        return []
    spans = list(zip(ends[::2], (e + 1 for e in ends[1::2]), strict=True))
    for a, b in spans:
        body = title[a + 1 : b - 1]
        if (
            not body.strip()
            or title[b : b + 1].isdigit()  # "$5 and $10": prices, not math
            or _NOT_IN_MATH.search(body)
            or not _braces_balanced(body, escaped_count=True)
            or not _braces_balanced(body, escaped_count=False)
        ):
            return []
    return spans


def _protected(word: str, first: bool, by_math: bool, joined: bool = False) -> bool:
    """Whether a word of a title goes in a brace group: a part of it (between hyphens) with a capital after its first
    letter (``BERT``, ``ImageNet``, ``GPT-3``), a capital letter alone before or after a hyphen (``U-Net``), a
    capital letter alone joined to another word by ``&`` or ``/`` (``joined``: ``Q&A``, ``I/O``), any capital in a
    word that touches math (``S$^3$``), or the title's first word beginning with a small letter."""
    parts = word.split("-")
    return (
        any(any(c.isupper() for c in part[1:]) for part in parts)
        or (len(parts) > 1 and any(len(part) == 1 and part.isupper() for part in parts))
        or (joined and len(word) == 1 and word.isupper())
        or (by_math and any(c.isupper() for c in word))
        or (first and word[0].islower())
    )


def _bib_text(text: str, *, at_start: bool, math_before: bool, math_after: bool) -> str:
    """Text of a title outside math (``math_before``, ``math_after``: math touches it there): escaped, each word to
    protect (:func:`_protected`) in a brace group."""
    out, last = [], 0
    for m in _WORD.finditer(text):
        out.append(bib_escape(text[last : m.start()]))
        first = at_start and not text[: m.start()].strip()
        by_math = (math_before and m.start() == 0) or (math_after and m.end() == len(text))
        joined = text[m.start() - 1 : m.start()] in ("&", "/") or text[m.end() : m.end() + 1] in ("&", "/")
        word = latex_unicode(m[0])
        out.append("{" + word + "}" if _protected(m[0], first, by_math, joined) else word)
        last = m.end()
    out.append(bib_escape(text[last:]))
    return "".join(out)


def bib_title(title: str) -> str:
    """A title as the LaTeX of a ``title`` field: math kept as written, the rest escaped, capitals protected (the
    rules are in this module's docstring)."""
    title = unicodedata.normalize("NFC", title)
    spans = math_spans(title)
    cuts = [0, *(x for span in spans for x in span), len(title)]
    out = []
    for k in range(0, len(cuts), 2):  # text, then math, text, ..., text (a piece may be empty)
        a, b = cuts[k], cuts[k + 1]
        out.append(_bib_text(title[a:b], at_start=a == 0, math_before=k > 0, math_after=k + 2 < len(cuts)))
        if k + 2 < len(cuts):
            out.append("{" + latex_unicode(title[b : cuts[k + 2]], math=True) + "}")
    # no pair LaTeX would join, nor a line's first @, spans two pieces: a word begins and ends with a letter or digit,
    # and math with a $ in a group
    return "".join(out)


def bibtex_key(pid: str, title: str, year: int | None) -> str:
    word = next((w for w in re.findall(r"[A-Za-z]{4,}", title)), "paper").lower()
    return f"{word}{year or ''}_{re.sub(r'[^A-Za-z0-9]', '', pid)}"


def arxiv_category(areas: list[str]) -> str | None:
    """A paper's first area if it is an arXiv category (``cs.LG``, ``hep-th``), else None."""
    return areas[0] if areas and _ARXIV_CATEGORY.match(areas[0]) else None


def bibtex_of(records: Iterable[dict]) -> str:
    """BibTeX of papers (records of :func:`dashboard.view.export.references`), written by bibtexparser. Read back
    with bibtexparser, every entry parses; each title, LaTeX-decoded with math kept, is the paper's title, and each
    author and journal, LaTeX-decoded, is the paper's text."""
    import bibtexparser
    from bibtexparser.middlewares import default_unparse_stack
    from bibtexparser.model import Entry, Field

    library = bibtexparser.Library()
    seen: dict[str, int] = {}
    for rec in records:
        pid = rec["id"]
        fields = [Field("title", bib_title(rec["title"]))]
        if rec["authors"]:
            fields.append(Field("author", " and ".join(bib_name(a) for a in rec["authors"])))
        if rec["year"] is not None:
            fields.append(Field("year", str(rec["year"])))
        if rec["venue"]:
            fields.append(Field("journal", bib_escape(rec["venue"])))
        if rec["doi"]:
            fields.append(Field("doi", bib_verbatim(rec["doi"])))
        if arxiv := rec.get("arxiv"):
            fields += [
                Field("eprint", bib_verbatim(arxiv)),
                Field("archivePrefix", ARXIV_PREFIX),
                Field("url", ARXIV_ABS + bib_verbatim(arxiv)),
            ]
            if category := arxiv_category(rec["areas"]):
                fields.append(Field("primaryClass", category))
        fields.append(Field(CITEMAP_ID_FIELD, bib_verbatim(pid)))
        # two ids alike but for punctuation share a key: the later ones get _2, _3, ... (a key of bibtex_key has
        # one underscore, so no other paper's key)
        key = bibtex_key(pid, rec["title"], rec["year"])
        seen[key] = n = seen.get(key, 0) + 1
        library.add(Entry("misc", key if n == 1 else f"{key}_{n}", fields))
    layout = bibtexparser.BibtexFormat()
    layout.indent, layout.block_separator = "  ", "\n"  # fields indented by two spaces, a blank line between entries
    # the default unparse stack (each value in braces), allowed to change the entries just built instead of copying
    stack = default_unparse_stack(allow_inplace_modification=True)
    return bibtexparser.write_string(library, unparse_stack=stack, bibtex_format=layout)
