from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "game"
    verbose_name = "Heart to Heart"

    def ready(self) -> None:
        # Register the deployment checks and connect the logout receiver.
        from game import checks  # noqa: F401
        from game.services import sessions  # noqa: F401
