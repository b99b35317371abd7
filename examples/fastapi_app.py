"""citeverify inside a FastAPI application, two ways at once.

1. The contract's HTTP API, mounted as it is: ``POST /api/v1/verify`` with API keys,
   quotas and the error envelope, answered by citeverify's own ASGI app.
2. The library called from the application's own route: ``POST /check`` takes a list of
   case citations, in whatever shape suits the application, and answers a short summary.

Run it (with the ``server`` extra and FastAPI installed:
``pip install 'citeverify-legal[server]' fastapi``; from the repository's root folder)::

    uvicorn examples.fastapi_app:app --port 8000

Accounts, keys and quotas live in the state database named by ``CITEVERIFY_STATE``
(see ``citeverify keys create --help``).
"""

from __future__ import annotations

from fastapi import FastAPI
from pydantic import BaseModel

import citeverify
from citeverify.http import create_asgi_app

app = FastAPI(title="Brief checker")


class Brief(BaseModel):
    """What this application's own route accepts: the case citations of a brief."""

    citations: list[str]


class Problem(BaseModel):
    citation: str
    status: str
    outcome: str | None
    message: str | None


class Checked(BaseModel):
    overall_status: str
    problems: list[Problem]


@app.post("/check")
def check(brief: Brief) -> Checked:
    """Verify the brief's citations with the library; list the ones that need a look."""
    response = citeverify.verify(
        {"id": str(number), "type": "case", "rawText": text}
        for number, text in enumerate(brief.citations)
    )
    problems = [
        Problem(
            citation=result.citation.raw,
            status=result.verdict.status.value,
            outcome=result.verdict.outcome,
            message=result.verdict.message,
        )
        for result in response.results
        if result.verdict.status != "verified"
    ]
    return Checked(overall_status=response.summary.overall_status.value, problems=problems)


# Mounted last, at the root, so the application's own routes match first and the
# contract's path stays exactly /api/v1/verify for every client of the contract.
app.mount("/", create_asgi_app())
