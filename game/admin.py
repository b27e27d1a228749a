"""The admin: games with their action logs, results, daily deals, profiles and users.

Games, results and daily deals are the server's own record (written only by the services from
the engine's replay), so the admin shows them read-only; it may delete a game or rename a player,
and a reviewer may void a result or a whole day, with a reason, and undo it
(game/services/reviews.py; docs/protocol.md, "Review: voiding results").
"""

from django import forms
from django.contrib import admin
from django.contrib.admin import helpers
from django.contrib.admin.utils import unquote
from django.contrib.auth import get_permission_codename, get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html

from game.models import Action, DailyDeal, Game, Profile, Result, ResultFlag
from game.services.accounts import account_delete
from game.services.reviews import day_unvoid, day_void, result_unvoid, result_void
from game.services.sessions import close_other_sessions
from game.templatetags.h2h_format import duration
from game.web.forms import DisplayNameForm


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class ActionInline(admin.TabularInline):
    model = Action
    fields = ("index", "action", "at")
    readonly_fields = fields
    can_delete = False
    extra = 0

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class VoidForm(forms.Form):
    reason = forms.CharField(
        max_length=Result._meta.get_field("void_reason").max_length,
        help_text="For reviewers: shown in these lists and the object's history. The player's "
        "page says only that a result was voided on review.",
    )


class Reviewing:
    """A reviewer's actions, for those who may change the rows' model (a superuser, or staff
    given that permission): the rows stay read-only otherwise."""

    def has_review_permission(self, request) -> bool:
        opts = self.opts
        return request.user.has_perm(f"{opts.app_label}.{get_permission_codename('change', opts)}")

    def void_asked(self, request, queryset, rows: list, void) -> TemplateResponse | None:
        """Ask for the reason on an intermediate page (templates/admin/game/void.html); once
        given, `void(row, reason)` each of `rows` and say how many it voided."""
        form = VoidForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            done = sum(void(row, form.cleaned_data["reason"]) for row in rows)
            self.message_user(request, f"{done} voided; {len(rows) - done} already were.")
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Void on review",
            "opts": self.opts,
            "form": form,
            "rows": [_label(row) for row in rows],
            "selected": list(queryset.values_list("pk", flat=True)),
            "action": request.POST["action"],
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/game/void.html", context)


def _label(row) -> str:
    if isinstance(row, Result):
        outcome = "won" if row.won else "not won"
        return f"{row.code} by {row.player}: {outcome}, {duration(row.duration_ms)}"
    return str(row)


class ResultReview(Reviewing):
    """Void results, or undo it; on the results' list and on their flags'."""

    actions = ["void_results", "unvoid_results"]

    def results_of(self, queryset) -> QuerySet[Result]:
        return queryset

    @admin.action(description="Void the selected results…", permissions=["review"])
    def void_results(self, request, queryset):
        def void(result, reason):
            return result_void(result=result, reason=reason, by=request.user)

        results = list(self.results_of(queryset).select_related("player", "daily"))
        return self.void_asked(request, queryset, results, void)

    @admin.action(description="Undo voiding of the selected results", permissions=["review"])
    def unvoid_results(self, request, queryset) -> None:
        done = sum(result_unvoid(result=r, by=request.user) for r in self.results_of(queryset))
        self.message_user(request, f"{done} result(s) stand again.")


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("code", "player", "status", "ranked", "daily", "started_at", "finished_at")
    list_filter = ("status", "ranked", "started_at")
    search_fields = ("code", "player__username", "player__profile__display_name")
    list_select_related = ("player", "daily")
    date_hierarchy = "started_at"
    inlines = [ActionInline]


@admin.register(Result)
class ResultAdmin(ResultReview, ReadOnlyAdmin):
    list_display = (
        "code",
        "player",
        "won",
        "score",
        "time",
        "moves",
        "undos",
        "placement_help",
        "ranked",
        "finished_at",
        "voided",
        "void_reason",
    )
    list_filter = (
        "won",
        "ranked",
        "placement_help",
        "finished_at",
        ("voided_at", admin.EmptyFieldListFilter),
    )
    search_fields = ("code", "player__username", "player__profile__display_name")
    list_select_related = ("player",)
    date_hierarchy = "finished_at"

    @admin.display(description="time", ordering="duration_ms")
    def time(self, result: Result) -> str:
        return duration(result.duration_ms)

    @admin.display(description="voided", boolean=True, ordering="voided_at")
    def voided(self, result: Result) -> bool:
        return result.voided_at is not None


@admin.register(DailyDeal)
class DailyDealAdmin(Reviewing, ReadOnlyAdmin):
    """Daily deals; a bad deal's day can be voided whole, and that undone."""

    list_display = ("date", "code", "created_at", "voided", "void_reason")
    list_filter = (("voided_at", admin.EmptyFieldListFilter),)
    search_fields = ("code",)
    date_hierarchy = "date"
    actions = ["void_days", "unvoid_days"]

    @admin.display(description="voided", boolean=True, ordering="voided_at")
    def voided(self, deal: DailyDeal) -> bool:
        return deal.voided_at is not None

    @admin.action(description="Void the selected days…", permissions=["review"])
    def void_days(self, request, queryset):
        def void(deal, reason):
            return day_void(deal=deal, reason=reason, by=request.user)

        return self.void_asked(request, queryset, list(queryset), void)

    @admin.action(description="Undo voiding of the selected days", permissions=["review"])
    def unvoid_days(self, request, queryset) -> None:
        done = sum(day_unvoid(deal=deal, by=request.user) for deal in queryset)
        self.message_user(request, f"{done} day(s) stand again.")


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    form = DisplayNameForm  # the site's own rule for names: one alphabet, no look-alike
    fields = ("user", "display_name")
    list_display = ("display_name", "user")
    search_fields = ("display_name", "user__username", "user__email")
    list_select_related = ("user",)
    raw_id_fields = ("user",)


@admin.register(ResultFlag)
class ResultFlagAdmin(ResultReview, ReadOnlyAdmin):
    """Results to review, each beside its replay. A flag changes nothing by itself: the
    reviewer decides, voiding the flagged result (or not)."""

    list_display = ("code", "player", "reason", "detail", "replay", "created_at", "voided")
    list_filter = ("reason", "created_at", ("result__voided_at", admin.EmptyFieldListFilter))
    search_fields = (
        "result__code",
        "result__player__username",
        "result__player__profile__display_name",
    )
    list_select_related = ("result__player",)
    date_hierarchy = "created_at"

    @admin.display(description="code", ordering="result__code")
    def code(self, flag: ResultFlag) -> str:
        return flag.result.code

    @admin.display(description="player", ordering="result__player__username")
    def player(self, flag: ResultFlag) -> str:
        return str(flag.result.player)

    @admin.display(description="replay")
    def replay(self, flag: ResultFlag) -> str:
        url = reverse("replay", args=[flag.result.game_id])
        return format_html('<a href="{}">{}</a>', url, url)

    @admin.display(description="voided", ordering="result__voided_at")
    def voided(self, flag: ResultFlag) -> str:
        return flag.result.void_reason if flag.result.voided_at else "—"

    def results_of(self, queryset) -> QuerySet[Result]:
        return Result.objects.filter(flags__in=queryset).distinct()


class PlayerAdmin(UserAdmin):
    """Django's user admin; a password set here ends the player's sessions, sockets and all,
    and a user deleted here is deleted as by the player (services.account_delete)."""

    def delete_model(self, request, obj) -> None:
        account_delete(user=obj)

    def delete_queryset(self, request, queryset) -> None:
        for user in queryset:
            account_delete(user=user)

    def user_change_password(self, request, id, form_url=""):
        user, kept = self.get_object(request, unquote(id)), request.session.session_key
        response = super().user_change_password(request, id, form_url)
        if user is not None and password_changed(user):  # the admin's own session goes on
            kept_as = request.session.session_key
            close_other_sessions(player_id=user.pk, keep=kept, kept_as=kept_as)
        return response


def password_changed(user) -> bool:
    """Whether the stored password is no longer the one `user` was read with."""
    return not type(user).objects.filter(pk=user.pk, password=user.password).exists()


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), PlayerAdmin)

admin.site.site_header = "Heart to Heart admin"
admin.site.site_title = "Heart to Heart admin"
