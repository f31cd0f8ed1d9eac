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


class CsvError(ValueError):
    """Malformed CSV (an unterminated quote, text after a closing quote)."""


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


class Reader:
    """Records of a text stream (read in 1 MiB blocks; memory holds one block plus one record)."""

    def __init__(self, text, delimiter=","):
        self.f = text
        self.d = check_delimiter(delimiter)
        self.buf = ""
        self.pos = 0
        self.eof = False
        self.line = 1  # physical line where the next record starts
        self.bom = ""
        self._first = True
        dq = re.escape(self.d)
        self._quoted = re.compile(r'"((?:[^"]|"")*)"')
        self._plain = re.compile(r"[^" + dq + r"\r\n]*")

    def _more(self):
        if self.eof:
            return False
        b = self.f.read(_BLOCK)
        if self._first:
            self._first = False
            if b.startswith(BOM):
                self.bom, b = BOM, b[1:]
                if not b:  # the first read held only the BOM
                    b = self.f.read(_BLOCK)
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
            if not self._more():  # the record runs past the end of the buffer: need more text
                r = self._record(final=True)
                if r is None:
                    raise CsvError(f"line {self.line}: unterminated quoted field")
                return r

    def _record(self, final=False):
        """Parses one record at self.pos; None if the buffer ends inside it (and not ``final``)."""
        buf, p, n = self.buf, self.pos, len(self.buf)
        fields, raw = [], []
        while True:
            if p < n and buf[p] == '"':
                m = self._quoted.match(buf, p)
                if m is None:
                    return None
                fields.append(m.group(1).replace('""', '"'))
            else:
                m = self._plain.match(buf, p)
                fields.append(m.group(0))
            raw.append(m.group(0))
            p = m.end()
            if p >= n:
                if not final and not self.eof:
                    return None
                end = ""
                break
            c = buf[p]
            if c == self.d:
                p += 1
                continue
            if c == "\r":
                if p + 1 >= n and not final and not self.eof:
                    return None  # CR at the end of the buffer: maybe CRLF
                end = "\r\n" if buf.startswith("\r\n", p) else "\r"
            elif c == "\n":
                end = "\n"
            else:
                if not final and not self.eof:
                    return None  # maybe a quoted field cut by the end of the buffer ("" read as its end)
                raise CsvError(f"line {self.line}: unexpected {c!r} after a closing quote")
            p += len(end)
            break
        rec = Record(fields, raw, end, self.line)
        self.line += sum(x.count("\n") + x.count("\r") - x.count("\r\n") for x in raw) + (1 if end else 0)
        self.pos = p
        return rec
