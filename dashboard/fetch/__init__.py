"""Fetchers: build a dataset from a web API (``citemap fetch``) through the normal importers.

:mod:`dashboard.fetch.http` is a small polite JSON client (rate limit, timeouts, retries with backoff, an
on-disk cache of every answer); :mod:`dashboard.fetch.common` holds the steps every fetch shares (the query,
collecting with a progress bar, writing the records and importing them, nothing written unless all succeeded);
:mod:`dashboard.fetch.openalex` and :mod:`dashboard.fetch.s2` collect the papers around seed papers from the
OpenAlex and the Semantic Scholar APIs and hand them to the ``openalex`` and ``s2`` importers. Nothing here
knows of Dash.
"""
