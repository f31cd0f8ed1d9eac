"""Cuts one MPEG-TS byte stream (ffmpeg's ``-f mpegts pipe:1``) into segments at video keyframes, in
memory: ``nuri video seal`` takes ffmpeg's output through a pipe, so plaintext video never reaches a
file (docs/seal-format.md, "Video streams").

A segment ends where a video keyframe begins whose presentation time is at least ``segment_time``
seconds (from the first video frame) past the previous cut, the same rule as ffmpeg's segment
muxer. The cut goes before the run of table packets (PAT, PMT, SDT, null) that ffmpeg writes right
before each keyframe, so every segment starts with the tables and then the keyframe and plays on its
own, and the segments concatenate to exactly the stream ffmpeg wrote.

Only what the cut needs is parsed: the PAT (where the PMT is), the PMT (which PID is the video), and
on the video PID the random-access flag and the PTS of packets that start a PES packet. Anything else
passes through untouched; a stream that loses its 188-byte packet sync is an error.
"""

from .._native import ffi, lib

PACKET = 188
SYNC = 0x47
CLOCK = 90000  # PTS ticks per second
MAX_SEGMENT = 1 << 30  # a segment is held in memory until it is cut: refuse to grow one past this
_PTS_MOD = 1 << 33
# stream_type values of video in a PMT (ISO/IEC 13818-1 table 2-34 and its amendments): MPEG-1/2
# video, MPEG-4 Part 2, H.264, H.265, H.266
VIDEO_STREAM_TYPES = frozenset((0x01, 0x02, 0x10, 0x1B, 0x24, 0x33))
_PAT_PID, _SDT_PID, _NULL_PID = 0x0000, 0x0011, 0x1FFF


class MpegTsError(ValueError):
    """The bytes are not an MPEG-TS stream (lost packet sync, truncated packet)."""


def wipe(buf, start=0, end=None):
    """Overwrites buf[start:end] (a bytearray; default all of it) with zeros."""
    end = len(buf) if end is None else end
    if end > start:
        lib.nuri_wipe(ffi.from_buffer(buf) + start, end - start)


def _payload_start(pkt, off):
    """(payload offset, random access flag) of the packet at off; offset None when it has no payload."""
    afc = (pkt[off + 3] >> 4) & 3
    if afc == 1:
        return off + 4, False
    if afc == 0:  # reserved: no payload
        return None, False
    afl = pkt[off + 4]
    rai = afl > 0 and bool(pkt[off + 5] & 0x40)
    if afc == 2 or 5 + afl >= PACKET:
        return None, rai
    return off + 5 + afl, rai


def _section(pkt, start, end):
    """(table_id, section bytes from table_id to before the CRC) of a section that starts in the payload
    pkt[start:end] (pointer field first) and fits in it; None otherwise."""
    if start >= end:
        return None
    s = start + 1 + pkt[start]
    if s + 3 > end:
        return None
    length = ((pkt[s + 1] & 0x0F) << 8) | pkt[s + 2]
    if length < 9 or s + 3 + length > end:
        return None
    return pkt[s], bytes(pkt[s : s + 3 + length - 4])


def _pes_pts(pkt, start, end):
    """The PTS of a PES header at pkt[start:end], or None."""
    if end - start < 14 or pkt[start] != 0 or pkt[start + 1] != 0 or pkt[start + 2] != 1:
        return None
    if not pkt[start + 7] & 0x80:
        return None
    b = pkt[start + 9 : start + 14]
    return ((b[0] >> 1) & 7) << 30 | b[1] << 22 | (b[2] >> 1) << 15 | b[3] << 7 | b[4] >> 1


class MpegTsCutter:
    """``feed(data, emit)`` with ffmpeg's output as it arrives; ``emit(view, seconds)`` is called
    synchronously for each completed segment (a memoryview of its bytes, valid only during the call;
    the buffer is wiped afterwards). ``finish(emit)`` emits the last segment (it returns False when
    there was no data at all). ``close()`` wipes what is still held; call it in every case."""

    def __init__(self, segment_time=2.0, max_segment=MAX_SEGMENT):
        if not segment_time > 0:
            raise ValueError("segment_time must be positive")
        self.step = max(1, round(segment_time * CLOCK))
        self.max_segment = max_segment
        self.buf = bytearray(1 << 20)  # the current segment, then a partial packet: buf[:n]
        self.n = 0
        self.scan = 0  # offset of the first packet not yet looked at
        self.pmt_pids = set()
        self.video_pid = None
        self.t0 = None  # PTS (unwrapped) of the first video frame
        self.next_cut = None
        self.seg_start = None  # PTS of the first frame of the current segment
        self.seg_max = None  # the latest PTS in the current segment
        self.frame = None  # the shortest positive distance between two successive video PTS (a frame)
        self.last = None  # the PTS of the previous video frame
        self._raw = None  # last PTS as read (33 bits) and its unwrapped value
        self._pts = 0

    # -- buffer --

    def _append(self, data):
        need = self.n + len(data)
        if need > len(self.buf):
            bigger = bytearray(max(need, 2 * len(self.buf)))
            bigger[: self.n] = memoryview(self.buf)[: self.n]
            wipe(self.buf, 0, self.n)
            self.buf = bigger
        self.buf[self.n : need] = data
        self.n = need

    def close(self):
        wipe(self.buf, 0, self.n)
        self.n = self.scan = 0

    # -- parsing --

    def _unwrap(self, pts):
        if self._raw is None:
            self._pts = pts
        else:
            d = (pts - self._raw) % _PTS_MOD
            if d >= _PTS_MOD // 2:  # backwards (B-frames, or a jump): a negative step
                d -= _PTS_MOD
            self._pts += d
        self._raw = pts
        return self._pts

    def _tables(self, start, end, pid):
        sec = _section(self.buf, start, end)
        if sec is None:
            return
        table, s = sec
        if pid == _PAT_PID and table == 0x00:
            self.pmt_pids = {
                ((s[j + 2] & 0x1F) << 8) | s[j + 3]
                for j in range(8, len(s) - 3, 4)
                if (s[j] << 8 | s[j + 1]) != 0  # program 0 is the network PID
            }
        elif table == 0x02 and len(s) >= 12:
            j = 12 + (((s[10] & 0x0F) << 8) | s[11])
            while j + 5 <= len(s):
                if s[j] in VIDEO_STREAM_TYPES:
                    self.video_pid = ((s[j + 1] & 0x1F) << 8) | s[j + 2]
                    return
                j += 5 + (((s[j + 3] & 0x0F) << 8) | s[j + 4])

    def _is_table(self, off):
        pid = ((self.buf[off + 1] & 0x1F) << 8) | self.buf[off + 2]
        return pid in (_PAT_PID, _SDT_PID, _NULL_PID) or pid in self.pmt_pids

    def _video_frame(self, off, start, rai, emit):
        """A video packet that starts a PES packet at off: maybe a cut before it; returns True when the
        segment was cut (the buffer moved)."""
        pts = _pes_pts(self.buf, start, off + PACKET)
        if pts is None:
            return False
        pts = self._unwrap(pts)
        if self.last is not None:
            gap = abs(pts - self.last)
            if gap and (self.frame is None or gap < self.frame):
                self.frame = gap
        self.last = pts
        if self.t0 is None:
            self.t0 = self.seg_start = self.seg_max = pts
            self.next_cut = pts + self.step
            return False
        if rai and pts >= self.next_cut:
            cut = off
            while cut >= PACKET and self._is_table(cut - PACKET):  # the tables before the keyframe go with it
                cut -= PACKET
            if cut > 0:
                self._emit(cut, (pts - self.seg_start) / CLOCK, emit)
                self.seg_start = self.seg_max = pts
                self.next_cut = self.t0 + self.step * ((pts - self.t0) // self.step + 1)
                return True
        if pts > self.seg_max:
            self.seg_max = pts
        return False

    def _emit(self, cut, seconds, emit):
        with memoryview(self.buf) as mv:
            with mv[:cut] as seg:
                emit(seg, seconds)
            rest = self.n - cut
            mv[:rest] = mv[cut : self.n]  # the tables and the keyframe start the next segment
        wipe(self.buf, rest, self.n)
        self.n -= cut
        self.scan -= cut

    def feed(self, data, emit):
        """Takes the next bytes of the stream (any split)."""
        self._append(data)
        buf = self.buf
        while self.scan + PACKET <= self.n:
            off = self.scan
            if buf[off] != SYNC:
                raise MpegTsError(f"lost MPEG-TS packet sync (byte {buf[off]:#04x} where 0x47 belongs)")
            self.scan += PACKET
            b1 = buf[off + 1]
            if not b1 & 0x40:  # not the start of a PES packet or a table section
                continue
            pid = ((b1 & 0x1F) << 8) | buf[off + 2]
            start, rai = _payload_start(buf, off)
            if start is None:
                continue
            if pid == self.video_pid:
                if self._video_frame(off, start, rai, emit):
                    buf = self.buf
            elif pid == _PAT_PID or pid in self.pmt_pids:
                self._tables(start, off + PACKET, pid)
        if self.n > self.max_segment:
            raise MpegTsError(
                f"no keyframe to cut at in {self.max_segment >> 20} MiB of video: use a shorter segment time"
            )

    def finish(self, emit):
        """Emits what is left as the last segment; False when the stream was empty."""
        if self.n % PACKET or self.scan != self.n:
            raise MpegTsError(f"the stream ends inside a packet ({self.n % PACKET} of {PACKET} bytes)")
        if self.n == 0:
            return False
        seconds = 0.0
        if self.seg_start is not None:
            seconds = (self.seg_max - self.seg_start + (self.frame or 0)) / CLOCK
        self._emit(self.n, seconds, emit)
        return True
