"""The error every layer that reads or writes a dataset raises (the modules that write it, check it, keep its builds
and serve it all import it from here, below each other)."""

from __future__ import annotations


class DatasetError(ValueError):
    """A dataset folder or input file that cannot be used; the message names the file and the problem."""
