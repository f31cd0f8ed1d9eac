"""CSV that round-trips byte for byte: `nuri fpe` changes some fields and must leave everything else as it
was (line endings, which fields are quoted, a missing final newline, a UTF-8 BOM), so that
decrypt(encrypt(file)) == file. Python's csv module normalises all of these, so records are split here
and each keeps its raw text; only the fields that change are written again, quoted as they were.

RFC 4180 fields: unquoted (no delimiter, CR or LF; a quote inside is taken literally, as csv does) or
quoted ("..." with "" for a quote, may hold delimiters and line breaks). Records end with CRLF, LF or CR.
"""

import re

BOM = "\ufeff"
_BLOCK = 1 << 20
# The longest record (in characters, its line ending included) and the most fields a record may have: an
# unbalanced quote near the top of a file would otherwise make the rest of the file one record held in
# memory. Past either limit the reader stops with CsvError (docs/cli.md states both).
MAX_RECORD_CHARS = 16 << 20
MAX_FIELDS = 1 << 16


class CsvError(ValueError):
    """Malformed CSV (an unterminated quote, text after a closing quote, a record past the limits)."""


class Record:
    """One record: ``fields`` (values), and the raw text of each field (``raw``) and of its terminator."""

    __slots__ = ("fields", "raw", "end", "line")

    def __init__(self, fields, raw, end, line):
        self.fields, self.raw, self.end, self.line = fields, raw, end, line

    def is_blank(self):
        return self.raw == [""]

    def text(self, delimiter, changed=None):
        """The record as it was, with the fields in ``changed`` ({index: new value}) written again."""
        if not changed:
            return delimiter.join(self.raw) + self.end
        parts = list(self.raw)
        for i, v in changed.items():
            parts[i] = quote(v, delimiter, self.raw[i].startswith('"'))
        return delimiter.join(parts) + self.end


def quote(value, delimiter, was_quoted):
    if was_quoted or delimiter in value or "\r" in value or "\n" in value or value.startswith('"'):
        return '"' + value.replace('"', '""') + '"'
    return value


def check_delimiter(d):
    """The delimiter must be one character that cannot be part of the quoting or a line break."""
    if len(d) != 1:
        raise ValueError(f"delimiter must be one character, got {d!r}")
    if d in '"\r\n':
        raise ValueError(f"delimiter cannot be {d!r}")
    return d


def _closing_quote(buf, i, n, more):
    """The index of the quote that ends a quoted field whose text starts at i, looking in buf[:n] only; -1
    if there is none there (or the last character of buf[:n] is a quote and more text may follow: it may
    be the first of a ""). Escaped quotes are paired by str.replace, which replaces "" from the left
    without overlap exactly as a reader pairs them, over slices that double in size: linear time, in C,
    even for a field made of "" only."""
    q = buf.find('"', i, n)
    if q < 0:
        return -1
    if q + 1 < n and buf[q + 1] != '"':
        return q  # the usual case: no "" before the end
    size = 256
    while True:
        e = min(n, q + size)
        k = buf[q:e].replace('""', "\0\0").find('"')  # the first quote left unpaired
        if k >= 0 and (q + k + 1 < e or not more):
            return q + k  # followed by something else than a quote, or the last character of all
        if e == n:
            return -1
        size *= 2  # the slice may have cut a "" in two: look further


class Reader:
    """Records of a text stream, in time linear in its length and memory bounded by the longest record.

    Text is read in blocks (1 MiB) appended to a buffer. A record that does not end inside the buffer is
    parsed again from its start once more text has come, and each such read asks for at least as much
    text as the unfinished record already holds: the buffer doubles, so a record of n characters costs
    O(n) in all, however many blocks it spans. Quoted fields are scanned with str.find (no regular
    expression that keeps state per character). A record longer than ``max_record`` characters, or with
    more than ``max_fields`` fields, is a CsvError. Each record is parsed within a window of max_record + 1
    characters from its start, so the outcome (the records, or which error on which line) depends on the
    text alone, never on how it arrived in blocks."""

    def __init__(self, text, delimiter=",", max_record=None, max_fields=None):
        self.f = text
        self.d = check_delimiter(delimiter)
        self.block = _BLOCK
        self.max_record = MAX_RECORD_CHARS if max_record is None else max_record
        self.max_fields = MAX_FIELDS if max_fields is None else max_fields
        self.buf = ""
        self.pos = 0
        self.eof = False
        self.line = 1  # physical line where the next record starts
        self.bom = ""
        self._first = True
        self._plain = re.compile(r"[^" + re.escape(self.d) + r"\r\n]*")

    def _more(self):
        """Appends text to the buffer (at least as much as the unparsed part holds); False at the end."""
        if self.eof:
            return False
        b = self.f.read(max(self.block, len(self.buf) - self.pos))
        if self._first:
            self._first = False
            if b.startswith(BOM):
                self.bom, b = BOM, b[1:]
                if not b:  # the first read held only the BOM
                    b = self.f.read(self.block)
        if not b:
            self.eof = True
            return False
        self.buf = self.buf[self.pos :] + b
        self.pos = 0
        return True

    def __iter__(self):
        return self

    def __next__(self):
        while True:
            if self.pos >= len(self.buf) and not self._more():
                raise StopIteration
            r = self._record()
            if r is not None:
                return r
            self._more()  # at the end of the text, the next _record() completes the record or fails

    def _record(self):
        """Parses one record at self.pos; None if it runs past the buffer and more text may follow."""
        buf, start, d = self.buf, self.pos, self.d
        n = min(len(buf), start + self.max_record + 1)  # the window
        full = n == start + self.max_record + 1
        more = full or not self.eof  # text may follow buf[:n]
        fields, raw = [], []
        p = start
        while True:
            if len(fields) >= self.max_fields:
                raise CsvError(f"line {self.line}: a record with more than {self.max_fields} fields")
            if p < n and buf[p] == '"':
                q = _closing_quote(buf, p + 1, n, more)
                if q < 0:
                    if more:
                        return self._unfinished(full)  # the field (or its "") may go on
                    raise CsvError(f"line {self.line}: unterminated quoted field")
                r = buf[p : q + 1]
                fields.append(r[1:-1].replace('""', '"'))
                p = q + 1
            else:
                m = self._plain.match(buf, p, n)
                r = m.group(0)
                fields.append(r)
                p = m.end()
            raw.append(r)
            if p >= n:
                if more:
                    return self._unfinished(full)
                end = ""
                break
            c = buf[p]
            if c == d:
                p += 1
                continue
            if c == "\r":
                if p + 1 >= n and more:
                    return self._unfinished(full)  # CR at the end of the window: maybe CRLF
                end = "\r\n" if buf.startswith("\r\n", p) else "\r"
            elif c == "\n":
                end = "\n"
            else:
                raise CsvError(f"line {self.line}: unexpected {c!r} after a closing quote")
            p += len(end)
            break
        if p - start > self.max_record:  # a CRLF whose LF is the character past the window
            raise self._too_long()
        rec = Record(fields, raw, end, self.line)
        self.line += sum(x.count("\n") + x.count("\r") - x.count("\r\n") for x in raw) + (1 if end else 0)
        self.pos = p
        return rec

    def _unfinished(self, full):
        if full:
            raise self._too_long()
        return None

    def _too_long(self):
        return CsvError(f"line {self.line}: a record longer than {self.max_record} characters (an unbalanced quote?)")
