"""The map's colours stay apart for colour-blind visitors: the area (and cluster) palette under simulated
deuteranopia and protanopia (Machado et al. 2009), the year scale's order, and the simulation itself."""

from __future__ import annotations

import numpy as np
import pytest

from dashboard.dataset.store import Store
from dashboard.graph.state import ViewState
from dashboard.view import colors
from dashboard.view.colour_key import colour_key
from dashboard.view.colour_vision import closest_pair, delta_e2000, hex_to_rgb, simulate, to_lab

MIN_DELTA_E = 12.0  # CIEDE2000; about 2 is just noticeable
VISIONS = [None, "deuteranopia", "protanopia"]


def used_colours(store: Store) -> list[str]:
    """Every colour the map and its charts can give papers of this dataset by area: the colour key's categories (the
    palette's colours, "other areas" if it has more areas than colours, "no area given"), and the colour of a
    source's counts in the paper's chart."""
    key = colour_key(store, ViewState(seeds=()), np.zeros(0, dtype=np.int64))
    return sorted({c.color for c in key.categories} | {colors.SOURCE_COLOR})


def test_the_default_dataset_uses_the_whole_palette(default_store: Store) -> None:
    used = used_colours(default_store)
    assert set(colors.AREA_PALETTE) <= set(used) and colors.OTHER_COLOR in used  # 41 areas: all 12 and "other"
    assert len(used) == len(colors.AREA_PALETTE) + 3


@pytest.mark.parametrize("vision", VISIONS, ids=lambda v: v or "normal")
def test_area_colours_stay_apart(default_store: Store, vision: str | None) -> None:
    distance, a, b = closest_pair(used_colours(default_store), vision)
    print(f"{vision or 'normal'} vision: closest pair {a} {b}, CIEDE2000 {distance:.1f}")
    assert distance >= MIN_DELTA_E, f"{a} and {b} look alike with {vision or 'normal vision'} ({distance:.1f})"


@pytest.mark.parametrize("vision", VISIONS, ids=lambda v: v or "normal")
def test_the_ring_of_new_papers_is_no_area_colour(default_store: Store, vision: str | None) -> None:
    """The dotted ring round the papers the last action added stays apart from every colour a paper can have (an
    amber ring beside the orange of an area read as one)."""
    key = colour_key(default_store, ViewState(seeds=()), np.zeros(0, dtype=np.int64))
    for c in key.categories:
        distance = closest_pair([colors.NEW_MARK_COLOR, c.color], vision)[0]
        assert distance >= MIN_DELTA_E, (c.name, c.color, vision, distance)
    assert closest_pair(["#f59e0b", "#E69F00"], vision)[0] < MIN_DELTA_E  # the former amber ring did not


def test_the_cluster_colours_are_the_palette() -> None:
    assert [colors.cluster_color(k) for k in range(len(colors.AREA_PALETTE))] == colors.AREA_PALETTE
    assert colors.cluster_color(len(colors.AREA_PALETTE)) == colors.OTHER_COLOR
    assert colors.cluster_color(-1) == colors.UNKNOWN_COLOR  # as the map draws a paper of no named cluster


@pytest.mark.parametrize("vision", VISIONS, ids=lambda v: v or "normal")
def test_the_year_scale_keeps_its_order(vision: str | None) -> None:
    """Viridis: lighter with every later year, whatever the vision, so that a year's place reads without hue."""
    rgb = np.array([hex_to_rgb(colors.year_color(y, 2000, 2024)) for y in range(2000, 2025)])
    lightness = to_lab(simulate(rgb, vision) if vision else rgb)[:, 0]
    assert np.all(np.diff(lightness) > 0)


def test_the_former_palette_failed_with_deuteranopia() -> None:
    """What the check catches: orange and olive of the palette before were 2.1 apart for a deuteranope."""
    assert closest_pair(["#E69F00", "#BCBD22"], "deuteranopia")[0] < 3
    assert closest_pair(["#E69F00", "#BCBD22"])[0] > 20  # and far apart with normal vision


def test_the_simulation_and_the_distance() -> None:
    # CIEDE2000 against Sharma, Wu & Dalal's (2005) published test pairs
    assert delta_e2000(np.array([50, 2.6772, -79.7751]), np.array([50, 0, -82.7485])) == pytest.approx(2.0425, abs=1e-4)
    assert delta_e2000(np.array([50, 2.5, 0]), np.array([73, 25, -18])) == pytest.approx(27.1492, abs=1e-4)
    assert delta_e2000(np.array([50, 2.5, 0]), np.array([50, 0, -2.5])) == pytest.approx(4.3065, abs=1e-4)
    grey = np.array([0.5, 0.5, 0.5])
    for vision in ("deuteranopia", "protanopia", "tritanopia"):  # greys stay grey; white stays white
        assert simulate(grey, vision) == pytest.approx(grey, abs=2e-3)
        assert simulate(np.ones(3), vision) == pytest.approx(np.ones(3), abs=2e-3)
    # the classic confusion: red and green, far apart for most, much closer for a deuteranope
    assert closest_pair(["#FF0000", "#00FF00"], "deuteranopia")[0] < closest_pair(["#FF0000", "#00FF00"])[0] / 3
    assert to_lab(np.ones(3)) == pytest.approx([100, 0, 0], abs=1e-2)
