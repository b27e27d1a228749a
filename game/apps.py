from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "game"
    verbose_name = "Heart to Heart"

    def ready(self) -> None:
        # Register the deployment checks and connect the logout and login-throttle receivers.
        from game import checks, presence, throttle  # noqa: F401
