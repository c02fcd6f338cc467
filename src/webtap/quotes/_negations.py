"""Words that turn a claim into its opposite: named as such when a quote puts one in or takes one
out, and never left out by an ellipsis. A quote is refused for any changed word; this list only
says which changes are negations, in English, German, French, Polish, Spanish and Italian."""

from __future__ import annotations

__all__ = ["NEGATIONS", "is_negation"]

_BY_LANGUAGE = (
    "not no never none nor neither nobody nothing nowhere without cannot",
    "nicht kein keine keinen keinem keiner keines nie niemals ohne weder nichts niemand",
    "ne pas non jamais aucun aucune sans ni rien personne",
    "nie bez żaden żadna żadne nigdy nic",
    "no nunca ningún ninguna ninguno sin tampoco nada nadie",
    "non mai nessuno nessuna senza né niente",
)
NEGATIONS = frozenset(word for words in _BY_LANGUAGE for word in words.split())


def is_negation(word: str) -> bool:
    """``word`` (case-folded, apostrophes straight) is a negation: one of :data:`NEGATIONS`, or
    an English contraction such as ``don't``."""
    return word in NEGATIONS or word.endswith("n't")
