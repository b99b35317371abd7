"""Which provider a command or a server uses: one place for the CLI and the HTTP service.

The embedded corpus (or a ``LocalStore`` file) answers first; CourtListener, when
enabled, answers what it does not cover.  Settings come from arguments or from the
environment, so server workers started by uvicorn get the same provider:

``CITEVERIFY_STORE``
    a LocalStore file to use instead of the embedded corpus;
``COURTLISTENER_TOKEN``
    a CourtListener API token; setting it enables CourtListener;
``CITEVERIFY_COURTLISTENER``
    ``1`` enables CourtListener even without a token, ``0`` disables it even with one;
``CITEVERIFY_COURTLISTENER_URL``
    another base URL for the CourtListener API (a mirror, or a stand-in in tests);
``CITEVERIFY_COURTLISTENER_CACHE``
    a SQLite file caching CourtListener lookups and texts.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from citeverify.providers._base import Provider
from citeverify.providers._memory import Chain

__all__ = ["ENV", "ProviderConfigError", "configured_provider", "provider_from_env"]

ENV = {
    "store": "CITEVERIFY_STORE",
    "token": "COURTLISTENER_TOKEN",
    "courtlistener": "CITEVERIFY_COURTLISTENER",
    "url": "CITEVERIFY_COURTLISTENER_URL",
    "cache": "CITEVERIFY_COURTLISTENER_CACHE",
}


class ProviderConfigError(RuntimeError):
    """The configuration asks for a provider that cannot be had (a missing extra)."""


def configured_provider(
    *,
    store: str | None = None,
    courtlistener: bool | None = None,
    token: str | None = None,
    base_url: str | None = None,
    cache: str | None = None,
) -> Provider:
    """The local store, chained with CourtListener when it is enabled.

    ``courtlistener=None`` means "enabled when a token is given".
    """
    from citeverify.providers import default_provider

    local: Provider
    if store:
        from citeverify.providers.local import LocalStore

        local = LocalStore(store)
    else:
        local = default_provider()
    if courtlistener is None:
        courtlistener = bool(token)
    if not courtlistener:
        return local
    try:
        from citeverify.providers.courtlistener import CourtListener
    except ImportError as exc:
        raise ProviderConfigError(
            "CourtListener needs its extra: pip install 'citeverify-legal[courtlistener]'"
        ) from exc
    remote = (
        CourtListener(token, base_url=base_url, cache=cache)
        if base_url
        else CourtListener(token, cache=cache)
    )
    return Chain(local, remote)


def provider_from_env(environ: Mapping[str, str] | None = None) -> Provider:
    """``configured_provider`` with the settings of the environment (see the module doc)."""
    env = os.environ if environ is None else environ
    switch = env.get(ENV["courtlistener"])
    enabled = None if switch in (None, "") else switch not in ("0", "false", "no")
    return configured_provider(
        store=env.get(ENV["store"]) or None,
        courtlistener=enabled,
        token=env.get(ENV["token"]) or None,
        base_url=env.get(ENV["url"]) or None,
        cache=env.get(ENV["cache"]) or None,
    )
