"""nuri video seal / nuri video open: H.264 (or MPEG-4 Part 2) from ffmpeg, cut at keyframes into MPEG-TS
segments in memory, each segment sealed to public-key recipients (nuri-seal v2, see docs/seal-format.md)."""

import math
import os
import shutil
import sys

from . import _common as C
from .main import UsageError, VerifyError

_DESC = (
    "Sealed video streams. 'video seal' has ffmpeg copy the input into MPEG-TS through a pipe (streams "
    "copied, no re-encoding), cuts it at keyframes in memory and seals each segment, with its index and "
    "the stream's header MAC bound in, as soon as the next one begins; the last one is sealed as final. "
    "It writes DIR/stream.nseal (the recipients), DIR/segNNNNN.ts.nseal and DIR/playlist.m3u8; plaintext "
    "never reaches a file, and ffmpeg dies with nuri. 'video open' restores the MPEG-TS stream; a missing, "
    "reordered, swapped or tampered segment, or a stream without its final segment (cut short, emptied, "
    "still being sealed), is reported by its index with exit status 1."
)


def register(sub):
    p = sub.add_parser(
        "video", help="seal H.264 video as segments for public-key recipients, and open it", description=_DESC
    )
    ops = p.add_subparsers(dest="op", metavar="OP", parser_class=type(p))
    ops.required = True
    s = ops.add_parser(
        "seal",
        help="cut a video into segments and seal each",
        description=_DESC,
        epilog="example: nuri video seal -r alice.pk -i clip.mp4 -o clip.sealed/",
    )
    s.add_argument(
        "-r",
        "--recipient",
        action="append",
        required=True,
        metavar="PK",
        help="public key from 'nuri kem keygen' (repeat for several recipients)",
    )
    s.add_argument(
        "-i",
        "--input",
        required=True,
        metavar="IN",
        help="video file ffmpeg can read (H.264 or MPEG-4 Part 2), '-' for a pipe (e.g. -f mpegts)",
    )
    s.add_argument("-o", "--output", required=True, metavar="DIR", help="new (or empty) directory for the stream")
    s.add_argument(
        "--segment-time",
        type=float,
        default=2.0,
        metavar="S",
        help="target segment length in seconds (cut at the next keyframe; default 2)",
    )
    C.add_kem_impl_arg(s, " (ML-KEM-768 and the ML-KEM half of ML-KEM-768+X25519)")
    s.set_defaults(func=run_seal)
    o = ops.add_parser(
        "open",
        help="verify and decrypt a sealed video stream to MPEG-TS",
        description=_DESC,
        epilog="example: nuri video open --identity alice.sk -i clip.sealed/ -o clip.ts",
    )
    o.add_argument(
        "--identity",
        action="append",
        required=True,
        metavar="SK",
        help="your secret key from 'nuri kem keygen' (repeat to try several)",
    )
    o.add_argument("-i", "--input", required=True, metavar="DIR", help="the stream directory")
    o.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="MPEG-TS output, '-' for stdout. Nothing is written unless every segment authenticates, "
        "the final one included: a file gets its name only then, and stdout, a FIFO or a device is written "
        "after a first pass has authenticated the whole stream. With --follow each segment is written once "
        "it authenticates (playback starts at once); a bad segment then ends the output with exit 1 and a "
        "message saying how much was written",
    )
    o.add_argument(
        "--follow",
        action="store_true",
        help="wait for segments still being sealed; ends at the segment that authenticates as the final one",
    )
    o.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="S",
        help="with --follow: give up (exit 1, the stream is still open) when no segment arrives for S seconds",
    )
    o.add_argument("--force", action="store_true", help="overwrite an existing OUT")
    C.add_kem_impl_arg(o, " (ML-KEM-768 and the ML-KEM half of ML-KEM-768+X25519)")
    o.set_defaults(func=run_open)


def _seal_mod():
    try:
        from .. import (
            aead,  # noqa: F401
            seal,
        )
        from ..seal import video
    except ImportError as e:
        raise UsageError(f"sealing is not available in this build ({e})") from None
    return seal, video


def _positive_seconds(value, opt, zero=False):
    if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
        raise UsageError(f"{opt} must be a {'non-negative' if zero else 'positive'} number of seconds, got {value:g}")


def run_seal(args):
    from .cmd_seal import v2_recipients

    seal, video = _seal_mod()
    recips = v2_recipients(args.recipient, C.kem_impl(args))
    out = args.output
    if os.path.exists(out) and (not os.path.isdir(out) or os.listdir(out)):
        raise UsageError(f"{out} exists and is not an empty directory")
    _positive_seconds(args.segment_time, "--segment-time")
    if shutil.which("ffmpeg") is None:
        raise UsageError("ffmpeg is not installed (apt-get install ffmpeg)")
    if args.input != "-":
        if not os.path.isfile(args.input):
            raise UsageError(f"cannot read {args.input}: no such file")
        try:
            with open(args.input, "rb"):
                pass
        except OSError as e:
            raise UsageError(f"cannot read {args.input}: {e.strerror or e}") from None
    created = not os.path.exists(out)
    try:
        n = video.seal_video(
            args.input, out, recips, args.segment_time, stdin=sys.stdin.buffer if args.input == "-" else None
        )
    except RuntimeError as e:
        if created:
            shutil.rmtree(out, ignore_errors=True)
        raise VerifyError(str(e)) from None
    except OSError as e:  # the output: a full disk, a path through a file, ...
        if created:
            shutil.rmtree(out, ignore_errors=True)
        raise UsageError(f"cannot write {e.filename or out}: {e.strerror or e}") from None
    print(f"{n} segments sealed into {out}", file=sys.stderr)
    return 0


class _Sent:
    """Counts what reached an output that is written in place (stdout, a FIFO, a device, a file with
    --follow), to say so when the stream fails later."""

    def __init__(self, where):
        self.where, self.segments, self.bytes = where, 0, 0

    def wrap(self, write, flush):
        def emit(b):
            write(b)
            flush()
            self.segments += 1
            self.bytes += len(b)

        return emit

    def note(self):
        if not self.segments:
            return "no output written"
        segs = "segment 0" if self.segments == 1 else f"segments 0-{self.segments - 1}"
        return f"{self.where} received {segs} ({self.bytes:,} bytes) before this: the output is incomplete"


def _follow_to_file(args, video, ident, kind, sent):
    """--follow into a regular file: created with the first segment that authenticates (a stream that
    fails before leaves no file), each segment appended once it authenticates."""
    f = None

    def fail(e):
        return UsageError(f"cannot write {args.output}: {e.strerror or e}")

    def write(b):
        nonlocal f
        try:
            if f is None:
                f = open(args.output, "xb" if kind == "new" else "wb")
            f.write(b)
        except OSError as e:
            raise fail(e) from None

    def flush():
        try:
            f.flush()
        except OSError as e:
            raise fail(e) from None

    try:
        return video.open_video(args.input, ident, sent.wrap(write, flush), follow=True, timeout=args.timeout)
    finally:
        if f is not None:
            try:
                f.close()
            except OSError:
                pass


def run_open(args):
    from .. import InvalidTag
    from .cmd_seal import v2_identities

    seal, video = _seal_mod()
    if args.timeout is not None:
        if not args.follow:
            raise UsageError("--timeout applies only with --follow")
        _positive_seconds(args.timeout, "--timeout", zero=True)
    ids = v2_identities(args.identity, C.kem_impl(args))
    if not os.path.isfile(os.path.join(args.input, video.HEADER_NAME)):
        raise UsageError(f"{args.input} is not a sealed video stream (no {video.HEADER_NAME})")
    kind = C.output_kind(args.output, args.force)
    ident = None
    try:
        with open(os.path.join(args.input, video.HEADER_NAME), "rb") as f:
            header = seal.read_header(f)
    except seal.SealFormatError as e:
        raise VerifyError(f"{args.input}: {e}") from None
    except OSError as e:
        raise UsageError(f"cannot read {e.filename or args.input}: {e.strerror or e}") from None
    if header.version != 2:
        raise VerifyError(f"{args.input}: {video.HEADER_NAME} is not a v2 header")
    for cand in ids:
        try:
            seal.v2_file_key(header, cand)
            ident = cand
            break
        except seal.NotRecipientError:
            continue
        except InvalidTag as e:
            raise VerifyError(f"{args.input}: {e}; no output written") from None
    if ident is None:
        raise VerifyError(
            f"{args.input}: not sealed to "
            + (args.identity[0] if len(ids) == 1 else "any of the given identities")
            + "; no output written"
        )
    sent = _Sent("stdout" if args.output == "-" else args.output)
    try:
        if args.follow and kind in ("new", "replace"):
            n = _follow_to_file(args, video, ident, kind, sent)
        else:
            with C.AtomicOutput(args.output, args.force) as out:
                if out.direct:  # stdout, a FIFO or a device: written in place, never renamed
                    if not args.follow:
                        video.verify_video(args.input, ident)  # nothing is released from a bad stream
                    n = video.open_video(
                        args.input, ident, sent.wrap(out.write, out.finish), follow=args.follow, timeout=args.timeout
                    )
                else:  # a temporary file, named OUT only once every segment authenticated
                    n = video.open_video(args.input, ident, out.write)
                out.commit()
    except (video.SegmentError, seal.SealFormatError, seal.NotRecipientError, InvalidTag) as e:
        raise VerifyError(f"{args.input}: {e}; {sent.note()}") from None
    except UsageError as e:
        raise UsageError(f"{e}; {sent.note()}" if sent.segments else str(e)) from None
    except OSError as e:
        if e.filename is None:  # not a file of the stream (stdout): main.py's handling
            raise
        raise UsageError(f"cannot read {e.filename}: {e.strerror or e}; {sent.note()}") from None
    print(f"{n} segments opened", file=sys.stderr)
    return 0
