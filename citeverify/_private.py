"""State files readable by their owner only.

The account database holds key digests, account names and usage; the
CourtListener cache holds what clients asked about.  SQLite creates a missing
file with the process's umask (usually 0644, world-readable), and its WAL and
shared-memory files copy the database file's mode, so creating the file first
with mode 0600 makes all three private.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["create_private_file"]


def create_private_file(path: str | Path) -> None:
    """Create ``path`` empty with mode 0600 if it does not exist (an existing file, or
    SQLite's ``:memory:``, is left as it is)."""
    if str(path) == ":memory:" or str(path).startswith("file:"):
        return
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
