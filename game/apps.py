from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "game"
    verbose_name = "Heart to Heart"

    def ready(self) -> None:
        # Register the deployment checks and connect the receivers: the logout's, and what
        # this process keeps of what the storage and the services announce (metrics, par).
        from game import checks  # noqa: F401
        from game.runtime import metrics, par_searcher  # noqa: F401
        from game.services import sessions  # noqa: F401
