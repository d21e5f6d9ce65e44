from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "华牌计分"

    def ready(self) -> None:
        # The cache sits beneath the domains and imports none of them: they hand it what it
        # warms here, once every model is loaded.
        from scoring.backups.services import backup_if_due
        from scoring.cache.warmup import register_warmers
        from scoring.results.warming import warm_public_figures
        from scoring.table_entry.grid import round_grid
        from scoring.table_entry.state import state_body, state_stamp

        register_warmers(
            public_figures=warm_public_figures,
            table_state_stamp=state_stamp,
            table_state_body=state_body,
            round_grid=round_grid,
            backup=backup_if_due,
        )
