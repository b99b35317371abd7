"""The public surface: one sorted __all__, every name importable, cheap import."""

from __future__ import annotations

import subprocess
import sys

import citeverify


class TestPublicApi:
    def test_all_is_sorted_and_resolves(self) -> None:
        """__all__ is sorted and every listed name resolves."""
        assert list(citeverify.__all__) == sorted(citeverify.__all__)
        for name in citeverify.__all__:
            assert getattr(citeverify, name) is not None

    def test_unknown_attribute_raises(self) -> None:
        """An unknown name is an AttributeError, not a silent None."""
        try:
            citeverify.no_such_thing  # type: ignore[attr-defined]  # noqa: B018
        except AttributeError:
            return
        raise AssertionError("expected AttributeError")

    def test_import_is_lazy(self) -> None:
        """Importing citeverify loads neither reporters-db, courts-db, cattrs nor httpx."""
        code = (
            "import sys, citeverify; "
            "heavy = [m for m in ('reporters_db', 'courts_db', 'cattrs', 'httpx', 'sqlite3') "
            "if m in sys.modules]; print(','.join(heavy))"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.strip()
        assert out == ""

    def test_core_imports_no_web_or_network_code(self) -> None:
        """A full verify run imports no web framework, HTTP client or database driver."""
        code = (
            "import sys, citeverify; "
            "citeverify.verify([{'id': '1', 'type': 'case', 'rawText': '410 U.S. 113'}]); "
            "bad = [m for m in ('httpx', 'requests', 'urllib3', 'fastapi', 'starlette', 'flask', "
            "'django', 'uvicorn', 'psycopg', 'aiohttp') if m in sys.modules]; print(','.join(bad))"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.strip()
        assert out == ""
