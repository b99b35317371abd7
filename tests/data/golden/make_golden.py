"""Write the golden responses ``tests/test_golden.py`` compares against, byte for byte.

    python tests/data/golden/make_golden.py

Run once, from the code *before* the speed work of issue 17, so that every later
change to the hot path (lookup, codec, encoder, validation, HTTP adapter) is held
to the same bytes.  Regenerate only for a deliberate change of behaviour, and
say so in the commit.

Each case is ``NAME.request.json`` (what is sent) and ``NAME.response.json`` (the
exact bytes the service encodes).  The cases and how each is run are listed in
``CASES`` in ``tests/test_golden.py``; this script imports them from there.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from tests.test_golden import CASES, GOLDEN, produce  # noqa: E402


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        request, response = produce(case)
        (GOLDEN / f"{case.name}.request.json").write_bytes(request)
        (GOLDEN / f"{case.name}.response.json").write_bytes(response)
        print(f"{case.name}: {len(response):,} bytes")


if __name__ == "__main__":
    main()
