"""The site's pages (docs/protocol.md lists them); the play routes live in game.web.play."""

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.urls import include, path
from django.views.generic import RedirectView, TemplateView

from game.web import (
    accounts,
    calendar,
    home,
    install,
    leaderboards,
    play,
    players,
    privacy,
    races,
    theme,
    watching,
)

# Your data: first, so that no accounts/ pages mounted after them can take these paths.
data_urlpatterns = [
    path("accounts/export/", privacy.export, name="data_export"),
    path("accounts/delete/", privacy.delete, name="account_delete"),
]

# allauth's pages under /accounts/, with ours first where the site keeps its own address or
# behaviour: one view for each, whichever name reaches it.
auth_urlpatterns = [
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/login/", accounts.LoginView.as_view(), name="account_login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),  # POST only
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="account_logout"),
    path("accounts/signup/", accounts.SignupView.as_view(), name="signup"),
    path("accounts/signup/", accounts.SignupView.as_view(), name="account_signup"),
    path(
        "accounts/password_change/",
        accounts.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/change/",
        RedirectView.as_view(pattern_name="password_change"),
        name="account_change_password",
    ),
    path(
        "accounts/password_change/done/",
        login_required(TemplateView.as_view(template_name="accounts/password_change_done.html")),
        name="password_change_done",
    ),
    path("accounts/email/", accounts.email, name="account_email"),
    path("accounts/email/confirm/<str:key>/", accounts.email_confirm, name="email_change_confirm"),
    path("accounts/profile/", accounts.profile, name="profile"),
    path("accounts/", include("allauth.account.urls")),
]

urlpatterns = [
    *data_urlpatterns,
    path("", home.home, name="home"),
    path("deal/", home.open_deal, name="open_deal"),
    path("theme/", theme.set_theme, name="set_theme"),
    path("daily/", play.daily, name="daily"),
    path("daily/calendar/", calendar.month_calendar, name="daily_calendar"),
    path("play/new/", play.new, name="play_new"),
    path("play/<str:code>/", play.play, name="play"),
    *auth_urlpatterns,
    path("leaderboard/daily/", leaderboards.daily_today, name="daily_leaderboard"),
    path("leaderboard/daily/<str:day>/", leaderboards.daily_on, name="daily_leaderboard_on"),
    path("leaderboard/deal/<str:code>/", leaderboards.deal, name="deal_leaderboard"),
    path("leaderboard/all-time/", leaderboards.all_time, name="all_time_leaderboard"),
    path("leaderboard/ratings/", leaderboards.ratings_board, name="ratings_leaderboard"),
    path("players/<str:name>/", players.player, name="player"),
    path("players/<str:name>/follow/", players.follow, name="follow"),
    path("players/<str:name>/unfollow/", players.unfollow, name="unfollow"),
    path("race/", races.race_home, name="race_home"),
    path("race/new/", races.race_new, name="race_new"),
    path("race/find/", races.race_find, name="race_find"),
    path("race/quick/", races.race_quick, name="race_quick"),
    path("race/<str:room>/", races.race_room, name="race_room"),
    path("watch/<int:game_id>/", watching.watch, name="watch"),
    path("replay/<int:game_id>/", watching.replay, name="replay"),
    path("replay/<int:game_id>/steps/", watching.replay_steps_json, name="replay_steps"),
    path("manifest.webmanifest", install.manifest, name="manifest"),
    path("sw.js", install.service_worker, name="service_worker"),
    path("offline/<str:language>/", install.offline, name="offline"),
]
