"""The results pack: every official file of an event in one zip, for the federation, the club's
web site and the organiser's own records.

Official means what was published: the public version of every file (published rounds only,
confirmed deals only) — the standings (PDF, Excel), every deal (Excel), the cross table (PDF,
Excel; pairs and teams), each published round's results and travellers (PDF) — and the event
archive (huapai-event/1) as the organiser downloads it. A `README.txt` (in Chinese) names each
file and says whether the standings are final.
"""

import shutil
import tempfile
import zipfile

from django.utils import timezone
from django.utils.translation import gettext, pgettext

from scoring.cache.files import FileBusy, stored_file
from scoring.engine.vocabulary import Kind
from scoring.exports import files
from scoring.messages import joined


def pack_files(event):
    """The files of the pack, in the order the listing gives them."""
    members = [
        (files.standings_pdf(event, True), gettext("排名表")),
        (files.standings_xlsx(event, True), gettext("排名表（每轮之后各一页）")),
        (files.results_xlsx(event, True), gettext("全部成绩（每副一行）")),
    ]
    if event.kind != Kind.INDIVIDUAL:
        members += [
            (files.cross_table_pdf(event, True), gettext("交叉表")),
            (files.cross_table_xlsx(event, True), gettext("交叉表（含每场一行）")),
        ]
    for rnd in event.rounds.published().order_by("number"):
        members += [
            (files.round_results_pdf(event, rnd), gettext("第%(n)s轮成绩（%(status)s）") % _round(rnd)),
            (files.travellers_pdf(event, rnd), gettext("第%(n)s轮牌例对照（%(status)s）") % _round(rnd)),
        ]
    members.append((files.archive_json(event), gettext("赛事存档（huapai-event/1，可导入本系统）")))
    return members


def _round(rnd):
    return {"n": rnd.number, "status": rnd.get_status_display()}


def pack_name(event):
    return f"{event.slug}-results-pack.zip"


def write_results_pack(out, event):
    """Write the zip to `out`: a folder named after the event holding each file and `README.txt`."""
    folder = f"{event.slug}-results"
    members = pack_files(event)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as pack:
        for file, _description in members:
            stored = _stored(event, file)
            if stored is not None:
                pack.writestr(f"{folder}/{file.filename}", stored.body)
                continue
            # Each file is written whole first: reportlab and openpyxl want a file they can seek in.
            with tempfile.TemporaryFile() as handle:
                file.write(handle)
                handle.seek(0)
                with pack.open(f"{folder}/{file.filename}", "w") as member:
                    shutil.copyfileobj(handle, member)
        # An ASCII name: old unzip tools garble the names of members in other scripts.
        pack.writestr(f"{folder}/README.txt", listing(event, members).encode("utf-8-sig"))


def _stored(event, file):
    """A public member as the downloads serve it, rendered once per public version for both
    (`scoring.cache.files`); None for the archive, or when the file is being rendered for a
    download right now (the pack then writes its own copy: organisers only, rarely)."""
    if not file.public:
        return None
    try:
        return stored_file(event.slug, file)
    except FileBusy:
        return None


def listing(event, members):
    rounds = list(event.rounds.order_by("number"))
    unpublished = [r.number for r in rounds if not r.is_published]
    provisional = [r.number for r in rounds if r.status == r.Status.PROVISIONAL]
    if event.is_finished and not unpublished and not provisional:
        state = gettext("赛事已结束，排名为最终排名。")
    else:
        state = gettext("排名为临时排名：") + pgettext("list separator", "；").join(
            part
            for part in (
                gettext("赛事尚未结束") if not event.is_finished else "",
                gettext("第%(rounds)s轮为临时成绩") % {"rounds": joined(map(str, provisional))} if provisional else "",
                gettext("第%(rounds)s轮未公布，不在文件中") % {"rounds": joined(map(str, unpublished))}
                if unpublished
                else "",
            )
            if part
        )
    lines = [
        event.name,
        state,
        gettext("生成于 %(at)s") % {"at": timezone.localtime().strftime("%Y-%m-%d %H:%M")},
        "",
        *(f"{file.filename}  {description}" for file, description in members),
        "",
    ]
    return "\r\n".join(lines)  # read in Windows Notepad too
