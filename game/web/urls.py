"""The site's pages (docs/protocol.md lists them); the play routes live in game.web.play."""

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.urls import include, path
from django.views.generic import RedirectView, TemplateView

from game.web import accounts, home, leaderboards, play, players, realtime

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
    path("accounts/profile/", accounts.profile, name="profile"),
    path("accounts/", include("allauth.account.urls")),
]

urlpatterns = [
    path("", home.home, name="home"),
    path("deal/", home.open_deal, name="open_deal"),
    path("daily/", play.daily, name="daily"),
    path("play/new/", play.new, name="play_new"),
    path("play/<str:code>/", play.play, name="play"),
    *auth_urlpatterns,
    path("leaderboard/daily/", leaderboards.daily_today, name="daily_leaderboard"),
    path("leaderboard/daily/<str:day>/", leaderboards.daily_on, name="daily_leaderboard_on"),
    path("leaderboard/deal/<str:code>/", leaderboards.deal, name="deal_leaderboard"),
    path("leaderboard/all-time/", leaderboards.all_time, name="all_time_leaderboard"),
    path("players/<str:name>/", players.player, name="player"),
    path("race/", realtime.race_home, name="race_home"),
    path("race/new/", realtime.race_new, name="race_new"),
    path("race/find/", realtime.race_find, name="race_find"),
    path("race/<str:room>/", realtime.race_room, name="race_room"),
    path("watch/<int:game_id>/", realtime.watch, name="watch"),
    path("replay/<int:game_id>/", realtime.replay, name="replay"),
    path("replay/<int:game_id>/steps/", realtime.replay_steps_json, name="replay_steps"),
]
