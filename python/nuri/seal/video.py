"""Sealed video streams: H.264 (or MPEG-4 Part 2) cut at keyframes into MPEG-TS segments, each
segment sealed on its own under one file key wrapped once per recipient (docs/seal-format.md,
"Video streams").

A stream directory holds::

    stream.nseal          a v2 header of kind 1 (video): recipient stanzas and the header MAC
    seg00000.ts.nseal     segment 0: STREAM chunks under the key of segment 0
    seg00001.ts.nseal     ...
    playlist.m3u8         an HLS-style list of the segments with their durations, #EXT-X-ENDLIST at the end

Segment i is sealed under ``HKDF(file_key, salt, "nuri-seal/v2 segment" || BE64(i))`` with the header MAC
and a last-segment flag as associated data, so a segment opens only at its own index, in its own
stream, and the final segment is recognisable. The end of a stream is that final segment: a stream
is complete only once a segment authenticates as final, so cutting it short at any segment boundary,
down to no segment at all, is detected; a missing, reordered, swapped or tampered segment is
reported by its index.

Sealing: ffmpeg writes one MPEG-TS stream into a pipe; nuri cuts it at keyframes in memory
(mpegts.py) and seals each segment as soon as the next one begins, so a live input is sealed while it
runs and plaintext never reaches a file. ffmpeg runs in its own process group and is killed with
nuri (even by SIGKILL, through PR_SET_PDEATHSIG on Linux).

Opening: ``open_video`` releases each segment whole once it has authenticated; without ``follow`` it
authenticates the final segment before releasing the first. ``open_video(follow=True)`` releases
each segment as it arrives, while later ones are still being sealed, and ends only at the
authenticated final segment.
"""

import os
import shutil
import signal
import subprocess
import sys
import threading
import time

from ..exceptions import InvalidTag
from . import KIND_VIDEO, SealFormatError, new_v2_header, read_header, v2_file_key, v2_payload
from .mpegts import MpegTsCutter, MpegTsError, wipe

HEADER_NAME = "stream.nseal"
PLAYLIST = "playlist.m3u8"
ENDLIST = "#EXT-X-ENDLIST"
PLAYLIST_MAX = 64 << 20  # about a million segments; a larger playlist is refused before it is parsed
_FAILS = "fails to authenticate (tampered, truncated, swapped with another segment or from another stream)"


def segment_name(i):
    return f"seg{i:05d}.ts.nseal"


class SegmentError(Exception):
    """A segment is missing, out of place or fails to authenticate, or the stream has not ended (no
    segment authenticated as its final one); ``index`` names the segment."""

    def __init__(self, index, msg):
        super().__init__(f"segment {index}: {msg}")
        self.index = index


def _write_atomic(path, data: bytes):
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


class _View:
    """A binary reader over a bytes-like object, read with readinto (no copy beyond the caller's)."""

    def __init__(self, data):
        self.mv, self.pos = memoryview(data), 0

    def readinto(self, b):
        n = min(len(b), len(self.mv) - self.pos)
        b[:n] = self.mv[self.pos : self.pos + n]
        self.pos += n
        return n

    def read(self, n=-1):
        end = len(self.mv) if n is None or n < 0 else min(len(self.mv), self.pos + n)
        out = bytes(self.mv[self.pos : end])
        self.pos = end
        return out


class VideoSealer:
    """Seals segments one after the other into ``out_dir``; call ``add(reader, duration)`` for each
    segment except the last, ``add(reader, duration, last=True)`` for the last one. A stream whose
    last ``add`` did not say ``last=True`` never opens as complete."""

    def __init__(self, out_dir, recipients, chunk_log2=16, workers=None):
        os.makedirs(out_dir, exist_ok=True)
        self.dir, self.workers = out_dir, workers
        self.file_key, self.header = new_v2_header(recipients, chunk_log2, kind=KIND_VIDEO)
        _write_atomic(os.path.join(out_dir, HEADER_NAME), self.header.to_bytes())
        self.entries = []
        self._playlist(False)

    def add(self, reader, duration, last=False):
        """Seals one segment read from reader (a binary file, or bytes-like); returns its file name."""
        if isinstance(reader, (bytes, bytearray, memoryview)):
            reader = _View(reader)
        i = len(self.entries)
        name = segment_name(i)
        payload = v2_payload(self.file_key, self.header, self.workers, segment=(i, last))
        path = os.path.join(self.dir, name)
        with open(path + ".part", "wb") as f:
            payload.seal(reader, f.write)
        os.replace(path + ".part", path)
        self.entries.append((name, duration))
        self._playlist(last)
        return name

    def _playlist(self, ended):
        target = max([int(d + 0.999) for _, d in self.entries] or [1])
        lines = [
            "#EXTM3U",
            "#EXT-X-VERSION:3",
            f"#EXT-X-TARGETDURATION:{target}",
            "#EXT-X-MEDIA-SEQUENCE:0",
            f"#NURI-SEAL-HEADER:{HEADER_NAME}",
        ]
        for name, d in self.entries:
            lines += [f"#EXTINF:{d:.3f},", name]
        if ended:
            lines.append(ENDLIST)
        _write_atomic(os.path.join(self.dir, PLAYLIST), ("\n".join(lines) + "\n").encode())


# ---- sealing: ffmpeg -> pipe -> cut in memory -> sealed segments ----


def ffmpeg_mpegts_cmd(src):
    """ffmpeg copying the first video stream and any audio of src (a file, or '-' for a pipe) into one
    MPEG-TS stream on its stdout (no re-encoding), each frame flushed at once (live inputs)."""
    return [
        "ffmpeg",
        "-hide_banner",
        "-loglevel",
        "error",
        "-nostats",
        "-nostdin",
        "-i",
        "pipe:0" if src == "-" else src,
        "-map",
        "0:v:0",
        "-map",
        "0:a?",
        "-c",
        "copy",
        "-f",
        "mpegts",
        "-flush_packets",
        "1",
        "pipe:1",
    ]


def _die_with_parent():
    """A preexec_fn making the child get SIGKILL when this process dies (Linux PR_SET_PDEATHSIG), or
    None where there is none. The libc function is looked up here, before the fork."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    parent = os.getpid()
    pr_set_pdeathsig, sigkill = 1, int(signal.SIGKILL)

    def child():
        prctl(pr_set_pdeathsig, sigkill, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl: nobody would kill this child
            os._exit(1)

    return child


def _spawn(cmd, stdin):
    """Starts cmd in its own process group (a signal to nuri's group does not reach it; nuri stops it),
    dying with nuri; stdout and stderr are pipes."""
    return subprocess.Popen(
        cmd,
        stdin=subprocess.DEVNULL if stdin is None else stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,
        start_new_session=True,
        preexec_fn=_die_with_parent(),
    )


def _stop(proc):
    """Kills proc's process group if it still runs, and reaps it."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            proc.kill()
        proc.wait()


def seal_video(src, out_dir, recipients, segment_time=2.0, chunk_log2=16, stdin=None, workers=None):
    """Has ffmpeg copy src into MPEG-TS through a pipe, cuts it at keyframes about every
    ``segment_time`` seconds and seals each segment into out_dir as soon as the next one begins (the
    last one once ffmpeg has ended). ``stdin``: the file ffmpeg reads when src is '-'. Returns the
    number of segments. RuntimeError (with ffmpeg's message) when ffmpeg fails or writes no video;
    OSError when out_dir cannot be written. Plaintext stays in memory: one segment at a time."""
    if shutil.which("ffmpeg") is None:
        raise RuntimeError("ffmpeg is not installed (apt-get install ffmpeg)")
    if not segment_time > 0:
        raise ValueError("segment_time must be positive")
    sealer = VideoSealer(out_dir, recipients, chunk_log2, workers)
    cutter = MpegTsCutter(segment_time)
    buf = bytearray(1 << 18)
    got = 0
    errs = []
    try:
        proc = _spawn(ffmpeg_mpegts_cmd(src), stdin)
    except (OSError, subprocess.SubprocessError) as e:
        raise RuntimeError(f"cannot start ffmpeg: {e}") from None
    reader = threading.Thread(target=lambda: errs.append(proc.stderr.read()), daemon=True)
    reader.start()
    try:
        # a segment is sealed as not final once the next one has begun (the cutter emits it then)
        def seal_one(view, seconds):
            sealer.add(view, seconds, last=False)

        try:
            with memoryview(buf) as mv:
                while True:
                    got = proc.stdout.readinto(mv)
                    if not got:
                        break
                    cutter.feed(mv[:got], seal_one)
            proc.wait()
            reader.join()
            err = b"".join(errs).decode(errors="replace").strip()
            if proc.returncode != 0:
                raise RuntimeError(
                    f"ffmpeg failed ({proc.returncode}): {err.splitlines()[-1] if err else 'no message'}"
                )

            def seal_final(view, seconds):
                sealer.add(view, seconds, last=True)

            if not cutter.finish(seal_final):
                raise RuntimeError("ffmpeg produced no video (is there a video stream in the input?)")
        except MpegTsError as e:
            raise RuntimeError(f"ffmpeg's output: {e}") from None
        return len(sealer.entries)
    finally:
        _stop(proc)  # an error or a signal meanwhile: ffmpeg must not outlive this call
        reader.join(5)
        proc.stdout.close()
        proc.stderr.close()
        wipe(buf)
        cutter.close()


# ---- opening ----


def parse_playlist(data):
    """([segment names in order], ended) of a playlist's bytes. SealFormatError when it is not UTF-8
    text (the playlist nuri writes is ASCII)."""
    try:
        text = bytes(data).decode("utf-8")
    except UnicodeDecodeError as e:
        raise SealFormatError(f"{PLAYLIST} is not UTF-8 text (byte {e.start}): the playlist was altered") from None
    lines = [ln.strip() for ln in text.split("\n")]
    return [ln for ln in lines if ln and not ln.startswith("#")], ENDLIST in lines


def _read_playlist(d):
    """parse_playlist of d's playlist; None when there is none (yet)."""
    try:
        with open(os.path.join(d, PLAYLIST), "rb") as f:
            data = f.read(PLAYLIST_MAX + 1)
    except FileNotFoundError:
        return None
    if len(data) > PLAYLIST_MAX:
        raise SealFormatError(f"{PLAYLIST} is larger than {PLAYLIST_MAX >> 20} MiB")
    return parse_playlist(data)


def read_playlist(d):
    """([segment names in order], ended); ([], False) when d has no playlist."""
    return _read_playlist(d) or ([], False)


def _shown(name, limit=40):
    r = repr(name)
    return r if len(r) <= limit else r[: limit - 4] + "...'"


class _Stream:
    """The header and file key of a stream directory, and its segments opened in memory."""

    def __init__(self, d, identity):
        self.dir = d
        with open(os.path.join(d, HEADER_NAME), "rb") as f:
            self.header = read_header(f)
        if self.header.version != 2:
            raise SealFormatError(f"{HEADER_NAME} is not a v2 header")
        self.file_key = v2_file_key(self.header, identity)
        if self.header.kind != KIND_VIDEO:
            raise SealFormatError(f"{HEADER_NAME} is the header of a sealed file, not of a video stream")

    @staticmethod
    def check_name(i, name):
        if name != segment_name(i):
            raise SegmentError(
                i,
                f"the playlist lists {_shown(name)} where {segment_name(i)!r} belongs (reordered or edited playlist)",
            )

    def read(self, i):
        """The sealed bytes of segment i (read once: every attempt below sees the same bytes)."""
        try:
            with open(os.path.join(self.dir, segment_name(i)), "rb") as f:
                return f.read()
        except FileNotFoundError:
            raise SegmentError(i, f"{segment_name(i)} is missing") from None

    def open(self, i, blob, last):
        """(plaintext bytearray, length) of segment i sealed as final (``last``) or not, or None when it
        does not authenticate so. Nothing is released here; the caller wipes the buffer."""
        out = bytearray(len(blob))
        n = 0

        def put(b):
            nonlocal n
            out[n : n + len(b)] = b
            n += len(b)

        try:
            v2_payload(self.file_key, self.header, segment=(i, last)).open(_View(blob), put)
        except InvalidTag:
            wipe(out, 0, n)
            return None
        return out, n

    def open_either(self, i, blob, last_first):
        """(plaintext, length, final) of segment i, trying the flag ``last_first`` first (a wrong flag
        fails at the first chunk); SegmentError when it authenticates neither way."""
        for last in (last_first, not last_first):
            got = self.open(i, blob, last)
            if got is not None:
                return got[0], got[1], last
        raise SegmentError(i, _FAILS)


def _release(write, progress, i, pt, n):
    try:
        with memoryview(pt) as mv, mv[:n] as part:
            write(part)
    finally:
        wipe(pt, 0, n)
    if progress:
        progress(i)


def open_video(d, identity, write, follow=False, poll=0.1, timeout=None, progress=None):
    """Opens the stream in directory d, calling ``write`` once per segment with its plaintext
    (MPEG-TS, a bytes-like object valid during the call) after the whole segment authenticated, in
    order, then ``progress(index)``. Returns the number of segments.

    Without ``follow`` the playlist must end (``#EXT-X-ENDLIST``) and its last segment must
    authenticate as the final one before anything is released: a stream cut short at any segment
    boundary (to no segment at all included) releases nothing. A segment damaged further in raises
    after the segments before it were released.

    With ``follow`` each segment is released as soon as it is listed and authenticates, while later
    ones are still being sealed; the stream ends only at the segment that authenticates as final (the
    playlist's end mark is not authenticated). ``timeout``: give up when no segment arrives for that
    many seconds (the stream is then still open).

    Raises SegmentError naming the index of a missing, misplaced or tampered segment or of the end that
    is missing; SealFormatError for a malformed header or playlist; InvalidTag / NotRecipientError for
    the header; OSError when a file cannot be read."""
    s = _Stream(d, identity)
    if follow:
        return _follow(s, write, poll, timeout, progress)
    pl = _read_playlist(d)
    if pl is None:
        raise SegmentError(0, f"{PLAYLIST} is missing")
    names, ended = pl
    for i, name in enumerate(names):
        s.check_name(i, name)
    n = len(names)
    if n == 0:
        raise SegmentError(
            0,
            "the playlist lists no segment: the stream was emptied (a stream ends only with a segment "
            "sealed as its final one)"
            if ended
            else "the playlist lists no segment and has no end mark (a stream still being sealed? use --follow)",
        )
    # The end first: nothing is released from a stream whose final segment does not authenticate.
    blob = s.read(n - 1)
    pt, size, final = s.open_either(n - 1, blob, True)
    try:
        if not final:
            raise SegmentError(
                n - 1,
                "is not the final segment: the stream was cut short (later segments missing)"
                if ended
                else "is not the final segment and the playlist has no end mark: the stream has not ended "
                "(still being sealed? use --follow)",
            )
        if not ended:
            raise SegmentError(n - 1, "is the final segment, but the playlist has lost its end mark")
        del blob
        for i in range(n - 1):
            got, k, fin = s.open_either(i, s.read(i), False)
            if fin:
                wipe(got, 0, k)
                raise SegmentError(i, "is the final segment, but the playlist goes on")
            _release(write, progress, i, got, k)
        _release(write, progress, n - 1, pt, size)
    finally:
        wipe(pt, 0, size)
    return n


def _follow(s, write, poll, timeout, progress):
    i, last_seen = 0, time.monotonic()
    while True:
        names, ended = _read_playlist(s.dir) or ([], False)
        if i < len(names):
            s.check_name(i, names[i])
            listed_last = ended and i == len(names) - 1
            pt, n, final = s.open_either(i, s.read(i), listed_last)
            if final and not listed_last:
                wipe(pt, 0, n)
                why = "the playlist goes on" if i < len(names) - 1 else "the playlist has lost its end mark"
                raise SegmentError(i, f"is the final segment, but {why}")
            _release(write, progress, i, pt, n)
            i += 1
            last_seen = time.monotonic()
            if final:
                return i
            continue  # (a playlist that ends at a segment not sealed as final: the stream is still open)
        if timeout is not None and time.monotonic() - last_seen > timeout:
            raise SegmentError(
                i,
                f"no new segment for {timeout:g} s: the stream is still open (no segment has authenticated "
                "as its final one)",
            )
        time.sleep(poll)


def verify_video(d, identity):
    """Authenticates the whole stream in d without releasing anything; returns the number of segments."""
    return open_video(d, identity, lambda b: None)


__all__ = [
    "HEADER_NAME",
    "PLAYLIST",
    "ENDLIST",
    "SegmentError",
    "VideoSealer",
    "seal_video",
    "open_video",
    "verify_video",
    "parse_playlist",
    "read_playlist",
    "segment_name",
    "ffmpeg_mpegts_cmd",
]
