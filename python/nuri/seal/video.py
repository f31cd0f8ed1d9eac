"""Sealed video streams: H.264 (or MPEG-4 Part 2) cut at keyframes into MPEG-TS segments by ffmpeg,
each segment sealed on its own under one file key wrapped once per recipient (docs/seal-format.md,
"Video streams").

A stream directory holds::

    stream.nseal          a v2 header of kind 1 (video): recipient stanzas and the header MAC
    seg00000.ts.nseal     segment 0: STREAM chunks under the key of segment 0
    seg00001.ts.nseal     ...
    playlist.m3u8         an HLS-style list of the segments with their durations, #EXT-X-ENDLIST at the end

Segment i is sealed under ``HKDF(file_key, salt, "nuri-seal/v2 segment" || BE64(i))`` with the header MAC
and a last-segment flag as associated data, so a segment opens only at its own index, in its own
stream, and the final segment is recognisable: a missing, reordered, swapped, tampered or
cut-off segment is reported by its index. Segments are sealed as ffmpeg finishes them (a live input
works), and ``open_video(follow=True)`` releases each segment once it authenticates while later ones
are still arriving, so playback can start at the first segment.
"""

import csv
import os
import shutil
import subprocess
import tempfile
import time

from ..exceptions import InvalidTag
from . import KIND_VIDEO, SealFormatError, new_v2_header, read_header, v2_file_key, v2_payload

HEADER_NAME = "stream.nseal"
PLAYLIST = "playlist.m3u8"
ENDLIST = "#EXT-X-ENDLIST"


def segment_name(i):
    return f"seg{i:05d}.ts.nseal"


class SegmentError(Exception):
    """A segment is missing, out of place or fails to authenticate; ``index`` names it."""

    def __init__(self, index, msg):
        super().__init__(f"segment {index}: {msg}")
        self.index = index


def _write_atomic(path, data: bytes):
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


class VideoSealer:
    """Seals segments one after the other into ``out_dir``; call ``add(reader, duration)`` for each
    segment except the last, ``add(reader, duration, last=True)`` for the last one."""

    def __init__(self, out_dir, recipients, chunk_log2=16, workers=None):
        os.makedirs(out_dir, exist_ok=True)
        self.dir, self.workers = out_dir, workers
        self.file_key, self.header = new_v2_header(recipients, chunk_log2, kind=KIND_VIDEO)
        _write_atomic(os.path.join(out_dir, HEADER_NAME), self.header.to_bytes())
        self.entries = []
        self._playlist(False)

    def add(self, reader, duration, last=False):
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


def read_playlist(d):
    """([segment names in order], ended)."""
    try:
        with open(os.path.join(d, PLAYLIST), encoding="utf-8") as f:
            lines = [ln.strip() for ln in f]
    except FileNotFoundError:
        return [], False
    return [ln for ln in lines if ln and not ln.startswith("#")], ENDLIST in lines


def ffmpeg_segment_cmd(src, tmpdir, segment_time=2.0):
    """ffmpeg cutting src (a file or '-' for an MPEG-TS/any pipe) at keyframes into MPEG-TS segments,
    streams copied (no re-encoding); the CSV list gets a line as each segment completes."""
    return [
        "ffmpeg",
        "-hide_banner",
        "-loglevel",
        "error",
        "-nostats",
        "-y",
        "-i",
        "pipe:0" if src == "-" else src,
        "-map",
        "0:v:0",
        "-map",
        "0:a?",
        "-c",
        "copy",
        "-f",
        "segment",
        "-segment_time",
        str(segment_time),
        "-segment_format",
        "mpegts",
        "-segment_list",
        os.path.join(tmpdir, "list.csv"),
        "-segment_list_type",
        "csv",
        os.path.join(tmpdir, "seg%05d.ts"),
    ]


def _csv_rows(path):
    try:
        with open(path, newline="") as f:
            return [r for r in csv.reader(f) if len(r) >= 3]
    except FileNotFoundError:
        return []


def seal_video(src, out_dir, recipients, segment_time=2.0, chunk_log2=16, stdin=None, poll=0.05, workers=None):
    """Cuts src with ffmpeg and seals every segment into out_dir as ffmpeg completes it. Returns the
    number of segments. RuntimeError (with ffmpeg's message) when ffmpeg fails."""
    if shutil.which("ffmpeg") is None:
        raise RuntimeError("ffmpeg is not installed (apt-get install ffmpeg)")
    os.makedirs(out_dir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".nuri-video-", dir=out_dir)
    proc = None
    try:
        os.chmod(tmp, 0o700)  # plaintext segments live here until sealed
        sealer = VideoSealer(out_dir, recipients, chunk_log2, workers)
        proc = subprocess.Popen(ffmpeg_segment_cmd(src, tmp, segment_time), stdin=stdin, stderr=subprocess.PIPE)
        done = 0

        def seal_ready(final):
            nonlocal done
            rows = _csv_rows(os.path.join(tmp, "list.csv"))
            # seal a segment once the next one has completed (or ffmpeg has ended): then it is known
            # whether it is the last
            while done < len(rows) and (done + 1 < len(rows) or final):
                name, start, end = rows[done][0], float(rows[done][1]), float(rows[done][2])
                seg = os.path.join(tmp, name)
                with open(seg, "rb") as f:
                    sealer.add(f, end - start, last=final and done + 1 == len(rows))
                os.unlink(seg)
                done += 1

        while proc.poll() is None:
            seal_ready(False)
            time.sleep(poll)
        err = proc.stderr.read().decode(errors="replace").strip()
        if proc.returncode != 0:
            raise RuntimeError(f"ffmpeg failed ({proc.returncode}): {err.splitlines()[-1] if err else 'no message'}")
        seal_ready(True)
        if done == 0:
            raise RuntimeError("ffmpeg produced no segment (is there a video stream in the input?)")
        return done
    finally:
        if proc is not None and proc.poll() is None:  # interrupted: stop ffmpeg before removing its files
            proc.kill()
            proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)


def _opens(path, file_key, header, i, last):
    try:
        with open(path, "rb") as f:
            v2_payload(file_key, header, segment=(i, last)).open(f, lambda b: None)
        return True
    except InvalidTag:
        return False


def open_video(d, identity, write, follow=False, poll=0.1, timeout=None, progress=None):
    """Opens the stream in directory d, calling write with each segment's plaintext (MPEG-TS) after
    each of its chunks authenticated, segment after segment. ``follow`` waits for segments not yet
    written (a stream being sealed) until the playlist ends or ``timeout`` seconds pass without a new
    segment. Raises SegmentError naming the index of a missing, misplaced or tampered segment;
    InvalidTag / NotRecipientError for the header. Returns the number of segments."""
    with open(os.path.join(d, HEADER_NAME), "rb") as f:
        header = read_header(f)
    if header.version != 2:
        raise SealFormatError(f"{HEADER_NAME} is not a v2 header")
    file_key = v2_file_key(header, identity)
    if header.kind != KIND_VIDEO:
        raise SealFormatError(f"{HEADER_NAME} is the header of a sealed file, not of a video stream")
    i, last_seen = 0, time.monotonic()
    while True:
        names, ended = read_playlist(d)
        if i < len(names):
            if names[i] != segment_name(i):
                raise SegmentError(
                    i,
                    f"the playlist lists {names[i]!r} where {segment_name(i)!r} belongs (reordered or edited playlist)",
                )
            last = ended and i == len(names) - 1
            path = os.path.join(d, names[i])
            try:
                f = open(path, "rb")
            except FileNotFoundError:
                raise SegmentError(i, f"{names[i]} is missing") from None
            try:
                with f:
                    v2_payload(file_key, header, segment=(i, last)).open(f, write)
            except InvalidTag:
                why = "fails to authenticate (tampered, truncated, swapped with another segment or from another stream)"
                if _opens(path, file_key, header, i, not last):
                    why = (
                        "is not the final segment: the stream was cut short (later segments missing)"
                        if last
                        else "is the final segment, but the playlist goes on or has lost its end mark"
                    )
                raise SegmentError(i, why) from None
            if progress:
                progress(i)
            i += 1
            last_seen = time.monotonic()
            continue
        if ended:
            return i
        if not follow:
            raise SegmentError(i, "the playlist has no end mark (a stream still being sealed? use --follow)")
        if timeout is not None and time.monotonic() - last_seen > timeout:
            raise SegmentError(i, f"no new segment for {timeout:g} s")
        time.sleep(poll)
