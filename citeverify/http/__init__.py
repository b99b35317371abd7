"""The HTTP service of the contract: ASGI and WSGI apps, accounts, keys and quotas.

    >>> from citeverify.http import create_asgi_app, open_store
    >>> app = create_asgi_app(open_store(":memory:"))  # mount it, or `citeverify serve`

No web framework is imported; the apps mount in FastAPI/Starlette, Django,
Flask or any ASGI/WSGI server.  ``Service.handle`` is the pure handler both
adapters share.
"""

from __future__ import annotations

from citeverify.http._accounts import (
    KEY_PREFIX,
    Account,
    AccountExists,
    AccountMeter,
    AccountStore,
    NoSuchAccount,
    open_store,
    window_bounds,
)
from citeverify.http._asgi import AsgiApp, create_asgi_app
from citeverify.http._handler import VERIFY_PATH, HttpRequest, HttpResponse, Service
from citeverify.http._openapi import openapi_document
from citeverify.http._wsgi import WsgiApp, create_wsgi_app

__all__ = [
    "KEY_PREFIX",
    "VERIFY_PATH",
    "Account",
    "AccountExists",
    "AccountMeter",
    "AccountStore",
    "AsgiApp",
    "HttpRequest",
    "HttpResponse",
    "NoSuchAccount",
    "Service",
    "WsgiApp",
    "create_asgi_app",
    "create_wsgi_app",
    "open_store",
    "openapi_document",
    "window_bounds",
]
