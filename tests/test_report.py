"""citeverify.report.render_html without a browser: marks, escaping, links, the diff.

The same report opened in a real browser and printed on A4 and Letter is tested in
``tests/test_page.py`` (``TestReportInBrowser``).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from citeverify.report import human_url, render_html, word_diff


class _Marks(HTMLParser):
    """Collects each <mark>'s attributes and text (nested text counts for every open mark),
    and every start tag of the document."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.marks: list[dict[str, Any]] = []
        self.open: list[dict[str, Any]] = []
        self.tags: list[str] = []
        self.in_text = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "div" and ("data-role", "text") in attrs:
            self.in_text = 1
        elif self.in_text and tag == "div":
            self.in_text += 1
        if tag == "mark" and self.in_text:
            mark = {**dict(attrs), "text": ""}
            self.marks.append(mark)
            self.open.append(mark)

    def handle_endtag(self, tag: str) -> None:
        if tag == "mark" and self.open:
            self.open.pop()
        if tag == "div" and self.in_text:
            self.in_text -= 1

    def handle_data(self, data: str) -> None:
        for mark in self.open:
            mark["text"] += data


def _parse(html: str) -> _Marks:
    parser = _Marks()
    parser.feed(html)
    return parser


def _result(rid: str, status: str, start: int, end: int, text: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": rid,
        "type": extra.pop("type", "case"),
        "verdict": {"status": status, "outcome": "x", "message": f"message of {rid}"},
        "position": {"start": start, "end": end, "text": text[start:end]},
        **extra,
    }


def _response(text: str, spans: list[tuple[str, str, str]]) -> dict[str, Any]:
    """Results for the substrings ``needle`` of ``text``: (id, status, needle)."""
    results = []
    for rid, status, needle in spans:
        start = text.index(needle)
        results.append(_result(rid, status, start, start + len(needle), text))
    return {"results": results, "summary": {"total": len(results)}}


class TestMarks:
    def test_each_result_is_marked_with_its_text(self) -> None:
        """Every positioned result becomes a mark holding exactly its text and status."""
        text = "See Roe v. Wade, 410 U.S. 113 (1973); Doe, 410 U.S. 925."
        response = _response(
            text,
            [
                ("c1", "verified", "Roe v. Wade, 410 U.S. 113 (1973)"),
                ("c2", "critical", "Doe, 410 U.S. 925"),
            ],
        )
        parsed = _parse(render_html(response, text))
        got = [(m["data-result-id"], m["data-status"], m["text"]) for m in parsed.marks]
        assert got == [
            ("c1", "verified", "Roe v. Wade, 410 U.S. 113 (1973)"),
            ("c2", "critical", "Doe, 410 U.S. 925"),
        ]

    def test_astral_offsets_are_code_points(self) -> None:
        """Offsets after astral characters mark the right text (code points, not UTF-16)."""
        text = "\U0001d516\U0001f600 x 410 U.S. 113 y"
        response = _response(text, [("c1", "warning", "410 U.S. 113")])
        assert _parse(render_html(response, text)).marks[0]["text"] == "410 U.S. 113"

    def test_nested_marks(self) -> None:
        """A citation inside a quotation's span nests; both keep their exact text."""
        text = 'He wrote "as held in 410 U.S. 113, the right" and more.'
        response = _response(
            text,
            [
                ("q1", "warning", "as held in 410 U.S. 113, the right"),
                ("c1", "verified", "410 U.S. 113"),
            ],
        )
        marks = {m["data-result-id"]: m["text"] for m in _parse(render_html(response, text)).marks}
        assert marks == {"q1": "as held in 410 U.S. 113, the right", "c1": "410 U.S. 113"}

    def test_hostile_text_is_escaped(self) -> None:
        """Markup in the brief, the messages or the ids never becomes an element."""
        text = "<script>alert(1)</script><img src=x onerror=alert(1)> 410 U.S. 113"
        response = _response(text, [('c1"><img src=x>', "critical", "410 U.S. 113")])
        response["results"][0]["verdict"]["message"] = "<img src=y onerror=alert(2)>"
        response["results"][0]["opinion"] = {
            "caseName": "</style><script>x</script>",
            "documents": [{"url": "javascript:alert(3)", "provider": "evil"}],
        }
        html = render_html(response, text, title="<b>t</b>")
        parsed = _parse(html)
        assert "img" not in parsed.tags
        assert parsed.tags.count("script") == 0
        assert "b" not in parsed.tags
        assert "javascript:" not in html
        assert parsed.marks[0]["data-result-id"] == 'c1"><img src=x>'
        assert parsed.marks[0]["text"] == "410 U.S. 113"

    def test_positions_out_of_range_and_overlaps_do_not_crash(self) -> None:
        """Bad positions are clipped or skipped; the brief's text is kept whole."""
        text = "abcdefghij"
        results = [
            _result("a", "warning", 2, 6, text),
            _result("b", "critical", 4, 9, text),
            {"id": "c", "verdict": {"status": "nonsense"}, "position": {"start": -5, "end": 500}},
            {"id": "d", "position": {"start": "x", "end": None}},
            "not a result",
        ]
        html = render_html({"results": results}, text)
        parsed = _parse(html)
        # c spans everything (clipped to the text), a nests in it, b crosses a's end: clipped
        got = [(m["data-result-id"], m["data-status"], m["text"]) for m in parsed.marks]
        assert got == [("c", "warning", text), ("a", "warning", "cdef"), ("b", "critical", "ef")]
        flat = re.sub(r"<a class=\"cv-ref\"[^>]*>.*?</a>", "", html.split('data-role="text">')[1])
        flat = re.sub(r"<[^>]+>", "", flat.split("</div>")[0])
        assert flat == text

    def test_document_text_is_the_default(self) -> None:
        """For PDF and Word input the positions point into document.text."""
        extracted = "Page one cites 410 U.S. 113."
        response = _response(extracted, [("c1", "verified", "410 U.S. 113")])
        response["document"] = {"text": extracted, "pages": [0]}
        assert _parse(render_html(response)).marks[0]["text"] == "410 U.S. 113"

    def test_without_text_nothing_is_marked(self) -> None:
        """No text at all: the results are listed, and the report says nothing is marked."""
        response = _response("x 410 U.S. 113", [("c1", "verified", "410 U.S. 113")])
        html = render_html(response)
        assert _parse(html).marks == []
        assert "nothing is marked" in html
        assert 'id="r-c1"' in html


class TestPanel:
    def test_problems_worst_first_and_summary(self) -> None:
        """The panel lists critical before warning, in document order, and omits verified;
        the summary counts by status and says whether all is verified."""
        text = "A 1 U.S. 1; B 2 U.S. 2; C 3 U.S. 3; D 4 U.S. 4."
        response = _response(
            text,
            [
                ("c1", "warning", "1 U.S. 1"),
                ("c2", "verified", "2 U.S. 2"),
                ("c3", "critical", "3 U.S. 3"),
                ("c4", "warning", "4 U.S. 4"),
            ],
        )
        response["summary"] = {"is_fully_verified": False, "overallStatus": "critical"}
        html = render_html(response, text)
        problems = re.findall(
            r'class="cv-problem" data-status="(\w+)" data-result-id="(\w+)"', html
        )
        assert problems == [("critical", "c3"), ("warning", "c1"), ("warning", "c4")]
        assert 'data-total="4"' in html
        assert 'data-count="1">\u2716 1 critical' in html
        assert 'data-count="2">\u26a0 2 warning' in html
        assert "Not fully verified" in html

    def test_fully_verified(self) -> None:
        """All verified: the summary says so and the panel says no problems."""
        text = "A 1 U.S. 1."
        response = _response(text, [("c1", "verified", "1 U.S. 1")])
        response["summary"] = {"is_fully_verified": True}
        html = render_html(response, text)
        assert 'data-fully-verified="true"' in html
        assert "No problems found." in html

    def test_evidence_authority_and_attribution(self) -> None:
        """Details hold the comparison table, a human CourtListener link and the citation a
        quotation is attributed to."""
        text = 'It said "the words as quoted" in Roe v. Wade, 410 U.S. 113.'
        response = _response(
            text,
            [
                ("q1", "warning", "the words as quoted"),
                ("c1", "verified", "Roe v. Wade, 410 U.S. 113"),
            ],
        )
        quote, cite = response["results"]
        quote.update(
            type="quote",
            citationId="c1",
            quote={
                "matched": False,
                "snippet": "the words as quoted",
                "passage": "the word as said",
            },
        )
        cite["evidence"] = {
            "comparisons": [
                {"attribute": "caseName", "cited": "Roe v. Wade", "found": "ROE", "match": True}
            ]
        }
        cite["opinion"] = {
            "caseName": "Roe v. Wade",
            "court": {"name": "Supreme Court of the United States"},
            "year": 1973,
            "documents": [
                {
                    "provider": "courtlistener",
                    "url": "https://www.courtlistener.com/api/rest/v4/opinions/108713/",
                }
            ],
        }
        html = render_html(response, text)
        assert '<th scope="row">caseName</th><td>Roe v. Wade</td><td>ROE</td>' in html
        assert 'href="https://www.courtlistener.com/opinion/108713/"' in html
        assert "/api/rest/" not in html
        assert (
            'Attributed to: <a href="#r-c1" data-citation-id="c1">Roe v. Wade, 410 U.S. 113</a>'
            in html
        )
        assert re.findall(r'<del class="cv-changed"[^>]*>([^<]+)</del>', html) == [
            "words",
            "quoted",
        ]
        assert re.findall(r'<ins class="cv-changed"[^>]*>([^<]+)</ins>', html) == ["word", "said"]

    def test_print_css(self) -> None:
        """The report carries its CSS inline with page margins and a print layout."""
        html = render_html({"results": []}, "")
        assert "@page" in html
        assert "@media print" in html
        assert "<link" not in html
        assert "<script" not in html


class TestHelpers:
    def test_human_url(self) -> None:
        """API paths become the opinion page; only http(s) URLs are links."""
        assert human_url("https://www.courtlistener.com/api/rest/v4/clusters/42/") == (
            "https://www.courtlistener.com/opinion/42/"
        )
        assert human_url("https://supreme.justia.com/cases/federal/us/410/113/") == (
            "https://supreme.justia.com/cases/federal/us/410/113/"
        )
        for bad in ("javascript:alert(1)", "data:text/html,x", "/relative", "", None, 3):
            assert human_url(bad) is None

    @given(
        st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), max_size=30),
        st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), max_size=30),
    )
    @settings(max_examples=200, deadline=None)
    def test_word_diff_common_part_is_common(self, a: list[str], b: list[str]) -> None:
        """The words marked common are, in order, the same sequence in both lists."""
        diff = word_diff(a, b)
        assert diff is not None
        same_a, same_b = diff
        assert [w for w, s in zip(a, same_a, strict=True) if s] == [
            w for w, s in zip(b, same_b, strict=True) if s
        ]
        if a == b:
            assert all(same_a)

    def test_word_diff_is_bounded(self) -> None:
        """Very long passages are shown without a diff rather than compared for ever."""
        assert word_diff(["w"] * 5000, ["w"] * 10) is None


class TestFragment:
    @given(
        st.lists(
            st.tuples(st.sampled_from(["verified", "warning", "critical"]), st.text(min_size=1)),
            min_size=1,
            max_size=6,
        ),
        st.text(max_size=20),
    )
    @settings(max_examples=60, deadline=None)
    def test_same_marks_as_the_file_and_no_style_element(
        self, pieces: list[tuple[str, str]], gap: str
    ) -> None:
        """For any text, the inline-styled fragment marks what the file marks, with the
        same statuses and text, and carries no <style> or <script> element; each mark has
        an inline style and, before it, its status icon."""
        from citeverify.report import render_fragment

        text = gap
        spans = []
        for i, (status, piece) in enumerate(pieces):
            text += " "
            spans.append((f"c{i + 1}", status, len(text), len(text) + len(piece)))
            text += piece
        response = {
            "results": [
                {
                    "id": rid,
                    "type": "case",
                    "verdict": {"status": status, "message": "m"},
                    "position": {"start": start, "end": end, "text": text[start:end]},
                }
                for rid, status, start, end in spans
            ]
        }
        fragment = render_fragment(response, text)
        whole = _parse(render_html(response, text))
        part = _parse(fragment)
        assert [(m["data-result-id"], m["data-status"], m["text"]) for m in part.marks] == [
            (m["data-result-id"], m["data-status"], m["text"]) for m in whole.marks
        ]
        assert len(part.marks) == len(spans)
        assert "style" not in part.tags
        assert "script" not in part.tags
        icons = {"verified": "\u2714", "warning": "\u26a0", "critical": "\u2716"}
        for mark in part.marks:
            assert "background:" in mark["style"]
            assert f">{icons[mark['data-status']]}</span><mark " in fragment
