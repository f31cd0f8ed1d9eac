"""nuri fpe encrypt|decrypt: FEA format-preserving encryption of CSV and Parquet columns."""

import contextlib
import io
import os
import re
import sys

from . import _common as C
from .main import UsageError, VerifyError

BATCH_ROWS = 10000
# Output that is written in place (stdout '-', a FIFO, a character device: there is no temporary file to
# discard) is held in memory until the whole input has been read without error, up to this many bytes;
# a larger output is written as it comes once it passes this size, and an error after that says exactly
# how much was written (docs/cli.md).
HOLD_BYTES = 64 << 20
# Longer values are rejected before they are parsed: 128 bits are at most 128 symbols, and a digits value
# keeps its other characters (dashes, spaces) in place, so allow generous room for those.
MAX_VALUE_CHARS = 4096
_MAX_REPORTED = 20

_FORMATS = """\
formats (one --format per --column, in the same order; a single --format applies to every column):
  digits              every decimal digit of the value is encrypted as one decimal number (3..38 digits);
                      every other character stays in place (4111-1111-1111-1111 keeps its dashes)
  template:PATTERN    '#' = an encrypted digit, '*' = a digit kept in clear, any other character must
                      appear as is: template:####-####-####-**** keeps the last four digits,
                      template:******-####### keeps the birth date of a resident registration number
  alphabet:SYMBOLS    every character must be one of SYMBOLS (2..65536 distinct characters); the whole
                      value is encrypted in radix len(SYMBOLS): alphabet:0123456789abcdef for hex
Integer columns (Parquet) take 'digits' only and are encrypted in the fixed domain 0..10^W-1 with W = 18
for 64-bit and 9 for 32-bit integers (or digits:W), so the output keeps the column type.
Domains smaller than 10^6 values are refused unless --allow-small-domain (published attacks on small FPE
domains: Beyne, ePrint 2021/815; Dunkelman et al., ePrint 2020/1311); below 2^8 values always."""


def register(sub):
    p = sub.add_parser(
        "fpe",
        help="format-preserving encryption (FEA) of CSV/Parquet columns",
        description="Encrypts or decrypts chosen columns of a CSV or Parquet table with FEA "
        "(TTAK.KO-12.0275), so a card number stays a card number. The output keeps "
        "the input's columns, order and types. FEA-1 (default) or FEA-2; the FEA key "
        "length (128/192/256) follows the key file.",
    )
    ops = p.add_subparsers(dest="op", metavar="OP", parser_class=type(p))
    ops.required = True
    for op in ("encrypt", "decrypt"):
        q = ops.add_parser(
            op,
            help=f"{op} columns of a CSV or Parquet file",
            description=_FORMATS,
            formatter_class=_RawDesc,
            epilog=f"example: nuri fpe {op} -k my.key --column card --format digits -i cards.csv -o out.csv",
        )
        C.add_key_arg(q, " (128, 192 or 256 bits)")
        q.add_argument("--column", action="append", required=True, metavar="NAME", help="column to process (repeat)")
        q.add_argument(
            "--format",
            action="append",
            required=True,
            metavar="FMT",
            help="digits | template:PATTERN | alphabet:SYMBOLS (repeat, one per --column)",
        )
        q.add_argument("-i", "--input", required=True, metavar="IN", help="input .csv or .parquet ('-' = CSV on stdin)")
        q.add_argument("-o", "--output", required=True, metavar="OUT", help="output file ('-' = CSV on stdout)")
        q.add_argument("--input-format", choices=("csv", "parquet"), help="default: from the file name")
        q.add_argument(
            "--on-error",
            choices=("stop", "keep"),
            default="stop",
            help="a value that does not fit its format: stop (exit 1, no output) or keep it unchanged "
            "and report it (default stop)",
        )
        q.add_argument("--variant", type=int, choices=(1, 2), default=1, help="FEA-1 (default) or FEA-2")
        q.add_argument("--tweak", type=int, default=0, help="tweak (integer, default 0)")
        q.add_argument(
            "--allow-small-domain",
            action="store_true",
            help="allow formats with fewer than 10^6 possible values (weak: see above)",
        )
        q.add_argument("--delimiter", default=",", help="CSV delimiter (default ',')")
        q.add_argument("--force", action="store_true", help="overwrite an existing OUT")
        q.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
        q.set_defaults(func=run)


import argparse  # noqa: E402


class _RawDesc(argparse.RawDescriptionHelpFormatter):
    pass


# ---------------------------------------------------------------------------------------------------------------
# Formats: each turns a cell into (digits or symbols to encrypt, a function putting the result back).


class FitError(ValueError):
    """A value does not fit its column's format."""


class Format:
    """A --format in nuri's one pattern syntax (nuri.fea_formats; the C code in src/fea/pattern.c
    is shared with Python, PostgreSQL, DuckDB and Spark)."""

    width = None  # digits:W: fixed width for integer columns

    def __init__(self, spec):
        from ..fea_formats import Pattern

        try:
            self.p = Pattern(spec)
        except ValueError as e:
            raise UsageError(str(e)) from None
        self.kind, self.radix = self.p.kind, self.p.radix

    @property
    def cipher_symbols(self):
        """The characters an encrypted symbol can become: the alphabet, or the ten digits."""
        return self.p.spec[len("alphabet:") :] if self.kind == "alphabet" else "0123456789"

    def split(self, value):
        """-> (list of symbol indices to encrypt, rebuild(list) -> str)."""
        from ..fea_formats import FitError as PatternMismatch

        try:
            syms = self.p.split(value, allow_small_domain=True)  # the domain: Engine.domain_check
        except PatternMismatch as e:
            raise FitError(e.why) from None
        return syms, lambda res: self.p.join(value, res)


class Digits(Format):
    def __init__(self, width=None):
        super().__init__("digits")
        self.width = width

    def split(self, value):
        if self.width:  # an integer column's str(int): zero-padded to W digits by the caller
            return [ord(c) - 48 for c in value], None
        return super().split(value)


def parse_format(text):
    if text == "digits":
        return Digits()
    m = re.fullmatch(r"digits:(\d+)", text)
    if m:
        return Digits(int(m.group(1)))
    if text.startswith(("template:", "alphabet:")):
        return Format(text)
    raise UsageError(f"unknown format {text!r} (expected digits, template:PATTERN or alphabet:SYMBOLS)")


# ---------------------------------------------------------------------------------------------------------------
# The FEA engine: groups symbol strings by length and sends each group through one batch call.


class Engine:
    def __init__(self, key, variant, tweak, encrypting, allow_small):
        try:
            from .. import fea
        except ImportError as e:
            raise UsageError(f"FEA is not available in this build (nuri.fea: {e})") from None
        self.fea, self.key, self.variant, self.tweak = fea, key, variant, tweak
        self.encrypting, self.allow_small = encrypting, allow_small
        self.ciphers = {}  # nuri.fea_formats.ColumnCipher per pattern: the vectorised path (uniform)
        # A bad tweak, variant or key is a usage error before any row is read (never "a value that did not
        # fit", which --on-error keep would pass through in clear): try them on the smallest digit domain.
        try:
            _fea_batch(fea, key, 10, [[0] * 6], encrypting, variant, tweak, False)
        except (ValueError, TypeError, OverflowError) as e:
            raise UsageError(f"--tweak {tweak} / --variant {variant}: {e}") from None

    def domain_check(self, radix, length):
        try:
            _domain(radix, length, self.allow_small)
        except ValueError as e:
            raise FitError(str(e) + ("" if self.allow_small else " (--allow-small-domain accepts 2^8..10^6)")) from None

    def uniform(self, fmt, values):
        """Columns whose values all share one layout (16-digit cards, a fixed template): encrypted in one
        vectorised call by nuri.fea_formats; None otherwise (then the value-by-value path below runs)."""
        if fmt.width or not hasattr(fmt, "p"):
            return None
        try:
            from ..fea_formats import ColumnCipher

            cc = self.ciphers.get(fmt.p.spec)
            if cc is None:
                cc = self.ciphers[fmt.p.spec] = ColumnCipher(
                    self.key, fmt.p, tweak=self.tweak, variant=self.variant, allow_small_domain=self.allow_small
                )
            res = cc.uniform([None if v == "" else v for v in values], self.encrypting)
        except (ImportError, ValueError):
            return None
        return None if res is None else ["" if v == "" else r for v, r in zip(values, res)]

    def run(self, radix, strings):
        """strings: list of lists of symbol indices, all the same length. Returns the same shape."""
        if not strings:
            return []
        return _fea_batch(
            self.fea, self.key, radix, strings, self.encrypting, self.variant, self.tweak, self.allow_small
        )


def _domain(radix, length, allow_small):
    """The one domain rule (nuri_fea_pattern_check_domain); ValueError saying why."""
    from .._native import ffi, lib

    msg = ffi.new("char[256]")
    if (
        lib.nuri_fea_pattern_check_domain(
            radix, length, lib.NURI_FEA_ALLOW_SMALL_DOMAIN if allow_small else 0, msg, 256
        )
        != 0
    ):
        raise ValueError(ffi.string(msg).decode())


def _fea_batch(fea, key, radix, strings, encrypting, variant, tweak, allow_small):
    """Adapter to nuri.fea's batch API (radix strings of one length)."""
    verb = "encrypt" if encrypting else "decrypt"
    kw = {"tweak": tweak, "variant": variant}
    if radix == 10:
        digs = ["".join(chr(48 + d) for d in s) for s in strings]
        fn = getattr(fea, f"{verb}_digits_batch", None)
        if fn is not None:
            out = fn(key, digs, allow_small_domain=allow_small, **kw)
        else:
            out = [getattr(fea, f"{verb}_digits")(key, d, allow_small_domain=allow_small, **kw) for d in digs]
        return [[ord(c) - 48 for c in s] for s in out]
    fn = getattr(fea, f"{verb}_radix_batch", None)
    if fn is None:
        raise UsageError("this nuri.fea has no radix batch API: alphabet formats are unavailable")
    return [list(s) for s in fn(key, [list(s) for s in strings], radix, allow_small_domain=allow_small, **kw)]


# ---------------------------------------------------------------------------------------------------------------


class Problems:
    def __init__(self, mode):
        self.mode, self.count, self.shown = mode, 0, 0

    def add(self, row, col, value, why):
        self.count += 1
        msg = f"row {row}, column {col!r}: value {value!r} {why}"
        if self.mode == "stop":
            raise VerifyError(msg + " (--on-error keep leaves such values unchanged)")
        if self.shown < _MAX_REPORTED:
            print(f"nuri fpe: {msg}; left unchanged", file=sys.stderr)
            self.shown += 1


def _plain_digits(digs):
    return "".join(chr(48 + d) for d in digs)


def transform_values(engine, fmt, values, col, first_row, problems):
    """values: list of str or None. Returns the new list; bad values are reported (row numbers are
    1-based data rows)."""
    fast = engine.uniform(fmt, values)
    if fast is not None:
        return fast
    out = list(values)
    groups = {}
    for j, v in enumerate(values):
        if v is None or v == "":
            continue
        try:
            if len(v) > MAX_VALUE_CHARS:  # O(1): before any conversion of a huge value
                raise FitError(f"is too long ({len(v)} characters; FEA values hold at most 128 bits)")
            syms, rebuild = fmt.split(v)
            width = getattr(fmt, "width", None)
            if width:
                if len(syms) > width:
                    raise FitError(f"has more than {width} digits")
                syms = [0] * (width - len(syms)) + syms
                rebuild = _plain_digits
            engine.domain_check(fmt.radix, len(syms))
        except FitError as e:
            problems.add(first_row + j, col, v, str(e))
            continue
        groups.setdefault(len(syms), []).append((j, syms, rebuild))
    for n, items in groups.items():
        try:
            res = engine.run(fmt.radix, [s for _, s, _ in items])
        except (ValueError, TypeError, OverflowError) as e:
            # not a value that does not fit (those were sorted out above) but the parameters (a tweak too
            # large for this length): an error for the whole run, never "left unchanged"
            j = items[0][0]
            raise UsageError(f"row {first_row + j}, column {col!r}: FEA refused {n}-symbol values: {e}") from None
        for (j, _, rebuild), r in zip(items, res):
            out[j] = rebuild(r)
    return out


# ---------------------------------------------------------------------------------------------------------------


def _pairs(args):
    cols, fmts = args.column, args.format
    if len(fmts) == 1 and len(cols) > 1:
        fmts = fmts * len(cols)
    if len(fmts) != len(cols):
        raise UsageError(f"{len(cols)} --column but {len(fmts)} --format: give one format, or one per column")
    if len(set(cols)) != len(cols):
        raise UsageError("a column is named twice")
    return [(c, parse_format(f)) for c, f in zip(cols, fmts)]


def _kind(args):
    if args.input_format:
        return args.input_format
    if args.input == "-":
        return "csv"
    ext = os.path.splitext(args.input)[1].lower()
    if ext in (".parquet", ".pq"):
        return "parquet"
    if ext in (".csv", ".txt", ".tsv"):
        return "csv"
    raise UsageError(f"cannot tell the format of {args.input} from its name: use --input-format csv|parquet")


def _check_csv_formats(pairs, delimiter):
    """A format whose encrypted symbols include the delimiter, the quote or a line break is refused for
    CSV: a value that comes out holding one must be quoted, and decryption could not tell that quoting
    from quotes the file had, so decrypt(encrypt(file)) would not be the file byte for byte."""
    for col, fmt in pairs:
        for c, what in ((delimiter, "the delimiter"), ('"', "the quote character"), ("\r", "CR"), ("\n", "LF")):
            if c in fmt.cipher_symbols:
                raise UsageError(
                    f"column {col!r}: format {fmt.p.spec!r} can encrypt a symbol into {c!r}, {what} of this CSV; "
                    "the quoting that value would need could not be undone byte for byte on decryption: "
                    + ("choose another --delimiter" if c == delimiter else "use an alphabet without it")
                )


def run(args):
    from . import _csvio

    key = C.load_key(args, (16, 24, 32), "FEA key")
    pairs = _pairs(args)
    kind = _kind(args)
    try:
        _csvio.check_delimiter(args.delimiter)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if kind == "csv":
        _check_csv_formats(pairs, args.delimiter)
    if kind == "parquet" and args.output == "-":
        raise UsageError("Parquet output needs a file name")
    C.check_output_path(args.output, args.force)
    engine = Engine(key, args.variant, args.tweak, args.op == "encrypt", args.allow_small_domain)
    problems = Problems(args.on_error)
    if kind == "csv":
        _run_csv(args, engine, pairs, problems)
    else:
        _run_parquet(args, engine, pairs, problems)
    if problems.count:
        more = problems.count - problems.shown
        print(
            f"nuri fpe: {problems.count} value(s) did not fit and were left unchanged"
            + (f" ({more} not listed)" if more > 0 else ""),
            file=sys.stderr,
        )
    return 0


class _Held:
    """The output sink of a run: for a file, straight to AtomicOutput (its temporary is discarded on any
    error); for stdout, a FIFO or a device, held in memory until commit() so that an error in the input
    leaves nothing written, up to HOLD_BYTES, after which everything goes out as it comes and an error
    says how much did (note()). File-like enough for pyarrow's ParquetWriter."""

    closed = False

    def __init__(self, out, limit):
        self.out, self.limit = out, limit
        self.parts, self.held, self.sent, self.pos = [], 0, 0, 0
        self.rows = 0  # data rows passed to write() so far (set by the caller)
        self.stopped = False  # after an error: nothing more goes out (a Parquet footer written on cleanup)
        self.failed = False  # a write failed: its own message says so, and how much went out is unknown

    def write(self, b):
        b = bytes(b)
        self.pos += len(b)
        if self.stopped:
            pass
        elif not self.out.direct:
            self.out.write(b)
        elif not self.sent and self.held + len(b) <= self.limit:
            self.parts.append(b)
            self.held += len(b)
        else:
            self._release()
            self._send(b)
        return len(b)

    def _send(self, data):
        try:
            self.out.write(data)
        except BaseException:
            self.failed = True
            raise
        self.sent += len(data)

    def _release(self):
        parts, self.parts, self.held = self.parts, [], 0
        for data in parts:  # one by one: no second copy of what was held
            self._send(data)

    def tell(self):
        return self.pos

    def flush(self):
        pass

    def close(self):
        pass

    def commit(self):
        self._release()
        self.out.commit()

    def note(self, what):
        """What an error leaves behind: nothing, or exactly what was written."""
        if not self.sent:
            return "nothing written"
        where = "stdout" if self.out.path == "-" else self.out.path
        return f"{what(self.rows)} already written to {where} ({self.sent} bytes): that output is incomplete"


@contextlib.contextmanager
def _noted(sink, what):
    """Errors while the output is being produced end with what they leave behind (_Held.note)."""
    try:
        yield
    except (UsageError, VerifyError) as e:
        sink.stopped = True
        if sink.failed:  # "cannot write ...": about the output itself
            raise
        raise type(e)(f"{e}; {sink.note(what)}") from None
    except BaseException:
        sink.stopped = True
        raise


def _csv_written(rows):
    return "the header" + (f" and data rows 1..{rows}" if rows else "") + " were"


def _run_csv(args, engine, pairs, problems):
    """CSV in, CSV out, byte for byte the same except for the processed fields (cli/_csvio.py)."""
    from . import _csvio

    with C.open_input(args.input) as fb:
        size = C.input_size(fb)
        text = io.TextIOWrapper(fb, encoding="utf-8", errors="strict", newline="")
        reader = _csvio.Reader(text, args.delimiter)
        try:
            try:
                header = next(reader)
            except StopIteration:
                raise UsageError(f"{args.input} is empty (expected a header row)") from None
        except _csvio.CsvError as e:
            raise UsageError(f"{args.input}: {e}") from None
        except UnicodeDecodeError as e:
            raise UsageError(_not_utf8(args.input, e)) from None
        idx = []
        for col, fmt in pairs:
            if col not in header.fields:
                raise UsageError(f"{args.input} has no column {col!r} (columns: {', '.join(header.fields)})")
            if getattr(fmt, "width", None):
                raise UsageError("digits:W is for integer (Parquet) columns; CSV values keep their own digits")
            idx.append((header.fields.index(col), col, fmt))
        with (
            C.AtomicOutput(args.output, args.force) as out,
            C.Progress(size if size and size > (4 << 20) else None, f"fpe {args.op}", quiet=args.quiet) as bar,
        ):
            sink = _Held(out, HOLD_BYTES)
            with _noted(sink, _csv_written):
                try:
                    _csv_rows(args, reader, header, idx, sink, engine, problems, fb, size, bar)
                except _csvio.CsvError as e:
                    raise UsageError(f"{args.input}: {e}") from None
                except UnicodeDecodeError as e:
                    raise UsageError(_not_utf8(args.input, e)) from None
            sink.commit()


def _not_utf8(name, e):
    return f"{name}: input is not UTF-8 text ({e.reason} at {e.object[e.start : e.start + 4]!r})"


def _csv_rows(args, reader, header, idx, sink, engine, problems, fb, size, bar):
    ncols = len(header.fields)
    sink.write((reader.bom + header.text(reader.d)).encode("utf-8"))
    row_no = 1
    last_pos = 0
    while True:
        batch = []
        for r in reader:
            if r.is_blank():  # a blank line stays a blank line
                batch.append(r)
                continue
            if len(r.fields) != ncols:
                raise UsageError(f"{args.input}: line {r.line} has {len(r.fields)} fields, the header has {ncols}")
            batch.append(r)
            if len(batch) >= BATCH_ROWS:
                break
        if not batch:
            break
        rows = [r for r in batch if not r.is_blank()]
        changed = {id(r): {} for r in rows}
        for ci, col, fmt in idx:
            old = [r.fields[ci] for r in rows]
            new = transform_values(engine, fmt, old, col, row_no, problems)
            for r, o, v in zip(rows, old, new):
                if v != o:
                    changed[id(r)][ci] = v
        sink.write("".join(r.text(reader.d, changed.get(id(r))) for r in batch).encode("utf-8"))
        row_no += len(rows)
        sink.rows = row_no - 1
        if size:
            pos = fb.tell() if fb.seekable() else last_pos
            bar.advance(pos - last_pos)
            last_pos = pos


def _run_parquet(args, engine, pairs, problems):
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise UsageError("Parquet needs pyarrow (pip install pyarrow)") from None
    try:
        pf = pq.ParquetFile(args.input)
    except (OSError, pa.ArrowException) as e:
        raise UsageError(f"cannot read {args.input} as Parquet: {e}") from None
    schema = pf.schema_arrow
    plan = []
    for col, fmt in pairs:
        if col not in schema.names:
            raise UsageError(f"{args.input} has no column {col!r} (columns: {', '.join(schema.names)})")
        t = schema.field(col).type
        if pa.types.is_integer(t):
            if not isinstance(fmt, Digits):
                raise UsageError(f"column {col!r} is {t}: integer columns take the digits format only")
            if fmt.width is None:
                fmt = Digits({8: 2, 16: 4, 32: 9, 64: 18}[t.bit_width])
            if 10**fmt.width > 2 ** (t.bit_width - (1 if pa.types.is_signed_integer(t) else 0)):
                raise UsageError(f"column {col!r} is {t}: digits:{fmt.width} does not fit the type")
            plan.append((col, fmt, "int", t))
        elif pa.types.is_string(t) or pa.types.is_large_string(t):
            if getattr(fmt, "width", None):
                raise UsageError(f"digits:W is for integer columns; {col!r} is a string column")
            plan.append((col, fmt, "str", t))
        else:
            raise UsageError(f"column {col!r} is {t}: FPE takes string or integer columns")
    total = pf.metadata.num_rows
    with (
        C.AtomicOutput(args.output, args.force) as out,
        C.Progress(total if total > 100000 else None, f"fpe {args.op}", unit="rows", quiet=args.quiet) as bar,
    ):
        # a file: pyarrow writes the temporary itself; a FIFO or a device (-o /dev/stdout): held (_Held)
        sink = _Held(out, HOLD_BYTES)
        writer = pq.ParquetWriter(sink if out.direct else out.f, schema)
        try:
            with _noted(sink, lambda rows: "part of a Parquet file (no footer) was"):
                _parquet_rows(pf, writer, plan, engine, problems, bar, pa)
            writer.close()
        except BaseException:
            # close it here (into the temporary, which is discarded) so that ParquetWriter.__del__ does not
            # print "Exception ignored" with a traceback after the one-line error
            with contextlib.suppress(Exception):
                writer.close()
            raise
        sink.commit()


def _parquet_rows(pf, writer, plan, engine, problems, bar, pa):
    row_no = 1
    for batch in pf.iter_batches(batch_size=BATCH_ROWS):
        cols = {n: batch.column(i) for i, n in enumerate(batch.schema.names)}
        for col, fmt, kind, t in plan:
            vals = cols[col].to_pylist()
            if kind == "int":
                svals = []
                for j, v in enumerate(vals):
                    if v is not None and v < 0:
                        problems.add(row_no + j, col, v, "is negative (digits needs 0..10^W-1)")
                        svals.append(None)
                    else:
                        svals.append(None if v is None else str(v))
                new = transform_values(engine, fmt, svals, col, row_no, problems)
                res = [v if (s is None or n is None) else int(n) for v, s, n in zip(vals, svals, new)]
            else:
                res = transform_values(engine, fmt, vals, col, row_no, problems)
            cols[col] = pa.array(res, type=t)
        writer.write_batch(pa.record_batch([cols[n] for n in batch.schema.names], schema=batch.schema))
        row_no += batch.num_rows
        bar.advance(batch.num_rows)
