"""The admin: games with their action logs, results, daily deals and profiles.

Games, results and daily deals are the server's own record (written only by the services from
the engine's replay), so the admin shows them read-only; it may delete a game or rename a player.
"""

from django.contrib import admin

from game.forms import DisplayNameForm
from game.models import Action, DailyDeal, Game, Profile, Result
from game.templatetags.h2h_format import duration


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


admin.site.site_header = "Heart to Heart admin"
admin.site.site_title = "Heart to Heart admin"
