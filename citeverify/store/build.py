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
from collections.abc import Callable
from pathlib import Path

from citeverify.store import schema
from citeverify.store._cases import read_cases
from citeverify.store._enacted import read_constitution, read_rules, read_usc
from citeverify.store._writer import SqliteWriter, write_rows

__all__ = ["build_corpus", "logical_dump"]

Progress = Callable[[str], None]

COURTS = (
    ("congress", "United States Congress", "us"),
    ("scotus", "Supreme Court of the United States", "us"),
    ("united-states", "United States", "us"),
)


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
    writer = SqliteWriter(partial, page_size=4096)
    try:
        writer.tune_for_build()
        # One commit per CREATE, then one for every row: SQLite counts commits in the
        # file's header, so this order is part of the byte-identical output.
        writer.create_tables(schema.DDL)
        with writer.transaction():
            writer.record_schema_version()
            write_rows(writer, authorities, coverage, templates, courts=COURTS,
                       meta=_meta(notes))  # fmt: skip
        writer.vacuum()
    finally:
        writer.close()
    partial.replace(out)
    say(f"done: {out.stat().st_size / 1e6:.1f} MB")


def _meta(notes: dict[str, int]) -> dict[str, str]:
    return {
        "sqlite_version": sqlite3.sqlite_version,
        "zlib_version": zlib.ZLIB_VERSION,
        "title": "citeverify embedded corpus",
        "built_from": "citeverify build-corpus over the project's public source data "
        "(see citeverify/data/README.md)",
        "build_notes": json.dumps(notes, sort_keys=True),
    }


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
