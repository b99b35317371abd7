"""Document text extraction: a brief as text, Markdown, PDF or Word in, one text with page
offsets out, in bounded time and memory, and a clear error for anything else."""

from __future__ import annotations

import importlib.util
import io
import random
import re
import sys
import tracemalloc
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeverify.document._extract import DocumentLimits, ExtractedText, extract
from citeverify.errors import ValidationError

pypdf = pytest.importorskip("pypdf")
docx = pytest.importorskip("docx")
fpdf = pytest.importorskip("fpdf")

ROOT = Path(__file__).resolve().parents[1]
STAND_IN = ROOT / "tests" / "data" / "documents" / "stand_in_brief.txt"
DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
MB = 1024 * 1024


def _load_maker():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "make_sample_documents", ROOT / "examples" / "make_sample_documents.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


maker = _load_maker()


def _error(excinfo: pytest.ExceptionInfo[ValidationError]) -> str:
    """The message, checked to be the same in the error and its one ``document`` detail."""
    error = excinfo.value
    assert error.details == [{"field": "document", "message": error.message}]
    return error.message


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _source_paragraphs(text: str) -> list[tuple[str, bool]]:
    """The stand-in's paragraphs, independently of the renderer: (squashed text, is block)."""
    out = []
    for chunk in re.split(r"\n\s*\n", text.strip()):
        lines = chunk.split("\n")
        out.append((_squash(chunk), all(line.startswith("    ") for line in lines)))
    return out


def _extracted_paragraphs(text: str) -> list[tuple[str, bool]]:
    out = []
    for chunk in text.split("\n\n"):
        lines = chunk.split("\n")
        block = all(line.startswith("    ") for line in lines)
        # no line outside a block quotation carries the block prefix
        assert block or not any(line.startswith("    ") for line in lines), chunk
        out.append((_squash(chunk), block))
    return out


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int]:
    return maker.make(STAND_IN, tmp_path_factory.mktemp("rendered"))  # type: ignore[no-any-return]


class TestSampleDocuments:
    def test_pdf_paragraphs_and_block_quotations_match_the_source(
        self, rendered: tuple[Path, Path, int]
    ) -> None:
        """The PDF gives back the source's paragraphs in order, block quotations indented;
        a paragraph cut by a page break may come back in two pieces, page numbers apart."""
        result = extract(rendered[0])
        assert result.format == "pdf"
        assert result.warnings == ()
        got = [p for p in _extracted_paragraphs(result.text) if not p[0].isdigit()]
        want = _source_paragraphs(STAND_IN.read_text(encoding="utf-8"))
        i = 0
        for text, block in want:
            assert got[i][1] == block, (got[i], text)
            joined = got[i][0]
            while joined != text and i + 1 < len(got) and text.startswith(joined):
                i += 1
                joined = f"{joined} {got[i][0]}"
            assert joined == text
            i += 1
        assert i == len(got)
        assert sum(block for _, block in want) == 3

    def test_docx_paragraphs_and_block_quotations_match_the_source(
        self, rendered: tuple[Path, Path, int]
    ) -> None:
        """The Word file gives back exactly the source's paragraphs, blocks indented."""
        result = extract(rendered[1])
        assert result.format == "docx"
        assert result.pages == (0,)
        assert _extracted_paragraphs(result.text) == _source_paragraphs(
            STAND_IN.read_text(encoding="utf-8")
        )

    @pytest.mark.parametrize("which", [0, 1])
    def test_citations_and_quotations_survive(
        self, rendered: tuple[Path, Path, int], which: int
    ) -> None:
        """Citations, short forms and curly-quoted words come through intact."""
        text = _squash(extract(rendered[which]).text)
        for needle in [
            "Roe v. Wade, 410 U.S. 113, 153 (1973)",
            "Id. at 154.",
            "“lawyers in criminal courts are necessities, not luxuries.”",
            "42 U.S.C. § 1983",
            "Roe, 410 U.S. at 155.",
        ]:
            assert needle in text

    def test_pdf_pages_begin_where_each_page_does(self, rendered: tuple[Path, Path, int]) -> None:
        """One offset per page; each page's slice is that page's own text, ending with its
        page number, as pypdf reads the page on its own."""
        path, _, page_count = rendered
        result = extract(path)
        assert page_count >= 2
        assert len(result.pages) == page_count
        assert result.pages[0] == 0
        assert list(result.pages) == sorted(result.pages)
        reader = pypdf.PdfReader(path)
        bounds = [*result.pages, len(result.text)]
        for number in range(page_count):
            piece = result.text[bounds[number] : bounds[number + 1]]
            assert piece.rstrip().rsplit("\n\n", 1)[-1] == str(number + 1)
            assert _squash(piece) == _squash(reader.pages[number].extract_text())

    def test_rendering_is_reproducible(self, tmp_path: Path) -> None:
        """The same text renders to byte-identical files on every run."""
        first = maker.make(STAND_IN, tmp_path / "a")
        second = maker.make(STAND_IN, tmp_path / "b")
        assert first[0].read_bytes() == second[0].read_bytes()
        assert first[1].read_bytes() == second[1].read_bytes()

    def test_bytes_and_paths_give_the_same_result(self, rendered: tuple[Path, Path, int]) -> None:
        """A file's bytes, its Path and its name as a str are read alike."""
        for path in rendered[:2]:
            by_path = extract(path)
            assert extract(path.read_bytes()) == by_path
            assert extract(str(path)) == by_path


def _pdf_from_lines(lines: list[tuple[float, float, str]]) -> bytes:
    """A one-page PDF with each line drawn at (x, y from the top) in points."""
    pdf = fpdf.FPDF(unit="pt", format="letter")
    pdf.add_page()
    pdf.set_font("Times", size=12)
    for x, y, text in lines:
        pdf.text(x, y, text)
    return bytes(pdf.output())


class TestPdfLayout:
    def test_first_line_indent_is_not_a_block_and_opens_a_paragraph(self) -> None:
        """A paragraph's indented first line starts a paragraph; a run of lines indented
        from the margin is a block quotation; a single centred heading is neither."""
        data = _pdf_from_lines(
            [
                (260, 72, "ARGUMENT"),
                (108, 100, "First paragraph opens indented"),
                (72, 114, "and continues at the margin"),
                (72, 128, "for a third line."),
                (108, 142, "Second paragraph, same spacing,"),
                (72, 156, "closes here."),
                (108, 184, "A quoted passage set off"),
                (108, 198, "from the body by half an inch"),
                (108, 212, "on the left."),
                (72, 240, "Id. at 5. The body resumes."),
            ]
        )
        result = extract(data)
        assert result.text.split("\n\n") == [
            "ARGUMENT",
            "First paragraph opens indented\nand continues at the margin\nfor a third line.",
            "Second paragraph, same spacing,\ncloses here.",
            "    A quoted passage set off\n    from the body by half an inch\n    on the left.",
            "Id. at 5. The body resumes.",
        ]

    def test_signature_block_far_right_is_not_a_quotation(self) -> None:
        """Lines set three inches in (a signature block) are not a block quotation."""
        data = _pdf_from_lines(
            [
                (72, 100, "The motion should be denied."),
                (72, 114, "Dated: January 2, 2024"),
                (300, 142, "Respectfully submitted,"),
                (300, 156, "Jane Roe"),
            ]
        )
        assert "    " not in extract(data).text

    def test_page_without_text_is_reported_and_keeps_its_offset(self) -> None:
        """A blank page among text pages: a warning naming it, and an empty page span."""
        writer = pypdf.PdfWriter()
        text_page = pypdf.PdfReader(io.BytesIO(_pdf_from_lines([(72, 72, "Page one.")])))
        writer.add_page(text_page.pages[0])
        writer.add_blank_page(612, 792)
        writer.add_page(
            pypdf.PdfReader(io.BytesIO(_pdf_from_lines([(72, 72, "Page three.")]))).pages[0]
        )
        out = io.BytesIO()
        writer.write(out)
        result = extract(out.getvalue())
        assert result.warnings == ("page 2 has no text layer",)
        assert len(result.pages) == 3
        assert result.text[result.pages[2] :] == "Page three."
        assert result.text[: result.pages[1]] == "Page one."
        assert result.pages[1] <= result.pages[2]


class TestText:
    def test_text_comes_back_unchanged(self) -> None:
        """Plain text is returned as given, one page at offset 0."""
        text = "See Roe v. Wade, 410 U.S. 113 (1973).\n\n    Block line.\n"
        assert extract(text) == ExtractedText(text=text, pages=(0,), format="text")

    def test_line_endings_are_normalised(self) -> None:
        """CR LF and lone CR become LF; offsets index the normalised text."""
        assert extract("a\r\nb\rc\n").text == "a\nb\nc\n"
        assert extract(b"a\r\nb\rc").text == "a\nb\nc"

    def test_markdown_by_name_or_type(self) -> None:
        """A .md name or text/markdown makes the format markdown; the text is unchanged."""
        assert extract("# Title", filename="brief.md").format == "markdown"
        assert extract(b"# Title", content_type="text/markdown; charset=utf-8").format == (
            "markdown"
        )
        assert extract(b"# Title", filename="brief.txt").format == "text"

    def test_empty_text_is_fine(self) -> None:
        """Empty input is an empty result, not an error."""
        assert extract("") == ExtractedText(text="", pages=(0,), format="text")
        assert extract(b"").text == ""

    def test_a_short_str_naming_a_file_is_a_path(self, tmp_path: Path) -> None:
        """A one-line str ending in .txt that names a file is read; otherwise it is text."""
        path = tmp_path / "brief.txt"
        path.write_text("from the file", encoding="utf-8")
        assert extract(str(path)).text == "from the file"
        missing = str(tmp_path / "absent.txt")
        assert extract(missing).text == missing
        assert extract(f"{path}\n").text == f"{path}\n"
        other = tmp_path / "brief.rtf"
        other.write_text("x", encoding="utf-8")
        assert extract(str(other)).text == str(other)

    @pytest.mark.parametrize(
        ("encoding", "bom"),
        [("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"), ("utf-8", b"\xef\xbb\xbf")],
    )
    def test_byte_order_marks(self, encoding: str, bom: bytes) -> None:
        """UTF-16 and UTF-8 with a byte-order mark decode, the mark dropped."""
        text = "“Quoted,” 42 U.S.C. § 1983.\n"
        assert extract(bom + text.encode(encoding)).text == text

    def test_windows_1252_is_read_with_a_warning(self) -> None:
        """Curly quotes saved as Windows-1252 read correctly, with a warning saying so."""
        result = extract("“broad enough” — § 3".encode("cp1252"))
        assert result.text == "“broad enough” — § 3"
        assert result.warnings == ("the text is not UTF-8; it was read as Windows-1252",)

    def test_ten_million_characters_pass_and_one_more_fails(self) -> None:
        """The default cap: exactly 10,000,000 characters are fine, one more is not."""
        limit = DocumentLimits().max_chars
        assert limit == 10_000_000
        text = "a" * limit
        assert len(extract(text).text) == limit
        with pytest.raises(ValidationError) as excinfo:
            extract(text + "b")
        assert _error(excinfo) == "the extracted text is longer than 10,000,000 characters"
        with pytest.raises(ValidationError):
            extract((text + "b").encode())

    @settings(max_examples=200, deadline=None)
    @given(st.text(max_size=60))
    def test_any_text_is_returned_normalised_or_refused_by_length(self, text: str) -> None:
        """Whatever the text, the result is it with line endings normalised, or a length
        error exactly when that is longer than the cap."""
        limits = DocumentLimits(max_chars=30)
        normalised = text.replace("\r\n", "\n").replace("\r", "\n")
        if len(normalised) > 30:
            with pytest.raises(ValidationError):
                extract(text, limits=limits)
        else:
            assert extract(text, limits=limits).text == normalised


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        for name, data in members.items():
            package.writestr(name, data)
    return out.getvalue()


def _peak_bytes(call) -> int:  # type: ignore[no-untyped-def]
    """Peak Python memory allocated while ``call`` runs (it is expected to raise)."""
    tracemalloc.start()
    try:
        call()
    except ValidationError:
        pass
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return peak


class TestBadInput:
    def test_binary_garbage(self) -> None:
        """Random bytes are not a document, whatever the name says."""
        garbage = random.Random(7).randbytes(64 * 1024)
        for filename in (None, "brief.txt"):
            with pytest.raises(ValidationError) as excinfo:
                extract(garbage, filename=filename)
            assert _error(excinfo) == "not a text, PDF or Word file"
        with pytest.raises(ValidationError):
            extract(b"text\x00with a NUL")

    def test_oversized_pdf_is_refused_before_parsing(self, tmp_path: Path) -> None:
        """A PDF over 50 MB is refused on its size: its body, garbage that would fail to
        parse with another message, is never read, and no copy of it is made."""
        data = b"%PDF-1.7\n" + b"\x00" * (50 * MB) + b"%%EOF\n"
        peak = _peak_bytes(lambda: extract(data))
        with pytest.raises(ValidationError) as excinfo:
            extract(data)
        assert _error(excinfo) == "the document is larger than 50 MB"
        assert peak < MB
        path = tmp_path / "big.pdf"
        path.write_bytes(data)
        with pytest.raises(ValidationError) as excinfo:
            extract(path)
        assert _error(excinfo) == "the document is larger than 50 MB"

    def test_encrypted_pdf(self) -> None:
        """A PDF locked with a password is refused as encrypted."""
        writer = pypdf.PdfWriter(clone_from=io.BytesIO(_pdf_from_lines([(72, 72, "Secret.")])))
        writer.encrypt(user_password="secret", owner_password="owner", algorithm="AES-128")
        out = io.BytesIO()
        writer.write(out)
        with pytest.raises(ValidationError) as excinfo:
            extract(out.getvalue())
        assert _error(excinfo) == "the PDF is encrypted"

    def test_encrypted_pdf_with_an_empty_password_is_read(self) -> None:
        """Owner-only protection (an empty user password) does not stop reading."""
        writer = pypdf.PdfWriter(clone_from=io.BytesIO(_pdf_from_lines([(72, 72, "Open.")])))
        writer.encrypt(user_password="", owner_password="owner", algorithm="AES-256")
        out = io.BytesIO()
        writer.write(out)
        assert extract(out.getvalue()).text == "Open."

    def test_scanned_pdf_without_text_layer(self) -> None:
        """Pages with only a drawing (as a scan has only an image) need OCR first."""
        pdf = fpdf.FPDF(unit="pt", format="letter")
        for _ in range(2):
            pdf.add_page()
            pdf.rect(72, 72, 300, 200, style="F")
        with pytest.raises(ValidationError) as excinfo:
            extract(bytes(pdf.output()))
        assert _error(excinfo) == "no text layer: run OCR first"

    def test_truncated_pdf(self, rendered: tuple[Path, Path, int]) -> None:
        """A PDF cut short is damaged, not silently half read."""
        data = rendered[0].read_bytes()
        for cut in (len(data) // 2, len(data) - 40, 200):
            with pytest.raises(ValidationError) as excinfo:
                extract(data[:cut])
            assert _error(excinfo).startswith("the PDF is damaged")

    def test_pdf_with_garbage_body(self) -> None:
        """A PDF header and end marker around garbage is damaged."""
        body = random.Random(3).randbytes(4096)
        with pytest.raises(ValidationError) as excinfo:
            extract(b"%PDF-1.7\n" + body + b"\n%%EOF\n")
        assert _error(excinfo).startswith("the PDF is damaged")

    def test_pdf_with_too_many_pages(self) -> None:
        """3,000 pages pass the 2,000-page cap: refused, in little memory."""
        data = _many_page_pdf(3000, declared=3000)
        with pytest.raises(ValidationError) as excinfo:
            extract(data)
        assert _error(excinfo) == "the PDF has more than 2,000 pages"

    def test_page_count_that_lies_is_still_capped(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A page tree claiming one page but holding 10,000 is refused while counting,
        before pypdf builds an object for every page (its page-tree flattening never runs)."""
        data = _many_page_pdf(10_000, declared=1)

        def no_flattening(*args: object, **kwargs: object) -> None:
            raise AssertionError("pypdf flattened the page tree before the cap was checked")

        monkeypatch.setattr(pypdf.PdfReader, "_flatten", no_flattening)
        with pytest.raises(ValidationError) as excinfo:
            extract(data)
        assert _error(excinfo) == "the PDF has more than 2,000 pages"

    def test_docx_that_is_not_a_zip(self) -> None:
        """Bytes named or typed as .docx that are no zip: the Word file is damaged."""
        with pytest.raises(ValidationError) as excinfo:
            extract(b"just some text", filename="brief.docx")
        assert _error(excinfo).startswith("the Word file is damaged")
        with pytest.raises(ValidationError) as excinfo:
            extract(b"PK\x03\x04 but not a zip", content_type=DOCX_TYPE)
        assert _error(excinfo).startswith("the Word file is damaged")

    def test_zip_without_a_document(self) -> None:
        """A zip with no word/document.xml is not a Word file (damaged, if sent as one)."""
        data = _zip({"readme.txt": b"hello"})
        with pytest.raises(ValidationError) as excinfo:
            extract(data)
        assert _error(excinfo) == "not a text, PDF or Word file"
        with pytest.raises(ValidationError) as excinfo:
            extract(data, filename="brief.docx")
        assert _error(excinfo) == "the Word file is damaged"

    def test_zip_bomb_docx(self) -> None:
        """A small file whose document.xml unpacks to 300 MB is refused from the zip's
        directory, without unpacking it."""
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as package:
            package.writestr("[Content_Types].xml", b"<Types/>")
            with package.open("word/document.xml", "w", force_zip64=True) as member:
                chunk = b"<w:p/>" * (MB // 6 + 1)
                for _ in range(300):
                    member.write(chunk)
        data = out.getvalue()
        assert len(data) < 3 * MB
        peak = _peak_bytes(lambda: extract(data))
        with pytest.raises(ValidationError) as excinfo:
            extract(data)
        assert _error(excinfo) == "the Word file unpacks to more than 200 MB"
        assert peak < 10 * MB

    def test_highly_compressed_docx(self) -> None:
        """Under the size cap but compressed a thousandfold: refused as a zip bomb."""
        data = _zip({"word/document.xml": b"<w:p/>" * (20 * MB // 6)})
        with pytest.raises(ValidationError) as excinfo:
            extract(data)
        assert _error(excinfo).startswith("the Word file is damaged (it would unpack")

    def test_damaged_docx_package(self) -> None:
        """A zip with a document.xml that is not Word XML is a damaged Word file."""
        data = _zip({"word/document.xml": b"<not-closed", "[Content_Types].xml": b"<x"})
        with pytest.raises(ValidationError) as excinfo:
            extract(data)
        assert _error(excinfo) == "the Word file is damaged"

    def test_content_type_that_contradicts_the_bytes(
        self, rendered: tuple[Path, Path, int]
    ) -> None:
        """A PDF sent as text, or a Word file sent as a PDF, is an error naming both."""
        with pytest.raises(ValidationError) as excinfo:
            extract(rendered[0].read_bytes(), content_type="text/plain")
        assert _error(excinfo) == "the file is a PDF, but it was sent as text"
        with pytest.raises(ValidationError) as excinfo:
            extract(rendered[1].read_bytes(), content_type="application/pdf")
        assert _error(excinfo) == "the file is a Word file, but it was sent as a PDF"
        with pytest.raises(ValidationError) as excinfo:
            extract(b"plain", content_type="image/png")
        assert _error(excinfo).startswith("not a text, PDF or Word file")

    def test_old_word_format(self) -> None:
        """An old .doc (an OLE compound file) gets a message saying what to do."""
        with pytest.raises(ValidationError) as excinfo:
            extract(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 512)
        assert ".docx" in _error(excinfo)

    def test_a_pdf_that_takes_too_long_stops_between_pages(
        self, rendered: tuple[Path, Path, int]
    ) -> None:
        """With no time left, extraction stops with a clear error instead of running on."""
        with pytest.raises(ValidationError) as excinfo:
            extract(rendered[0], limits=DocumentLimits(max_seconds=0))
        assert _error(excinfo) == "the document could not be read within 0 seconds"


def _many_page_pdf(pages: int, *, declared: int) -> bytes:
    """A valid PDF with ``pages`` empty pages in one flat tree whose /Count says
    ``declared``; built as text, so it costs a few hundred kilobytes."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Count %d /Kids [%s] >>"
        % (declared, b" ".join(b"%d 0 R" % (3 + i) for i in range(pages))),
    ]
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"] * pages
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


class TestDocx:
    def test_tables_quote_styles_and_tracked_deletions(self) -> None:
        """Paragraphs inside tables come in body order; a Quote-styled paragraph is a block;
        a list item indented like a quotation is not; deleted text is left out."""
        document = docx.Document()
        document.add_paragraph("Opening paragraph.")
        table = document.add_table(rows=1, cols=2)
        table.cell(0, 0).text = "Cell one"
        table.cell(0, 1).text = "Cell two"
        document.add_paragraph("A quotation by style.", style="Quote")
        item = document.add_paragraph("A bulleted point.", style="List Bullet")
        item.paragraph_format.left_indent = docx.shared.Inches(0.75)
        kept = document.add_paragraph("Kept")
        deleted = docx.oxml.parse_xml(
            '<w:del xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
            ' w:id="1" w:author="a"><w:r><w:delText> removed</w:delText></w:r></w:del>'
        )
        kept._p.append(deleted)
        kept.add_run(" words.")
        out = io.BytesIO()
        document.save(out)
        assert extract(out.getvalue()).text.split("\n\n") == [
            "Opening paragraph.",
            "Cell one",
            "Cell two",
            "    A quotation by style.",
            "A bulleted point.",
            "Kept words.",
        ]

    def test_line_breaks_inside_a_block_are_each_indented(self) -> None:
        """A block quotation with manual line breaks has each line prefixed."""
        document = docx.Document()
        paragraph = document.add_paragraph("First line")
        paragraph.add_run().add_break()
        paragraph.add_run("second line")
        paragraph.paragraph_format.left_indent = docx.shared.Inches(1)
        out = io.BytesIO()
        document.save(out)
        assert extract(out.getvalue()).text == "    First line\n    second line"

    def test_footnotes_follow_the_body_in_order_of_reference(self) -> None:
        """Footnotes (where briefs cite most) follow the body, numbered in reference order."""
        document = docx.Document()
        document.add_paragraph("Body text.")
        document.add_paragraph("More body.")
        out = io.BytesIO()
        document.save(out)
        w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
        reference = '<w:r><w:footnoteReference w:id="{}"/></w:r></w:p>'
        notes = (
            f'<w:footnotes xmlns:w="{w}">'
            '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p>'
            "</w:footnote>"
            '<w:footnote w:id="7"><w:p><w:r><w:t>Second note.</w:t></w:r></w:p></w:footnote>'
            '<w:footnote w:id="3"><w:p><w:r><w:t>See Roe v. Wade, 410 U.S. 113 (1973).</w:t>'
            "</w:r></w:p></w:footnote></w:footnotes>"
        )
        with zipfile.ZipFile(out) as package:
            members = {name: package.read(name) for name in package.namelist()}
        edited = ["word/document.xml", "word/_rels/document.xml.rels", "[Content_Types].xml"]
        text = {name: members[name].decode("utf-8") for name in edited}
        body = text["word/document.xml"]
        body = body.replace("</w:p>", reference.format(3), 1)
        first_end = body.index(reference.format(3)) + len(reference.format(3))
        body = body[:first_end] + body[first_end:].replace("</w:p>", reference.format(7), 1)
        members["word/document.xml"] = body.encode("utf-8")
        members["word/footnotes.xml"] = notes.encode("utf-8")
        rels = text["word/_rels/document.xml.rels"]
        members["word/_rels/document.xml.rels"] = rels.replace(
            "</Relationships>",
            '<Relationship Id="rIdNotes" Type="http://schemas.openxmlformats.org/officeDocument/'
            '2006/relationships/footnotes" Target="footnotes.xml"/></Relationships>',
        ).encode("utf-8")
        members["[Content_Types].xml"] = text["[Content_Types].xml"].replace(
            "</Types>",
            '<Override PartName="/word/footnotes.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/></Types>',
        ).encode("utf-8")
        data = _zip(members)
        assert extract(data).text.split("\n\n") == [
            "Body text.",
            "More body.",
            "1 See Roe v. Wade, 410 U.S. 113 (1973).",
            "2 Second note.",
        ]


def test_compressed_content_bomb_is_refused_in_bounded_memory() -> None:
    """A page whose content stream inflates from under a megabyte to 100 MB is refused as
    damaged; pypdf's decompression cap (the reason the extra needs pypdf 6) bounds it."""
    import zlib

    packer = zlib.compressobj(9)
    chunk = b"0 0 m " * (MB // 6)
    stream = b"".join(packer.compress(chunk) for _ in range(100)) + packer.flush()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Count 1 /Kids [3 0 R] >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Times-Roman"
        b" >> >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(stream), stream),
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 5\n0000000000 65535 f \n"
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref
    assert len(out) < MB
    tracemalloc.start()
    try:
        with pytest.raises(ValidationError) as excinfo:
            extract(bytes(out))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert _error(excinfo) == "the PDF is damaged"
    assert peak < 200 * MB
