"""Write the ASGI messages ``tests/test_http_asgi_golden.py`` compares against.

    python tests/data/http_asgi/make_asgi_golden.py

Run once, from the code before the speed work of issue 17 on the HTTP adapter, so
that later changes to the per-request path are held to the same bytes.  Regenerate
only for a deliberate change of behaviour, and say so in the commit.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from tests.test_http_asgi_golden import GOLDEN, run_steps  # noqa: E402


def main() -> None:
    rows = list(run_steps())
    data = json.dumps(rows, ensure_ascii=False, indent=1, sort_keys=True).encode("utf-8")
    GOLDEN.write_bytes(gzip.compress(data, mtime=0))
    print(f"{len(rows)} requests, {len(data):,} bytes")


if __name__ == "__main__":
    main()
