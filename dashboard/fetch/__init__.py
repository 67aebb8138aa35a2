"""Fetchers: build a dataset from a web API (``citemap fetch``) through the normal importers.

:mod:`dashboard.fetch.http` is a small polite JSON client (rate limit, timeouts, retries with backoff, an
on-disk cache of every answer); :mod:`dashboard.fetch.openalex` collects the works around seed papers from
the OpenAlex API and hands them to the ``openalex`` importer. Nothing here knows of Dash.
"""
