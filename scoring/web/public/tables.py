"""django-tables2 tables for the public pages."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from scoring.results.explanations import explanation_text


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("名次"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    id = tables.Column(verbose_name=_("编号"))
    name = tables.TemplateColumn(
        "<a href=\"{% url 'entrant' event.slug record.id %}\">{{ value }}</a>",
        verbose_name=_("选手"),
        order_by=("sort_key",),
    )
    club = tables.Column(verbose_name=_("单位"), attrs={"td": {"class": "hide-phone"}, "th": {"class": "hide-phone"}})
    match_points = tables.Column(verbose_name=_("场分"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    score_difference = tables.Column(verbose_name=_("得分差"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    total_score = tables.Column(
        verbose_name=_("总得分"), attrs={"td": {"class": "num hide-phone"}, "th": {"class": "num hide-phone"}}
    )
    penalties = tables.Column(verbose_name=_("罚分"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    played = tables.Column(
        verbose_name=_("场次"), attrs={"td": {"class": "num hide-phone"}, "th": {"class": "num hide-phone"}}
    )
    explanation = tables.Column(verbose_name=_("与上一名"), orderable=False, attrs={"td": {"class": "explain"}})

    class Meta:
        template_name = "django_tables2/table.html"
        attrs = {"class": "standings", "id": "standings"}
        order_by = ("rank",)
        per_page = 100  # the view paginates (`public.views._configure_table`)

    def render_explanation(self, value):
        """The rows come with what separates each from the one above as data
        (`standings_rows(explain=False)`): only the rows of the page are put in words."""
        return explanation_text(value, getattr(self, "figure_words", None))


class IndividualStandingsTable(StandingsTable):
    deals = tables.Column(verbose_name=_("副数"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})

    class Meta(StandingsTable.Meta):
        exclude = ("match_points", "score_difference", "penalties", "played")
        sequence = ("rank", "id", "name", "club", "total_score", "deals", "explanation")


class TablePointsStandingsTable(IndividualStandingsTable):
    """Individuals ranked by table points (games law §0), the total score the first tie-break."""

    table_points = tables.Column(verbose_name=_("桌分"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})

    class Meta(IndividualStandingsTable.Meta):
        sequence = ("rank", "id", "name", "club", "table_points", "total_score", "deals", "explanation")


# The orders the standings pages offer (`?sort=`, either way): the only values the page cache
# keeps (`scoring.cache.pages`).
STANDINGS_SORTS = frozenset(
    f"{way}{name}"
    for table in (StandingsTable, IndividualStandingsTable, TablePointsStandingsTable)
    for name, column in table.base_columns.items()
    if column.orderable is not False  # None: the table's default, orderable
    for way in ("", "-")
)
