"""nuri video seal / nuri video open: H.264 (or MPEG-4 Part 2) cut at keyframes into MPEG-TS segments
by ffmpeg, each segment sealed to public-key recipients (nuri-seal v2, see docs/seal-format.md)."""

import os
import sys

from . import _common as C
from .main import UsageError, VerifyError

_DESC = (
    "Sealed video streams. 'video seal' cuts the input at keyframes into MPEG-TS segments with ffmpeg "
    "(streams copied, no re-encoding), seals each segment as soon as ffmpeg completes it, with its index "
    "and the stream's header MAC bound in, and writes DIR/stream.nseal (the recipients), "
    "DIR/segNNNNN.ts.nseal and DIR/playlist.m3u8. 'video open' restores the MPEG-TS stream; a missing, "
    "reordered, swapped or tampered segment is reported by its index with exit status 1."
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
        help="MPEG-TS output, '-' for stdout. To a file, nothing is written unless every segment "
        "authenticates; with '-' or --follow each segment is written once it authenticates "
        "(so playback can start at once) and a bad segment ends the output with exit 1",
    )
    o.add_argument(
        "--follow", action="store_true", help="wait for segments still being sealed, until the playlist ends"
    )
    o.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="S",
        help="with --follow: give up when no segment arrives for S seconds",
    )
    o.add_argument("--force", action="store_true", help="overwrite an existing OUT")
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


def run_seal(args):
    from .cmd_seal import _v2_recipients

    seal, video = _seal_mod()
    recips = _v2_recipients(args.recipient)
    out = args.output
    if os.path.exists(out) and (not os.path.isdir(out) or os.listdir(out)):
        raise UsageError(f"{out} exists and is not an empty directory")
    if args.segment_time <= 0:
        raise UsageError("--segment-time must be positive")
    if args.input != "-" and not os.path.isfile(args.input):
        raise UsageError(f"cannot read {args.input}: no such file")
    created = not os.path.exists(out)
    try:
        n = video.seal_video(
            args.input, out, recips, args.segment_time, stdin=sys.stdin.buffer if args.input == "-" else None
        )
    except RuntimeError as e:
        if created:
            import shutil

            shutil.rmtree(out, ignore_errors=True)
        raise VerifyError(str(e)) from None
    print(f"{n} segments sealed into {out}", file=sys.stderr)
    return 0


def run_open(args):
    from .. import InvalidTag
    from .cmd_seal import _v2_identities

    seal, video = _seal_mod()
    ids = _v2_identities(args.identity)
    if not os.path.isfile(os.path.join(args.input, video.HEADER_NAME)):
        raise UsageError(f"{args.input} is not a sealed video stream (no {video.HEADER_NAME})")
    C.check_output_path(args.output, args.force)
    ident = None
    with open(os.path.join(args.input, video.HEADER_NAME), "rb") as f:
        try:
            header = seal.read_header(f)
        except seal.SealFormatError as e:
            raise VerifyError(f"{args.input}: {e}") from None
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
    progressive = args.output == "-" or args.follow
    try:
        if progressive:
            if args.output == "-":
                out = sys.stdout.buffer
                n = video.open_video(
                    args.input, ident, lambda b: (out.write(b), out.flush()), follow=args.follow, timeout=args.timeout
                )
            else:
                with open(args.output, "wb" if args.force else "xb") as out:
                    n = video.open_video(
                        args.input,
                        ident,
                        lambda b: (out.write(b), out.flush()),
                        follow=args.follow,
                        timeout=args.timeout,
                    )
        else:
            with C.AtomicOutput(args.output, args.force) as out:
                n = video.open_video(args.input, ident, out.write)
                out.commit()
    except video.SegmentError as e:
        raise VerifyError(f"{args.input}: {e}" + ("" if progressive else "; no output written")) from None
    except seal.SealFormatError as e:
        raise VerifyError(f"{args.input}: {e}") from None
    print(f"{n} segments opened", file=sys.stderr)
    return 0
