"""The error every layer that reads or writes a dataset raises (the modules that write it, check it, keep its builds
and serve it all import it from here, below each other)."""

from __future__ import annotations

from pathlib import Path


class DatasetError(ValueError):
    """A dataset folder or input file that cannot be used; the message names the file and the problem."""


class InputError(DatasetError):
    """Bad input: names the file, and where known the line or record and the field."""

    def __init__(
        self,
        file: str | Path,
        message: str,
        *,
        line: int | None = None,
        record: int | str | None = None,
        field: str | None = None,
    ) -> None:
        self.file, self.line, self.record, self.field = str(file), line, record, field
        where = [self.file]
        if line is not None:
            where.append(f"line {line}")
        if record is not None:
            where.append(f"record {record}")
        if field is not None:
            where.append(f"field '{field}'")
        super().__init__(f"{', '.join(where)}: {message}")
