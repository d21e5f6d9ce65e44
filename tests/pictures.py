"""Reading the site's pictures back: the words drawn along a line of a PNG, each recognised among the
words it may be. A small OCR for a known vocabulary: every candidate is drawn anew with the CJK font
at the picture's size and compared with the ink found, so a test reads what the picture shows, not
what the code that drew it was given."""

from functools import cache

from django.conf import settings
from PIL import Image, ImageChops, ImageDraw, ImageFont

# A word's glyphs stand a few pixels apart at these sizes; the words of a line (columns of a table,
# the parts of a subtitle between " · ") stand further apart than this.
WORD_GAP = 8
# At most this share of the ink may differ between a word found and the word drawn anew: the same
# glyphs, drawn from the right quarter pixel, differ by under 1 %; a word one digit off ("-198"
# for "-196") by some 15 %.
LIKENESS = 0.08


@cache
def _font(size):
    path = str(settings.CJK_FONT_PATH)
    return ImageFont.truetype(path, size, index=0) if path.endswith(".ttc") else ImageFont.truetype(path, size)


def _mask(grey, threshold):
    """A black and white mask ("L", 0 or 255) of the pixels at least `threshold` from the background."""
    return grey.point(lambda value: 255 if value >= threshold else 0)


def _inked(mask):
    return mask.histogram()[255]


def _drawn(text, size):
    """`text` drawn white on black with the site's font, as masks cut to their ink: one for each
    quarter of a pixel it may have started at (a right-aligned word starts between two pixels)."""
    face = _font(size)
    _left, _top, right, bottom = face.getbbox(text)
    drawn = []
    for shift in (0, 0.25, 0.5, 0.75):
        canvas = Image.new("L", (int(right) + 8, int(bottom) + 8), 0)
        ImageDraw.Draw(canvas).text((4 + shift, 4), text, font=face, fill=255)
        mask = _mask(canvas, 128)
        drawn.append(mask.crop(mask.getbbox()))
    return drawn


def _unlikeness(found, candidate):
    """How far apart two masks are: the share of their ink that differs, or None when their sizes
    differ by more than a pixel or two (another word)."""
    if abs(found.width - candidate.width) > 2 or abs(found.height - candidate.height) > 2:
        return None
    differing = _inked(ImageChops.difference(found, candidate.resize(found.size)))
    return differing / max(1, _inked(found), _inked(candidate))


def words(image, box, *, background, ink):
    """The words drawn in `box` (left, top, right, bottom) of `image` in colour `ink` on `background`:
    [(left, right, mask)] from left to right, x in the picture's pixels."""
    band = image.convert("RGB").crop(box)
    distance = ImageChops.difference(band, Image.new("RGB", band.size, background)).convert("L")
    contrast = Image.new("RGB", (1, 1), ink)
    full = ImageChops.difference(contrast, Image.new("RGB", (1, 1), background)).convert("L").getpixel((0, 0))
    mask = _mask(distance, max(1, full // 2))
    columns = [mask.crop((x, 0, x + 1, mask.height)).getbbox() is not None for x in range(mask.width)]
    runs, start, blank = [], None, 0
    for x, inked in enumerate([*columns, False]):
        if inked:
            if start is None:
                start = x
            blank, end = 0, x
        elif start is not None:
            blank += 1
            if blank >= WORD_GAP or x == len(columns):
                runs.append((start, end))
                start = None
    found = []
    for left, right in runs:
        piece = mask.crop((left, 0, right + 1, mask.height))
        found.append((box[0] + left, box[0] + right, piece.crop(piece.getbbox())))
    return found


def read_line(image, box, vocabulary, *, size, background, ink):
    """The words in `box` as [(left, right, word)], each word the one of `vocabulary` it looks like
    (drawn at `size` px), or None where it is none of them."""
    candidates = [(word, _drawn(word, size)) for word in vocabulary]
    read = []
    for left, right, piece in words(image, box, background=background, ink=ink):
        scores = [
            (score, word)
            for word, masks in candidates
            for drawn in masks
            if (score := _unlikeness(piece, drawn)) is not None
        ]
        best = min(scores, default=(1, None))
        read.append((left, right, best[1] if best[0] <= LIKENESS else None))
    return read
