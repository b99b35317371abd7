"""Tests for the corpus build step: determinism, the parsers it relies on, the schema."""

from __future__ import annotations

import sqlite3
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeverify.store import schema
from citeverify.store._cases import _clean_pages, nominative_for
from citeverify.store._enacted import _expand, to_roman
from citeverify.store._subdivisions import roman_value, subdivisions
from citeverify.store.build import build_corpus, logical_dump

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT.parent / "shared" / "data"
CORPUS = ROOT / "citeverify" / "data" / "corpus.sqlite3"

needs_source = pytest.mark.skipif(
    not SOURCE.is_dir(), reason="the source data folder ../shared/data is not present"
)


def _meta(path: Path) -> dict[str, str]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
        return dict(connection.execute("SELECT key, value FROM meta").fetchall())


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus rebuilt from the sources into a temporary folder (about 6 s)."""
    out = tmp_path_factory.mktemp("corpus") / "corpus.sqlite3"
    build_corpus(SOURCE, out)
    return out


@needs_source
class TestBuildCorpus:
    def test_committed_corpus_is_what_the_sources_build(self, rebuilt: Path) -> None:
        """The committed file equals a rebuild: bytes with the same libraries, else every row.

        The SQLite header and zlib's output depend on the library versions, which the
        file records; under other versions the logical dump (texts decompressed) must match.
        """
        committed = _meta(CORPUS)
        same_libraries = (
            committed.get("sqlite_version") == sqlite3.sqlite_version
            and committed.get("zlib_version") == zlib.ZLIB_VERSION
        )
        if same_libraries:
            assert rebuilt.read_bytes() == CORPUS.read_bytes()
        else:
            assert logical_dump(rebuilt) == logical_dump(CORPUS)

    def test_rebuild_records_schema_and_libraries(self, rebuilt: Path) -> None:
        """The built file names its schema version and the library versions that wrote it."""
        meta = _meta(rebuilt)
        assert meta["schema_version"] == str(schema.SCHEMA_VERSION)
        assert meta["sqlite_version"] == sqlite3.sqlite_version
        assert meta["zlib_version"] == zlib.ZLIB_VERSION

    def test_corpus_is_small_enough_to_ship(self) -> None:
        """The corpus compresses to well under the 30 MB wheel budget."""
        assert len(zlib.compress(CORPUS.read_bytes(), 6)) < 20_000_000

    def test_build_command_rejects_a_missing_source(self, tmp_path: Path) -> None:
        """``citeverify build-corpus`` exits 2 when the source folder does not exist."""
        from citeverify.cli import main

        assert main(["build-corpus", "--source", str(tmp_path / "nope"), "--out", "x"]) == 2


class TestSchema:
    def test_create_makes_every_table_and_records_version(self) -> None:
        """``create`` builds all tables of the schema and stores ``SCHEMA_VERSION``."""
        connection = sqlite3.connect(":memory:")
        schema.create(connection)
        names = {r[0] for r in connection.execute("SELECT name FROM sqlite_master")}
        assert set(schema.TABLES) <= names
        version = connection.execute("SELECT value FROM meta WHERE key='schema_version'")
        assert version.fetchone() == (str(schema.SCHEMA_VERSION),)


class TestNominative:
    @pytest.mark.parametrize(
        ("volume", "expected"),
        [
            (1, ("Dall.", 1)),
            (4, ("Dall.", 4)),
            (5, ("Cranch", 1)),
            (13, ("Cranch", 9)),
            (14, ("Wheat.", 1)),
            (41, ("Pet.", 16)),
            (65, ("How.", 24)),
            (67, ("Black", 2)),
            (90, ("Wall.", 23)),
            (91, None),
        ],
    )
    def test_maps_us_volume_to_nominative(self, volume: int, expected: object) -> None:
        """U.S. volumes 1-90 map to Dallas ... Wallace; later volumes have no nominative form."""
        assert nominative_for(volume) == expected


class TestCleanPages:
    def test_first_page_at_zero_and_strictly_ascending(self) -> None:
        """Repeated pages and two pages at one offset collapse to strictly ascending pairs."""
        pages = _clean_pages(322, [[292, 323], [293, 324], [293, 325], [918, 326], [918, 326]])
        assert pages == ((0, 322), (292, 323), (293, 325), (918, 326))


class TestExpandRanges:
    @pytest.mark.parametrize(
        ("first", "last", "expected"),
        [
            ("202", "204", ["202", "203", "204"]),
            ("5", "5b", ["5", "5a", "5b"]),
            ("1a-1", "1a-3", ["1a-1", "1a-2", "1a-3"]),
            ("10a", "10c", ["10a", "10b", "10c"]),
            ("17xxx", "17cccc", None),
        ],
    )
    def test_range_rows(self, first: str, last: str, expected: list[str] | None) -> None:
        """A range row expands when both ends can be enumerated, else it is left alone."""
        assert _expand(first, last) == expected


class TestRoman:
    @given(st.integers(min_value=1, max_value=399))
    def test_round_trip(self, number: int) -> None:
        """Roman numerals read back as the number they were written from."""
        assert roman_value(to_roman(number)) == number
        assert roman_value(to_roman(number).lower()) == number

    def test_rejects_non_numerals(self) -> None:
        """Letters that are not a well-formed numeral have no value."""
        assert roman_value("iiii") is None
        assert roman_value("b") is None


_LEVEL_LABELS = (
    lambda n: chr(96 + n),
    str,
    lambda n: chr(64 + n),
    lambda n: to_roman(n).lower(),
)

_trees = st.recursive(
    st.just([]),
    lambda children: st.lists(children, min_size=1, max_size=4),
    max_leaves=25,
)


def _render(tree: list[object], depth: int, path: tuple[str, ...], out: list[str]) -> list[str]:
    paths: list[str] = []
    for index, child in enumerate(tree, 1):
        label = _LEVEL_LABELS[depth](index)
        here = (*path, label)
        out.append(f"({label}) Text of {'/'.join(here)} under Rule 4(f)(2) and (b).")
        paths.append("/".join(here))
        if depth + 1 < len(_LEVEL_LABELS):
            paths += _render(child, depth + 1, here, out)  # type: ignore[arg-type]
    return paths


class TestSubdivisions:
    @settings(max_examples=60, deadline=None)
    @given(_trees)
    def test_rendered_trees_read_back(self, tree: list[object]) -> None:
        """Any (a)(1)(A)(i) tree written one subdivision a line is read back exactly."""
        lines: list[str] = []
        expected = _render(tree, 0, (), lines)
        assert [row.path for row in subdivisions("\n".join(lines))] == expected

    def test_cross_references_are_not_subdivisions(self) -> None:
        """Markers inside references ("Rule 4(f)(2)", "under (f)(2)") are ignored."""
        text = "(a) In General. See Rule 4(f)(2) and service under (f)(2)(C)(i).\n(b) Other."
        assert [r.path for r in subdivisions(text)] == ["a", "b"]

    def test_inline_siblings_after_punctuation(self) -> None:
        """Siblings run together on one line after a semicolon are split."""
        text = "(a) Papers.\n(1) The following:\n(A) an order; (B) a pleading; and (C) a paper."
        assert [r.path for r in subdivisions(text)] == ["a", "a/1", "a/1/A", "a/1/B", "a/1/C"]

    def test_spans_nest_and_headings_are_read(self) -> None:
        """A subdivision's span covers its children; a Title-case lead-in is its heading."""
        text = "(a) Scope. These rules apply.\n(1) first;\n(2) second.\n(b) Definitions. Words."
        rows = {r.path: r for r in subdivisions(text)}
        assert rows["a"].heading == "Scope"
        assert text[rows["a"].start : rows["a"].end].endswith("(2) second.")
        assert text[rows["b"].start : rows["b"].end] == "(b) Definitions. Words."


class TestNamedCases:
    """How the Lone Dissent names meet the date list's dates (``_named_cases``)."""

    def test_list_date_wins_over_a_wrong_year(self) -> None:
        """A name whose year is off takes the date list's date for its page."""
        from citeverify.store._cases import _named_cases

        notes: dict[str, int] = {}
        [row] = _named_cases(
            100, 100, [("Smith v. Jones", 1979)], ["1879-10-20"], (1879, 1880), notes
        )
        assert (row.name, row.decided, row.reference) == (
            "Smith v. Jones",
            "1879-10-20",
            "us:100:100",
        )
        assert [c.cite for c in row.citations] == ["100 U.S. 100"]
        assert notes["lonedissent_years_replaced"] == 1

    def test_shared_page_gives_each_case_its_own_year(self) -> None:
        """Cases of two years on one page keep their own; the list's date goes to its year."""
        from citeverify.store._cases import _named_cases

        rows = _named_cases(
            2,
            401,
            [("Vanstophorst v. Maryland", 1791), ("Oswald v. New York", 1792)],
            ["1792-02-14"],
            (1791, 1793),
            {},
        )
        assert [(r.name, r.decided) for r in rows] == [
            ("Vanstophorst v. Maryland", "1791-01-01"),
            ("Oswald v. New York", "1792-02-14"),
        ]
        assert [r.reference for r in rows] == ["us:2:401", "us:2:401:2"]
        assert rows[0].citations[1].cite == "2 Dall. 401"

    def test_page_only_the_name_list_has(self) -> None:
        """With no listed date a plausible year is kept (1 January), an implausible one dropped."""
        from citeverify.store._cases import _named_cases

        notes: dict[str, int] = {}
        [kept] = _named_cases(150, 7, [("A v. B", 1893)], [], (1893, 1894), notes)
        [dropped] = _named_cases(301, 148, [("C v. D", 1837)], [], (1937, 1937), notes)
        assert kept.decided == "1893-01-01"
        assert dropped.decided is None
        assert notes["lonedissent_years_dropped"] == 1
