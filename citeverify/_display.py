"""HTML renderings for notebooks (``_repr_html_``): a table a person can read."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citeverify._model import Response, Result

_COLOURS = {"verified": "#1a7f37", "warning": "#9a6700", "critical": "#cf222e"}


def _row(result: Result) -> str:
    status = result.verdict.status.value
    colour = _COLOURS.get(status, "#57606a")
    differed = ""
    if result.evidence is not None:
        differed = "<br>".join(
            f"{escape(c.attribute)}: {escape(str(c.cited))} &rarr; {escape(str(c.found))}"
            for c in result.evidence.comparisons
            if not c.match
        )
    found = ""
    link = ""
    if result.opinion is not None:
        found = escape(result.opinion.case_name or "")
        if result.opinion.year:
            found += f" ({result.opinion.year})"
        if result.opinion.documents:
            url = escape(result.opinion.documents[0].url, quote=True)
            link = f'<a href="{url}" target="_blank" rel="noopener">read</a>'
    cited = escape(result.citation.raw)
    if result.quote is not None and result.quote.snippet:
        cited = f"&ldquo;{escape(result.quote.snippet[:200])}&rdquo;<br><small>{cited}</small>"
    return (
        "<tr>"
        f"<td>{escape(result.id)}</td>"
        f'<td style="color:{colour};font-weight:bold">{escape(status)}</td>'
        f"<td>{escape(result.verdict.outcome or '')}</td>"
        f"<td>{cited}</td>"
        f"<td>{differed}</td>"
        f"<td>{found}</td>"
        f"<td>{link}</td>"
        "</tr>"
    )


_HEAD = (
    "<tr><th>id</th><th>status</th><th>outcome</th><th>cited</th>"
    "<th>what differed</th><th>authority found</th><th></th></tr>"
)


def result_html(result: Result) -> str:
    message = escape(result.verdict.message or "")
    return f"<table>{_HEAD}{_row(result)}</table><p>{message}</p>"


def response_html(response: Response) -> str:
    s = response.summary
    colour = _COLOURS.get(s.overall_status.value, "#57606a")
    head = (
        f'<p><b style="color:{colour}">{escape(s.overall_status.value)}</b>: '
        f"{s.verified} verified, {s.warning} warning, {s.critical} critical of {s.total}; "
        f"{s.billed_citations} billed; usage {response.usage.used}/{response.usage.limit}</p>"
    )
    rows = "".join(_row(r) for r in response.results)
    return f"{head}<table>{_HEAD}{rows}</table>"
