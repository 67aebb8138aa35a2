"""Colours of papers: by area (a fixed palette over the dataset's areas, most frequent first: stable across
views of one dataset), by year (viridis, perceptually uniform, over the years of the papers in view) or by cluster
(the same palette, largest cluster first)."""

from __future__ import annotations

from dashboard.dataset.index import UNKNOWN_AREA

# Distinguishable with normal vision, deuteranopia and protanopia (tests/test_colour_vision.py: every pair of these
# 12 and the two greys at least MIN_DELTA_E CIEDE2000 apart, simulated as dashboard/view/colour_vision.py does):
# Okabe-Ito's first six (the most frequent areas), then six chosen by a max-min search over sRGB for the largest
# smallest difference in all three (their smallest pair is Okabe-Ito's own blue and reddish purple under
# protanopia). The former Tableau-like six had a pair barely told apart under deuteranopia (orange #E69F00 and olive
# #BCBD22).
AREA_PALETTE = [
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#D55E00",
    "#56B4E9",
    "#B40F00",
    "#A5D296",
    "#5A694B",
    "#3C87FF",
    "#4B4B69",
    "#5A7878",
]
OTHER_COLOR = "#505050"  # areas beyond the palette: dark grey
UNKNOWN_COLOR = "#C0C0C0"  # no area (no year, no named cluster): light grey
# a chart of counts that say nothing of area or cluster (a source's citations by year): the page's ink, apart from
# every colour above
SOURCE_COLOR = "#1D2430"
# the dotted ring round the papers the visitor's last action added to the map: the page's ink too, a mark and not a
# fill, apart from every colour above (the colour key names it)
NEW_MARK_COLOR = SOURCE_COLOR
NEW_MARK = "added by your last action"
# viridis, 9 stops
YEAR_SCALE = ["#440154", "#472d7b", "#3b528b", "#2c728e", "#21918c", "#28ae80", "#5ec962", "#addc30", "#fde725"]


def area_color(area_names: list[str], area: str) -> str:
    if area == UNKNOWN_AREA:
        return UNKNOWN_COLOR
    try:
        i = [a for a in area_names if a != UNKNOWN_AREA].index(area)
    except ValueError:
        return OTHER_COLOR
    return AREA_PALETTE[i] if i < len(AREA_PALETTE) else OTHER_COLOR


def cluster_color(label: int) -> str:
    """A cluster's colour (clusters are numbered by size, 0 the largest); -1 (no named cluster): light grey, as the
    map draws a paper of no named cluster; a number beyond the palette: dark grey."""
    if label < 0:
        return UNKNOWN_COLOR
    return AREA_PALETTE[label] if label < len(AREA_PALETTE) else OTHER_COLOR


def _hex(c: str) -> tuple[int, int, int]:
    return int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)


def year_color(year: int | None, lo: int | None, hi: int | None) -> str:
    if year is None or year < 0 or lo is None or hi is None:
        return UNKNOWN_COLOR
    t = 0.5 if hi == lo else min(1.0, max(0.0, (year - lo) / (hi - lo)))
    x = t * (len(YEAR_SCALE) - 1)
    i = min(int(x), len(YEAR_SCALE) - 2)
    f = x - i
    a, b = _hex(YEAR_SCALE[i]), _hex(YEAR_SCALE[i + 1])
    r, g, bl = (round(a[k] + (b[k] - a[k]) * f) for k in range(3))
    return f"#{r:02x}{g:02x}{bl:02x}"
