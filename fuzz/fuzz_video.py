"""Coverage-guided harness (atheris, libFuzzer's engine for Python) for the sealed-video reader and the
MPEG-TS cutter of 'nuri video seal', with property checks:

- reader (byte 0 even): the input is a stream directory, ``[file (1) | length (BE16) | bytes]...``
  with file = byte % 5 naming playlist.m3u8, stream.nseal, seg00000..seg00002.ts.nseal (a file the
  input does not give is absent; the last one given wins). ``open_video`` (bit 1 of byte 0: with
  ``follow``, timeout 0) either returns, and then the stream is the genuine one, complete: 3 segments,
  every byte of the genuine plaintext; or raises one of its documented errors after releasing whole
  genuine segments from the first on, nothing else. Any other exception is a finding.
- cutter (byte 0 odd): byte 1 picks the segment time, byte 2 the size of the pieces fed, the rest is
  the stream: the segments emitted are whole packets and concatenate to the input, or MpegTsError is
  raised.

The genuine stream is sealed with fixed keys, salt and KEM randomness (the same on every run, so a
saved corpus stays valid): ``python fuzz/fuzz_video.py --seeds DIR`` writes it (and an ffmpeg stream for
the cutter, where ffmpeg is installed) as seeds. Run: ``python fuzz/fuzz_video.py [libFuzzer flags]
CORPUS SEEDS`` (make fuzz / make check-fuzz)."""

import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile

import atheris

# instrumented for coverage when fuzzing (writing seeds needs none)
_INSTRUMENT = sys.argv[1:2] != ["--seeds"]
with atheris.instrument_imports(include=["nuri.seal"]) if _INSTRUMENT else contextlib.nullcontext():
    from nuri import mlkem
    from nuri.exceptions import InvalidTag
    from nuri.seal import NotRecipientError, SealFormatError, new_v2_header, v2_payload
    from nuri.seal import video as V
    from nuri.seal.mpegts import PACKET, MpegTsCutter, MpegTsError

SEED = bytes(range(64))  # the identity: an ML-KEM-768 seed d || z
PARTS = [bytes((i * 13 + k) % 251 for i in range(n)) for k, n in enumerate((1500, 2100, 700))]
NAMES = [V.PLAYLIST, V.HEADER_NAME] + [V.segment_name(i) for i in range(len(PARTS))]
EXPECTED = (V.SegmentError, SealFormatError, InvalidTag, NotRecipientError)


def genuine():
    """{file name: bytes} of the genuine stream."""
    ek = mlkem.keygen(768, SEED)[0]
    fk, h = new_v2_header([ek], 10, kind=1, file_key=bytes(range(32)), salt=bytes(32), rands=[bytes(range(32))])
    files = {V.HEADER_NAME: h.to_bytes()}
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:1", "#EXT-X-MEDIA-SEQUENCE:0"]
    for i, pt in enumerate(PARTS):
        out = io.BytesIO()
        v2_payload(fk, h, 1, segment=(i, i == len(PARTS) - 1)).seal(io.BytesIO(pt), out.write)
        files[V.segment_name(i)] = out.getvalue()
        lines += ["#EXTINF:1.000,", V.segment_name(i)]
    files[V.PLAYLIST] = ("\n".join(lines + [V.ENDLIST]) + "\n").encode()
    return files


def encode(files, follow=False):
    out = bytearray([2 if follow else 0])
    for name, data in files.items():
        out += bytes([NAMES.index(name)]) + len(data).to_bytes(2, "big") + data
    return bytes(out)


def decode(data):
    files, pos = {}, 1
    while pos + 3 <= len(data):
        name, n = NAMES[data[pos] % len(NAMES)], int.from_bytes(data[pos + 1 : pos + 3], "big")
        files[name] = data[pos + 3 : pos + 3 + n]
        pos += 3 + n
    return files


WORK = None  # the stream directory, in memory (/dev/shm) where there is one


def check_reader(data):
    files = decode(data)
    for name in NAMES:
        p = os.path.join(WORK, name)
        if name in files:
            with open(p, "wb") as f:
                f.write(files[name])
        elif os.path.exists(p):
            os.unlink(p)
    got = []
    try:
        n = V.open_video(WORK, SEED, lambda b: got.append(bytes(b)), follow=bool(data[0] & 2), poll=0, timeout=0)
    except EXPECTED:
        assert got == PARTS[: len(got)], "released something that is not a genuine segment in its place"
        return
    except FileNotFoundError:  # only the header's absence is an OSError; a missing segment is a SegmentError
        assert V.HEADER_NAME not in files and not got
        return
    assert n == len(PARTS) and got == PARTS, f"accepted a stream that is not the genuine one ({n} segments)"


def check_cutter(data):
    seconds = (0.001, 0.5, 1.0, 2.0, 1e6)[data[1] % 5] if len(data) > 1 else 1.0
    step = 1 + (data[2] if len(data) > 2 else 0) * 37
    ts = data[3:]
    c, segs = MpegTsCutter(seconds, max_segment=1 << 20), []

    def keep(view, s):
        assert s >= 0, f"negative duration {s}"
        segs.append(bytes(view))

    try:
        for i in range(0, len(ts), step):
            c.feed(ts[i : i + step], keep)
        c.finish(keep)
    except MpegTsError:
        return
    finally:
        c.close()
    assert b"".join(segs) == ts, "the segments do not concatenate to the input"
    assert all(s and len(s) % PACKET == 0 for s in segs), "a segment that is not whole packets"


def TestOneInput(data):
    if not data:
        return
    if data[0] & 1:
        check_cutter(data)
    else:
        check_reader(data)


def write_seeds(d):
    os.makedirs(d, exist_ok=True)
    files = genuine()
    seeds = {"genuine": encode(files), "genuine-follow": encode(files, follow=True)}
    cut = dict(files)
    del cut[V.segment_name(2)]
    cut[V.PLAYLIST] = files[V.PLAYLIST].replace(b"#EXTINF:1.000,\nseg00002.ts.nseal\n", b"")
    seeds["cut-short"] = encode(cut)
    seeds["emptied"] = encode({V.HEADER_NAME: files[V.HEADER_NAME], V.PLAYLIST: b"#EXTM3U\n#EXT-X-ENDLIST\n"})
    if shutil.which("ffmpeg"):
        ts = subprocess.run(
            ["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10:d=2"]
            + ["-c:v", "libx264", "-preset", "ultrafast", "-g", "5", "-f", "mpegts", "pipe:1"],
            capture_output=True,
            check=True,
        ).stdout
        seeds["ffmpeg-ts"] = bytes([1, 1, 50]) + ts
    for name, data in seeds.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--seeds":
        write_seeds(sys.argv[2])
        return
    global WORK
    # libFuzzer ends the process without Python's exit handlers: one directory per process, named by
    # its pid, and those of processes that are gone removed at the next start (-jobs runs several)
    base = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()
    for old in os.listdir(base):
        if old.startswith("nuri-fuzz-video-") and not os.path.exists(f"/proc/{old.rsplit('-', 1)[1]}"):
            shutil.rmtree(os.path.join(base, old), ignore_errors=True)
    WORK = os.path.join(base, f"nuri-fuzz-video-{os.getpid()}")
    os.makedirs(WORK, exist_ok=True)
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
