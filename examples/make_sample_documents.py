"""Render a plain-text brief as a PDF and a Word file, to try whole-document checking on both.

    python examples/make_sample_documents.py                      # examples/sample_brief.txt
    python examples/make_sample_documents.py brief.txt --out-dir /tmp

The text file follows the conventions citeverify's extraction gives back: paragraphs are
separated by a blank line, and a block (set-off) quotation is a paragraph whose lines all
begin with four spaces.  The PDF is US Letter with one-inch margins, Times 12 point, block
quotations indented half an inch on both sides, and a page number at the foot of each
page; the Word file has the same paragraphs, the block quotations as paragraphs indented
half an inch.  Both are byte-for-byte the same on every run (fixed dates and timestamps).

Needs ``fpdf2`` and ``python-docx`` (``pip install -e '.[dev]'``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXED = dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=dt.UTC)

POINT = 1.0
INCH = 72 * POINT
FONT_SIZE = 12
LEADING = 14  # points between baselines: single spacing
BLOCK_INDENT = 0.5 * INCH


def read_paragraphs(text: str) -> list[tuple[str, bool]]:
    """Paragraphs as (text on one line, is a block quotation)."""
    paragraphs: list[tuple[str, bool]] = []
    for chunk in text.replace("\r\n", "\n").split("\n\n"):
        lines = [line for line in chunk.split("\n") if line.strip()]
        if not lines:
            continue
        block = all(line.startswith("    ") for line in lines)
        paragraphs.append((" ".join(line.strip() for line in lines), block))
    return paragraphs


def _check_encodable(paragraphs: list[tuple[str, bool]]) -> None:
    # The PDF uses the built-in Times font, whose encoding is Windows-1252: curly quotes,
    # dashes and the section sign are there; a character that is not would be lost.
    for text, _ in paragraphs:
        for char in text:
            try:
                char.encode("cp1252")
            except UnicodeEncodeError:
                sys.exit(f"cannot render {char!r} (U+{ord(char):04X}) in the PDF's Times font")


def write_pdf(paragraphs: list[tuple[str, bool]], path: Path) -> int:
    """Write the PDF; returns its page count."""
    from fpdf import FPDF

    class Brief(FPDF):  # type: ignore[misc]
        def footer(self) -> None:
            self.set_y(-0.6 * INCH)
            self.set_font("Times", size=10)
            self.cell(0, 12, str(self.page_no()), align="C")

    pdf = Brief(unit="pt", format="letter")
    pdf.core_fonts_encoding = "windows-1252"
    pdf.set_creation_date(FIXED)
    pdf.set_title("Sample brief")
    pdf.set_margins(INCH, INCH, INCH)
    pdf.set_auto_page_break(True, margin=INCH)
    pdf.add_page()
    pdf.set_font("Times", size=FONT_SIZE)
    for index, (text, block) in enumerate(paragraphs):
        if index:
            pdf.ln(LEADING)  # the blank line between paragraphs
        if block:
            pdf.set_left_margin(INCH + BLOCK_INDENT)
            pdf.set_right_margin(INCH + BLOCK_INDENT)
        pdf.set_x(pdf.l_margin)
        pdf.multi_cell(0, LEADING, text, new_x="LMARGIN", new_y="NEXT")
        pdf.set_left_margin(INCH)
        pdf.set_right_margin(INCH)
    pdf.output(str(path))
    return int(pdf.page_no())


def write_docx(paragraphs: list[tuple[str, bool]], path: Path) -> None:
    import docx
    from docx.shared import Inches, Pt

    document = docx.Document()
    normal = document.styles["Normal"]
    normal.font.name = "Times New Roman"
    normal.font.size = Pt(FONT_SIZE)
    for text, block in paragraphs:
        paragraph = document.add_paragraph(text)
        if block:
            paragraph.paragraph_format.left_indent = Inches(0.5)
            paragraph.paragraph_format.right_indent = Inches(0.5)
    properties = document.core_properties
    properties.title = "Sample brief"
    properties.author = "citeverify"
    properties.created = properties.modified = properties.last_printed = FIXED.replace(
        tzinfo=None
    )
    properties.revision = 1
    raw = io.BytesIO()
    document.save(raw)
    path.write_bytes(_fixed_zip(raw.getvalue()))


def _fixed_zip(data: bytes) -> bytes:
    """The same package with every member's timestamp fixed, so the file is reproducible."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for member in source.infolist():
            info = zipfile.ZipInfo(member.filename, date_time=FIXED.timetuple()[:6])
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            target.writestr(info, source.read(member))
    return out.getvalue()


def make(source: Path, out_dir: Path) -> tuple[Path, Path, int]:
    """Render ``source`` to ``out_dir``/<stem>.pdf and .docx; returns both paths and the
    PDF's page count."""
    paragraphs = read_paragraphs(source.read_text(encoding="utf-8"))
    _check_encodable(paragraphs)
    out_dir.mkdir(parents=True, exist_ok=True)
    pdf_path = out_dir / f"{source.stem}.pdf"
    docx_path = out_dir / f"{source.stem}.docx"
    pages = write_pdf(paragraphs, pdf_path)
    write_docx(paragraphs, docx_path)
    return pdf_path, docx_path, pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", nargs="?", type=Path, default=HERE / "sample_brief.txt")
    parser.add_argument("--out-dir", type=Path, default=None, help="default: beside the source")
    args = parser.parse_args(argv)
    pdf_path, docx_path, pages = make(args.source, args.out_dir or args.source.parent)
    print(f"wrote {pdf_path} ({pages} pages) and {docx_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
