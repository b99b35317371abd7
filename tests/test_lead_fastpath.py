"""``case.lead``'s early exit against its definition, the ``_LEAD`` search alone.

``lead`` skips the search when the window before the volume ends (spaces
aside) in none of the characters a year, blank citation or opener ends with;
``_lead_searched`` is the regex that defines the answer.  The two must agree
at every offset of real opinions and of generated text dense in parentheses,
brackets, blanks, years and whitespace of every kind.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from citeverify.citations import case
from citeverify.citations._text import clean

OPINIONS = Path(__file__).parent / "data" / "quotes" / "scotus_ot2016.jsonl.gz"


def _agree(text: str, volume_start: int, floor: int) -> bool:
    low = max(floor, volume_start - case._LEAD_WINDOW)
    return case.lead(text, volume_start, floor) == case._lead_searched(text, volume_start, low)


@settings(max_examples=3000, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["(", ")", "[", "]", "_", "__", " ", "  ", "\n", "\t", "\u00a0", "\u2003",
             "1987", "(2022)", "(1987) ", "U.S.", "Cal.", "x", "v.", ",", "1"]
        ),
        max_size=40,
    ).map("".join),
    st.integers(0, 10),
)
def test_early_exit_is_the_search_on_generated_text(text: str, floor: int) -> None:
    for volume_start in range(len(text) + 1):
        assert _agree(text, volume_start, min(floor, volume_start))


def test_early_exit_is_the_search_on_real_opinions() -> None:
    with gzip.open(OPINIONS, "rt", encoding="utf-8") as handle:
        texts = [clean(json.loads(line)["plain_text"]) for line in handle]
    leads = 0
    for text in texts:
        # every place a volume can begin: a digit after a space, "(" or "["
        for volume_start in range(1, len(text)):
            if text[volume_start].isdigit() and not text[volume_start - 1].isalnum():
                assert _agree(text, volume_start, 0)
                assert _agree(text, volume_start, max(0, volume_start - 10))
                leads += case.lead(text, volume_start).opener is not None
    assert leads > 50  # the opinions hold leads the fast path must hand to the search
