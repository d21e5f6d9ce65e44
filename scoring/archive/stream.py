"""Reading a large JSON document piece by piece, with the standard library's own parser.

An archive of 360,000 deals is 224 MB written with indent; `json.loads` of it builds every
round at once (about five times the file in Python objects, and the decoded text beside
it). `JsonStream` walks only the outer levels of the document by hand (an object's keys,
an array's elements) and hands each piece below them to `json`'s C decoder
(`raw_decode`), so no more than one piece and a window of about a megabyte of text are held
at a time. `scoring.archive.format.read_archive` walks an archive with it: the header, then
each round's matches one at a time.

Errors read as `json`'s own, with their place in the whole file ("Expecting ',' delimiter:
line 5 column 3 (char 120)"); a byte that is not UTF-8 raises `UnicodeDecodeError` whose
`start` is its offset in the file. The file must be seekable (a key that comes after the
piece it decides is read first, then the piece again: `mark` and `seek`).
"""

from __future__ import annotations

import codecs
import json
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

CHUNK = 1 << 16  # bytes read at a time
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
# How the file's first bytes name its encoding (json.detect_encoding), as the bytes of a
# byte-order mark to skip and the codec to read the rest with.
_BOMS = {
    "utf-8-sig": (3, "utf-8"),
    "utf-16": (2, None),
    "utf-32": (4, None),
}


class StreamError(ValueError):
    """A JSON syntax error, worded and placed as `json.JSONDecodeError` words it."""

    def __init__(self, msg: str, line: int, column: int, char: int) -> None:
        super().__init__(f"{msg}: line {line} column {column} (char {char})")
        self.msg, self.lineno, self.colno, self.pos = msg, line, column, char


class TooLarge(Exception):
    """A value longer than the caller would hold (`JsonStream.value`'s `limit`)."""


class JsonStream:
    """A cursor over a binary, seekable file of JSON. `peek` the next character, read a
    `value` whole, or walk an object's `members` and an array's `elements` one at a time."""

    def __init__(self, binary: Any) -> None:
        self.file = binary
        start = binary.tell()
        head = binary.read(4)
        encoding = json.detect_encoding(head)
        skip, codec = _BOMS.get(encoding, (0, encoding))
        if codec is None:  # UTF-16 or UTF-32 with its byte-order mark
            little = head[:2] == b"\xff\xfe"
            codec = f"{encoding}-{'le' if little else 'be'}"
        self.codec = codec
        self._seek((start + skip, 0, 0, 0))

    # --- the window -----------------------------------------------------------------------

    def _seek(self, mark: tuple[int, int, int, int]) -> None:
        self.byte, self.chars, self.lines, self.line_start = mark
        self.file.seek(self.byte)
        self.decoder = codecs.getincrementaldecoder(self.codec)(errors="surrogatepass")
        self.text, self.pos, self.eof = "", 0, False
        self.read_bytes = self.byte

    def _fill(self, grow: bool = False) -> bool:
        """Drop the text already read, then read a chunk more (False at the end of the file);
        `grow`: as much again as the text still held, so that a long value is read in a number
        of tries that grows with the log of its length."""
        if self.eof:
            return False
        if self.pos:
            done = self.text[: self.pos]
            newlines = done.count("\n")
            if newlines:
                self.lines += newlines
                self.line_start = self.chars + done.rfind("\n") + 1
            self.chars += self.pos
            self.byte += len(done.encode(self.codec, "surrogatepass"))
            self.text, self.pos = self.text[self.pos :], 0
        data = self.file.read(max(CHUNK, len(self.text)) if grow else CHUNK)
        self.eof = not data
        # The decoder's error counts from the bytes it still held of a character cut in two.
        start = self.read_bytes - len(self.decoder.getstate()[0])
        try:
            self.text += self.decoder.decode(data, final=self.eof)
        except UnicodeDecodeError as error:
            error.start += start
            error.end += start
            raise
        self.read_bytes += len(data)
        return True

    def mark(self) -> tuple[int, int, int, int]:
        """Where the cursor is, for `seek` to come back to."""
        self.peek()
        done = self.text[: self.pos]
        newlines = done.count("\n")
        line_start = self.chars + done.rfind("\n") + 1 if newlines else self.line_start
        return (
            self.byte + len(done.encode(self.codec, "surrogatepass")),
            self.chars + self.pos,
            self.lines + newlines,
            line_start,
        )

    def position(self) -> int:
        """The cursor's offset in the file's text, in characters (cheaper than `mark`)."""
        return self.chars + self.pos

    def seek(self, mark: int) -> None:
        self._seek(mark)

    def error(self, msg: str, pos: int | None = None) -> StreamError:
        pos = self.pos if pos is None else pos
        newlines = self.text.count("\n", 0, pos)
        line_start = self.chars + self.text.rfind("\n", 0, pos) + 1 if newlines else self.line_start
        where = self.chars + pos
        return StreamError(msg, self.lines + newlines + 1, where - line_start + 1, where)

    # --- reading --------------------------------------------------------------------------

    def peek(self) -> str | None:
        """The next character after whitespace ('' at the end of the file)."""
        while True:
            self.pos = _WHITESPACE.match(self.text, self.pos).end()
            if self.pos < len(self.text):
                return self.text[self.pos]
            if not self._fill():
                return ""

    def value(self, limit: int | None = None) -> Any:
        """The next value, whole (a piece small enough to hold: a match, a round's number);
        `TooLarge` when its text runs past `limit` characters."""
        self.peek()
        while True:
            try:
                value, end = _DECODER.raw_decode(self.text, self.pos)
            except json.JSONDecodeError as error:
                # Cut off by the window's end (a value or string still open), or a real fault.
                if (error.pos >= len(self.text) - 16 or error.msg.startswith("Unterminated")) and self._more(limit):
                    continue
                raise self.error(error.msg, error.pos) from None
            if end >= len(self.text) - 1 and self._more(limit):
                continue  # a number may go on in the next chunk
            if limit is not None and end - self.pos > limit:
                raise TooLarge(limit)
            self.pos = end
            return value

    def _more(self, limit: int) -> bool | None:
        if limit is not None and len(self.text) - self.pos > limit:
            raise TooLarge(limit)
        return self._fill(grow=True)

    def _string(self) -> str:
        while True:
            try:
                text, end = json.decoder.scanstring(self.text, self.pos + 1)
            except json.JSONDecodeError as error:
                if self._fill(grow=True):
                    continue
                raise self.error(error.msg, error.pos) from None
            self.pos = end
            return text

    def _expect(self, char: str, msg: str) -> None:
        if self.peek() != char:
            raise self.error(msg)
        self.pos += 1

    def members(self) -> Iterator[str]:
        """An object's keys, one at a time: the caller reads each key's value (`value`, or
        walks it) before asking for the next key."""
        self._expect("{", "Expecting value")
        if self.peek() == "}":
            self.pos += 1
            return
        while True:
            if self.peek() != '"':
                raise self.error("Expecting property name enclosed in double quotes")
            key = self._string()
            self._expect(":", "Expecting ':' delimiter")
            self.peek()
            yield key
            following = self.peek()
            self.pos += 1
            if following == "}":
                return
            if following != ",":
                raise self.error("Expecting ',' delimiter", self.pos - 1)

    def elements(self) -> Iterator[None]:
        """An array's elements, one at a time: the caller reads each before the next."""
        self._expect("[", "Expecting value")
        if self.peek() == "]":
            self.pos += 1
            return
        while True:
            yield
            following = self.peek()
            self.pos += 1
            if following == "]":
                return
            if following != ",":
                raise self.error("Expecting ',' delimiter", self.pos - 1)

    def skip(self, depth: int = 2, limit: int | None = None) -> None:
        """Pass over the next value, holding no more of it than one piece `depth` levels down
        (of at most `limit` characters)."""
        start = self.peek()
        if depth and start == "[":
            for _ in self.elements():
                self.skip(depth - 1, limit)
        elif depth and start == "{":
            for _ in self.members():
                self.skip(depth - 1, limit)
        else:
            self.value(limit)

    def end(self) -> None:
        """Nothing but whitespace may follow the document."""
        if self.peek():
            raise self.error("Extra data")
