"""Build the embedded corpus from the public source data (``../shared/data``).

``build_corpus(source, out)`` writes one SQLite file of the ``schema`` in a
fixed order, with zlib-compressed texts, no timestamps of its own, and a
final ``VACUUM``: the same sources give a byte-identical file with the same
SQLite and zlib libraries.  The file records both library versions in
``meta`` so a test can tell whether byte equality is to be expected.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

from citeverify.store import schema
from citeverify.store._cases import read_cases
from citeverify.store._enacted import read_constitution, read_rules, read_usc
from citeverify.store._rows import AuthorityRow, CoverageRow, LinkTemplateRow

__all__ = ["build_corpus", "logical_dump"]

Progress = Callable[[str], None]

COURTS = (
    ("congress", "United States Congress", "us"),
    ("scotus", "Supreme Court of the United States", "us"),
    ("united-states", "United States", "us"),
)
_BATCH = 5000


def build_corpus(source: Path, out: Path, *, progress: Progress | None = None) -> None:
    """Read the sources under ``source`` and write the corpus file ``out`` (replaced)."""
    say = progress or (lambda message: None)
    source, out = Path(source), Path(out)
    say("reading Supreme Court cases and opinions")
    cases = read_cases(source)
    say(f"  {len(cases.authorities)} cases")
    say("reading the Constitution")
    constitution, constitution_coverage = read_constitution(
        source / "constitution" / "constitution-uslm-hman117.xml"
    )
    say("reading the federal rules (the Civil Rules PDF takes a few seconds)")
    rules, rules_coverage, rules_templates = read_rules(source / "rules")
    say(f"  {len(rules)} rules")
    say("reading the U.S. Code")
    usc, usc_coverage, usc_templates, usc_notes = read_usc(source / "usc")
    say(f"  {len(usc)} titles and sections")

    authorities = cases.authorities + constitution + rules + usc
    coverage = cases.coverage + constitution_coverage + rules_coverage + usc_coverage
    templates = cases.templates + rules_templates + usc_templates
    notes = {**cases.notes, **usc_notes}

    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    partial.unlink(missing_ok=True)
    say(f"writing {out}")
    connection = sqlite3.connect(partial)
    try:
        connection.execute("PRAGMA journal_mode = OFF")
        connection.execute("PRAGMA synchronous = OFF")
        connection.execute("PRAGMA page_size = 4096")
        schema.create(connection)
        _write(connection, authorities, coverage, templates, notes)
        connection.commit()
        connection.execute("VACUUM")
    finally:
        connection.close()
    partial.replace(out)
    say(f"done: {out.stat().st_size / 1e6:.1f} MB")


def _write(
    connection: sqlite3.Connection,
    authorities: list[AuthorityRow],
    coverage: list[CoverageRow],
    templates: list[LinkTemplateRow],
    notes: dict[str, int],
) -> None:
    meta = {
        "sqlite_version": sqlite3.sqlite_version,
        "zlib_version": zlib.ZLIB_VERSION,
        "title": "citeverify embedded corpus",
        "built_from": "citeverify build-corpus over the project's public source data "
        "(see citeverify/data/README.md)",
        "build_notes": json.dumps(notes, sort_keys=True),
    }
    connection.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", sorted(meta.items()))
    connection.executemany("INSERT INTO courts (id, name, jurisdiction) VALUES (?, ?, ?)", COURTS)

    texts: list[tuple[int, bytes, str | None]] = []
    rows: list[tuple[object, ...]] = []
    citations: list[tuple[object, ...]] = []
    documents: list[tuple[object, ...]] = []
    identifiers: list[tuple[object, ...]] = []
    subdivisions: list[tuple[object, ...]] = []
    for authority_id, authority in enumerate(authorities, 1):
        text_id = None
        if authority.text is not None:
            text_id = len(texts) + 1
            body = zlib.compress(authority.text.body.encode("utf-8"), 9)
            pages = (
                json.dumps([list(p) for p in authority.text.pages])
                if authority.text.pages
                else None
            )
            texts.append((text_id, body, pages))
        rows.append(
            (
                authority_id,
                authority.kind,
                authority.reference,
                authority.name,
                authority.court_id,
                authority.decided,
                authority.docket,
                authority.status,
                authority.status_note,
                text_id,
                int(authority.subdivisions_complete),
            )
        )
        for rank, citation in enumerate(authority.citations):
            citations.append(
                (
                    citation.reporter,
                    citation.volume,
                    citation.page,
                    authority_id,
                    rank,
                    citation.cite,
                    citation.page_number,
                    citation.last_page,
                )
            )
        for rank, document in enumerate(authority.documents):
            official = None if document.official is None else int(document.official)
            documents.append(
                (authority_id, rank, document.provider, document.url, document.format, official)
            )
        identifiers.extend((authority_id, *ident) for ident in sorted(set(authority.identifiers)))
        subdivisions.extend(
            (authority_id, s.path, s.heading, s.start, s.end)
            for s in sorted(
                {s.path: s for s in authority.subdivisions}.values(), key=lambda s: s.path
            )
        )

    _many(connection, "INSERT INTO texts (id, body, pages) VALUES (?, ?, ?)", texts)
    _many(
        connection,
        "INSERT INTO authorities (id, kind, reference, name, court_id, decided, docket, status, "
        "status_note, text_id, subdivisions_complete) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    citations.sort(key=lambda c: (c[0], c[1], c[2], c[3]))  # the primary key's order
    _many(
        connection,
        "INSERT INTO citations (reporter, volume, page, authority_id, rank, cite, page_number, "
        "last_page) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        citations,
    )
    _many(
        connection,
        "INSERT INTO documents (authority_id, rank, provider, url, format, official) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        documents,
    )
    _many(
        connection,
        "INSERT INTO identifiers (authority_id, provider, kind, value) VALUES (?, ?, ?, ?)",
        identifiers,
    )
    _many(
        connection,
        'INSERT INTO subdivisions (authority_id, path, heading, start, "end") '
        "VALUES (?, ?, ?, ?, ?)",
        subdivisions,
    )
    ranks: dict[str, int] = {}
    template_rows = []
    for template in templates:
        rank = ranks.get(template.reporter, 0)
        ranks[template.reporter] = rank + 1
        official = None if template.official is None else int(template.official)
        template_rows.append(
            (
                template.reporter,
                rank,
                template.volume_first,
                template.volume_last,
                template.provider,
                template.url,
                template.format,
                official,
            )
        )
    _many(
        connection,
        "INSERT INTO link_templates (reporter, rank, volume_first, volume_last, provider, url, "
        "format, official) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        template_rows,
    )
    _many(
        connection,
        "INSERT INTO coverage (reporter, volume_first, volume_last, complete, number_limit, "
        "as_of, note) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (
                c.reporter,
                c.volume_first,
                c.volume_last,
                int(c.complete),
                c.number_limit,
                c.as_of,
                c.note,
            )
            for c in coverage
        ],
    )


def _many(connection: sqlite3.Connection, sql: str, rows: Sequence[tuple[object, ...]]) -> None:
    for start in range(0, len(rows), _BATCH):
        connection.executemany(sql, rows[start : start + _BATCH])


def logical_dump(path: Path) -> list[str]:
    """Every row of every table, in a stable order, as text (compressed texts decompressed).

    Two builds from the same sources give the same dump whatever SQLite or zlib
    wrote them; the build test compares dumps when it cannot compare bytes.
    """
    connection = sqlite3.connect(f"file:{Path(path).as_posix()}?mode=ro", uri=True)
    try:
        lines: list[str] = []
        for table in schema.TABLES:
            width = len(connection.execute(f"PRAGMA table_info({table})").fetchall())
            order = ", ".join(str(i) for i in range(1, width + 1))
            for row in connection.execute(f"SELECT * FROM {table} ORDER BY {order}"):
                if table == "meta" and row[0] in ("sqlite_version", "zlib_version"):
                    continue
                values = [
                    zlib.decompress(v).decode("utf-8") if isinstance(v, bytes) else v for v in row
                ]
                lines.append(f"{table}\t{json.dumps(values, ensure_ascii=False)}")
        return lines
    finally:
        connection.close()
