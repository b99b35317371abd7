"""The verification pipeline, end to end over a Memory provider."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import citeverify
from citeverify import InMemoryMeter, RateLimited, ValidationError
from citeverify._model import Court, Document, Identifier, Status
from citeverify.providers import (
    Authority,
    AuthorityText,
    LookupAnswer,
    LookupRequest,
    Memory,
    Nothing,
    Unavailable,
)
from citeverify.testing import FailingProvider
from tests.contract_schema import RESPONSE_SCHEMA, assert_no_nulls_outside_comparisons

ROE_TEXT = (
    "This right of privacy, whether it be founded in the Fourteenth Amendment's concept of "
    "personal liberty and restrictions upon state action, as we feel it is, or, as the District "
    "Court determined, in the Ninth Amendment's reservation of rights to the people, is broad "
    "enough to encompass a woman's decision whether or not to terminate her pregnancy. "
    "The detriment that the State would impose upon the pregnant woman by denying this choice "
    "altogether is apparent."
)
ROE = Authority(
    kind="case",
    reference="t:roe",
    provider="test",
    citations=("410 U.S. 113", "93 S. Ct. 705", "35 L. Ed. 2d 147"),
    name="ROE et al. v. WADE, DISTRICT ATTORNEY OF DALLAS COUNTY",
    court=Court("Supreme Court of the United States", "us"),
    court_id="scotus",
    decided=dt.date(1973, 1, 22),
    first_page=113,
    last_page=178,
    documents=(
        Document(
            provider="justia",
            url="https://supreme.justia.com/cases/federal/us/410/113/",
            identifiers=(Identifier("courtlistener", "opinion", "108713"),),
        ),
    ),
    load_text=lambda: AuthorityText(
        ROE_TEXT, pages=((0, 153), (ROE_TEXT.index("The detriment"), 154))
    ),
)
MIRANDA = Authority(
    kind="case",
    reference="t:miranda",
    provider="test",
    citations=("384 U.S. 436",),
    name="MIRANDA v. ARIZONA",
    court=Court("Supreme Court of the United States", "us"),
    court_id="scotus",
    decided=dt.date(1966, 6, 13),
    first_page=436,
    last_page=545,
)
USC_1983 = Authority(
    kind="statute",
    reference="t:usc-42-1983",
    provider="test",
    citations=("42 U.S.C. § 1983",),
    name="42 U.S.C. § 1983. Civil action for deprivation of rights",
    court=Court("United States Congress", "us"),
    status="current",
)
USC_REPEALED = Authority(
    kind="statute",
    reference="t:usc-42-1981a-old",
    provider="test",
    citations=("42 U.S.C. § 1973aa-3",),
    name="42 U.S.C. § 1973aa-3",
    court=Court("United States Congress", "us"),
    status="transferred",
    status_note="now 52 U.S.C. § 10503",
)
PROVIDER = Memory(
    [ROE, MIRANDA, USC_1983, USC_REPEALED],
    complete=["U.S.", "U.S.C."],
    as_of="2023-01-01T00:00:00Z",
)


def run(*items: dict[str, Any], provider: Any = PROVIDER, **kw: Any) -> dict[str, Any]:
    out = citeverify.verify_request({"items": list(items)}, provider=provider, **kw)
    jsonschema.validate(out, RESPONSE_SCHEMA)
    assert_no_nulls_outside_comparisons(out)
    return out


def case(raw: str, ident: str = "c") -> dict[str, Any]:
    return {"id": ident, "type": "case", "rawText": raw}


def quote(text: str, parent: str = "c", ident: str = "q") -> dict[str, Any]:
    return {"id": ident, "type": "quote", "quoteText": text, "parentCaseId": parent}


def comparisons(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["attribute"]: c for c in result.get("evidence", {}).get("comparisons", [])}


class TestCases:
    def test_real_citation_is_verified_with_opinion(self) -> None:
        """A resolved case whose every compared attribute agrees is verified, with its opinion."""
        [r] = run(case("Roe v. Wade, 410 U.S. 113, 153 (1973)"))["results"]
        assert r["verdict"]["status"] == "verified"
        assert r["verdict"]["outcome"] == "verified"
        assert r["verdict"]["method"] == "authority-lookup"
        assert r["verdict"]["asOf"] == "2023-01-01T00:00:00Z"
        assert r["citation"]["normalized"] == "410 U.S. 113"
        assert r["citation"]["components"] == {
            "volume": "410",
            "reporter": "U.S.",
            "page": "113",
            "pinpoint": "153",
            "year": 1973,
        }
        assert r["opinion"]["caseName"] == ROE.name
        assert r["opinion"]["year"] == 1973
        assert r["opinion"]["court"] == {
            "name": "Supreme Court of the United States",
            "jurisdiction": "us",
        }
        assert set(comparisons(r)) == {"caseName", "year", "pinpoint"}
        assert all(c["match"] for c in comparisons(r).values())
        assert "reference" not in r["opinion"]

    @pytest.mark.parametrize(
        ("raw", "attribute"),
        [
            ("Roe v. Wade, 410 U.S. 113 (1972)", "year"),
            ("Brown v. Board of Education, 410 U.S. 113 (1973)", "caseName"),
            ("Roe v. Wade, 410 U.S. 113, 190 (1973)", "pinpoint"),
            ("Roe v. Wade, 410 U.S. 113 (5th Cir. 1973)", "court"),
        ],
    )
    def test_differing_attribute_is_a_mismatch(self, raw: str, attribute: str) -> None:
        """A cited attribute that differs gives warning/mismatch with a false comparison."""
        [r] = run(case(raw))["results"]
        assert r["verdict"]["status"] == "warning"
        assert r["verdict"]["outcome"] == "mismatch"
        assert comparisons(r)[attribute]["match"] is False
        assert "opinion" in r

    def test_no_volume_comparison_ever(self) -> None:
        """`volume` is never emitted as a comparison."""
        [r] = run(case("Roe v. Wade, 410 U.S. 113 (1972)"))["results"]
        assert "volume" not in comparisons(r)

    def test_fabricated_citation_in_complete_volume_is_critical(self) -> None:
        """No authority where coverage is complete: critical, not_found, no opinion."""
        [r] = run(case("Smith v. Jones, 410 U.S. 999 (1973)"))["results"]
        assert (r["verdict"]["status"], r["verdict"]["outcome"]) == ("critical", "not_found")
        assert "opinion" not in r

    def test_pin_given_as_first_page_is_named(self) -> None:
        """A page inside a named case is a mismatch naming it, not a fabrication."""
        [r] = run(case("Roe v. Wade, 410 U.S. 150 (1973)"))["results"]
        assert r["verdict"]["outcome"] == "mismatch"
        assert comparisons(r)["page"] == {
            "attribute": "page",
            "cited": "150",
            "found": "113",
            "match": False,
        }
        [other] = run(case("Smith v. Jones, 410 U.S. 150 (1973)"))["results"]
        assert other["verdict"]["status"] == "critical"
        assert "ROE" in other["verdict"]["message"]

    def test_lower_court_citation_outside_coverage_is_unverified(self) -> None:
        """A reporter no provider covers is a warning, never critical or verified."""
        [r] = run(case("Varghese v. China S. Airlines Co., 925 F.3d 1339 (11th Cir. 2019)"))[
            "results"
        ]
        assert (r["verdict"]["status"], r["verdict"]["outcome"]) == ("warning", "unverified")

    def test_parallel_citations_must_agree(self) -> None:
        """Parallels that resolve to the same authority pass; one that does not is a warning."""
        [ok] = run(case("Roe v. Wade, 410 U.S. 113, 93 S. Ct. 705 (1973)"))["results"]
        assert ok["verdict"]["status"] == "verified"
        assert comparisons(ok)["parallelCitation"]["match"] is True
        [bad] = run(case("Roe v. Wade, 410 U.S. 113, 384 U.S. 436 (1973)"))["results"]
        assert bad["verdict"]["outcome"] == "mismatch"

    def test_unparseable_text_is_unsupported(self) -> None:
        """Text that is not a citation is warning/unsupported, and not billed."""
        out = run(case("the court said so"))
        [r] = out["results"]
        assert (r["verdict"]["status"], r["verdict"]["outcome"]) == ("warning", "unsupported")
        assert out["summary"]["billed_citations"] == 0

    def test_provider_failure_is_unverified_never_verified(self) -> None:
        """A failing source gives warning/unverified with the reason."""
        for mode in ("raise", "short", "garbage"):
            [r] = run(case("410 U.S. 113"), provider=FailingProvider(mode))["results"]
            assert (r["verdict"]["status"], r["verdict"]["outcome"]) == ("warning", "unverified")

    def test_default_without_corpus_is_outside_coverage(self) -> None:
        """With no source, citations are unverified warnings, never not_found."""
        [r] = run(case("410 U.S. 113"), provider=Nothing())["results"]
        assert r["verdict"]["outcome"] == "unverified"


class TestEnacted:
    def test_current_statute_is_verified(self) -> None:
        """A current U.S. Code section is verified with an opinion describing it."""
        [r] = run({"id": "s", "type": "statute", "rawText": "42 U.S.C. § 1983"})["results"]
        assert r["verdict"]["status"] == "verified"
        assert r["opinion"]["caseName"].startswith("42 U.S.C. § 1983")

    def test_transferred_statute_is_superseded(self) -> None:
        """A dead section is a warning with outcome superseded saying what became of it."""
        [r] = run({"id": "s", "type": "statute", "rawText": "42 U.S.C. § 1973aa-3"})["results"]
        assert (r["verdict"]["status"], r["verdict"]["outcome"]) == ("warning", "superseded")
        assert "52 U.S.C." in r["verdict"]["message"]

    def test_absent_statute_in_complete_code_is_not_found(self) -> None:
        """A section absent where the code is complete is critical."""
        [r] = run({"id": "s", "type": "statute", "rawText": "42 U.S.C. § 99999"})["results"]
        assert r["verdict"]["status"] == "critical"


class TestQuotes:
    def test_located_quote_is_verified(self) -> None:
        """A quote found in the parent's authority is verified and matched."""
        out = run(
            case("Roe v. Wade, 410 U.S. 113, 153 (1973)"),
            quote("is broad enough to encompass a woman's decision whether or not to terminate"),
        )
        r = out["results"][1]
        assert r["verdict"]["status"] == "verified"
        assert r["quote"]["matched"] is True
        assert r["quote"]["snippet"].startswith("is broad enough")
        assert r["citation"]["raw"] == "Roe v. Wade, 410 U.S. 113, 153 (1973)"
        assert "passage" not in r["quote"]
        assert "citationId" not in r

    def test_dropped_not_is_never_verified(self) -> None:
        """A quotation with 'not' dropped is not verified."""
        out = run(
            case("Roe v. Wade, 410 U.S. 113 (1973)"),
            quote("is broad enough to encompass a woman's decision whether or to terminate"),
        )
        r = out["results"][1]
        assert r["verdict"]["status"] != "verified"
        assert r["quote"]["matched"] is False

    def test_invented_quote_is_critical(self) -> None:
        """A quotation nowhere in the authority is critical not_found."""
        out = run(case("410 U.S. 113"), quote("the moon is made of green cheese entirely"))
        r = out["results"][1]
        assert (r["verdict"]["status"], r["verdict"]["outcome"]) == ("critical", "not_found")

    def test_quote_on_another_page_than_the_pin_is_a_mismatch(self) -> None:
        """A quote located away from the cited pin page is a pinpoint mismatch."""
        out = run(
            case("Roe v. Wade, 410 U.S. 113, 160 (1973)"),
            quote("The detriment that the State would impose upon the pregnant woman"),
        )
        r = out["results"][1]
        assert r["verdict"]["outcome"] == "mismatch"
        assert comparisons(r)["pinpoint"]["match"] is False

    def test_quote_of_unresolved_parent(self) -> None:
        """Parent not found gives critical; parent outside coverage gives unverified."""
        out = run(case("410 U.S. 999"), quote("anything at all here"))
        assert out["results"][1]["verdict"]["status"] == "critical"
        out = run(case("925 F.3d 1339"), quote("anything at all here"))
        assert out["results"][1]["verdict"]["outcome"] == "unverified"

    def test_quote_without_text_is_unverified(self) -> None:
        """A resolved parent with no text available leaves the quote unverified."""
        out = run(case("Miranda v. Arizona, 384 U.S. 436 (1966)"), quote("You have the right"))
        r = out["results"][1]
        assert (r["verdict"]["status"], r["verdict"]["outcome"]) == ("warning", "unverified")

    def test_reserved_fields_on_opt_in(self) -> None:
        """citationId, reference and quote.passage appear only when the caller opts in."""
        out = run(
            case("Roe v. Wade, 410 U.S. 113, 153 (1973)"),
            quote("is broad enough to encompass a woman's decision"),
            emit_reserved=True,
        )
        r = out["results"][1]
        assert r["citationId"] == "c"
        assert r["opinion"]["reference"] == "t:roe"
        assert "encompass" in r["quote"]["passage"]


class TestSummaryAndBilling:
    def test_quotes_are_not_billed_and_duplicates_count_once(self) -> None:
        """Quotes never count; one normalised citation counts once."""
        out = run(
            case("Roe v. Wade, 410 U.S. 113 (1973)", "a"),
            case("410 U.S. 113", "b"),
            quote("is broad enough", "a", "q"),
            case("Miranda v. Arizona, 384 U.S. 436 (1966)", "m"),
        )
        s = out["summary"]
        assert s["total"] == 4
        assert s["unique_citations"] == 2
        assert s["billed_citations"] == 2
        assert s["verified"] + s["warning"] + s["critical"] == 4

    def test_meter_is_charged_once_and_refusal_does_no_lookup(self) -> None:
        """The meter is charged the billed count; over quota, nothing is looked up."""
        meter = InMemoryMeter(limit=3)
        out = run(case("410 U.S. 113", "a"), case("384 U.S. 436", "b"), meter=meter)
        assert out["usage"] == {"used": 2, "remaining": 1, "limit": 3}

        class Counting(Memory):
            calls = 0

            def lookup(self, requests: Sequence[LookupRequest]) -> list[LookupAnswer]:
                Counting.calls += 1
                return super().lookup(requests)

        with pytest.raises(RateLimited):
            run(
                case("410 U.S. 113", "a"),
                case("384 U.S. 436", "b"),
                meter=meter,
                provider=Counting([ROE]),
            )
        assert Counting.calls == 0
        assert meter.usage.used == 2

    def test_overall_status_is_the_worst(self) -> None:
        """overallStatus is the worst status among the results."""
        out = run(case("410 U.S. 113", "a"), case("410 U.S. 999", "b"))
        assert out["summary"]["overallStatus"] == "critical"
        assert out["summary"]["is_fully_verified"] is False

    def test_one_lookup_call_per_request(self) -> None:
        """All citations of a request go to the provider in one batch."""
        batches: list[int] = []

        class Counting(Memory):
            def lookup(self, requests: Sequence[LookupRequest]) -> list[LookupAnswer]:
                batches.append(len(requests))
                return super().lookup(requests)

        run(*(case(f"410 U.S. {p}", str(p)) for p in range(100, 140)), provider=Counting([ROE]))
        assert batches == [40]

    def test_same_input_gives_identical_json(self) -> None:
        """Two runs over the same input and provider state are byte-identical."""
        items = [case("Roe v. Wade, 410 U.S. 113, 153 (1973)"), quote("is broad enough")]
        a = json.dumps(run(*items), sort_keys=False)
        b = json.dumps(run(*items), sort_keys=False)
        assert a == b


class TestTypedApi:
    def test_verify_accepts_items_and_returns_response(self) -> None:
        """verify() takes VerifyItem values and returns a typed Response."""
        item = citeverify.VerifyItem(id="1", type=citeverify.ItemType.CASE, raw_text="410 U.S. 113")
        response = citeverify.verify([item], provider=PROVIDER)
        assert response.results[0].verdict.status is Status.VERIFIED
        assert response.summary.total == 1

    def test_verify_validates_typed_items_too(self) -> None:
        """Typed items break the same rules dicts do (duplicate ids here)."""
        item = citeverify.VerifyItem(id="1", type=citeverify.ItemType.CASE, raw_text="x")
        with pytest.raises(ValidationError):
            citeverify.verify([item, item], provider=PROVIDER)

    def test_progress_is_reported(self) -> None:
        """A progress callback sees every item."""
        seen: list[tuple[int, int]] = []
        citeverify.verify(
            [case("410 U.S. 113", "a"), quote("broad", "a", "q")],
            provider=PROVIDER,
            progress=lambda done, total: seen.append((done, total)),
        )
        assert sorted(seen) == [(1, 2), (2, 2)]


# --- properties -----------------------------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=20,
)
_raw = st.sampled_from(
    [
        "Roe v. Wade, 410 U.S. 113, 153 (1973)",
        "410 U.S. 999",
        "925 F.3d 1339",
        "42 U.S.C. § 1983",
        "nonsense",
        "",
        "Miranda v. Arizona, 384 U.S. 436 (1965)",
    ]
) | st.text(max_size=60)
_item = st.fixed_dictionaries(
    {
        "id": st.text(min_size=1, max_size=5),
        "type": st.sampled_from(["case", "statute", "rule", "constitution", "link", "quote"]),
    },
    optional={
        "rawText": _raw,
        "quoteText": st.text(max_size=60) | st.just("is broad enough to encompass"),
        "parentCaseId": st.text(min_size=1, max_size=5),
        "url": st.just("https://supreme.justia.com/cases/federal/us/410/113/")
        | st.text(max_size=30),
        "context": st.text(max_size=20),
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(_json, st.fixed_dictionaries({"items": st.lists(_item, max_size=6)})))
def test_any_json_gives_a_valid_response_or_validation_error(body: Any) -> None:
    """Any JSON value either verifies to a contract-valid Response or raises ValidationError."""
    try:
        out = citeverify.verify_request(body, provider=PROVIDER)
    except ValidationError:
        return
    jsonschema.validate(out, RESPONSE_SCHEMA)
    assert_no_nulls_outside_comparisons(out)
    s = out["summary"]
    results = out["results"]
    assert [r["id"] for r in results] == [i["id"] for i in body["items"]]
    assert s["total"] == len(results)
    for status in ("verified", "warning", "critical"):
        assert s[status] == sum(r["verdict"]["status"] == status for r in results)
    worst = max(
        results, key=lambda r: ["verified", "warning", "critical"].index(r["verdict"]["status"])
    )
    assert s["overallStatus"] == worst["verdict"]["status"]
    assert s["is_fully_verified"] == (s["verified"] == s["total"])
    for r in results:
        if r["type"] == "quote":
            assert r["quote"]["matched"] == (r["verdict"]["status"] == "verified")
    assert s["billed_citations"] <= s["unique_citations"]
    assert out["usage"]["used"] + out["usage"]["remaining"] == out["usage"]["limit"]


def test_unavailable_with_retry_time_says_when() -> None:
    """An Unavailable answer's retry time reaches the message."""

    class Throttled:
        name = "throttled"

        def lookup(self, requests: Sequence[LookupRequest]) -> list[LookupAnswer]:
            when = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)
            return [Unavailable("throttled", retry_at=when) for _ in requests]

    [r] = run(case("410 U.S. 113"), provider=Throttled())["results"]
    assert "2030-01-01" in r["verdict"]["message"]


def test_repeated_passage_is_matched_on_the_cited_page() -> None:
    """A passage printed twice (syllabus and opinion) matches where the pin points."""
    passage = "the quality of mercy is not strained it droppeth as the gentle rain from heaven"
    text = f"Syllabus. {passage}. Opinion of the Court. Other words here. {passage}. End."
    twice = Authority(
        kind="case",
        reference="t:twice",
        provider="test",
        citations=("500 U.S. 1",),
        name="A v. B",
        decided=dt.date(1990, 1, 1),
        first_page=1,
        last_page=9,
        load_text=lambda: AuthorityText(text, pages=((0, 1), (text.index("Opinion"), 5))),
    )
    provider = Memory([twice], complete=["U.S."])
    for pin in ("1", "5"):
        out = run(case(f"A v. B, 500 U.S. 1, {pin} (1990)"), quote(passage), provider=provider)
        assert out["results"][1]["verdict"]["status"] == "verified", pin
