"""citeverify inside a Flask application.

``POST /api/v1/verify`` (the contract's HTTP API, with API keys and quotas) is answered by
citeverify's WSGI app; every other path is Flask's.  A Flask route of the application's own,
``POST /check``, calls the library directly.

Run it (``pip install citeverify-legal flask``; from the repository's root folder)::

    flask --app examples.flask_app run --port 8000

Accounts, keys and quotas live in the state database named by ``CITEVERIFY_STATE``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import Flask, jsonify, request

import citeverify
from citeverify.http import create_wsgi_app

app = Flask(__name__)


@app.post("/check")
def check() -> Any:
    """Verify ``{"citations": [...]}`` with the library and answer the overall status."""
    citations = (request.get_json(silent=True) or {}).get("citations") or []
    response = citeverify.verify(
        {"id": str(number), "type": "case", "rawText": str(text)}
        for number, text in enumerate(citations)
    )
    return jsonify(
        overallStatus=response.summary.overall_status.value,
        statuses={r.citation.raw: r.verdict.status.value for r in response.results},
    )


class ContractRoutes:
    """WSGI middleware: the contract's paths go to citeverify, the rest to Flask.

    The contract's API keeps its own path (``/api/v1/...``), so clients written against
    the contract need no other base URL than the application's.
    """

    def __init__(self, application: Any, api: Any, prefix: str = "/api/v1/") -> None:
        self.application = application
        self.api = api
        self.prefix = prefix

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if environ.get("PATH_INFO", "").startswith(self.prefix):
            return self.api(environ, start_response)  # type: ignore[no-any-return]
        return self.application(environ, start_response)  # type: ignore[no-any-return]


app.wsgi_app = ContractRoutes(app.wsgi_app, create_wsgi_app())  # type: ignore[method-assign]
