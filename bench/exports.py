"""Benchmark: public standings page and exports on the 10,000-player event, each against a floor.

Needs the 5,000-pair event (bench/big_event.py writes it; this script imports it
into bench/out/exports.sqlite3 the first time). Measured in-process on SQLite:
- the standings page: server time of GET /events/<slug>/standings/ through
  Django's test client, cold (empty cache) and warm;
- round 1's travellers.pdf as the public download writes it, against reportlab drawing as many
  rows of thirteen two-line cells on a canvas (`--only travellers` runs that line alone);
- standings.xlsx, results.xlsx and scoresheets.pdf through their views, against
  openpyxl write-only writing the same cells without styling or database, and
  reportlab drawing the same number of pages with the same grid and text;
- peak memory of the results.xlsx run (a separate process).

Run: .venv/bin/python bench/exports.py [--pairs 5000]
"""

import argparse
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "bench" / "out"


def setup_env(pairs):
    db = OUT / f"exports-{pairs}.sqlite3"
    os.environ.update(
        DATABASE_URL=f"sqlite:///{db}",
        DJANGO_SETTINGS_MODULE="huapai.settings",
        DEBUG="0",
        SECRET_KEY="bench-" + "k" * 60,
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="0",
    )
    return db


def stage(name, pairs):
    sys.path.insert(0, str(REPO))
    setup_env(pairs)
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from scoring.models import Event, Round

    slug = f"big-{pairs}"
    if name == "prepare":
        call_command("migrate", verbosity=0)
        if not Event.objects.filter(slug=slug).exists():
            archive = OUT / f"big-{pairs}.json"
            if not archive.exists():
                subprocess.run(
                    [sys.executable, "bench/big_event.py", "--pairs", str(pairs), "--out", str(archive)],
                    cwd=REPO,
                    check=True,
                    capture_output=True,
                )
            call_command("import_event", str(archive), stdout=io.StringIO())
        return {}
    client = Client()
    event = Event.objects.get(slug=slug)
    rounds = Round.objects.filter(event=event, status__in=Round.PUBLISHED).count()

    def timed(url):
        started = time.perf_counter()
        response = client.get(url)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        assert response.status_code == 200, response.status_code
        return time.perf_counter() - started, len(body)

    if name == "page":
        from django.core.cache import cache

        cache.clear()
        cold, _ = timed(f"/events/{slug}/standings/")
        warm = min(timed(f"/events/{slug}/standings/")[0] for _ in range(5))
        page_50 = min(timed(f"/events/{slug}/standings/?page=50")[0] for _ in range(3))
        return {"cold": cold, "warm": warm, "page50": page_50, "rounds": rounds}
    if name == "standings_xlsx":
        from django.core.cache import cache

        cache.clear()
        cold, _ = timed(f"/events/{slug}/standings.xlsx")
        seconds, size = timed(f"/events/{slug}/standings.xlsx")  # standings cached, as after publication
        from openpyxl import Workbook

        started = time.perf_counter()
        wb = Workbook(write_only=True)
        for _ in range(rounds + 1):
            ws = wb.create_sheet()
            ws.append(["名次", "编号", "选手", "单位", "场分", "得分差", "总得分", "罚分", "场次", "与上一名"])
            for i in range(pairs):
                ws.append(
                    [i + 1, f"A{i:04d}", "王伟、李静", "俱乐部12", 10, 1234, -5678, -50, 9, "场分相同，得分差少 30"]
                )
        with tempfile.TemporaryFile() as handle:
            wb.save(handle)
        return {"seconds": seconds, "cold": cold, "floor": time.perf_counter() - started, "bytes": size}
    if name == "results_xlsx":
        seconds, size = timed(f"/events/{slug}/results.xlsx")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        return {"seconds": seconds, "bytes": size, "peak_mb": peak}
    if name == "results_floor":
        from openpyxl import Workbook

        from scoring.models import Deal

        count = Deal.objects.filter(table__round__event=event).count()
        row = [
            1,
            1,
            1,
            1,
            "A0001",
            "A0002",
            "王伟",
            "李静",
            "张强",
            "刘洋",
            "♥A ♥K",
            "♥Q ♠Q",
            "♦J",
            "♣10 ♥2",
            "♠Q:N",
            "♠Q明",
            "",
            "",
            "",
            -210,
            60,
            -60,
            -20,
            -270,
            40,
            "confirmed",
        ]
        started = time.perf_counter()
        wb = Workbook(write_only=True)
        ws = wb.create_sheet()
        for _ in range(count):
            ws.append(row)
        with tempfile.TemporaryFile() as handle:
            wb.save(handle)
        return {
            "seconds": time.perf_counter() - started,
            "rows": count,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }
    if name == "scoresheets":
        from django.contrib.auth import get_user_model

        from scoring.models import EventRole

        user, _ = get_user_model().objects.get_or_create(username="bench-organiser")
        EventRole.objects.get_or_create(event=event, user=user, role="organiser")
        client.force_login(user)
        number = Round.objects.filter(event=event).order_by("-number").values_list("number", flat=True).first()
        seconds, size = timed(f"/events/{slug}/rounds/{number}/scoresheets.pdf")
        tables = event.rounds.get(number=number).tables.count()
        from reportlab.lib.pagesizes import A4
        from reportlab.pdfgen import canvas

        from scoring.exports.pdf_common import FONT, register_font

        register_font()
        started = time.perf_counter()
        with tempfile.TemporaryFile() as handle:
            pdf = canvas.Canvas(handle, pagesize=A4, pageCompression=1, initialFontName=FONT)
            for page in range(tables):
                pdf.setFont(FONT, 12)
                pdf.drawString(40, 800, f"2026 华牌大赛 第 1 轮 · {page + 1} 号桌 · 记分表")
                for seat_line in range(4):
                    pdf.drawString(40, 770 - 14 * seat_line, "北 N：王伟（p00001）")
                for row in range(18):
                    pdf.line(28, 700 - row * 30, 567, 700 - row * 30)
                for column in range(16):
                    pdf.line(28 + column * 36, 700, 28 + column * 36, 190)
                for board in range(1, 17):
                    pdf.drawString(36, 700 - board * 30 - 20, str(board))
                pdf.showPage()
            pdf.save()
        return {"seconds": seconds, "floor": time.perf_counter() - started, "tables": tables, "bytes": size}
    if name == "travellers":
        # The public travellers of round 1 as the view writes them (no page cache: the file itself).
        from reportlab.lib.pagesizes import A4, landscape
        from reportlab.pdfgen import canvas

        from scoring.exports import files
        from scoring.exports.pdf_common import FONT, register_font

        rnd = event.rounds.get(number=1)
        register_font()  # the font is read once per process, not per file
        started = time.perf_counter()
        with tempfile.TemporaryFile() as handle:
            files.travellers_pdf(event, rnd).write(handle)
            size = handle.tell()
        seconds = time.perf_counter() - started
        from scoring.models import Deal

        rows = Deal.objects.counted().filter(table__round=rnd).count()
        # The floor: reportlab drawing as many rows of the same thirteen cells (two lines each,
        # a red and a black card word) and their grid, 18 rows a landscape page.
        started = time.perf_counter()
        with tempfile.TemporaryFile() as handle:
            pdf = canvas.Canvas(handle, pagesize=landscape(A4), pageCompression=1, initialFontName=FONT)
            for row in range(rows):
                if row % 18 == 0:
                    if row:
                        pdf.showPage()
                    pdf.setFont(FONT, 8)
                y = 520 - (row % 18) * 26
                pdf.line(34, y, 808, y)
                for column in range(13):
                    x = 36 + column * 59
                    pdf.setFillColorRGB(0.776, 0.157, 0.157)
                    pdf.drawString(x, y + 14, "♥Q ♥8 ♥2")
                    pdf.setFillColorRGB(0, 0, 0)
                    pdf.drawString(x, y + 4, "♠Q ♣10")
            pdf.showPage()
            pdf.save()
        return {"seconds": seconds, "floor": time.perf_counter() - started, "rows": rows, "bytes": size}
    raise SystemExit(f"unknown stage {name}")


def child(name, pairs):
    completed = subprocess.run(
        [sys.executable, __file__, "--stage", name, "--pairs", str(pairs)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode:
        raise SystemExit(f"{name} failed:\n{completed.stderr[-3000:]}")
    return json.loads(completed.stdout.strip().splitlines()[-1])


def print_travellers(pairs):
    tr = child("travellers", pairs)
    print(
        f"travellers.pdf (round 1): {tr['rows']:,} rows in {tr['seconds']:.1f} s (floor {tr['floor']:.1f} s, "
        f"{tr['seconds'] / tr['floor']:.1f}x), {tr['bytes'] / 1e6:.1f} MB"
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=5000)
    parser.add_argument("--stage")
    parser.add_argument("--only", help="one line: travellers")
    args = parser.parse_args()
    if args.stage:
        print(json.dumps(stage(args.stage, args.pairs)))
        return
    OUT.mkdir(exist_ok=True)
    child("prepare", args.pairs)
    if args.only == "travellers":
        print_travellers(args.pairs)
        return
    page = child("page", args.pairs)
    print(
        f"standings page ({2 * args.pairs:,} players, {page['rounds']} rounds): cold {page['cold'] * 1000:.0f} ms, "
        f"warm {page['warm'] * 1000:.0f} ms, page 50 warm {page['page50'] * 1000:.0f} ms"
    )
    sx = child("standings_xlsx", args.pairs)
    print(
        f"standings.xlsx: {sx['seconds']:.2f} s with standings cached, {sx['cold']:.2f} s cold "
        f"(floor {sx['floor']:.2f} s, {sx['seconds'] / sx['floor']:.1f}x), "
        f"{sx['bytes'] / 1e6:.1f} MB"
    )
    rx = child("results_xlsx", args.pairs)
    rf = child("results_floor", args.pairs)
    print(
        f"results.xlsx: {rf['rows']:,} deals in {rx['seconds']:.1f} s (floor {rf['seconds']:.1f} s, "
        f"{rx['seconds'] / rf['seconds']:.1f}x), peak {rx['peak_mb']:.0f} MB (floor process {rf['peak_mb']:.0f} MB), "
        f"{rx['bytes'] / 1e6:.0f} MB file"
    )
    print_travellers(args.pairs)
    ss = child("scoresheets", args.pairs)
    print(
        f"scoresheets.pdf: {ss['tables']:,} tables in {ss['seconds']:.1f} s (floor {ss['floor']:.1f} s, "
        f"{ss['seconds'] / ss['floor']:.1f}x), {ss['bytes'] / 1e6:.1f} MB"
    )


if __name__ == "__main__":
    main()
