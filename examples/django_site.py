"""A minimal Django project in one file: settings, URLs, a view, and the WSGI application.

* ``GET /check/?cite=...`` is a Django view that calls the library;
* ``POST /api/v1/verify`` (the contract's HTTP API, with API keys and quotas) is routed to
  citeverify's WSGI app before Django sees the request.

Run it with Django's own development server (``pip install citeverify-legal django``; from the
repository's root folder)::

    python examples/django_site.py runserver 8000

or with any WSGI server that loads ``examples.django_site:application``, for example
``gunicorn examples.django_site:application`` (``pip install gunicorn``).  Both serve the
same entry point: ``WSGI_APPLICATION`` below names it, so ``runserver`` answers the
contract's path too.

Accounts, keys and quotas live in the state database named by ``CITEVERIFY_STATE``
(``citeverify keys create NAME`` prints a key).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import Any

from django.conf import settings

settings.configure(
    DEBUG=False,
    SECRET_KEY=os.environ.get("DJANGO_SECRET_KEY", "only-for-this-example"),
    ROOT_URLCONF=__name__,
    # runserver serves this setting's application: the combined entry point below, so the
    # contract's path is answered there too, not only by a WSGI server given `application`.
    WSGI_APPLICATION=f"{__name__}.application",
    ALLOWED_HOSTS=["*"],
    MIDDLEWARE=["django.middleware.common.CommonMiddleware"],
    INSTALLED_APPS=[],
    DATABASES={},
)

import django  # noqa: E402  (settings must be configured first)

django.setup()

from django.core.wsgi import get_wsgi_application  # noqa: E402
from django.http import HttpRequest, JsonResponse  # noqa: E402
from django.urls import path  # noqa: E402

import citeverify  # noqa: E402
from citeverify.http import create_wsgi_app  # noqa: E402


def check(request: HttpRequest) -> JsonResponse:
    """Verify the ``cite`` query parameters (case citations) with the library."""
    cites = request.GET.getlist("cite")
    if not cites:
        return JsonResponse({"error": "give one or more ?cite= parameters"}, status=400)
    response = citeverify.verify(
        {"id": str(number), "type": "case", "rawText": text} for number, text in enumerate(cites)
    )
    return JsonResponse(
        {
            "overallStatus": response.summary.overall_status.value,
            "results": [
                {
                    "citation": r.citation.raw,
                    "status": r.verdict.status.value,
                    "outcome": r.verdict.outcome,
                }
                for r in response.results
            ],
        }
    )


urlpatterns = [path("check/", check)]

django_application = get_wsgi_application()
citeverify_application = create_wsgi_app()


def application(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
    """The project's WSGI entry point: the contract's paths to citeverify, the rest to Django."""
    if environ.get("PATH_INFO", "").startswith("/api/v1/"):
        return citeverify_application(environ, start_response)
    return django_application(environ, start_response)  # type: ignore[no-any-return]


if __name__ == "__main__":
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
