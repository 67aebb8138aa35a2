"""citemap: an interactive citation-map dashboard.

Layers, each importing only the ones above it:
``dataset`` (file format) -> ``importers`` (build datasets) -> ``store`` (indexes and queries)
-> ``graph`` (neighbourhoods, layouts, view models) -> ``app``/``layout``/``callbacks`` (Dash).
"""

__version__ = "0.1.0"
