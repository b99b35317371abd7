"""The embedded corpus: its file format (``schema``) and the code that builds it (``build``).

Nothing here is imported by ``verify``: the reader is
``citeverify.providers.local.LocalStore``.
"""
