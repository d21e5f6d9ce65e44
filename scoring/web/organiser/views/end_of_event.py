"""The end of an event: the final standings, the awards order and the results pack.

Views check the form, call one service and turn its domain error into a message."""

import tempfile

from django.http import FileResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language

from scoring.exports.results_pack import pack_files, pack_name, write_results_pack
from scoring.games import game_of
from scoring.messages import standings_labels
from scoring.results.final_results import final_results
from scoring.web.organiser.access import organiser_page
from scoring.web.organiser.forms import AwardsForm


@organiser_page
def end_of_event(request, event):
    places = AwardsForm(request.GET).chosen_places()
    results = final_results(event, places=places, language=get_language() or "zh-hans")
    return render(
        request,
        "organiser/end_of_event.html",
        {
            "event": event,
            "places": places,
            "pack": [file.filename for file, _description in pack_files(event)],
            "figure_labels": standings_labels(game_of(event)),  # 升级: 级差 for 得分差
            **results,
        },
    )


@organiser_page
def results_pack(request, event):
    """Every official file in one zip (`scoring.exports.results_pack`)."""
    handle = tempfile.TemporaryFile()  # noqa: SIM115 - FileResponse closes it after sending
    write_results_pack(handle, event)
    handle.seek(0)
    response = FileResponse(handle, as_attachment=True, filename=pack_name(event), content_type="application/zip")
    # The archive inside holds every round, published or not: no shared cache keeps it.
    patch_cache_control(response, private=True, no_store=True)
    return response
