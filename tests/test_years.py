"""The year slider's scale: its first step reaches back to the oldest paper, the rest is one year a step."""

from __future__ import annotations

import numpy as np

from dashboard.dataset.store import Store
from dashboard.view.years import slider_value, slider_years, year_floor


def test_the_slider_starts_where_the_papers_do(default_store: Store, store: Store) -> None:
    s = default_store
    floor = year_floor(s)
    known = s.year[s.year >= 0]
    assert s.year_min == 1971 and floor == 2010
    assert np.count_nonzero(known < floor) <= 0.01 * len(known) < np.count_nonzero(known <= floor)
    assert slider_value(s, None) == [2010, 2025]
    assert slider_value(s, (1990, 2020)) == [2010, 2020] and slider_value(s, (1980, 2000)) == [2010, 2010]
    assert slider_years(s, 2010, 2025) is None  # the whole range: no filter
    assert slider_years(s, 2010, 2018) == (1971, 2018)  # the first step reaches back to the oldest paper
    assert slider_years(s, 2011, 2025) == (2011, 2025)
    # a dataset without a long tail: the slider is the plain year range
    assert year_floor(store) == store.year_min == 2014 and slider_years(store, 2015, 2025) == (2015, 2025)
    assert slider_years(store, 2014, 2025) is None
