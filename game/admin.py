"""The admin: games with their action logs, results, daily deals, profiles and users.

Games, results and daily deals are the server's own record (written only by the services from
the engine's replay), so the admin shows them read-only; it may delete a game or rename a player.
"""

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.urls import reverse
from django.utils.html import format_html

from game.models import Action, DailyDeal, Game, Profile, Result, ResultFlag
from game.services.accounts import account_delete
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


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("code", "player", "status", "ranked", "daily", "started_at", "finished_at")
    list_filter = ("status", "ranked", "started_at")
    search_fields = ("code", "player__username", "player__profile__display_name")
    list_select_related = ("player", "daily")
    date_hierarchy = "started_at"
    inlines = [ActionInline]


@admin.register(Result)
class ResultAdmin(ReadOnlyAdmin):
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
    )
    list_filter = ("won", "ranked", "placement_help", "finished_at")
    search_fields = ("code", "player__username", "player__profile__display_name")
    list_select_related = ("player",)
    date_hierarchy = "finished_at"

    @admin.display(description="time", ordering="duration_ms")
    def time(self, result: Result) -> str:
        return duration(result.duration_ms)


@admin.register(DailyDeal)
class DailyDealAdmin(ReadOnlyAdmin):
    list_display = ("date", "code", "created_at")
    search_fields = ("code",)
    date_hierarchy = "date"


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    form = DisplayNameForm  # the site's own rule for names: one alphabet, no look-alike
    fields = ("user", "display_name")
    list_display = ("display_name", "user")
    search_fields = ("display_name", "user__username", "user__email")
    list_select_related = ("user",)
    raw_id_fields = ("user",)


@admin.register(ResultFlag)
class ResultFlagAdmin(ReadOnlyAdmin):
    """Results to review, each beside its replay; reviewing changes nothing by itself."""

    list_display = ("code", "player", "reason", "detail", "replay", "created_at")
    list_filter = ("reason", "created_at")
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
