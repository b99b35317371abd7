"""The authority store in PostgreSQL, and stores updated in place (SQLite and PostgreSQL)."""

# ruff: noqa: F811  (pytest fixtures imported from tests.conftest_http)

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

import citeverify
from citeverify.cli import main
from citeverify.importers.courtlistener import DumpError, import_courtlistener
from citeverify.providers._base import Found
from citeverify.providers._config import (
    ProviderConfigError,
    configured_provider,
    provider_from_env,
)
from citeverify.providers.local import LocalStore, _embedded_path
from citeverify.store import schema
from citeverify.store._writer import (
    StoreLocationError,
    copy_store,
    open_writer,
    postgres_ddl,
    redact_url,
)
from citeverify.testing import ProviderContract
from tests.conftest_http import fresh_postgres_database, postgres_url  # noqa: F401
from tests.test_import_courtlistener import (
    CITATIONS,
    CLUSTERS,
    DATE,
    case,
    write_dump,
    write_table,
)

CITATION_HEADER = ["id", "volume", "reporter", "page", "type", "cluster_id"]
CLUSTER_HEADER = ["id", "judges", "date_filed", "slug", "case_name_short", "case_name",
                  "case_name_full", "syllabus", "docket_id"]  # fmt: skip

# A spread of verdicts: found, parallel, inside a case, missing, outside coverage,
# statutes, rules (with subdivisions) and the Constitution.
ITEMS: list[dict[str, Any]] = [
    {"id": "1", "type": "case", "rawText": "410 U.S. 113"},
    {"id": "2", "type": "case", "rawText": "93 S. Ct. 705"},
    {"id": "3", "type": "case", "rawText": "410 U.S. 120"},
    {"id": "4", "type": "case", "rawText": "410 U.S. 9999"},
    {"id": "5", "type": "case", "rawText": "925 F.3d 1339"},
    {"id": "6", "type": "case", "rawText": "5 U.S. 137"},
    {"id": "7", "type": "statute", "rawText": "42 U.S.C. § 1983"},
    {"id": "8", "type": "statute", "rawText": "42 U.S.C. § 99999"},
    {"id": "9", "type": "rule", "rawText": "Fed. R. Civ. P. 12(b)(6)"},
    {"id": "10", "type": "rule", "rawText": "Fed. R. Civ. P. 12(z)"},
    {"id": "11", "type": "constitution", "rawText": "U.S. Const. art. I, § 8, cl. 3"},
    {"id": "12", "type": "constitution", "rawText": "U.S. Const. amend. XXX"},
    {"id": "13", "type": "case", "rawText": "Roe v. Wade, 410 U.S. 113, 153 (1973)"},
]


def results(provider: Any) -> list[dict[str, Any]]:
    """The verdicts, with the store's own name (file or database) made generic."""
    out = citeverify.verify_request({"items": ITEMS}, provider=provider)
    return list(json.loads(_generic(json.dumps(out["results"]), provider)))


def _generic(text: str, provider: Any) -> str:
    return text.replace(provider._where(), "<the store>")


def _answers(provider: Any) -> list[Any]:
    requests = [case(str(v), r, p) for _, v, r, p, _, _ in CITATIONS if r != "WL"]
    requests += [case("925", "F.3d", "1339"), case("1", "Cal. 4th", "1")]
    return [
        attrs.evolve(a, message=_generic(a.message, provider)) if hasattr(a, "message") else a
        for a in provider.lookup(requests)
    ]


@pytest.fixture(scope="module")
def pg_corpus(postgres_url: str) -> str:
    """A PostgreSQL store holding a copy of the embedded corpus."""
    url = fresh_postgres_database(postgres_url)
    writer = open_writer(url)
    try:
        writer.create_schema()
        copy_store(_embedded_path(), writer)
    finally:
        writer.close()
    return url


# --- the writer ----------------------------------------------------------------------------


class TestWriter:
    def test_postgres_ddl_keeps_every_table_and_byte_order(self) -> None:
        """The derived DDL has every table, no SQLite-only syntax, and C collation on text."""
        ddl = postgres_ddl(schema.DDL)
        for table in schema.TABLES:
            assert f"CREATE TABLE {table} (" in ddl
        assert "WITHOUT ROWID" not in ddl
        assert "BLOB" not in ddl
        assert ddl.count('COLLATE "C"') == schema.DDL.count(" TEXT")
        assert "rowid BIGSERIAL" in ddl

    @pytest.mark.parametrize("location", ["mysql://db/x", "https://example.com/s", "sqlite://x"])
    def test_other_urls_are_refused(self, tmp_path: Path, location: str) -> None:
        """A URL that is not PostgreSQL's is refused, not taken as a file name."""
        with pytest.raises(StoreLocationError, match="postgresql://"):
            open_writer(location)

    def test_redact_url_drops_the_password(self) -> None:
        assert redact_url("postgresql://u:secret@h:5/db") == "postgresql://u:***@h:5/db"
        assert redact_url("postgresql://u@h/db") == "postgresql://u@h/db"


# --- reading a PostgreSQL store ----------------------------------------------------------


@pytest.mark.postgres
class TestPostgresStore:
    def test_same_verdicts_as_the_sqlite_corpus(self, pg_corpus: str) -> None:
        """Every verdict, message and authority is the one the embedded corpus gives."""
        from citeverify.providers.postgres import PostgresStore

        store = PostgresStore(pg_corpus)
        try:
            expected = results(LocalStore())
            got = results(store)
        finally:
            store.close()
            statuses = [r["verdict"]["status"] for r in expected]
        assert statuses.count("verified") >= 4  # a real mix of verdicts
        assert len(set(statuses)) >= 2
        assert got == expected

    def test_texts_and_quotes_come_from_postgres(self, pg_corpus: str) -> None:
        """Texts (zlib bytes in BYTEA) load, and a quotation is found as in the file."""
        from citeverify.providers.postgres import PostgresStore

        store = PostgresStore(pg_corpus)
        try:
            (answer,) = store.lookup([case("238", "U.S.", "264")])
            assert isinstance(answer, Found)
            text = answer.authorities[0].text()
            (local,) = LocalStore().lookup([case("238", "U.S.", "264")])
            assert isinstance(local, Found)
            assert text is not None
            assert text == local.authorities[0].text()
            assert text.pages[0] == (0, 264)
            quote = " ".join(text.text.split()[60:75])
            found = store.find_quote(quote)
            assert found is not None
            assert found.reference == answer.authorities[0].reference
            assert store.find_quote(quote) == LocalStore().find_quote(quote)
        finally:
            store.close()

    def test_store_setting_selects_postgres(self, pg_corpus: str) -> None:
        """``--store``/``CITEVERIFY_STORE`` with a URL gives a checked PostgresStore."""
        from citeverify.providers.postgres import PostgresStore

        provider = provider_from_env({"CITEVERIFY_STORE": pg_corpus}, check=True)
        assert isinstance(provider, PostgresStore)
        provider.close()

    def test_unreachable_server_is_a_config_error(self) -> None:
        """A server start on a store that cannot be reached fails with a one-line reason."""
        from tests.conftest_http import free_port

        url = f"postgresql://cv:pw@127.0.0.1:{free_port()}/nothing"
        with pytest.raises(ProviderConfigError, match="cannot be served") as info:
            configured_provider(store=url, check=True)
        assert "pw" not in str(info.value)

    def test_unreachable_server_answers_unavailable(self) -> None:
        """Lookups on a store that is down are Unavailable (bounded by the pool timeout)."""
        from citeverify.providers._base import Unavailable
        from citeverify.providers.postgres import PostgresStore
        from tests.conftest_http import free_port

        store = PostgresStore(f"postgresql://cv@127.0.0.1:{free_port()}/x", timeout=1)
        try:
            (answer,) = store.lookup([case("410", "U.S.", "113")])
        finally:
            store.close()
        assert isinstance(answer, Unavailable)


@pytest.mark.postgres
class TestPostgresContract(ProviderContract):
    """The provider contract suite over the PostgreSQL copy of the corpus."""

    known_citations = ("410 U.S. 113", "93 S. Ct. 705", "5 U.S. 137")
    unknown_citations = ("410 U.S. 9999", "925 F.3d 1339")

    @pytest.fixture(autouse=True)
    def _url(self, pg_corpus: str) -> None:
        self.url = pg_corpus

    def make_provider(self) -> Any:
        from citeverify.providers.postgres import PostgresStore

        return PostgresStore(self.url)


def test_other_store_urls_are_refused() -> None:
    """``--store https://...`` is a configuration error, not a missing file."""
    with pytest.raises(ProviderConfigError, match="postgresql://"):
        configured_provider(store="https://example.com/store.sqlite3")


# --- importing into PostgreSQL -------------------------------------------------------------


@pytest.mark.postgres
class TestImportToPostgres:
    def test_import_gives_the_answers_of_the_sqlite_import(
        self, tmp_path: Path, postgres_url: str
    ) -> None:
        """The same dump imported into PostgreSQL answers exactly as the SQLite store."""
        from citeverify.providers.postgres import PostgresStore

        dump = write_dump(tmp_path / "dump", opinions=True)
        sqlite_store = tmp_path / "store.sqlite3"
        import_courtlistener(dump, sqlite_store, opinions=True)
        url = fresh_postgres_database(postgres_url)
        report = import_courtlistener(dump, url, opinions=True)
        assert report.complete
        store = PostgresStore(url)
        try:
            got = _answers(store)
            (iqbal,) = store.lookup([case("556", "U.S.", "662")])
            assert isinstance(iqbal, Found)
            text = iqbal.authorities[0].text()
        finally:
            store.close()
        assert got == _answers(LocalStore(sqlite_store))
        assert text is not None
        assert text.text.startswith("Justice KENNEDY")

    @pytest.mark.parametrize("option", ["--to", "--out"])
    def test_command_writes_to_postgres(
        self, tmp_path: Path, postgres_url: str, option: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """``--to URL`` (and a URL given to ``--out``) reach PostgreSQL; no file is made."""
        from citeverify.providers.postgres import PostgresStore

        monkeypatch.chdir(tmp_path)
        url = fresh_postgres_database(postgres_url)
        dump = write_dump(tmp_path / "d")
        assert main(["import", "courtlistener", "--dir", str(dump), option, url, "--quiet"]) == 0
        assert not (tmp_path / "postgresql:").exists()
        store = PostgresStore(url)
        try:
            assert isinstance(store.lookup([case("550", "U.S.", "544")])[0], Found)
        finally:
            store.close()


class TestImportCommandLocations:
    def test_other_url_in_out_is_refused(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """``--out mysql://...`` exits 2 with a message and writes nothing."""
        monkeypatch.chdir(tmp_path)
        dump = write_dump(tmp_path / "d")
        code = main(["import", "courtlistener", "--dir", str(dump), "--out", "mysql://h/db"])
        assert code == 2
        assert "postgresql://" in capsys.readouterr().err
        assert not (tmp_path / "mysql:").exists()

    def test_to_needs_a_postgres_url(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """``--to`` takes a database URL; a file path there is refused."""
        dump = write_dump(tmp_path / "d")
        code = main(["import", "courtlistener", "--dir", str(dump), "--to", str(tmp_path / "x")])
        assert code == 2
        assert "--out" in capsys.readouterr().err
        assert not (tmp_path / "x").exists()


# --- updating in place -------------------------------------------------------------------

NEW_DATE = "2025-03-31"


def write_newer_dump(folder: Path) -> Path:
    """The test dump a quarter later: Iqbal renamed, and a new parallel citation for it."""
    write_dump(folder)
    for old in folder.iterdir():
        old.rename(folder / old.name.replace(DATE, NEW_DATE))
    clusters = [
        (i, "Kennedy", d, slug, short,
         "Ashcroft v. Iqbal (renamed)" if i == 145875 else name, full, "", docket)
        for i, name, full, short, d, slug, docket in CLUSTERS
    ]  # fmt: skip
    write_table(folder, "opinion-clusters", CLUSTER_HEADER, clusters, date=NEW_DATE)
    citations = [*CITATIONS, (10, 77, "U.S.L.W.", "4387", 2, 145875)]
    write_table(folder, "citations", CITATION_HEADER, citations, date=NEW_DATE)
    return folder


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_location(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "store.sqlite3")
    else:
        yield fresh_postgres_database(request.getfixturevalue("postgres_url"))


def _reader(location: str) -> Any:
    if location.startswith("postgresql://"):
        from citeverify.providers.postgres import PostgresStore

        return PostgresStore(location)
    return LocalStore(location)


class TestUpdateInPlace:
    def test_update_under_load_is_all_or_nothing(self, tmp_path: Path, store_location: str) -> None:
        """A newer dump renames a case and adds a citation while lookups run in another
        thread: no lookup fails, none sees the new name without the new citation (or the
        reverse), and afterwards both verify, dated the new dump."""
        import_courtlistener(write_dump(tmp_path / "old"), store_location)
        reader = _reader(store_location)
        requests = [case("556", "U.S.", "662"), case("77", "U.S.L.W.", "4387")]
        before = reader.lookup(requests)
        assert isinstance(before[0], Found)
        assert before[0].authorities[0].name == "Ashcroft v. Iqbal"
        assert not isinstance(before[1], Found)

        seen: list[tuple[str, str, bool]] = []
        problems: list[Any] = []
        stop = threading.Event()

        def lookups() -> None:
            while not stop.is_set():
                iqbal, new = reader.lookup(requests)
                if not isinstance(iqbal, Found):
                    problems.append(iqbal)
                    continue
                name = iqbal.authorities[0].name or ""
                seen.append((name, str(iqbal.as_of), isinstance(new, Found)))

        thread = threading.Thread(target=lookups)
        thread.start()
        try:
            report = import_courtlistener(write_newer_dump(tmp_path / "new"), store_location)
            # Keep reading a little after the commit, counted in lookups, not seconds.
            after = len(seen)
            while len(seen) < after + 5 and thread.is_alive():
                stop.wait(0.01)
        finally:
            stop.set()
            thread.join()
        assert report.updated
        assert report.complete
        assert problems == []
        states = set(seen)
        assert states <= {
            ("Ashcroft v. Iqbal", f"{DATE}T00:00:00Z", False),
            ("Ashcroft v. Iqbal (renamed)", f"{NEW_DATE}T00:00:00Z", True),
        }
        assert ("Ashcroft v. Iqbal (renamed)", f"{NEW_DATE}T00:00:00Z", True) in states

        iqbal, new = reader.lookup(requests)
        assert isinstance(new, Found)
        assert new.authorities[0].reference == "courtlistener:cluster:145875"
        assert "77 U.S.L.W. 4387" in new.authorities[0].citations
        assert isinstance(iqbal, Found)
        assert new.as_of == f"{NEW_DATE}T00:00:00Z"
        # Nothing else changed: the other cases answer as a fresh import of the new dump.
        fresh = tmp_path / "fresh.sqlite3"
        import_courtlistener(tmp_path / "new", fresh)
        assert _answers(reader) == _answers(LocalStore(fresh))
        if hasattr(reader, "close"):
            reader.close()

    def test_an_older_dump_is_refused(self, tmp_path: Path, store_location: str) -> None:
        """A store of a newer dump is not taken back to an older one."""
        import_courtlistener(write_newer_dump(tmp_path / "new"), store_location)
        with pytest.raises(DumpError, match="older"):
            import_courtlistener(write_dump(tmp_path / "old"), store_location)

    def test_sqlite_update_leaves_a_store_in_wal_or_single_file(self, tmp_path: Path) -> None:
        """Without readers, an updated SQLite store is again one self-contained file."""
        out = tmp_path / "s.sqlite3"
        import_courtlistener(write_dump(tmp_path / "old"), out)
        import_courtlistener(write_newer_dump(tmp_path / "new"), out)
        with sqlite3.connect(out) as db:
            assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
            assert db.execute("SELECT value FROM meta WHERE key='dump_date'").fetchone() == (
                NEW_DATE,
            )
        assert not Path(str(out) + "-wal").exists()


# --- the commands that read a store --------------------------------------------------------


def _request_file(tmp_path: Path) -> Path:
    path = tmp_path / "request.json"
    items = [
        {"id": "iqbal", "type": "case", "rawText": "Ashcroft v. Iqbal, 556 U.S. 662 (2009)"},
        {"id": "none", "type": "case", "rawText": "Doe v. Roe, 804 F.3d 9999 (2d Cir. 2015)"},
    ]
    path.write_text(json.dumps({"items": items}), encoding="utf-8")
    return path


@pytest.mark.postgres
def test_verify_command_reads_a_postgres_store(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``citeverify verify --store postgresql://...`` answers from the database."""
    url = fresh_postgres_database(postgres_url)
    import_courtlistener(write_dump(tmp_path / "d"), url)
    capsys.readouterr()
    assert main(["verify", str(_request_file(tmp_path)), "--store", url]) == 0
    results = {r["id"]: r["verdict"] for r in json.loads(capsys.readouterr().out)["results"]}
    assert results["iqbal"]["status"] == "verified"
    assert results["iqbal"]["asOf"] == f"{DATE}T00:00:00Z"
    assert results["none"]["outcome"] == "not_found"


def test_verify_command_refuses_another_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--store mysql://...`` is a clear error, not a missing-file verdict for each item."""
    code = main(["verify", str(_request_file(tmp_path)), "--store", "mysql://h/db"])
    assert code != 0
    assert "postgresql://" in capsys.readouterr().err
