"""Articles, cases and numbers: a noun of the text tables told as a template asks
(``{item:a.nom}``, ``{from:the.dat}``), by the tables of its language's ``grammar:`` (the
engine texts in ``rules/texts.yaml``: articles per case and gender, adjective endings,
contractions such as ``von dem`` → ``vom``). No language's words are written here.

>>> import venedig_rules as vr
>>> from venedig_rules.data.texts import languages
>>> de = languages(vr.load("rialto").data)["de"]
>>> g = Grammar(de.grammar)
>>> green = de.names["building"]["green_1"]
>>> g.phrase(green, "a", "nom"), g.phrase(green, "the", "dat"), g.phrase(green, "a", "dat")
('ein grünes Gebäude 1', 'dem grünen Gebäude 1', 'einem grünen Gebäude 1')
>>> g.phrase(green, "none", "nom", "other"), g.phrase(green, "the", "dat", "other")
('grüne Gebäude 1', 'den grünen Gebäuden 1')
>>> g.contract(["wandert von ", "dem Gebäudevorrat", " zu ", "den Gebäuden von p1"], {1, 3})
'wandert vom Gebäudevorrat zu den Gebäuden von p1'
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from ...data.texts import ARTICLE_FORMATS, CASES, DEFAULT_CASE, NUMBERS, Name, join_words


class Grammar:
    """The grammar tables of one language (``texts.yaml`` ``grammar:``).

    ``the`` and ``a`` give the article by case and then by gender (``other`` for several),
    or one word for all (English ``the``); ``a_vowel`` the indefinite article before a
    vowel (``an``); ``adjective`` the ending of an adjective after ``the``, after ``a`` and
    with no article (``none``), by case and gender; ``dat_other`` what the dative plural
    adds to a noun unless it ends in one of ``unless``; ``gen`` what the genitive singular
    adds per gender; ``contractions`` a preposition and article that are one word.
    """

    def __init__(self, table: Mapping[str, Any]):
        self.table = table
        self.genders: tuple[str, ...] = tuple(str(g) for g in table.get("genders") or ())
        self.contractions: Mapping[str, str] = {str(k): str(v) for k, v in (table.get("contractions") or {}).items()}

    @property
    def declines(self) -> bool:
        """Whether nouns have genders that choose their articles (German, not English)."""
        return bool(self.genders)

    def phrase(self, noun: Name, article: str, case: str = "nom", number: str = "one", after: str | None = None) -> str:
        """``noun`` with ``article`` (``the``, ``a`` or ``none``) in ``case`` and ``number``;
        ``after`` replaces the noun's own text after it (a zone's, filled)."""
        number = "other" if noun.plural_only else number
        if article == "a" and number == "other":
            article = "none"  # several take no indefinite article
        rest = noun.after if after is None else after
        if not self.declines or noun.gender is None:
            return self._undeclined(noun, article, number, rest, case)
        if article == "a" and case == "acc" and number == "one" and noun.a_given:
            return noun.a  # written out: a unique thing's "die Startspielerkarte"
        key = "other" if number == "other" else noun.gender
        art = self._word(article, case, key) if article != "none" else ""
        adjective = noun.adjective + self._ending(article, case, key) if noun.adjective else ""
        return join_words(art, adjective, self._form(noun, case, number), rest)

    def _undeclined(self, noun: Name, article: str, number: str, rest: str, case: str) -> str:
        """A name without a gender: English, or old data (``{one, other, a}``)."""
        words = join_words(noun.adjective or "", noun.by_count(1 if number == "one" else 2), rest)
        if article == "a" and number == "one" and (noun.a_given or self.declines):
            return noun.a if noun.a_given else words
        if article == "none" or self.declines:
            return words
        art = self._word(article, case, "other" if number == "other" else "any")
        if article == "a" and words[:1].lower() in "aeiou" and self.table.get("a_vowel"):
            art = str(self.table["a_vowel"])
        return join_words(art, words)

    def _word(self, article: str, case: str, key: str) -> str:
        return _lookup(self.table.get(article), case, key)

    def _ending(self, article: str, case: str, key: str) -> str:
        return _lookup((self.table.get("adjective") or {}).get(article), case, key)

    def _form(self, noun: Name, case: str, number: str) -> str:
        plural = number == "other"
        base = noun.other if plural else noun.one
        if case == "nom":
            return base
        given = noun.forms.get(f"{case}_other" if plural else case)
        if given is not None:
            return given
        if plural and case == "dat":
            rule = self.table.get("dat_other") or {}
            suffix, unless = str(rule.get("add", "")), tuple(str(u) for u in rule.get("unless") or ())
            return base if not suffix or base.endswith(unless) else base + suffix
        if not plural and case == "gen" and noun.gender is not None:
            return base + str((self.table.get("gen") or {}).get(noun.gender, ""))
        return base

    def contract(self, parts: Sequence[str], filled: Collection[int]) -> str:
        """The parts of a filled template joined, a preposition that ends a literal part and
        the article that starts the next (filled) part made one word (``von dem`` → ``vom``)."""
        out = list(parts)
        if self.contractions:
            for i in filled:
                if i == 0 or i - 1 in filled:
                    continue
                out[i - 1], out[i] = self._contract_pair(out[i - 1], out[i])
        return "".join(out)

    def _contract_pair(self, before: str, text: str) -> tuple[str, str]:
        words = before.rstrip().rsplit(" ", 1)
        if not before.endswith(" ") or not words or " " not in text:
            return before, text
        prep, article = words[-1], text.split(" ", 1)[0]
        one = self.contractions.get(f"{prep.lower()} {article}")
        if one is None:
            return before, text
        if prep[:1].isupper():
            one = one[:1].upper() + one[1:]
        head = before[: len(before.rstrip()) - len(prep)]
        return head + one + " ", text[len(article) + 1 :]


def _lookup(table: Any, case: str, key: str) -> str:
    """An article or ending: one word for all, else by case (nominative when the case is
    not given) and then by gender or ``other`` (``any`` for every gender)."""
    if table is None or isinstance(table, str):
        return table or ""
    by_case = table.get(case, table.get("nom")) if isinstance(table, Mapping) else None
    if isinstance(by_case, str):
        return by_case
    if not isinstance(by_case, Mapping):
        return ""
    found = by_case.get(key, by_case.get("any", ""))
    return str(found) if found is not None else ""


__all__ = ["ARTICLE_FORMATS", "CASES", "DEFAULT_CASE", "NUMBERS", "Grammar"]
