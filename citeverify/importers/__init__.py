"""Importers that turn other sources' bulk data into LocalStore files.

``courtlistener``: CourtListener's quarterly bulk-data dumps (``citeverify
import courtlistener --dir DUMP_DIR --out STORE``); ``_download`` fetches them
(``citeverify download courtlistener --dir DUMP_DIR``).  Importers are not
imported by ``verify``; load them explicitly.
"""
