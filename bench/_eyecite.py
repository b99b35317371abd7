"""eyecite, the baseline several benchmarks time, kept quiet."""

from __future__ import annotations

import logging


def quiet() -> None:
    """Keep eyecite's warnings ("Unknown overlap case") out of the benchmarks' output.

    Its records are still made and handed to a handler, as before; only the
    write to stderr is dropped, so eyecite does the same work while timed.
    """
    logger = logging.getLogger("eyecite")
    logger.addHandler(logging.NullHandler())
    logger.propagate = False
