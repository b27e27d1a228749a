"""Template filters for the daily calendar's marks: a word to hear, a shape to see."""

from django import template
from django.utils.translation import gettext_lazy as _

from game.selectors.calendar import Mark

register = template.Library()

WORDS = {
    Mark.WON_CLEAN: _("won clean"),
    Mark.WON: _("won"),
    Mark.PLAYED: _("played"),
    Mark.NOT_PLAYED: _("not played"),
}
# Shapes, not colours, tell the marks apart.
ICONS = {Mark.WON_CLEAN: "★", Mark.WON: "✓", Mark.PLAYED: "✗", Mark.NOT_PLAYED: "–"}


@register.filter
def mark_word(mark: Mark) -> str:
    return WORDS[mark]


@register.filter
def mark_icon(mark: Mark) -> str:
    return ICONS[mark]
