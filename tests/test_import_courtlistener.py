"""Tests for the CourtListener bulk-data importer and its ``citeverify import`` command.

The tests write small dumps in the format CourtListener documents (PostgreSQL
``COPY ... CSV`` with a backtick as quote character, a header, values that may
span lines) with a writer of their own, then read the resulting store with
``LocalStore``.
"""

from __future__ import annotations

import bz2
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeverify.citations._types import CaseCitation
from citeverify.cli import main
from citeverify.importers import courtlistener as importer
from citeverify.importers.courtlistener import (
    DumpError,
    Progress,
    find_dump,
    import_courtlistener,
    read_rows,
)
from citeverify.providers._base import Found, LookupRequest, NotFound, OutsideCoverage
from citeverify.providers.local import LocalStore
from citeverify.store import schema

DATE = "2024-12-31"
Cell = str | int | None


def cell(value: Cell) -> str:
    """One value as PostgreSQL writes it: NULL bare and empty, quoted only when needed."""
    if value is None:
        return ""
    text = str(value)
    if text == "" or any(c in text for c in ",`\n\r"):
        return "`" + text.replace("`", "``") + "`"
    return text


def write_table(
    folder: Path,
    table: str,
    header: Sequence[str],
    rows: Iterable[Sequence[Cell]],
    *,
    compress: bool = False,
    date: str = DATE,
) -> Path:
    body = ",".join(header) + "\n" + "".join(",".join(cell(v) for v in r) + "\n" for r in rows)
    name = f"{table}-{date}.csv" + (".bz2" if compress else "")
    path = folder / name
    data = body.encode("utf-8")
    path.write_bytes(bz2.compress(data) if compress else data)
    return path


COURTS = [
    ("scotus", "Supreme Court of the United States", "SCOTUS", "F"),
    ("ca2", "Court of Appeals for the Second Circuit", "Second Circuit", "F"),
]
# id, court_id, docket_number (plus columns the importer must ignore)
DOCKETS = [
    (9001, "scotus", "07-1015"),
    (9002, "scotus", "05-1126"),
    (9005, "ca2", "13-4829"),
    (9007, "paed", "06-4925"),  # a court missing from the courts file
]
# id, case_name, case_name_full, case_name_short, date_filed, slug, docket_id
CLUSTERS = [
    (145875, "Ashcroft v. Iqbal", "Ashcroft, Former Attorney General v. Iqbal", "Iqbal",
     "2009-05-18", "ashcroft-v-iqbal", 9001),
    (145730, "Bell Atlantic Corp. v. Twombly", "", "Twombly", "2007-05-21",
     "bell-atlantic-corp-v-twombly", 9002),
    (770021, None, "Authors Guild v. Google, Inc.", "Authors Guild", "2015-10-16",
     "authors-guild-v-google-inc", 9005),
    (770041, "Bragg v. Linden Research, Inc.", None, None, "2007-05-30",
     "bragg-v-linden-research-inc", 9007),
]  # fmt: skip
# id, volume, reporter, page, type, cluster_id
CITATIONS = [
    (1, 173, "L. Ed. 2d", "868", 4, 145875),
    (2, 556, "U.S.", "662", 1, 145875),
    (3, 129, "S. Ct.", "1937", 4, 145875),
    (4, 550, "U.S.", "544", 1, 145730),
    (5, 127, "S. Ct.", "1955", 4, 145730),
    (6, 804, "F.3d", "202", 1, 770021),
    (7, 487, "F. Supp. 2d", "593", 1, 770041),
    (8, 2007, "WL", "1549135", 7, 770041),
    (9, 999, "F.3d", "1", 1, 424242),  # a cluster the dump does not hold
]


def write_dump(folder: Path, *, compress: bool = False, opinions: bool = False) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    write_table(
        folder,
        "courts",
        ["id", "full_name", "short_name", "jurisdiction", "notes"],
        [(i, f, s, j, "a note, with `ticks` and\nlines") for i, f, s, j in COURTS],
        compress=compress,
    )
    write_table(
        folder,
        "dockets",
        ["id", "date_created", "case_name", "court_id", "docket_number", "new_column"],
        [(i, "2020-01-01 00:00:00+00", "x, y", c, n, "ignored") for i, c, n in DOCKETS],
        compress=compress,
    )
    write_table(
        folder,
        "opinion-clusters",
        ["id", "judges", "date_filed", "slug", "case_name_short", "case_name",
         "case_name_full", "syllabus", "docket_id"],
        [
            (i, "Kennedy", d, slug, short, name, full, "Held:\n`quoted`, and more", docket)
            for i, name, full, short, d, slug, docket in CLUSTERS
        ],
        compress=compress,
    )  # fmt: skip
    write_table(
        folder,
        "citations",
        ["id", "volume", "reporter", "page", "type", "cluster_id"],
        CITATIONS,
        compress=compress,
    )
    if opinions:
        html = (
            "<p>Justice KENNEDY delivered the opinion of the Court. "
            '<span class="star-pagination" label="678">*678</span> To survive a motion to '
            "dismiss, a complaint must contain sufficient factual matter.</p>"
        )
        write_table(
            folder,
            "opinions",
            ["id", "type", "plain_text", "html", "html_with_citations", "cluster_id"],
            [
                (145877, "040dissent", "Justice SOUTER, dissenting.", "", "", 145875),
                (145876, "020lead", "", "", html, 145875),
                (145731, "010combined", "Factual allegations must be enough.", "", "", 145730),
                (1, "020lead", "orphan", "", "", 555555),
            ],
            compress=compress,
        )
    return folder


def case(volume: str, reporter: str, page: str, system: str = "us-reporter") -> LookupRequest:
    text = f"{volume} {reporter} {page}"
    return LookupRequest(
        CaseCitation(
            raw=text, normalized=text, system=system, volume=volume, reporter=reporter, page=page
        )
    )


def tables(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every schema table, sorted (meta's file names and versions left out)."""
    db = sqlite3.connect(path)
    try:
        out = {t: sorted(db.execute(f"SELECT * FROM {t}").fetchall()) for t in schema.TABLES}
    finally:
        db.close()
    out["meta"] = [r for r in out["meta"] if r[0] not in ("sqlite_version", "built_from")]
    return out


@pytest.fixture
def store(tmp_path: Path) -> Path:
    out = tmp_path / "store.sqlite3"
    import_courtlistener(write_dump(tmp_path / "dump"), out)
    return out


class TestFindDump:
    def test_newest_file_of_each_table(self, tmp_path: Path) -> None:
        """The newest dated file of each table is chosen, compressed or not."""
        write_table(tmp_path, "citations", ["id"], [], date="2023-12-31")
        newer = write_table(tmp_path, "citations", ["id"], [], date="2024-03-31", compress=True)
        (tmp_path / "citations-notes.txt").write_text("not a dump file")
        found = find_dump(tmp_path)
        assert found.get("citations") == newer
        assert found.date == "2024-03-31"
        assert found.get("opinions") is None

    def test_missing_folder(self, tmp_path: Path) -> None:
        """A folder that does not exist is a DumpError."""
        with pytest.raises(DumpError):
            find_dump(tmp_path / "nowhere")


class TestReadRows:
    def test_backticks_commas_and_lines(self, tmp_path: Path) -> None:
        """Quoted values keep commas, doubled backticks and line breaks; NULL reads as empty."""
        path = write_table(
            tmp_path,
            "courts",
            ["id", "notes", "url"],
            [("a", "x, `y`\nz", None), ("b", "", "http://b")],
        )
        rows = [(header, row) for header, row, _, _ in read_rows(path)]
        assert rows[0][0] == ["id", "notes", "url"]
        assert [r for _, r in rows] == [["a", "x, `y`\nz", ""], ["b", "", "http://b"]]

    @pytest.mark.parametrize("compress", [False, True])
    def test_resume_from_a_position(self, tmp_path: Path, compress: bool) -> None:
        """Reading from a reported position yields exactly the rows after it."""
        path = write_table(
            tmp_path,
            "citations",
            ["id", "note"],
            [(i, f"line {i}\nspans, `two`") for i in range(50)],
            compress=compress,
        )
        everything = [(row, at) for _, row, at, _ in read_rows(path)]
        middle = everything[19][1]
        rest = [row for _, row, _, _ in read_rows(path, start=middle)]
        assert rest == [row for row, _ in everything[20:]]

    @settings(max_examples=50, deadline=None)
    @given(
        st.lists(
            st.lists(st.text(alphabet="ab`,\n\r x\u00e9\"'", max_size=8), min_size=3, max_size=3),
            max_size=12,
        )
    )
    def test_round_trip(
        self, tmp_path_factory: pytest.TempPathFactory, rows: list[list[str]]
    ) -> None:
        """Whatever the values, what PostgreSQL's CSV format holds is what is read back."""
        folder = tmp_path_factory.mktemp("rt")
        path = write_table(folder, "courts", ["a", "b", "c"], rows)
        back = [row for _, row, _, _ in read_rows(path)]
        # Bare \r inside quoted values is kept; an empty value reads back as "".
        assert back == rows


class TestImport:
    def test_cases_are_found_with_name_court_date_and_parallels(self, store: Path) -> None:
        """An imported case answers with its name, court, filing date and every citation."""
        local = LocalStore(store)
        (answer,) = local.lookup([case("556", "U.S.", "662")])
        assert isinstance(answer, Found)
        (authority,) = answer.authorities
        assert authority.name == "Ashcroft v. Iqbal"
        assert authority.reference == "courtlistener:cluster:145875"
        assert authority.court.name == "Supreme Court of the United States"
        assert authority.court.jurisdiction == "us"
        assert str(authority.decided) == "2009-05-18"
        assert authority.docket == "07-1015"
        # CourtListener type order (official first), then by reporter.
        assert authority.citations == ("556 U.S. 662", "173 L. Ed. 2d 868", "129 S. Ct. 1937")
        (document,) = [d for d in authority.documents if d.provider == "courtlistener"]
        assert document.url == "https://www.courtlistener.com/opinion/145875/ashcroft-v-iqbal/"
        assert [(i.kind, i.id) for i in document.identifiers or ()] == [("cluster", "145875")]
        assert answer.as_of == f"{DATE}T00:00:00Z"

    def test_parallel_citation_finds_the_same_case(self, store: Path) -> None:
        """A parallel citation resolves to the same authority."""
        answers = LocalStore(store).lookup(
            [case("129", "S. Ct.", "1937"), case("556", "U.S.", "662")]
        )
        refs = [a.authorities[0].reference for a in answers if isinstance(a, Found)]
        assert refs == ["courtlistener:cluster:145875"] * 2

    def test_names_fall_back_and_courts_fill_in(self, store: Path) -> None:
        """Without case_name the full name is used; an unlisted court gets courts-db's name."""
        local = LocalStore(store)
        guild, bragg = local.lookup([case("804", "F.3d", "202"), case("487", "F. Supp. 2d", "593")])
        assert isinstance(guild, Found)
        assert isinstance(bragg, Found)
        assert guild.authorities[0].name == "Authors Guild v. Google, Inc."
        assert guild.authorities[0].court.jurisdiction == "us-ca2"
        court = bragg.authorities[0].court
        assert court.jurisdiction == "us-paed"
        assert court.name
        assert "Pennsylvania" in court.name

    def test_coverage_from_the_dump(self, store: Path) -> None:
        """A miss in a reporter the dump holds is NotFound; Westlaw and absent reporters are not."""
        answers = LocalStore(store).lookup(
            [
                case("925", "F.3d", "1339"),
                case("2019", "WL", "1", system="westlaw"),
                case("1", "Cal. 4th", "1"),
            ]
        )
        assert isinstance(answers[0], NotFound)
        assert isinstance(answers[1], OutsideCoverage)
        assert isinstance(answers[2], OutsideCoverage)

    def test_citations_of_unknown_clusters_are_skipped(self, store: Path) -> None:
        """A citation whose cluster is not in the dump is not imported."""
        with sqlite3.connect(store) as db:
            orphans = db.execute(
                "SELECT COUNT(*) FROM citations WHERE authority_id NOT IN "
                "(SELECT id FROM authorities)"
            ).fetchone()[0]
            count = db.execute("SELECT COUNT(*) FROM citations").fetchone()[0]
        assert orphans == 0
        assert count == len(CITATIONS) - 1

    def test_ranks_start_at_zero_with_official_reporters_first(self, store: Path) -> None:
        """Each case's citations are ranked 0, 1, 2... in CourtListener type order."""
        with sqlite3.connect(store) as db:
            rows = db.execute(
                "SELECT reporter, rank FROM citations WHERE authority_id = 145875 ORDER BY rank"
            ).fetchall()
        assert rows[0][0] == "U.S."
        assert [n for _, n in rows] == [0, 1, 2]

    def test_store_is_a_single_readonly_file_with_schema_indexes(self, store: Path) -> None:
        """The finished store has the schema's indexes, no staging tables and no WAL file."""
        with sqlite3.connect(store) as db:
            names = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
            mode = db.execute("PRAGMA journal_mode").fetchone()[0]
        assert {"citations_by_authority", "citations_by_page"} <= names
        assert "_import_dockets" not in names
        assert mode == "delete"
        assert not Path(str(store) + "-wal").exists()

    def test_compressed_dump_gives_the_same_store(self, tmp_path: Path, store: Path) -> None:
        """A .csv.bz2 dump imports to the same content as the plain one."""
        out = tmp_path / "bz2.sqlite3"
        import_courtlistener(write_dump(tmp_path / "bz2", compress=True), out)
        assert tables(out) == tables(store)

    def test_opinions_give_texts_with_pages(self, tmp_path: Path) -> None:
        """With opinions, a case's text is its lead opinion, with star pages."""
        out = tmp_path / "texts.sqlite3"
        import_courtlistener(write_dump(tmp_path / "dump", opinions=True), out, opinions=True)
        local = LocalStore(out)
        iqbal, twombly = local.lookup([case("556", "U.S.", "662"), case("550", "U.S.", "544")])
        assert isinstance(iqbal, Found)
        assert isinstance(twombly, Found)
        text = iqbal.authorities[0].text()
        assert text is not None
        assert text.text.startswith("Justice KENNEDY delivered the opinion")
        assert [p for _, p in text.pages] == [678]
        assert text.text[text.pages[0][0] :].startswith("To survive")
        other = twombly.authorities[0].text()
        assert other is not None
        assert other.text == "Factual allegations must be enough."

    def test_opinions_are_skipped_unless_asked(self, tmp_path: Path) -> None:
        """Without ``opinions=True`` the opinions file is not read."""
        report = import_courtlistener(write_dump(tmp_path / "d", opinions=True), tmp_path / "s")
        assert "opinions" in report.skipped
        with sqlite3.connect(tmp_path / "s") as db:
            assert db.execute("SELECT COUNT(*) FROM texts").fetchone()[0] == 0

    def test_rerunning_a_finished_import_does_nothing(self, tmp_path: Path, store: Path) -> None:
        """A second run over a finished store reads no rows and changes nothing."""
        before = tables(store)
        report = import_courtlistener(tmp_path / "dump", store)
        assert report.rows == {}
        assert report.complete
        assert tables(store) == before

    def test_missing_required_file(self, tmp_path: Path) -> None:
        """A dump without its citations file is refused before anything is written."""
        folder = write_dump(tmp_path / "dump")
        next(folder.glob("citations-*")).unlink()
        with pytest.raises(DumpError, match="citations"):
            import_courtlistener(folder, tmp_path / "out.sqlite3")
        assert not (tmp_path / "out.sqlite3").exists()

    def test_foreign_store_is_refused(self, tmp_path: Path) -> None:
        """An existing store the importer did not start is not written into."""
        out = tmp_path / "corpus.sqlite3"
        with sqlite3.connect(out) as db:
            schema.create(db)
        with pytest.raises(DumpError, match="not written by this importer"):
            import_courtlistener(write_dump(tmp_path / "dump"), out)

    def test_changed_dump_is_refused_while_an_import_is_unfinished(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Resuming an interrupted import from a different file than the one started from
        is refused (a finished store is updated instead: see test_pgstore)."""
        folder = write_dump(tmp_path / "dump")
        out = tmp_path / "out.sqlite3"

        def failing(self: Any) -> None:
            raise _Interrupt

        with monkeypatch.context() as patch:
            patch.setattr(importer._Citations, "flush", failing)
            with pytest.raises(_Interrupt):
                import_courtlistener(folder, out)
        write_table(folder, "citations", ["id", "volume", "reporter", "page", "type",
                                          "cluster_id"], CITATIONS * 2)  # fmt: skip
        with pytest.raises(DumpError, match="started from"):
            import_courtlistener(folder, out)


class _Interrupt(Exception):
    pass


class TestResume:
    @pytest.mark.parametrize("compress", [False, True])
    def test_interrupted_import_resumes_to_the_same_store(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compress: bool
    ) -> None:
        """An import stopped mid-file resumes where it stopped and ends with the same store."""
        folder = write_dump(tmp_path / "dump", compress=compress)
        many = [(100 + i, 700 + i, "F.3d", str(10 * i), 1, 145730) for i in range(500)]
        write_table(
            folder,
            "citations",
            ["id", "volume", "reporter", "page", "type", "cluster_id"],
            CITATIONS + many,
            compress=compress,
        )
        whole = tmp_path / "whole.sqlite3"
        import_courtlistener(folder, whole, batch_rows=50)

        original = importer._Citations.flush
        calls = {"n": 0}

        def failing(self: Any) -> None:
            calls["n"] += 1
            if calls["n"] == 4:
                raise _Interrupt
            original(self)

        monkeypatch.setattr(importer._Citations, "flush", failing)
        out = tmp_path / "resumed.sqlite3"
        with pytest.raises(_Interrupt):
            import_courtlistener(folder, out, batch_rows=50)
        monkeypatch.setattr(importer._Citations, "flush", original)
        db = sqlite3.connect(out)
        (position,) = db.execute(
            "SELECT position FROM _import_progress WHERE phase = 'citations'"
        ).fetchone()
        db.close()
        assert position > 0
        report = import_courtlistener(folder, out, batch_rows=50)
        assert report.resumed == ["citations"]
        assert report.rows["citations"] == len(CITATIONS) + len(many) - 150
        assert "dockets" not in report.rows
        assert tables(out) == tables(whole)

    def test_progress_is_reported(self, tmp_path: Path) -> None:
        """Progress reaches the end of each phase with the row count."""
        seen: list[Progress] = []
        import_courtlistener(write_dump(tmp_path / "dump"), tmp_path / "s", progress=seen.append)
        finals = {p.phase: p.rows for p in seen if p.done}
        assert finals == {
            "courts": len(COURTS),
            "dockets": len(DOCKETS),
            "opinion-clusters": len(CLUSTERS),
            "citations": len(CITATIONS),
        }


class TestCommand:
    def test_import_command(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """``citeverify import courtlistener`` builds the store and reports on stderr."""
        out = tmp_path / "cli.sqlite3"
        code = main(["import", "courtlistener", "--dir", str(write_dump(tmp_path / "d")),
                     "--out", str(out)])  # fmt: skip
        assert code == 0
        assert isinstance(LocalStore(out).lookup([case("550", "U.S.", "544")])[0], Found)
        err = capsys.readouterr().err
        assert "citations" in err
        assert "imported into" in err

    def test_missing_dump_is_exit_code_2(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A folder without a dump is a usage error (exit code 2) with a message."""
        code = main(["import", "courtlistener", "--dir", str(tmp_path), "--out",
                     str(tmp_path / "o"), "--quiet"])  # fmt: skip
        assert code == 2
        assert "no dockets" in capsys.readouterr().err

    def test_import_without_source_prints_help(self, capsys: pytest.CaptureFixture[str]) -> None:
        """``citeverify import`` alone prints its help and exits 2."""
        assert main(["import"]) == 2
        assert "courtlistener" in capsys.readouterr().err
