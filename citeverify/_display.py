"""HTML renderings for notebooks (``_repr_html_``): tables a person can read at a glance.

Jupyter calls ``_repr_html_`` on the last value of a cell; ``Response``,
``Result`` and every parse result delegate here.  What a reviewer needs first
comes first: the status (in colour *and* in words, so it survives a
black-and-white print or colour blindness), what was cited, what differed from
the authority, the authority found and a link to read it.

Everything that came from outside (citation text, quotations, messages, case
names from a provider, URLs) is escaped; a link is made only for ``http`` and
``https`` URLs, so a ``javascript:`` URL from a hostile provider or request is
shown as text, never made clickable.  Only inline styles are used, because
notebook front-ends strip ``<style>`` elements from untrusted output.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import attrs

from citeverify._kinds import KINDS
from citeverify._meter import UNLIMITED

if TYPE_CHECKING:
    from citeverify._model import Comparison, Response, Result

__all__ = ["parsed_html", "response_html", "result_html"]

#: Text colour and background for each status (GitHub's accessible palette).
_COLOURS = {
    "verified": ("#1a7f37", "#dafbe1"),
    "warning": ("#9a6700", "#fff8c5"),
    "critical": ("#cf222e", "#ffebe9"),
}
_NEUTRAL = ("#57606a", "#f6f8fa")
_SYMBOLS = {"verified": "\u2714", "warning": "\u26a0", "critical": "\u2716"}
#: Quotations longer than this are cut in the table (the full text is in the Result).
_QUOTE_CHARS = 240

_TABLE = 'style="border-collapse:collapse;text-align:left;vertical-align:top"'
_CELL = 'style="padding:4px 8px;border-bottom:1px solid #d0d7de;vertical-align:top;text-align:left"'
_HEAD_CELL = (
    'style="padding:4px 8px;border-bottom:2px solid #d0d7de;text-align:left;vertical-align:top"'
)


def _text(value: object) -> str:
    """Escape any value for HTML text or a quoted attribute; ``None`` is empty."""
    return "" if value is None else escape(str(value), quote=True)


def _safe_url(url: str | None) -> str | None:
    """The escaped URL if it is an absolute ``http(s)`` URL, else ``None`` (never a link)."""
    if not url:
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return escape(url.strip(), quote=True)


def _badge(status: str) -> str:
    fg, bg = _COLOURS.get(status, _NEUTRAL)
    symbol = _SYMBOLS.get(status, "")
    return (
        f'<span style="color:{fg};background:{bg};font-weight:bold;padding:1px 6px;'
        f'border-radius:4px;white-space:nowrap">{symbol} {_text(status)}</span>'
    )


def _cell(content: str) -> str:
    return f"<td {_CELL}>{content}</td>"


def _value(value: str | None) -> str:
    return "<em>none</em>" if value is None else _text(value)


def _comparison(comparison: Comparison) -> str:
    return (
        f"<b>{_text(comparison.attribute)}</b>: cited {_value(comparison.cited)}, "
        f"found {_value(comparison.found)}"
    )


def _differed(result: Result) -> str:
    """The comparisons that failed; for a quotation, how its words differ; else what agreed."""
    comparisons = result.evidence.comparisons if result.evidence is not None else ()
    failed = [c for c in comparisons if not c.match]
    if failed:
        return "<br>".join(_comparison(c) for c in failed)
    if result.quote is not None and not result.quote.matched:
        return _quote_difference(result)
    compared = ", ".join(_text(c.attribute) for c in comparisons)
    return f'<span style="color:#57606a">agrees on {compared}</span>' if compared else ""


def _quote_difference(result: Result) -> str:
    """How a quotation differs from its authority.

    The verdict carries the difference only in its message ("... differs from CASE:
    'must' where the authority says 'need not'"); the part after the authority's name
    is the difference itself.
    """
    message = result.verdict.message or ""
    name = result.opinion.case_name if result.opinion is not None else None
    if name and name in message:
        detail = message.split(name, 1)[1]
        detail = detail.split(": ", 1)[1] if ": " in detail else ""
        if detail:
            return f"<b>quotation</b>: {_text(detail)}"
    if result.verdict.outcome == "not_found":
        return "<b>quotation</b>: not in the authority's text"
    return f"<b>quotation</b>: {_text(message)}" if message else ""


def _short_name(caption: str) -> str:
    """A long caption cut after its first party on each side (``... v. X et al.``).

    The Supreme Court Database's captions name every party, in capitals; the table
    shows the whole caption once (under "authority found") and this short form elsewhere.
    """
    head, v, tail = caption.partition(" v. ")
    if not v or "," not in tail:
        return caption
    return f"{head} v. {tail.split(',', 1)[0]} et al."


def _message(result: Result) -> str:
    """The verdict's message, with the authority's long caption in its short form."""
    message = result.verdict.message or ""
    name = result.opinion.case_name if result.opinion is not None else None
    if name and result.type.value in ("case", "quote", "link") and name in message:
        message = message.replace(name, _short_name(name))
    return _text(message)


def _authority(result: Result) -> str:
    """Name, year, court and citations of the authority found, when one resolved."""
    opinion = result.opinion
    if opinion is None:
        return ""
    name = _text(opinion.case_name) if opinion.case_name else "<em>unnamed</em>"
    if opinion.year is not None:
        name += f" ({opinion.year})"
    lines = [name]
    if opinion.court.name:
        lines.append(f'<small style="color:#57606a">{_text(opinion.court.name)}</small>')
    if opinion.citations:
        lines.append(f"<small>{'; '.join(_text(c) for c in opinion.citations[:4])}</small>")
    return "<br>".join(lines)


#: A CourtListener REST API address: JSON for programs (and a token), not a page to read.
_CL_API = re.compile(r"^https?://(?:www\.)?courtlistener\.com/api/rest/v\d+/")
_US_CITE = re.compile(r"^(\d+) U\.S\. (\d+)$")


def _readable_url(url: str | None, citations: Iterable[str]) -> str | None:
    """The page a person reads for a document; CourtListener's API becomes its web page.

    CourtListener's page for a case is addressed by its cluster, which the API address
    (an opinion id) does not give; its citation look-up page (``/c/U.S./410/113/``) leads
    to the case's page from the U.S. Reports citation.  Without one, no link is made.
    """
    if url is None or not _CL_API.match(url.strip()):
        return url
    for citation in citations:
        found = _US_CITE.match(citation)
        if found:
            return f"https://www.courtlistener.com/c/U.S./{found[1]}/{found[2]}/"
    return None


def _links(result: Result) -> str:
    """One link per readable document (http(s) only), named by its provider."""
    if result.opinion is None or not result.opinion.documents:
        return ""
    links = []
    for document in result.opinion.documents:
        readable = _readable_url(document.url, result.opinion.citations or ())
        if readable is None:
            continue  # an API address with no page to read
        url = _safe_url(readable)
        label = _text(document.provider) or "read"
        if url is None:
            links.append(f"<small>{label}: {_text(document.url)}</small>")
        else:
            links.append(f'<a href="{url}" target="_blank" rel="noopener noreferrer">{label}</a>')
    return "<br>".join(links)


def _cited(result: Result) -> str:
    """The citation as submitted; for a quotation, the quoted words above it."""
    cited = _text(result.citation.raw)
    if result.citation.normalized and result.citation.normalized != result.citation.raw:
        cited += f'<br><small style="color:#57606a">{_text(result.citation.normalized)}</small>'
    if result.quote is not None and result.quote.snippet:
        snippet = result.quote.snippet
        if len(snippet) > _QUOTE_CHARS:
            snippet = snippet[:_QUOTE_CHARS].rstrip() + "\u2026"
        if snippet[:1] not in "\"\u201c\u2018'":  # the quotation may bring its own marks
            snippet = f"\u201c{snippet}\u201d"
        cited = f"{_text(snippet)}<br><small>{cited}</small>"
    return cited


_COLUMNS = ("id", "status", "cited", "message", "what differed", "authority found", "read")


def _head() -> str:
    return "<tr>" + "".join(f"<th {_HEAD_CELL}>{name}</th>" for name in _COLUMNS) + "</tr>"


def _row(result: Result) -> str:
    status = result.verdict.status.value
    outcome = result.verdict.outcome
    verdict = _badge(status)
    if outcome and outcome != status:
        verdict += f'<br><small style="color:#57606a">{_text(outcome)}</small>'
    return (
        "<tr>"
        + _cell(_text(result.id))
        + _cell(verdict)
        + _cell(_cited(result))
        + _cell(_message(result))
        + _cell(_differed(result))
        + _cell(_authority(result))
        + _cell(_links(result))
        + "</tr>"
    )


def _table(rows: Iterable[str]) -> str:
    return f"<table {_TABLE}><thead>{_head()}</thead><tbody>{''.join(rows)}</tbody></table>"


def result_html(result: Result) -> str:
    """One result as a one-row table."""
    return _table([_row(result)])


def response_html(response: Response) -> str:
    """A summary line (overall status, counts, billing, usage), then one row per result.

    A document response (its results carry positions) is shown as the offline report
    is (``citeverify.report.render_fragment``, inline styles only): the brief marked,
    when its text is in the response (PDF and Word input), the problems worst first,
    and each result with the citation it was resolved or attributed to.
    """
    if any(r.position is not None for r in response.results):
        from citeverify import _codec
        from citeverify.report import render_fragment

        text = response.document.text if response.document is not None else None
        return render_fragment(_codec.response_to_dict(response), text, title="citeverify")
    s = response.summary
    u = response.usage
    if u.limit >= UNLIMITED:  # the library's default meter: no real quota (billed shown once)
        usage = "no quota"
    else:
        usage = f"quota {u.used} of {u.limit} used ({u.remaining} left)"
    head = (
        f"<p>{_badge(s.overall_status.value)} "
        f"{s.verified} verified, {s.warning} warning, {s.critical} critical of {s.total}"
        f" &middot; {s.unique_citations} unique citations, {s.billed_citations} billed"
        f" &middot; {usage}</p>"
    )
    return head + _table(_row(r) for r in response.results)


# --- parse results --------------------------------------------------------------------------

_PARSED_LABELS = {k.name: k.label for k in KINDS.values() if k.parser is not None}


def _parsed_value(value: Any) -> str | None:
    """A field of a parse result as escaped HTML, or ``None`` to leave the row out."""
    if value is None or value == () or value == "":
        return None
    normalized = getattr(value, "normalized", None)
    if isinstance(normalized, str):  # a nested citation (parallel, link target)
        return _text(normalized)
    if type(value).__name__ == "Pinpoint":
        return _text(value.text)
    if type(value).__name__ == "CourtRef":
        cited = f", cited as &ldquo;{_text(value.cited)}&rdquo;" if value.cited else ""
        return f"{_text(value.name)} ({_text(value.id)}){cited}"
    if attrs.has(type(value)):
        shown = []
        for field in attrs.fields(type(value)):
            item = getattr(value, field.name)
            if item is not None and item != "":
                shown.append(f"{_text(field.name)}={_text(item)}")
        return ", ".join(shown)
    if isinstance(value, tuple):
        parts = [_parsed_value(v) for v in value]
        return "; ".join(p for p in parts if p is not None)
    return _text(value)


def parsed_html(parsed: Any) -> str:
    """A parse result as a two-column table of the fields it carries.

    The fields are read from the attrs class, so a field a parser adds later is
    shown without a change here.  ``NotACitation`` is shown as a warning with
    its message.
    """
    kind = str(getattr(parsed, "kind", ""))
    understood = getattr(parsed, "normalized", None) is not None
    if understood:
        label = _PARSED_LABELS.get(kind, f"{kind} citation")
        badge = (
            f'<span style="color:#0969da;font-weight:bold">{_text(label)}</span>'
            f" <code>{_text(parsed.normalized)}</code>"
        )
    else:
        badge = f"{_badge('warning')} not a {_text(kind)} citation"
    rows = []
    for field in attrs.fields(type(parsed)):
        if field.name in ("kind", "normalized"):
            continue
        shown = _parsed_value(getattr(parsed, field.name))
        if shown is None:
            continue
        rows.append(f"<tr>{_cell(f'<b>{_text(field.name)}</b>')}{_cell(shown)}</tr>")
    return f"<p>{badge}</p><table {_TABLE}><tbody>{''.join(rows)}</tbody></table>"
