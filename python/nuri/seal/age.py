"""age v1 files (age-encryption.org/v1, the C2SP age specification), read and written by nuri.

An age file is a text header, a 16-byte nonce and a STREAM payload::

    age-encryption.org/v1
    -> TYPE ARG...                      one stanza per recipient: a line of arguments, then the body
    BODY (base64, no padding, 64 columns; the last line is shorter, possibly empty)
    --- MAC (base64 of HMAC-SHA-256(HKDF(file key, "", "header"), every header byte up to '---'))
    nonce (16) | ChaCha20-Poly1305 chunks of 64 KiB (key = HKDF(file key, nonce, "payload"))

The file key is 16 random bytes. Stanzas nuri writes and reads:

- ``mlkem768x25519 <enc>``: HPKE (RFC 9180) Base mode with ML-KEM-768+X25519 (X-Wing, KEM 0x647A),
  HKDF-SHA256 and ChaCha20-Poly1305, info "age-encryption.org/mlkem768x25519": the suite nuri-seal
  v2 uses (hpke.py), so an X-Wing key is at once a nuri key and an age post-quantum key
  (``age1pq1...`` / ``AGE-SECRET-KEY-PQ-1...``: the 1,216-byte public key and the 32-byte seed).
- ``X25519 <share>``: ChaCha20-Poly1305 under HKDF(X25519(e, pk), share || pk,
  "age-encryption.org/v1/X25519") (``age1...`` / ``AGE-SECRET-KEY-1...``).
- ``scrypt <salt> <log2 N>``: ChaCha20-Poly1305 under scrypt(passphrase, "age-encryption.org/v1/scrypt"
  || salt, N, r = 8, p = 1); it must be the only stanza.

Other stanza types are skipped, as the specification requires (age writes random "grease" stanzas).
Reading follows age's rules: one canonical encoding of every line (a header that parses is exactly
the bytes its MAC covers), a header of at most 2 MiB and 1,024 stanzas, the final chunk empty only
in an empty file, X25519 shares that give an all-zero secret refused, scrypt work above a limit
refused before any work. Failures raise ``AgeHeaderError`` (the header does not parse, or a stanza of
a type nuri knows is malformed), ``AgeArmorError`` (bad ASCII armor), ``NotRecipientError`` (no
stanza opens with the identities given), ``nuri.InvalidTag`` (header MAC or a payload chunk).

>>> from nuri.seal import age
>>> ident = age.X25519Identity.generate()
>>> blob = age.seal_bytes(b"to an age user", [ident.recipient()])
>>> blob[:22]
b'age-encryption.org/v1\\n'
>>> age.open_bytes(blob, [ident])
b'to an age user'
"""

import binascii
import hashlib
import hmac
import io
import os
import re
import struct

from ..exceptions import InvalidTag
from . import bech32, hpke
from .header import SealFormatError
from .kdf import hkdf_sha256
from .recipients import Identity, NotRecipientError, Recipient
from .stream import TAG_LEN, Payload

INTRO = b"age-encryption.org/v1\n"
ARMOR_BEGIN = b"-----BEGIN AGE ENCRYPTED FILE-----"
ARMOR_END = b"-----END AGE ENCRYPTED FILE-----"
FILE_KEY_LEN = 16
NONCE_LEN = 16
CHUNK = 1 << 16
MAX_HEADER = 2 << 20
MAX_STANZAS = 1024
MAX_ARGS = 128
MAX_WHITESPACE = 1024  # blank bytes allowed around an armored file
BYTES_PER_LINE = 48  # 64 base64 columns
PQ_LABEL = b"age-encryption.org/mlkem768x25519"
X25519_LABEL = b"age-encryption.org/v1/X25519"
SCRYPT_LABEL = b"age-encryption.org/v1/scrypt"
SCRYPT_DEFAULT = 18  # log2 N that age writes (about a second)
SCRYPT_OPEN_LIMIT = 22  # the most age and nuri spend unless asked (4 GiB, about 15 s)
SCRYPT_MAX = 30
_WS = b" \t\n\r\v\f"


class AgeHeaderError(SealFormatError):
    """The age header does not parse, or one of its stanzas of a known type is malformed."""


class AgeArmorError(SealFormatError):
    """The ASCII armor of an age file is malformed."""


class ScryptLimitError(AgeHeaderError):
    """A passphrase file asks for more scrypt work than the caller allowed."""


# ---- base64 as age writes it: standard alphabet, no padding, one encoding only ----

_B64 = re.compile(rb"[A-Za-z0-9+/]*")


def b64encode(data) -> bytes:
    return binascii.b2a_base64(data, newline=False).rstrip(b"=")


def b64decode(s: bytes, what: str = "base64") -> bytes:
    """Canonical unpadded base64 (the one encoding age accepts); AgeHeaderError otherwise."""
    if not _B64.fullmatch(s) or len(s) % 4 == 1:
        raise AgeHeaderError(f"malformed {what}")
    out = binascii.a2b_base64(s + b"=" * (-len(s) % 4), strict_mode=True)
    if b64encode(out) != s:
        raise AgeHeaderError(f"{what} is not canonical base64")
    return out


# ---- keys: Bech32 strings ----

_HRP = {
    ("mlkem768-x25519", "public"): "age1pq",
    ("x25519", "public"): "age",
    ("mlkem768-x25519", "seed"): "AGE-SECRET-KEY-PQ-",
    ("x25519", "secret"): "AGE-SECRET-KEY-",
}
_KIND_OF_HRP = {v: k for k, v in _HRP.items()}
_KEY_LEN = {
    "mlkem768-x25519": {"public": hpke.XWING_PK, "seed": hpke.XWING_SEED},
    "x25519": {"public": 32, "secret": 32},
}


def key_string(kem: str, kind: str, data: bytes) -> str:
    """The age string of a key: ``age1pq1...``, ``age1...``, ``AGE-SECRET-KEY-PQ-1...``, ``AGE-SECRET-KEY-1...``."""
    return bech32.encode(_HRP[kem, kind], data)


def parse_key_string(s: str, where: str = "key"):
    """(kem, kind, bytes) of an age key string (the four forms above, in the case age writes them).
    ValueError otherwise."""
    try:
        hrp, data = bech32.decode(s)
    except bech32.Bech32Error as e:
        if s.startswith(("age1", "AGE-")):
            raise ValueError(f"{where}: malformed age key ({e})") from None
        raise ValueError(f"{where}: not a key (expected nuri-kem-v1, age1... or AGE-SECRET-KEY-... lines)") from None
    if hrp not in _KIND_OF_HRP:
        if hrp.startswith(("age1", "AGE-PLUGIN-")):
            raise ValueError(f"{where}: age plugin keys ({hrp}) are not supported")
        raise ValueError(f"{where}: not a key (Bech32 of unknown type {hrp!r})")
    kem, kind = _KIND_OF_HRP[hrp]
    if len(data) != _KEY_LEN[kem][kind]:
        raise ValueError(f"{where}: an age {hrp} key holds {_KEY_LEN[kem][kind]} bytes, this one {len(data)}")
    return kem, kind, data


def identity_file(seed: bytes, created: str = None, *, impl: str = None) -> str:
    """The text of an age post-quantum identity file, as age-keygen -pq writes it (``impl``: the
    ML-KEM implementation that derives the public key)."""
    import datetime

    if created is None:
        created = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    pk = hpke.xwing_public_key(seed, impl=impl)
    return (
        f"# created: {created}\n"
        f"# public key: {key_string('mlkem768-x25519', 'public', pk)}\n"
        f"{key_string('mlkem768-x25519', 'seed', seed)}\n"
    )


# ---- recipients and identities ----


def _chacha(key):
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    return ChaCha20Poly1305(key)


def _wrap(key, file_key):
    return _chacha(key).encrypt(bytes(12), file_key, None)


def _unwrap(key, body):
    """The file key under key, or None when the tag does not verify (not this identity)."""
    from cryptography.exceptions import InvalidTag as PycaInvalidTag

    try:
        return _chacha(key).decrypt(bytes(12), body, None)
    except PycaInvalidTag:
        return None


def _x25519(sk: bytes, point: bytes) -> bytes:
    """X25519(sk, point); AgeHeaderError for a point of small order (all-zero result), which the
    specification makes a malformed stanza."""
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

    try:
        return X25519PrivateKey.from_private_bytes(sk).exchange(X25519PublicKey.from_public_bytes(point))
    except ValueError:
        raise AgeHeaderError("X25519 share of small order (all-zero shared secret)") from None


def _x25519_public(sk: bytes) -> bytes:
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    return X25519PrivateKey.from_private_bytes(sk).public_key().public_bytes_raw()


class X25519Recipient:
    """An age X25519 recipient (``age1...``): classic, not post-quantum."""

    kind = "classic"

    def __init__(self, pk: bytes):
        if len(pk) != 32:
            raise ValueError(f"an X25519 public key is 32 bytes, got {len(pk)}")
        self.pk = bytes(pk)

    def __str__(self):
        return key_string("x25519", "public", self.pk)

    def stanza(self, file_key):
        e = os.urandom(32)
        share = _x25519_public(e)
        try:
            shared = _x25519(e, self.pk)
        except AgeHeaderError:
            raise ValueError(f"{self}: an X25519 public key of small order (no shared secret)") from None
        key = hkdf_sha256(shared, share + self.pk, X25519_LABEL, 32)
        return Stanza("X25519", [b64encode(share).decode()], _wrap(key, file_key))


class X25519Identity:
    """An age X25519 identity (``AGE-SECRET-KEY-1...``)."""

    stanza_type = "X25519"

    def __init__(self, sk: bytes):
        if len(sk) != 32:
            raise ValueError(f"an X25519 secret key is 32 bytes, got {len(sk)}")
        self.sk = bytes(sk)
        self.pk = _x25519_public(self.sk)

    @classmethod
    def generate(cls):
        return cls(os.urandom(32))

    def __str__(self):
        return key_string("x25519", "secret", self.sk)

    def recipient(self):
        return X25519Recipient(self.pk)

    def unwrap(self, s):
        share = _arg(s, 0, 32)
        key = hkdf_sha256(_x25519(self.sk, share), share + self.pk, X25519_LABEL, 32)
        return _unwrap(key, s.body)


class ScryptRecipient:
    """A passphrase (scrypt with N = 2^work_factor, r = 8, p = 1): the only recipient of its file."""

    kind = "scrypt"

    def __init__(self, passphrase, work_factor: int = SCRYPT_DEFAULT):
        self.passphrase = passphrase.encode() if isinstance(passphrase, str) else bytes(passphrase)
        if not self.passphrase:
            raise ValueError("empty passphrase")
        if not 1 <= work_factor <= SCRYPT_MAX:
            raise ValueError(f"the scrypt work factor is 1..{SCRYPT_MAX}, got {work_factor}")
        self.work_factor = work_factor

    def stanza(self, file_key):
        salt = os.urandom(16)
        key = _scrypt(self.passphrase, salt, self.work_factor)
        return Stanza("scrypt", [b64encode(salt).decode(), str(self.work_factor)], _wrap(key, file_key))


class ScryptIdentity:
    """A passphrase to open a scrypt file with; a file asking for more than 2^max_work_factor is
    refused (ScryptLimitError) before any work."""

    stanza_type = "scrypt"

    def __init__(self, passphrase, max_work_factor: int = SCRYPT_OPEN_LIMIT):
        self.passphrase = passphrase.encode() if isinstance(passphrase, str) else bytes(passphrase)
        self.max_work_factor = max_work_factor

    def unwrap(self, s):
        salt = _arg(s, 0, 16)
        w = int(s.args[1])  # the form was checked with the header (_check_stanza)
        if w > self.max_work_factor:
            raise ScryptLimitError(
                f"the file asks for scrypt work factor {w} (2^{w} iterations), above the limit "
                f"{self.max_work_factor} (raise it with --scrypt-max N if you trust the file)"
            )
        return _unwrap(_scrypt(self.passphrase, salt, w), s.body)


def _scrypt(passphrase, salt, work_factor):
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    try:
        return Scrypt(salt=SCRYPT_LABEL + salt, length=32, n=1 << work_factor, r=8, p=1).derive(passphrase)
    except MemoryError:  # 2^w x 1 KiB of memory: 4 GiB at the default limit of 22
        raise ScryptLimitError(
            f"scrypt with work factor {work_factor} needs {1 << work_factor >> 10} MiB of memory, more than "
            "this machine gave"
        ) from None


def _pq_stanza(r: Recipient, file_key):
    blob = hpke.seal(r.kem, r.pk, file_key, PQ_LABEL, impl=r.impl)
    enc, ct = blob[: hpke.XWING_CT], blob[hpke.XWING_CT :]
    return Stanza("mlkem768x25519", [b64encode(enc).decode()], ct)


def _pq_unwrap(ident: Identity, s):
    enc = _arg(s, 0, hpke.XWING_CT)
    # an X25519 share of small order is a malformed stanza (fatal), not "another recipient": checked
    # before HPKE, whose X-Wing decapsulation turns it into a failed tag. Any clamped scalar (a multiple
    # of 8, below the prime order times 8) maps exactly the points of small order to zero; this one is 2^254.
    _x25519(b"\x01" + bytes(31), enc[hpke.MLKEM_CT :])
    try:
        return hpke.open(ident.kem, ident.sk, enc + s.body, PQ_LABEL, impl=ident.impl)
    except InvalidTag:
        return None


def _kind(r):
    if isinstance(r, (X25519Recipient, ScryptRecipient)):
        return r.kind
    if isinstance(r, Recipient):
        if r.kem == hpke.KEM_MLKEM768_X25519:
            return "pq"
        raise ValueError(
            "an ML-KEM-768 key alone has no age stanza (age's post-quantum recipients are "
            "ML-KEM-768+X25519: nuri kem keygen --kem mlkem768-x25519 or --format age)"
        )
    raise TypeError(f"not an age recipient: {type(r).__name__}")


# ---- the header ----


class Stanza:
    """A recipient stanza: its type, its arguments (str) and its body (bytes)."""

    __slots__ = ("type", "args", "body")

    def __init__(self, type, args, body):  # noqa: A002 (the specification's word)
        self.type, self.args, self.body = type, list(args), bytes(body)

    def to_bytes(self) -> bytes:
        b = b64encode(self.body)
        lines = [b[i : i + 64] for i in range(0, len(b), 64)]
        if len(b) % 64 == 0:
            lines.append(b"")  # a body always ends with a short line, possibly empty
        return ("-> " + " ".join([self.type] + self.args) + "\n").encode() + b"\n".join(lines) + b"\n"


def _arg(s, i, n):
    return b64decode(s.args[i].encode(), f"{s.type} stanza argument")[:n]


_DIGITS = re.compile(r"[1-9][0-9]*")


def _check_stanza(s):
    """The form of the stanzas nuri knows (arguments, their encodings and lengths, the body length),
    whatever identities are held: AgeHeaderError when malformed. Other types pass (skipped later)."""
    want = {"X25519": (1, 32), "mlkem768x25519": (1, hpke.XWING_CT), "scrypt": (2, 16)}.get(s.type)
    if want is None:
        return
    nargs, first = want
    if len(s.args) != nargs:
        raise AgeHeaderError(f"{s.type} stanza with {len(s.args)} arguments (expected {nargs})")
    if len(b64decode(s.args[0].encode(), f"{s.type} stanza argument")) != first:
        raise AgeHeaderError(f"{s.type} stanza: its first argument is not {first} bytes")
    if s.type == "scrypt" and (not _DIGITS.fullmatch(s.args[1]) or len(s.args[1]) > 2):
        raise AgeHeaderError(f"scrypt stanza: work factor {s.args[1][:20]!r} is not 1 to 99 in decimal")
    if len(s.body) != FILE_KEY_LEN + TAG_LEN:
        raise AgeHeaderError(f"{s.type} stanza: the wrapped file key is {len(s.body)} bytes (expected 32)")


class AgeHeader:
    """A parsed or new header: stanzas, MAC and ``body`` (every byte up to and including '---')."""

    def __init__(self, stanzas, mac=b"", body=None):
        self.stanzas, self.mac = list(stanzas), mac
        self.body = body if body is not None else INTRO + b"".join(s.to_bytes() for s in self.stanzas) + b"---"

    def to_bytes(self) -> bytes:
        return self.body + b" " + b64encode(self.mac) + b"\n"

    def check(self):
        """The rules every reader applies before unwrapping: known stanzas well formed, scrypt alone."""
        types = [s.type for s in self.stanzas]
        if "scrypt" in types and len(types) > 1:
            raise AgeHeaderError("an scrypt (passphrase) stanza must be the only stanza of the header")
        for s in self.stanzas:
            _check_stanza(s)


def header_mac(file_key: bytes, body: bytes) -> bytes:
    """HMAC-SHA-256 under HKDF(file key, "", "header") of the header bytes up to and including '---'."""
    return hmac.new(hkdf_sha256(file_key, b"", b"header", 32), body, hashlib.sha256).digest()


def _valid_arg(a: bytes) -> bool:
    return bool(a) and all(33 <= c <= 126 for c in a)


def read_header(fin) -> AgeHeader:
    """Reads an age header from fin (a binary reader with readline, positioned at its first byte)
    and leaves fin at the payload nonce. AgeHeaderError for anything but a well-formed header."""
    budget = [MAX_HEADER]
    parts = []

    def line():
        b = fin.readline(budget[0] + 1)
        budget[0] -= len(b)
        if budget[0] < 0:
            raise AgeHeaderError("header larger than 2 MiB")
        if not b.endswith(b"\n"):
            raise AgeHeaderError("file is empty" if not parts and not b else "truncated header")
        parts.append(b)
        return b

    if line() != INTRO:
        raise AgeHeaderError("not an age-encryption.org/v1 file (first line)")
    stanzas = []
    while True:
        b = line()
        if b.startswith(b"---"):
            f = b[:-1].split(b" ")
            if f[0] != b"---" or len(f) != 2:
                raise AgeHeaderError("malformed closing line (expected '--- MAC')")
            mac = b64decode(f[1], "header MAC")
            if len(mac) != 32:
                raise AgeHeaderError("malformed header MAC")
            body = b"".join(parts)[: -(len(b) - 3)]
            return AgeHeader(stanzas, mac, body)
        if len(stanzas) == MAX_STANZAS:
            raise AgeHeaderError(f"more than {MAX_STANZAS} stanzas")
        f = b[:-1].split(b" ")
        if f[0] != b"->" or len(f) < 2 or len(f) > MAX_ARGS + 2 or not all(_valid_arg(a) for a in f[1:]):
            raise AgeHeaderError(f"malformed stanza line {b[:40]!r}")
        body = []
        while True:
            b = line()
            if len(b) > 65:
                raise AgeHeaderError("stanza body line longer than 64 columns")
            try:
                chunk = b64decode(b[:-1], "stanza body")
            except AgeHeaderError:
                raise AgeHeaderError("malformed stanza body line (a stanza ends with a short line)") from None
            body.append(chunk)
            if len(chunk) < BYTES_PER_LINE:
                break
        stanzas.append(Stanza(f[1].decode(), [a.decode() for a in f[2:]], b"".join(body)))


def new_header(recipients, allow_mixed=False, file_key=None):
    """(file key, header with MAC) for age recipients: X-Wing Recipient objects, X25519Recipient,
    or one ScryptRecipient alone. Post-quantum and X25519 recipients together are refused unless
    ``allow_mixed`` (the file would be only as strong as X25519 against a quantum computer)."""
    recipients = list(recipients)
    if not 1 <= len(recipients) <= MAX_STANZAS:
        raise ValueError(f"1 to {MAX_STANZAS} recipients, got {len(recipients)}")
    kinds = {_kind(r) for r in recipients}
    if "scrypt" in kinds and len(recipients) > 1:
        raise ValueError("a passphrase must be the only recipient of an age file (age's scrypt rule)")
    if kinds == {"pq", "classic"} and not allow_mixed:
        raise ValueError(
            "post-quantum (age1pq1) and classic X25519 (age1) recipients together would leave the file "
            "open to a quantum computer; give only one kind (or allow it explicitly)"
        )
    file_key = file_key or os.urandom(FILE_KEY_LEN)
    stanzas = [_pq_stanza(r, file_key) if isinstance(r, Recipient) else r.stanza(file_key) for r in recipients]
    h = AgeHeader(stanzas)
    h.mac = header_mac(file_key, h.body)
    return file_key, h


def file_key(header: AgeHeader, identities) -> bytes:
    """The file key for the first identity that opens a stanza, after checking the header MAC.
    Identities: X-Wing Identity objects (ML-KEM-768 ones open nothing in age files), X25519Identity,
    ScryptIdentity. AgeHeaderError for a malformed stanza, NotRecipientError when nothing opens,
    InvalidTag when the header MAC does not match."""
    header.check()
    ids = list(identities)
    scrypt = any(s.type == "scrypt" for s in header.stanzas)
    has_pw = any(isinstance(i, ScryptIdentity) for i in ids)
    if scrypt and not has_pw:
        raise NotRecipientError("the file is passphrase-encrypted: give the passphrase")
    if not scrypt and has_pw and all(isinstance(i, ScryptIdentity) for i in ids):
        raise NotRecipientError("the file is not passphrase-encrypted: give an identity")
    for ident in ids:
        if isinstance(ident, Identity):
            if ident.kem != hpke.KEM_MLKEM768_X25519:
                continue
            stype, unwrap = "mlkem768x25519", lambda s, i=ident: _pq_unwrap(i, s)
        else:
            stype, unwrap = ident.stanza_type, ident.unwrap
        for s in header.stanzas:
            if s.type != stype:
                continue
            key = unwrap(s)
            if key is None:
                continue
            if not hmac.compare_digest(header_mac(key, header.body), header.mac):
                raise InvalidTag("header MAC mismatch: the header was modified")
            return key
    if scrypt:
        raise NotRecipientError("incorrect passphrase")
    types = ", ".join(sorted({s.type for s in header.stanzas}))
    raise NotRecipientError(f"no identity matches a recipient of the file ({len(header.stanzas)} stanza(s): {types})")


# ---- ASCII armor ----


def _np():
    import numpy

    return numpy


class ArmorWriter:
    """Calls ``write`` with the armored form of what it is given: the BEGIN line, base64 with padding
    in 64-column lines, the END line (on close())."""

    def __init__(self, write):
        self._w = write
        self._pend = bytearray()
        write(ARMOR_BEGIN + b"\n")

    def _lines(self, data):
        np = _np()
        s = binascii.b2a_base64(data, newline=False)
        k = len(s) // 64
        out = np.empty((k, 65), np.uint8)
        out[:, :64] = np.frombuffer(s, np.uint8, k * 64).reshape(k, 64)
        out[:, 64] = 10
        return out.tobytes()

    def __call__(self, data):
        self._pend += data
        n = len(self._pend) // BYTES_PER_LINE * BYTES_PER_LINE
        if n:
            self._w(self._lines(bytes(self._pend[:n])))
            del self._pend[:n]

    def close(self):
        tail = binascii.b2a_base64(bytes(self._pend), newline=False)
        self._w((tail + b"\n" if tail else b"") + ARMOR_END + b"\n")
        self._pend.clear()


class ArmorReader:
    """A binary reader of the bytes inside an age ASCII armor, with age's rules: up to 1,024 blank
    bytes around it, the BEGIN and END lines exact (LF or CRLF line ends), full lines of exactly 64
    columns, canonical padded base64, a short line only as the last. AgeArmorError otherwise (raised
    by the read that reaches the fault)."""

    _BLOCK = 65 * 16384  # about 1 MiB of text per read

    def __init__(self, raw):
        self._raw = raw
        self._text = bytearray()
        self._eof = False  # raw exhausted
        self._out = bytearray()  # decoded, not yet returned
        self._state = "begin"  # begin -> body -> end (footer seen) -> done
        self._last_short = False
        self._slow = 0  # lines left for the careful path before the fast one is tried again

    # raw text handling

    def _more_text(self):
        if self._eof:
            return False
        b = self._raw.read(self._BLOCK)
        if not b:
            self._eof = True
            return False
        self._text += b
        return True

    def _line(self):
        """The next text line without its LF (and one CR before it), or None at the end of input."""
        while True:
            i = self._text.find(b"\n")
            if i >= 0:
                line = bytes(self._text[:i])
                del self._text[: i + 1]
                return line[:-1] if line.endswith(b"\r") else line
            if not self._more_text():
                if not self._text:
                    return None
                line = bytes(self._text)
                self._text.clear()
                return line[:-1] if line.endswith(b"\r") else line

    def _fail(self, why):
        self._state = "done"
        raise AgeArmorError(f"invalid armor: {why}")

    def _begin(self):
        blank = 0
        while True:
            line = self._line()
            if line is None:
                self._fail("no BEGIN line")
            if not line.strip(_WS):
                blank += len(line) + 1
                if blank > MAX_WHITESPACE:
                    self._fail("too much leading whitespace")
                continue
            if line != ARMOR_BEGIN:
                self._fail(f"invalid first line {line[:40]!r}")
            self._state = "body"
            return

    def _trailing(self):
        while len(self._text) < MAX_WHITESPACE and self._more_text():
            pass
        tail = bytes(self._text[:MAX_WHITESPACE])
        if tail.strip(_WS):
            self._fail("data after the END line")
        if len(tail) == MAX_WHITESPACE:
            self._fail("too much trailing whitespace")
        self._state = "done"

    def _slow_line(self):
        """One line, every rule checked: decoded bytes appended to _out."""
        line = self._line()
        if line is None:
            self._fail("no END line")
        if self._last_short or line == ARMOR_END:
            if line != ARMOR_END:
                self._fail(f"expected the END line after a short line, got {line[:40]!r}")
            self._state = "end"
            self._trailing()
            return
        if not line:
            self._fail("empty line")
        if len(line) > 64:
            self._fail("line longer than 64 columns")
        if b"\r" in line or b"\n" in line:
            self._fail("stray CR")
        try:
            data = binascii.a2b_base64(line, strict_mode=True)
        except binascii.Error as e:
            self._fail(f"bad base64 ({e})")
        if binascii.b2a_base64(data, newline=False) != line:
            self._fail("base64 is not canonical")
        self._out += data
        if len(data) < BYTES_PER_LINE:
            self._last_short = True

    def _fast_lines(self):
        """As many full 64-column LF lines as the buffered text starts with, decoded at once. False
        (and a number of lines for the careful path) when it cannot take any."""
        k = len(self._text) // 65
        if k < 2:
            return False
        np = _np()
        rows = np.frombuffer(self._text, np.uint8, k * 65).reshape(k, 65)
        ok = rows[:, 64] == 10
        j = k if ok.all() else int(np.argmin(ok))
        body = rows[:j, :64].tobytes()
        del rows, ok  # views of _text, which is resized below
        p = body.find(b"=")
        if p >= 0:  # a padded line is the last one: the careful path takes it
            j = p // 64
            body = body[: j * 64]
        try:
            if j == 0:
                raise binascii.Error
            self._out += binascii.a2b_base64(body, strict_mode=True)
        except binascii.Error:
            self._slow = max(j, 64)  # the careful path takes (and names the fault of) these lines
            return False
        del self._text[: j * 65]
        return True

    def _fill(self, want):
        """Decodes until _out holds want bytes or the armor ended."""
        if self._state == "begin":
            self._begin()
        while len(self._out) < want and self._state == "body":
            if len(self._text) < 2 * 65 and not self._eof:
                self._more_text()
            if self._slow == 0 and not self._last_short and self._fast_lines():
                continue
            self._slow = max(0, self._slow - 1)
            self._slow_line()

    # the reader interface

    def read(self, n=-1):
        if n is None or n < 0:
            self._fill(float("inf"))
            n = len(self._out)
        else:
            self._fill(n)
        out = bytes(self._out[:n])
        del self._out[:n]
        return out

    def readinto(self, b):
        with memoryview(b) as mv:
            self._fill(len(mv))
            n = min(len(mv), len(self._out))
            mv[:n] = self._out[:n]
        del self._out[:n]
        return n

    def readline(self, limit=-1):
        lim = -1 if limit is None else limit
        while True:
            i = self._out.find(b"\n")
            if i >= 0:
                end = i + 1
                break
            if 0 <= lim <= len(self._out) or self._state not in ("begin", "body"):
                end = len(self._out)
                break
            self._fill(len(self._out) + BYTES_PER_LINE)
        if lim >= 0:
            end = min(end, lim)
        out = bytes(self._out[:end])
        del self._out[:end]
        return out


class _Prefixed:
    """A reader that returns ``prefix`` first, then what ``raw`` holds (bytes a caller read to
    recognise the format). tell(), fileno() and seek() refer to the underlying file."""

    def __init__(self, prefix, raw):
        self._pre, self._raw = bytearray(prefix), raw

    def read(self, n=-1):
        if not self._pre:
            return self._raw.read(n)
        if n is None or n < 0:
            out = bytes(self._pre) + self._raw.read()
            self._pre.clear()
            return out
        out = bytes(self._pre[:n])
        del self._pre[:n]
        if len(out) < n:
            out += self._raw.read(n - len(out))
        return out

    def readinto(self, b):
        if not self._pre:
            return self._raw.readinto(b)
        with memoryview(b) as mv:
            n = min(len(mv), len(self._pre))
            mv[:n] = self._pre[:n]
        del self._pre[:n]
        return n

    def readline(self, limit=-1):
        if not self._pre:
            return self._raw.readline(limit)
        lim = -1 if limit is None else limit
        i = self._pre.find(b"\n")
        if i >= 0:
            return self.read(i + 1 if lim < 0 else min(i + 1, lim))
        if 0 <= lim <= len(self._pre):
            return self.read(lim)
        head = self.read(len(self._pre))
        return head + self._raw.readline(-1 if lim < 0 else lim - len(head))

    def tell(self):
        return self._raw.tell() - len(self._pre)

    def seek(self, pos, whence=0):
        self._pre.clear()
        return self._raw.seek(pos, whence)

    def fileno(self):
        return self._raw.fileno()


def looks_like_age(start: bytes):
    """'binary', 'armored' or None for the first bytes of a file (age's own test: the intro line, or
    the BEGIN line after blank space)."""
    if not start:
        return None
    n = min(len(start), len(INTRO))
    if start[:n] == INTRO[:n]:
        return "binary"
    s = start.lstrip(_WS)
    if s[: len(ARMOR_BEGIN)] == ARMOR_BEGIN[: len(s)]:
        return "armored"
    return None


def source(fin, start: bytes = b""):
    """The reader of an age file's binary form: fin (after ``start``, bytes already read from it) as
    it is, or through ArmorReader when it is armored."""
    raw = _Prefixed(start, fin) if start else fin
    if looks_like_age(start) == "armored":
        return ArmorReader(raw)
    return raw


# ---- the payload ----


class AgePayload(Payload):
    """age's STREAM: ChaCha20-Poly1305 (pyca/cryptography), 64 KiB chunks, nonce = BE88(i) || last
    flag; the final chunk may be empty only when it is the only one. The chunk pipeline (groups,
    reused buffers, wiping) is Payload's; one core, as ChaCha20-Poly1305 here holds the GIL, and
    groups of 4 chunks (256 KiB), not Payload's 4 MiB: buffers that stay in the core's cache between
    the read, the cipher and the write (on one core, 4 MiB groups spent several times the kernel time
    of 256 KiB ones writing and reading 1 GiB: make bench-age)."""

    GROUP_CHUNKS = 4

    def __init__(self, key: bytes):
        self.aead = _chacha(key)
        self.prefix, self.ad, self.chunk_size, self.workers = b"", b"", CHUNK, 1
        self.group = self.GROUP_CHUNKS

    def _seal_share(self, src, dst, index, spans, last, final):
        enc, unit = self.aead.encrypt_into, CHUNK + TAG_LEN
        pack = struct.Struct(">3xQB").pack
        with memoryview(src) as s, memoryview(dst) as d:
            for o, n in spans:
                q = (o // CHUNK) * unit
                enc(pack(index + o // CHUNK, final and o == last), s[o : o + n], None, d[q : q + n + TAG_LEN])
        return None

    def _open_share(self, src, dst, index, spans, last, final):
        from cryptography.exceptions import InvalidTag as PycaInvalidTag

        dec, unit = self.aead.decrypt_into, CHUNK + TAG_LEN
        pack = struct.Struct(">3xQB").pack
        with memoryview(src) as s, memoryview(dst) as d:
            for o, n in spans:
                pos = o // unit
                is_last = final and o == last
                if n < TAG_LEN or (is_last and n == TAG_LEN and index + pos > 0):
                    return pos  # cut inside a tag, or an empty final chunk after others
                q = pos * CHUNK
                try:
                    dec(pack(index + pos, is_last), s[o : o + n], None, d[q : q + n - TAG_LEN])
                except PycaInvalidTag:
                    return pos
        return None


def _payload(file_key, nonce):
    return AgePayload(hkdf_sha256(file_key, nonce, b"payload", 32))


def seal_payload(fin, write, file_key, progress=None):
    """Writes the nonce and the payload of fin under file_key; returns the plaintext length."""
    nonce = os.urandom(NONCE_LEN)
    write(nonce)
    return _payload(file_key, nonce).seal(fin, write, progress)


def open_payload(fin, write, file_key, progress=None):
    """Reads the nonce and the payload from fin (after the header) and calls write with each group of
    chunks once they have authenticated (a view, valid during the call). InvalidTag on a chunk that
    fails, on truncation and on data after the final chunk; AgeHeaderError when the nonce is cut."""
    from .._util import read_full

    nonce = read_full(fin, NONCE_LEN)
    if len(nonce) < NONCE_LEN:
        raise AgeHeaderError("the file ends before the payload nonce")
    return _payload(file_key, nonce).open(fin, write, progress)


# ---- whole files ----


def seal_stream(fin, write, recipients, armor=False, allow_mixed=False, progress=None):
    """Writes an age file of fin's bytes to the recipients (new_header) through ``write`` (armored
    when asked). Returns the plaintext length."""
    fk, h = new_header(recipients, allow_mixed)
    out = ArmorWriter(write) if armor else write
    out(h.to_bytes())
    n = seal_payload(fin, out, fk, progress)
    if armor:
        out.close()
    return n


def open_stream(fin, write, identities, progress=None):
    """Opens an age file (binary or armored) from fin with the identities (see file_key) and calls
    write with its plaintext as it authenticates; the caller discards what it got if anything is
    raised. Returns the plaintext length."""
    from .._util import read_full

    start = read_full(fin, len(INTRO))
    src = source(fin, start)
    h = read_header(src)
    return open_payload(src, write, file_key(h, identities), progress)


def seal_bytes(data: bytes, recipients, armor=False, allow_mixed=False) -> bytes:
    out = io.BytesIO()
    seal_stream(io.BytesIO(data), out.write, recipients, armor, allow_mixed)
    return out.getvalue()


def open_bytes(blob: bytes, identities) -> bytes:
    out = io.BytesIO()
    open_stream(io.BytesIO(blob), out.write, identities)
    return out.getvalue()
