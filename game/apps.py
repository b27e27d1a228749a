from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "game"
    verbose_name = "Heart to Heart"

    def ready(self) -> None:
        from game import checks  # noqa: F401  (registers the deployment checks)
