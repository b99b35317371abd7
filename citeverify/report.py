"""The offline report: one self-contained, printable HTML file for a checked brief.

``render_html(response, text)`` draws what the page served by ``citeverify serve``
draws, without a server and without script: the brief with every citation and
quotation marked (colour, an icon and a word, never colour alone), a summary, the
problems worst first, and each result's evidence in a ``<details>`` element.  It is
what ``citeverify check --format html`` writes; ``render_fragment`` is the same
body with inline styles, which is what a notebook shows for a document response.

Why no script: the file is mailed, archived and printed; it must read the same in a
browser with script disabled, in a notebook that strips script, and on paper.  Why
inline CSS: one file, no network, nothing to lose.  Everything from the brief or the
response is escaped (a brief is hostile input), and a link is made only for an
``http(s)`` URL.  Positions are code-point offsets, which is what Python indexes.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Any
from urllib.parse import urlsplit

from citeverify._version import __version__

__all__ = ["render_fragment", "render_html"]

_RANK = {"critical": 0, "warning": 1, "verified": 2}
_ICON = {"critical": "\u2716", "warning": "\u26a0", "verified": "\u2714"}
#: Word lists longer than this are shown without a diff (the diff is quadratic).
_MAX_DIFF_WORDS = 2000
_EDGE_PUNCT = re.compile(r"^\W+|\W+$")


def _e(value: object) -> str:
    return "" if value is None else escape(str(value), quote=True)


def _map(value: object) -> Mapping[str, Any]:
    """``value`` if it is a mapping, else an empty one (a response may be malformed)."""
    return value if isinstance(value, Mapping) else {}


def _status(result: Mapping[str, Any]) -> str:
    verdict = result.get("verdict")
    status = verdict.get("status") if isinstance(verdict, Mapping) else None
    return status if status in _RANK else "warning"


def _id(result: Mapping[str, Any], index: int) -> str:
    value = result.get("id")
    return str(value) if value not in (None, "") else f"r{index + 1}"


def _anchor(result_id: str) -> str:
    """An id attribute value that is safe whatever the result id holds."""
    return "r-" + re.sub(r"[^A-Za-z0-9_-]", lambda m: f"_{ord(m.group()):x}", result_id)


def human_url(url: object) -> str | None:
    """A URL a person can open, or ``None``: only ``http(s)``; a CourtListener API path
    (``/api/rest/...``) becomes the opinion's page, ``https://www.courtlistener.com/opinion/<id>/``."""
    if not isinstance(url, str):
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    if "/api/rest/" in parts.path:
        ids = [segment for segment in parts.path.split("/") if segment.isdigit()]
        return f"https://www.courtlistener.com/opinion/{ids[-1]}/" if ids else None
    return url.strip()


def word_diff(a: Sequence[str], b: Sequence[str]) -> tuple[list[bool], list[bool]] | None:
    """For each word of ``a`` and of ``b``, whether it belongs to their common part
    (case and edge punctuation ignored); ``None`` when either is too long to compare."""
    if len(a) > _MAX_DIFF_WORDS or len(b) > _MAX_DIFF_WORDS:
        return None
    ka = [_EDGE_PUNCT.sub("", w.lower()) for w in a]
    kb = [_EDGE_PUNCT.sub("", w.lower()) for w in b]
    same_a = [False] * len(a)
    same_b = [False] * len(b)
    for block in difflib.SequenceMatcher(None, ka, kb, autojunk=False).get_matching_blocks():
        for k in range(block.size):
            same_a[block.a + k] = True
            same_b[block.b + k] = True
    return same_a, same_b


# --- the marked text ---------------------------------------------------------------------


def _marked_text(text: str, results: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    """``text`` with a ``<mark>`` per positioned result, nested where positions nest; a
    position crossing another's end is clipped to it.  A small link after each outermost
    mark leads to the results' details (outside the marks, so a mark's text is exactly
    the brief's)."""
    spans: list[tuple[int, int, str, Mapping[str, Any]]] = []
    for result_id, result in results:
        position = result.get("position")
        if not isinstance(position, Mapping):
            continue
        start, end = position.get("start"), position.get("end")
        if not isinstance(start, int) or not isinstance(end, int):
            continue
        start, end = max(0, min(len(text), start)), max(0, min(len(text), end))
        if end > start:
            spans.append((start, end, result_id, result))
    spans.sort(key=lambda s: (s[0], -s[1]))
    out: list[str] = []
    stack: list[int] = []  # the ends of the open marks
    refs: list[tuple[str, str]] = []  # (id, status) of marks inside the open outermost one
    cursor = 0

    def close() -> None:
        nonlocal cursor
        end = stack.pop()
        out.append(_e(text[cursor:end]) + "</mark>")
        cursor = end
        if not stack:
            out.extend(
                f'<a class="cv-ref" href="#{_anchor(rid)}" aria-label="details of {_e(rid)}">'
                f"{_e(rid)}</a>"
                for rid, _ in refs
            )
            refs.clear()

    for start, end, result_id, result in spans:
        while stack and stack[-1] <= start:
            close()
        if start < cursor:
            continue
        out.append(_e(text[cursor:start]))
        cursor = start
        if stack:
            end = min(end, stack[-1])
        status = _status(result)
        message = _map(result.get("verdict")).get("message") or ""
        out.append(
            f'<mark class="cv-mark" id="m-{_anchor(result_id)[2:]}" '
            f'data-result-id="{_e(result_id)}" data-status="{status}" '
            f'data-type="{_e(result.get("type"))}" title="{_e(status + ": " + message)}">'
        )
        stack.append(end)
        refs.append((result_id, status))
    while stack:
        close()
    out.append(_e(text[cursor:]))
    return "".join(out)


# --- summary, problems, details --------------------------------------------------------------


def _summary(response: Mapping[str, Any], results: Sequence[Mapping[str, Any]]) -> str:
    counts = dict.fromkeys(_RANK, 0)
    for result in results:
        counts[_status(result)] += 1
    summary = _map(response.get("summary"))
    fully_flag = summary.get("is_fully_verified")
    fully = fully_flag is True or (
        fully_flag is None and bool(results) and counts["verified"] == len(results)
    )
    overall = summary.get("overallStatus")
    if overall not in _RANK:
        overall = (
            "critical" if counts["critical"] else "warning" if counts["warning"] else "verified"
        )
    verdict = (
        f"{_ICON['verified']} Fully verified" if fully else f"{_ICON['warning']} Not fully verified"
    )
    items = "".join(
        f'<li data-status="{s}" data-count="{counts[s]}">{_ICON[s]} {counts[s]} {s}</li>'
        for s in ("critical", "warning", "verified")
    )
    return (
        f'<section class="cv-summary" data-role="summary" data-total="{len(results)}" '
        f'data-status="{overall}" aria-label="Summary">'
        f'<p class="cv-verdict" data-fully-verified="{"true" if fully else "false"}">{verdict}</p>'
        f'<ul class="cv-counts">{items}<li data-count="{len(results)}">{len(results)} in all</li>'
        "</ul></section>"
    )


def _label(result: Mapping[str, Any]) -> str:
    position = result.get("position")
    if isinstance(position, Mapping) and position.get("text"):
        return str(position["text"])
    citation = result.get("citation")
    if isinstance(citation, Mapping) and citation.get("raw"):
        return str(citation["raw"])
    quote = result.get("quote")
    if isinstance(quote, Mapping) and quote.get("snippet"):
        return str(quote["snippet"])
    return str(result.get("id", ""))


def _problems(entries: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    ordered = sorted(
        (
            (index, rid, result)
            for index, (rid, result) in enumerate(entries)
            if _status(result) != "verified"
        ),
        key=lambda e: (_RANK[_status(e[2])], e[0]),
    )
    if not ordered:
        return '<ol class="cv-problems"><li class="cv-none">No problems found.</li></ol>'
    rows = []
    for _, rid, result in ordered:
        status = _status(result)
        message = _map(result.get("verdict")).get("message") or ""
        rows.append(
            f'<li><a class="cv-problem" data-status="{status}" data-result-id="{_e(rid)}" '
            f'href="#{_anchor(rid)}"><span class="cv-badge" data-status="{status}">'
            f'{_ICON[status]} {status}</span> <span class="cv-problem-text">{_e(_label(result))}'
            f'</span><span class="cv-problem-message">{_e(message)}</span></a></li>'
        )
    return f'<ol class="cv-problems">{"".join(rows)}</ol>'


def _comparisons(comparisons: Iterable[Any]) -> str:
    rows = []
    for c in comparisons:
        if not isinstance(c, Mapping):
            continue
        match = c.get("match") is True
        rows.append(
            f'<tr data-match="{"true" if match else "false"}"><th scope="row">'
            f"{_e(c.get('attribute'))}</th><td>{_e(c.get('cited'))}</td>"
            f"<td>{_e(c.get('found'))}</td>"
            f"<td>{_ICON['verified'] + ' yes' if match else _ICON['critical'] + ' no'}</td></tr>"
        )
    if not rows:
        return ""
    return (
        '<table class="cv-comparisons"><caption>What was cited against what was found</caption>'
        '<thead><tr><th scope="col">Attribute</th><th scope="col">Cited</th>'
        '<th scope="col">Found</th><th scope="col">Agrees</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _diff_line(words: Sequence[str], same: Sequence[bool] | None, tag: str, title: str) -> str:
    parts = [
        f'<{tag} class="cv-changed" title="{title}">{_e(w)}</{tag}>'
        if same is not None and not same[i]
        else _e(w)
        for i, w in enumerate(words)
    ]
    return f'<p class="cv-diff">{" ".join(parts)}</p>'


def _quote(quote: Mapping[str, Any]) -> str:
    snippet = str(quote.get("snippet") or "")
    passage = quote.get("passage")
    out = ['<div class="cv-quote"><h4>The quotation</h4>']
    if isinstance(passage, str) and passage:
        a, b = snippet.split(), passage.split()
        diff = word_diff(a, b)
        out.append('<p class="cv-help">Words that differ are marked.</p>')
        out.append('<p class="cv-diff-label">As quoted in the brief:</p>')
        out.append(_diff_line(a, diff[0] if diff else None, "del", "not in the authority"))
        out.append('<p class="cv-diff-label">The authority\'s words:</p>')
        out.append(_diff_line(b, diff[1] if diff else None, "ins", "the authority&#x27;s word"))
    elif snippet:
        out.append('<p class="cv-diff-label">As quoted in the brief:</p>')
        out.append(f'<p class="cv-diff">{_e(snippet)}</p>')
    out.append("</div>")
    return "".join(out)


def _authority(opinion: Mapping[str, Any]) -> str:
    parts = []
    if opinion.get("caseName"):
        parts.append(str(opinion["caseName"]))
    citations = opinion.get("citations")
    if isinstance(citations, list) and citations:
        parts.append(", ".join(str(c) for c in citations))
    court = _map(opinion.get("court")).get("name")
    tail = ", ".join(str(x) for x in (court, opinion.get("year")) if x)
    line = ", ".join(parts) + (f" ({tail})" if tail else "")
    links = []
    for document in opinion.get("documents") or []:
        if not isinstance(document, Mapping):
            continue
        url = human_url(document.get("url"))
        if url:
            provider = document.get("provider")
            links.append(
                f'<li><a href="{_e(url)}" rel="noopener noreferrer">Read it'
                f"{' on ' + _e(provider) if provider else ''}</a></li>"
            )
    link_list = f'<ul class="cv-links">{"".join(links)}</ul>' if links else ""
    return f'<div class="cv-authority"><h4>Authority found</h4><p>{_e(line)}</p>{link_list}</div>'


def _result(rid: str, result: Mapping[str, Any], labels: Mapping[str, str]) -> str:
    status = _status(result)
    verdict = _map(result.get("verdict"))
    outcome = f" ({_e(verdict.get('outcome'))})" if verdict.get("outcome") else ""
    body = []
    if verdict.get("message"):
        body.append(f"<p>{_e(verdict['message'])}</p>")
    target = result.get("citationId")
    if target not in (None, ""):
        target = str(target)
        kind = "Attributed to" if result.get("type") == "quote" else "Short form of"
        body.append(
            f'<p class="cv-attributed">{kind}: <a href="#{_anchor(target)}" '
            f'data-citation-id="{_e(target)}">{_e(labels.get(target, target))}</a></p>'
        )
    evidence = result.get("evidence")
    if isinstance(evidence, Mapping) and isinstance(evidence.get("comparisons"), list):
        body.append(_comparisons(evidence["comparisons"]))
    if isinstance(result.get("quote"), Mapping):
        body.append(_quote(result["quote"]))
    if isinstance(result.get("opinion"), Mapping):
        body.append(_authority(result["opinion"]))
    positioned = isinstance(result.get("position"), Mapping)
    back = (
        f' <a class="cv-back" href="#m-{_anchor(rid)[2:]}">(in the text)</a>' if positioned else ""
    )
    opened = " open" if status != "verified" else ""
    return (
        f'<li id="{_anchor(rid)}" class="cv-result" data-result-id="{_e(rid)}" '
        f'data-status="{status}"><details{opened}><summary><span class="cv-badge" '
        f'data-status="{status}">{_ICON[status]} {status}{outcome}</span> '
        f'<span class="cv-problem-text">{_e(_label(result))}</span></summary>'
        f"{''.join(body)}{back}</details></li>"
    )


def _css() -> str:
    from importlib.resources import files

    css = files("citeverify.http").joinpath("_page", "page.css").read_text("utf-8")
    return css.replace("</", "<\\/")  # a style element ends at the first "</style"


def _body(response: Mapping[str, Any], text: str | None, title: str, heading: str) -> str:
    """The report's content, with class names for the style sheet (``render_html``) or
    for ``_inline_styles`` (``render_fragment``)."""
    results_raw = response.get("results")
    if not isinstance(results_raw, list):
        results_raw = []
    results = [r for r in results_raw if isinstance(r, Mapping)]
    entries = [(_id(r, i), r) for i, r in enumerate(results)]
    labels = {rid: _label(r) for rid, r in entries}
    if text is None:
        document = response.get("document")
        if isinstance(document, Mapping) and isinstance(document.get("text"), str):
            text = document["text"]
    if text is None:
        marked = '<p class="cv-help">The text of the brief was not given, so nothing is marked.</p>'
    else:
        marked = f'<div class="cv-text" data-role="text">{_marked_text(text, entries)}</div>'
    every = "".join(_result(rid, r, labels) for rid, r in entries)
    return (
        f'<{heading} id="cv-title">{_e(title)}</{heading}>'
        f'<p class="cv-meta">Checked by citeverify {_e(__version__)}. Marks: '
        '<span class="cv-mark" data-status="critical">critical</span> '
        '<span class="cv-mark" data-status="warning">warning</span> '
        '<span class="cv-mark" data-status="verified">verified</span></p>'
        f"{_summary(response, results)}"
        '<div class="cv-layout"><article class="cv-doc" aria-labelledby="cv-doc-title">'
        f'<h2 id="cv-doc-title">The brief, marked</h2>{marked}</article>'
        '<aside class="cv-side" aria-labelledby="cv-side-title">'
        f'<h2 id="cv-side-title">Problems, worst first</h2>{_problems(entries)}</aside></div>'
        '<section aria-labelledby="cv-all-title"><h2 id="cv-all-title">Every citation and '
        f'quotation</h2><ol class="cv-results-list">{every}</ol></section>'
    )


def render_html(
    response: Mapping[str, Any],
    text: str | None = None,
    *,
    title: str = "citeverify report",
) -> str:
    """One self-contained HTML file for a document response (the JSON-ready dict).

    ``text`` is the text the positions point into: the submitted text, or, when the
    response carries ``document.text`` (PDF and Word input), that by default.  Without
    either, the report lists the results but cannot mark them in the text.  The file
    needs no network and no script; it prints on A4 and Letter (the side panel then
    follows the text).
    """
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="citeverify {_e(__version__)}">'
        f"<title>{_e(title)}</title><style>{_css()}</style></head>"
        '<body><main class="cv-report" aria-labelledby="cv-title">'
        f"{_body(response, text, title, 'h1')}"
        "</main></body></html>\n"
    )


# --- the fragment for notebooks ----------------------------------------------------------------

#: Colours of the style sheet (``page.css``), for inline styles.
_FG = {"verified": "#1a7f37", "warning": "#7d4e00", "critical": "#a40e26"}
_BG = {"verified": "#dafbe1", "warning": "#fff8c5", "critical": "#ffebe9"}
_LINE = {"verified": "2px solid", "warning": "2px dashed", "critical": "3px double"}
_SERIF = "font-family:Georgia,'Times New Roman',serif"
_BOX = "border:1px solid #d0d7de;border-radius:8px"
#: Inline style per class name; ``None`` values depend on the element's status.
_STYLES: dict[str, str] = {
    "cv-report": "max-width:80rem;color:#1f2328;line-height:1.5",
    "cv-meta": "color:#57606a;font-size:.9em",
    "cv-help": "color:#57606a;font-size:.9em",
    "cv-summary": f"{_BOX};padding:.25rem 1rem;background:#f6f8fa",
    "cv-verdict": "margin:.25rem 0;font-weight:700",
    "cv-counts": "list-style:none;margin:.25rem 0;padding:0",
    "cv-text": f"white-space:pre-wrap;overflow-wrap:anywhere;{_SERIF};line-height:1.8;"
    f"{_BOX};padding:1rem",
    "cv-problems": "list-style:none;margin:0 0 1rem;padding:0",
    "cv-problem": f"display:block;color:inherit;text-decoration:none;{_BOX};"
    "padding:.5rem .75rem;margin-bottom:.5rem",
    "cv-problem-text": f"{_SERIF};overflow-wrap:anywhere",
    "cv-problem-message": "display:block;color:#57606a;font-size:.9em",
    "cv-badge": "font-weight:700",
    "cv-results-list": "list-style:none;padding:0",
    "cv-result": f"{_BOX};padding:.5rem .75rem;margin-bottom:.5rem;overflow-wrap:anywhere",
    "cv-comparisons": "border-collapse:collapse;font-size:.9em;margin:.5rem 0",
    "cv-diff": f"{_SERIF};{_BOX};padding:.5rem;overflow-wrap:anywhere",
    "cv-diff-label": "margin:.5rem 0 0;font-weight:600;font-size:.9em",
    "cv-ref": "font-size:.7em;vertical-align:super;text-decoration:none;margin-left:.1em",
    "cv-mark": "color:inherit;border-radius:3px;padding:0 .1em",
}
_TAG = re.compile(r"<([a-z][a-z0-9]*)((?:\s[^<>]*)?)>")
_ATTR = re.compile(r'\s(class|data-status|data-match)="([^"]*)"')


def _inline_style(match: re.Match[str]) -> str:
    """One start tag with the style its class and status give; a mark also gets its
    status icon in front of it (outside the mark, so the mark's text stays the brief's)."""
    tag, attributes = match.group(1), match.group(2)
    found = dict(_ATTR.findall(attributes))
    classes = found.get("class", "").split()
    status = found.get("data-status")
    styles = [_STYLES[c] for c in classes if c in _STYLES]
    prefix = ""
    if status in _RANK and "cv-summary" not in classes:
        if "cv-mark" in classes:
            styles.append(f"background:{_BG[status]};border-bottom:{_LINE[status]} {_FG[status]}")
            if tag == "mark":
                prefix = (
                    f'<span aria-hidden="true" style="color:{_FG[status]};font-size:.8em">'
                    f"{_ICON[status]}</span>"
                )
        elif classes and classes[0] in ("cv-problem", "cv-result"):
            styles.append(
                f"border-left:6px {'dashed' if status == 'warning' else 'solid'} {_FG[status]}"
            )
        else:
            styles.append(f"color:{_FG[status]}")
    if "cv-changed" in classes:
        colour = "critical" if tag == "del" else "verified"
        styles.append(f"background:{_BG[colour]};color:{_FG[colour]}")
    if tag in ("th", "td"):
        styles.append(
            "text-align:left;vertical-align:top;padding:.25rem .5rem;"
            "border-bottom:1px solid #d0d7de"
        )
    if tag == "tr" and found.get("data-match") == "false":
        styles.append(f"color:{_FG['critical']};font-weight:600")
    if not styles:
        return match.group(0)
    return f'{prefix}<{tag}{attributes} style="{";".join(styles)}">'


def render_fragment(
    response: Mapping[str, Any],
    text: str | None = None,
    *,
    title: str = "citeverify report",
) -> str:
    """The report's body as an HTML fragment with inline styles only.

    Notebook front-ends strip ``<style>`` elements and scripts from output, so the
    fragment carries each element's look in its ``style`` attribute (the same colours,
    line styles and icons as the style sheet: status is never colour alone).  Everything
    from the brief is escaped before styles are added, so the tags seen here are the
    report's own.
    """
    body = _TAG.sub(_inline_style, _body(response, text, title, "h3"))
    return f'<div class="cv-report" style="{_STYLES["cv-report"]}">{body}</div>'
