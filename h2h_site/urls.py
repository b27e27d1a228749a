from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path
from django.views.decorators.cache import cache_page
from django.views.decorators.http import last_modified
from django.views.i18n import JavaScriptCatalog

from h2h_site.storage import DEPLOYED_AT

# The catalogue changes only with a deployment; cache_page keys it by language.
javascript_catalog = cache_page(60 * 60)(
    last_modified(lambda request, **kwargs: DEPLOYED_AT)(JavaScriptCatalog.as_view())
)

# The admin logs in on the site's login page, under its rate limits.
admin.site.login = secure_admin_login(admin.site.login)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", javascript_catalog, name="javascript-catalog"),
    path("", include("game.web.urls")),
]
