"""The one pattern syntax of nuri's format-preserving encryption, over columns of values.

A pattern says which characters of a value are encrypted (the C code in src/fea/pattern.c is the
only implementation; the CLI, ``nuri.fea``, PostgreSQL, DuckDB and Spark all go through it):

``digits``
    every ASCII digit 0-9 of the value is encrypted, as one decimal number of as many digits;
    every other character stays in place (``4111-1111-1111-1111`` keeps its dashes)
``template:PATTERN``
    ``#`` = an encrypted symbol, ``*`` = a symbol kept in clear, ``\\x`` = the character x
    literally, any other character must appear as is (``template:####-####-####-****``)
``alphabet:SYMBOLS``
    every character is one of SYMBOLS (2..65536 distinct); the whole value is encrypted in radix
    len(SYMBOLS) (``alphabet:0123456789abcdef``)

Templates take an optional alphabet (``symbols=``, default the ten digits).

:class:`ColumnCipher` encrypts whole columns: one C batch call per group of values with the same
number of symbols, and a vectorised path (no per-value Python) for Arrow string columns whose
values all have the same layout (16-digit card numbers, fixed templates). NULLs (None) stay NULL.

>>> from nuri.fea_formats import ColumnCipher
>>> cc = ColumnCipher(bytes(16), "template:####-####-####-****")
>>> out = cc.encrypt(["4111-1111-1111-1234", None])
>>> out[0][-5:], out[1], cc.decrypt(out) == ["4111-1111-1111-1234", None]
('-1234', None, True)
>>> cc.encrypt(["4111 1111 1111 1234"])
Traceback (most recent call last):
  ...
nuri.fea_formats.FitError: row 1: value '4111 1111 1111 1234' does not match template '####-####-####-****' (position 5: ' ', expected '-')
"""  # noqa: E501 (a doctest's expected output is one line)

from ._native import ffi, lib
from ._util import check, impl_arg

__all__ = ["Pattern", "ColumnCipher", "FitError", "parse_tweak"]

_MSG = 256
_SLICE = 1 << 16  # rows per vectorised call on long Arrow arrays
_M64 = (1 << 64) - 1


class FitError(ValueError):
    """A value does not fit its pattern (or its domain). ``row`` is the 1-based row when known."""

    def __init__(self, message, row=None, value=None, why=None):
        super().__init__(message)
        self.row, self.value, self.why = row, value, why


def _utf8(s, what):
    if isinstance(s, bytes):
        return s
    if not isinstance(s, str):
        raise TypeError(f"{what} must be str, not {type(s).__name__}")
    return s.encode("utf-8", "surrogatepass")


class Pattern:
    """A parsed pattern (``digits``, ``template:PATTERN`` or ``alphabet:SYMBOLS``); symbols = the
    alphabet of a template (a str or a sequence of one-character strings; default the ten digits)."""

    def __init__(self, spec, symbols=None):
        if not isinstance(spec, str):
            raise TypeError(f"pattern must be str, not {type(spec).__name__}")
        self.spec = spec
        self._spec_b = _utf8(spec, "pattern")  # the C struct points into these buffers
        if symbols is not None and not isinstance(symbols, str):
            symbols = list(symbols)
            if any(not isinstance(s, str) or len(s) != 1 for s in symbols):
                raise ValueError("alphabet symbols must be single characters")
            symbols = "".join(symbols)
        self.symbols = symbols
        self._sym_b = ffi.new("char[]", _utf8(symbols, "symbols")) if symbols is not None else ffi.NULL
        self._spec_c = ffi.new("char[]", self._spec_b)
        self.p = ffi.new("nuri_fea_pattern *")
        msg = ffi.new("char[]", _MSG)
        rc = lib.nuri_fea_pattern_init(
            self.p,
            self._spec_c,
            len(self._spec_b),
            self._sym_b,
            len(_utf8(symbols, "symbols")) if symbols is not None else 0,
            msg,
            _MSG,
        )
        if rc != 0:
            raise ValueError(f"pattern {spec!r}: {ffi.string(msg).decode('utf-8', 'replace')}")
        self.kind = {
            lib.NURI_FEA_PATTERN_DIGITS: "digits",
            lib.NURI_FEA_PATTERN_TEMPLATE: "template",
            lib.NURI_FEA_PATTERN_ALPHABET: "alphabet",
        }[self.p.kind]
        self.radix = self.p.radix

    @property
    def encrypted_count(self):
        """Templates: the number of '#' positions (None for digits and alphabets: it varies)."""
        return self.p.nenc if self.kind == "template" else None

    def split(self, value, allow_small_domain=False):
        """-> the symbol indices to encrypt (list of int); FitError (message without the value) if
        the value does not fit."""
        b = _utf8(value, "value")
        syms, n, msg = (
            ffi.new("uint16_t[]", lib.NURI_FEA_PATTERN_MAX_SYMBOLS),
            ffi.new("size_t *"),
            ffi.new("char[]", _MSG),
        )  # per call: engines call from several threads
        rc = lib.nuri_fea_pattern_split(
            self.p, b, len(b), syms, n, lib.NURI_FEA_ALLOW_SMALL_DOMAIN if allow_small_domain else 0, msg, _MSG
        )
        if rc != 0:
            why = ffi.string(msg).decode("utf-8", "replace")
            raise FitError(f"value {value!r} {why}", value=value, why=why)
        out = list(syms[0 : n[0]])
        lib.nuri_wipe(syms, 2 * n[0])
        return out

    def join(self, value, syms):
        """value with its encrypted symbols replaced by syms."""
        b = _utf8(value, "value")
        cap = max(lib.nuri_fea_pattern_max_out(self.p, len(b)), 1)
        out = ffi.new("char[]", cap)
        olen = ffi.new("size_t *")
        s = ffi.new("uint16_t[]", list(syms) or [0])
        check(lib.nuri_fea_pattern_join(self.p, b, len(b), s, len(syms), out, cap, olen), "FEA pattern join")
        return ffi.buffer(out, olen[0])[:].decode("utf-8", "surrogatepass")

    def check_domain(self, nsymbols, allow_small_domain=False):
        """ValueError (saying why) unless radix**nsymbols is a domain FEA accepts."""
        msg = ffi.new("char[]", _MSG)
        rc = lib.nuri_fea_pattern_check_domain(
            self.radix, nsymbols, lib.NURI_FEA_ALLOW_SMALL_DOMAIN if allow_small_domain else 0, msg, _MSG
        )
        if rc != 0:
            raise ValueError(f"pattern {self.spec!r} {ffi.string(msg).decode()}")


def parse_tweak(tweak):
    """A tweak as an integer: int, or bytes/bytearray read big-endian (SQL's bytea), None = 0."""
    if tweak is None:
        return 0
    if isinstance(tweak, (bytes, bytearray, memoryview)):
        return int.from_bytes(bytes(tweak), "big")
    if isinstance(tweak, bool) or not isinstance(tweak, int):
        raise TypeError(f"tweak must be an int or bytes, not {type(tweak).__name__}")
    return tweak


class _Formats:
    """nuri_fea_fmt per (radix, length), set up once per ColumnCipher and wiped with it."""

    def __init__(self, key, variant, allow_small, impl):
        self.key, self.variant, self.allow_small, self.impl = key, variant, allow_small, impl
        self.cache = {}

    def get(self, radix, length):
        f = self.cache.get((radix, length))
        if f is None:
            f = ffi.new("nuri_fea_fmt *")
            check(
                lib.nuri_fea_fmt_init(
                    f,
                    self.key,
                    len(self.key),
                    self.variant,
                    radix,
                    length,
                    lib.NURI_FEA_ALLOW_SMALL_DOMAIN if self.allow_small else 0,
                    impl_arg(self.impl),
                ),
                "FEA format setup",
            )
            self.cache[(radix, length)] = f
        return f

    def tweak(self, radix, length, tweak):
        """The tweak as a C array (or NULL for 0), checked against this length's n."""
        if tweak == 0:
            return ffi.NULL, 0
        nbits = lib.nuri_fea_fmt_nbits(radix, length)
        bits = 128 - nbits if self.variant == 1 else 128
        if not 0 <= tweak < (1 << bits):
            raise ValueError(
                f"tweak must be an integer with 0 <= tweak < 2**{bits} "
                f"(FEA-{self.variant} with n = {nbits}), got {tweak}"
            )
        t = ffi.new("nuri_fea_u128[1]")
        t[0].hi, t[0].lo = tweak >> 64, tweak & _M64
        return t, 1

    def wipe(self):
        for f in self.cache.values():
            lib.nuri_fea_fmt_wipe(f)
        self.cache.clear()

    def __del__(self):
        self.wipe()


class ColumnCipher:
    """Encrypts or decrypts columns of values under one key, pattern, tweak and FEA variant.

    values: a list (str or None), or a pyarrow string array / chunked array (returned as the same
    Arrow type). on_error: "stop" (raise FitError naming the first bad row; nothing is returned) or
    "keep" (the value stays unchanged; ``self.problems`` lists (row, value, reason), 1-based rows).
    impl (keyword): one of nuri.fea.implementations(), None = dispatch.
    """

    def __init__(
        self,
        key,
        pattern="digits",
        tweak=0,
        variant=1,
        allow_small_domain=False,
        symbols=None,
        on_error="stop",
        *,
        impl=None,
    ):
        from .fea import check_key, check_variant

        self.key = check_key(key)
        self.variant = check_variant(variant)
        self.pattern = pattern if isinstance(pattern, Pattern) else Pattern(pattern, symbols)
        self.tweak = parse_tweak(tweak)
        if on_error not in ("stop", "keep"):
            raise ValueError(f"on_error must be 'stop' or 'keep', got {on_error!r}")
        self.on_error, self.allow_small = on_error, allow_small_domain
        self.fmts = _Formats(self.key, self.variant, allow_small_domain, impl)
        self.problems = []
        if self.pattern.kind == "template":  # fixed length: refuse a bad domain before any row
            self.pattern.check_domain(self.pattern.encrypted_count, allow_small_domain)
            self.fmts.tweak(self.pattern.radix, self.pattern.encrypted_count, self.tweak)

    def encrypt(self, values, first_row=1):
        return self._run(values, True, first_row)

    def decrypt(self, values, first_row=1):
        return self._run(values, False, first_row)

    def uniform(self, values, encrypt=True):
        """The vectorised path alone: values (an Arrow string array, or a list of str/None) whose
        non-null values all have one ASCII layout -> the result (same kind as values); None when the
        column does not qualify (then encrypt()/decrypt() handle it value by value)."""
        import pyarrow as pa

        arr = values if isinstance(values, pa.Array) else pa.array(values, type=pa.string())
        out = self._arrow_fast(pa, arr, encrypt)
        if out is None or isinstance(values, pa.Array):
            return out
        return out.to_pylist()

    def wipe(self):
        """Wipes the expanded keys now (they are wiped on garbage collection otherwise)."""
        self.fmts.wipe()

    # ---------------------------------------------------------------------------------------------

    def _run(self, values, enc, first_row):
        try:
            import pyarrow as pa
        except ImportError:  # pragma: no cover - pyarrow is a CLI extra
            pa = None
        if pa is not None and isinstance(values, pa.ChunkedArray):
            chunks, row = [], first_row
            for ch in values.chunks:
                chunks.append(self._run(ch, enc, row))
                row += len(ch)
            return pa.chunked_array(chunks, type=values.type)
        if pa is not None and isinstance(values, pa.Array) and len(values) > _SLICE:
            # slices: one odd value only sends its own slice down the value-by-value path
            parts = [self._run(values.slice(i, _SLICE), enc, first_row + i) for i in range(0, len(values), _SLICE)]
            return pa.concat_arrays(parts)
        if pa is not None and isinstance(values, pa.Array):
            fast = self._arrow_fast(pa, values, enc)
            if fast is not None:
                return fast
            return pa.array(self._values(values.to_pylist(), enc, first_row), type=values.type)
        return self._values(list(values), enc, first_row)

    def _problem(self, row, value, why):
        if self.on_error == "stop":
            raise FitError(f"row {row}: value {value!r} {why}", row=row, value=value, why=why)
        self.problems.append((row, value, why))

    def _values(self, values, enc, first_row):
        """The general path: split each value in C, one batch call per symbol count, join."""
        out = list(values)
        p, groups = self.pattern, {}
        for j, v in enumerate(values):
            if v is None:
                continue
            if not isinstance(v, str):
                raise TypeError(f"row {first_row + j}: values must be str or None, not {type(v).__name__}")
            try:
                syms = p.split(v, self.allow_small)
            except FitError as e:
                self._problem(first_row + j, v, e.why)
                continue
            groups.setdefault(len(syms), []).append((j, syms))
        for length, items in groups.items():
            try:
                t, nt = self.fmts.tweak(p.radix, length, self.tweak)
            except ValueError as e:
                for j, _ in items:
                    self._problem(first_row + j, values[j], f"cannot take this tweak: {e}")
                continue
            f = self.fmts.get(p.radix, length)
            buf = ffi.new("uint16_t[]", [x for _, s in items for x in s])
            fn = lib.nuri_fea_fmt_encrypt if enc else lib.nuri_fea_fmt_decrypt
            check(fn(f, buf, buf, len(items), t, nt), "FEA")
            for k, (j, _) in enumerate(items):
                out[j] = p.join(values[j], buf[k * length : (k + 1) * length])
            lib.nuri_wipe(buf, 2 * length * len(items))
        return out

    def _arrow_fast(self, pa, arr, enc):
        """Arrow string arrays whose non-null values all have one ASCII layout: the digits of every
        value are gathered by numpy and encrypted in one nuri_fea_fmt_*_digits call. None when the
        column does not qualify (then the general path runs and reports the bad rows)."""
        import numpy as np

        p = self.pattern
        if (
            p.radix != 10
            or p.kind == "alphabet"
            or not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type))
        ):
            return None
        n = len(arr)
        if n == 0 or arr.null_count == n:
            return arr
        _, offs_buf, data_buf = arr.buffers()
        odt = np.int64 if pa.types.is_large_string(arr.type) else np.int32
        offs = np.frombuffer(offs_buf, dtype=odt)[arr.offset : arr.offset + n + 1]
        lens = np.diff(offs)
        valid = (
            np.ones(n, dtype=bool) if arr.null_count == 0 else np.asarray(arr.is_valid().to_numpy(zero_copy_only=False))
        )
        if arr.null_count and lens[~valid].any():
            return None  # null slots with bytes: not the packed layout
        width = int(lens[valid][0])
        if width == 0 or (lens[valid] != width).any():
            return None
        data = np.frombuffer(data_buf, dtype=np.uint8)[offs[0] : offs[-1]]
        rows = data.reshape(-1, width)  # the valid values, packed
        if p.kind == "digits":
            if not ((rows >= 48) & (rows <= 57)).all():
                return None
            enc_cols = None
            length = width
        else:  # template: one fixed layout of `width` ASCII characters
            layout = _ascii_layout(p)
            if layout is None or len(layout) != width:
                return None
            lit = np.array([c if c >= 0 else 0 for c in layout], dtype=np.uint8)
            is_sym = np.array([c < 0 for c in layout])
            digit = (rows >= 48) & (rows <= 57)
            if not (digit[:, is_sym].all() and (rows[:, ~is_sym] == lit[~is_sym]).all()):
                return None
            enc_cols = np.array([i for i, c in enumerate(layout) if c == -1])
            length = len(enc_cols)
        try:
            p.check_domain(length, self.allow_small)
            t, nt = self.fmts.tweak(10, length, self.tweak)
        except ValueError:
            return None  # the general path reports it per row
        src = np.ascontiguousarray(rows if enc_cols is None else rows[:, enc_cols])
        res = np.empty_like(src)
        f = self.fmts.get(10, length)
        fn = lib.nuri_fea_fmt_encrypt_digits if enc else lib.nuri_fea_fmt_decrypt_digits
        check(
            fn(
                f,
                ffi.cast("char *", ffi.from_buffer(res)),
                ffi.cast("const char *", ffi.from_buffer(src)),
                src.shape[0],
                t,
                nt,
            ),
            "FEA digits",
        )
        if enc_cols is None:
            new_data = res
        else:
            new_data = rows.copy()
            new_data[:, enc_cols] = res
        if enc_cols is not None:  # src is our gathered copy (else it is the caller's buffer: never touch)
            src[...] = 0
        new_offs = (offs - offs[0]).astype(odt)
        vbuf = pa.py_buffer(np.packbits(valid, bitorder="little").tobytes()) if arr.null_count else None
        return pa.Array.from_buffers(
            arr.type,
            n,
            [vbuf, pa.py_buffer(new_offs.tobytes()), pa.py_buffer(new_data.tobytes())],
            null_count=arr.null_count,
        )


def _ascii_layout(p):
    """A template's characters as a list: -1 = '#', -2 = '*', else the literal's byte; None if a
    literal is not ASCII (then the general path handles it)."""
    t = ffi.unpack(p.p.tmpl, p.p.tmpl_len).decode("utf-8")
    out, i = [], 0
    while i < len(t):
        c = t[i]
        if c == "\\":
            i += 1
            c = t[i]
            if ord(c) > 127:
                return None
            out.append(ord(c))
        elif c == "#":
            out.append(-1)
        elif c == "*":
            out.append(-2)
        elif ord(c) > 127:
            return None
        else:
            out.append(ord(c))
        i += 1
    return out
