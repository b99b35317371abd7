"""Negations in matching form: the words a bracketed alteration may never drop or add.

``n't`` contractions appear without their apostrophe (``doesnt``), as
``_normalize`` joins them; ``cannot`` is one word in most opinions.
"""

from __future__ import annotations

__all__ = ["NEGATIONS", "is_negation"]

_WORDS = """
not no never neither nor without cannot none nothing nobody nowhere noone
aint arent cant couldnt didnt doesnt dont hadnt hasnt havent isnt mightnt
mustnt neednt shant shouldnt wasnt werent wont wouldnt
"""
NEGATIONS = frozenset(_WORDS.split())


def is_negation(word: str) -> bool:
    """Whether ``word`` (in matching form) negates."""
    return word in NEGATIONS
