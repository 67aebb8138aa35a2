"""citemap: an interactive citation-map dashboard.

The package's folders are its layers, each importing only those before it:

- ``dataset/``: the dataset format, writing a build, the builds of a folder, checksums, the index (written and
  read), and the :class:`~dashboard.dataset.store.Store` that serves queries from it;
- ``importers/``: sources (saved pages, arxiv-2023, OpenAlex, Semantic Scholar, CSV) turned into datasets, and the
  default dataset built from data/; ``fetch/``: datasets fetched from web APIs through the importers;
- ``graph/``: the view's state (the URL) and the graph algorithms: neighbourhoods, similar papers, paths,
  clusters, layouts;
- ``view/``: what a view shows, as plain data: the payload, panel, charts, colours, exports, stories, a visitor's
  library;
- ``web/``: the Dash app: layout, components, callbacks, security headers, compression;
- ``serving/``: gunicorn's settings and ``citemap serve --production``.

``cli.py`` is the ``citemap`` command; ``app.py`` the WSGI entry (``dashboard.app:server``). Only ``web/`` imports
Dash; ``web/``, ``view/``, ``graph/`` and ``serving/`` never import ``importers/`` or ``fetch/``.
"""

__version__ = "0.1.0"
