"""What a view shows, as plain data (no Dash): the graph payload (payload.py), the paper panel (panel.py), the
charts (figures.py, years.py), colours (colors.py, colour_vision.py), words (naming.py, describe.py), exports
(export.py), stories (stories.py) and a visitor's library matched against the dataset (library.py)."""
