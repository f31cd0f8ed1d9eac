"""nuri video seal/open: H.264 from ffmpeg cut into MPEG-TS segments at keyframes, each sealed with its
index and the stream's header MAC bound in. Checks the frames survive, every kind of segment damage
is reported by index with exit 1 and no output, and live pipes (stdin to stdout) work; that a stream
cut short or emptied is incomplete, that outputs written in place say what they got, that SIGKILL
leaves no plaintext, and that malformed streams and write errors give one line."""

import os
import shutil
import subprocess
import sys

import pytest

if os.environ.get("CI"):  # scripts/deps/seal.pip installs pyca/cryptography >= 50: never skip in CI
    import cryptography.hazmat.primitives.hpke  # noqa: F401

pytest.importorskip("nuri.aead", reason="nuri.aead (Schwaemm) is not in this build")
pytest.importorskip("cryptography.hazmat.primitives.hpke", reason="pyca/cryptography >= 50 is not installed")
if shutil.which("ffmpeg") is None or shutil.which("ffprobe") is None:
    if os.environ.get("CI") or os.environ.get("NURI_IN_MAKE_CHECK"):
        raise RuntimeError("ffmpeg/ffprobe missing: scripts/deps/video.apt should have installed them")
    pytest.skip("ffmpeg/ffprobe not installed (scripts/bootstrap.sh all installs them)", allow_module_level=True)

NURI = os.path.join(os.path.dirname(sys.executable), "nuri")


def run(*argv, **kw):
    return subprocess.run([str(a) for a in argv], capture_output=True, **kw)


def frames(path_or_bytes):
    args = [
        "ffprobe",
        "-hide_banner",
        "-loglevel",
        "error",
        "-select_streams",
        "v:0",
        "-count_frames",
        "-show_entries",
        "stream=codec_name,nb_read_frames",
        "-of",
        "csv=p=0",
    ]
    if isinstance(path_or_bytes, bytes):
        r = subprocess.run(args + ["-"], input=path_or_bytes, capture_output=True)
    else:
        r = subprocess.run(args + [str(path_or_bytes)], capture_output=True)
    return r.stdout.decode().split()[0]  # (MPEG-TS lists the stream once more under its program)


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    d = tmp_path_factory.mktemp("video")
    c = d / "clip.mp4"
    subprocess.run(
        [
            "ffmpeg",
            "-hide_banner",
            "-loglevel",
            "error",
            "-f",
            "lavfi",
            "-i",
            "testsrc2=size=160x120:rate=15:duration=4",
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-g",
            "15",
            "-pix_fmt",
            "yuv420p",
            str(c),
        ],
        check=True,
    )
    for name, kem in (("a", "mlkem768"), ("b", "mlkem768-x25519"), ("c", "mlkem768")):
        assert (
            run(
                NURI, "kem", "keygen", "--kem", kem, "--public", d / f"{name}.pk", "--secret", d / f"{name}.sk"
            ).returncode
            == 0
        )
    return d


def _seal(clip, out, recips=("a", "b")):
    args = [a for r in recips for a in ("-r", clip / f"{r}.pk")]
    r = run(NURI, "video", "seal", *args, "-i", clip / "clip.mp4", "-o", out, "--segment-time", "1")
    assert r.returncode == 0, r.stderr
    return sorted(p.name for p in out.iterdir())


def _open(clip, d, out, who="a"):
    if out.exists():
        out.unlink()
    return run(NURI, "video", "open", "--identity", clip / f"{who}.sk", "-i", d, "-o", out)


def test_round_trip_every_frame(clip, tmp_path):
    names = _seal(clip, tmp_path / "s")
    assert names == ["playlist.m3u8"] + [f"seg{i:05d}.ts.nseal" for i in range(4)] + ["stream.nseal"]
    for who in ("a", "b"):
        r = _open(clip, tmp_path / "s", tmp_path / "out.ts", who)
        assert r.returncode == 0, r.stderr
        assert frames(tmp_path / "out.ts") == "h264,60" == frames(clip / "clip.mp4")
    r = _open(clip, tmp_path / "s", tmp_path / "out.ts", "c")  # not a recipient
    assert r.returncode == 1 and b"not sealed to" in r.stderr and not (tmp_path / "out.ts").exists()


def _damaged(clip, tmp_path, change):
    d = tmp_path / "d"
    if d.exists():
        shutil.rmtree(d)
    shutil.copytree(tmp_path / "s", d)
    change(d)
    r = _open(clip, d, tmp_path / "bad.ts")
    assert r.returncode == 1
    assert not (tmp_path / "bad.ts").exists()
    assert len(r.stderr.decode().strip().splitlines()) == 1
    return r.stderr.decode()


def test_damage_reported_by_index(clip, tmp_path):
    _seal(clip, tmp_path / "s")
    _seal(clip, tmp_path / "other")

    def flip(name, pos):
        def f(d):
            b = bytearray((d / name).read_bytes())
            b[pos] ^= 1
            (d / name).write_bytes(bytes(b))

        return f

    def swap(d):
        a, b = d / "seg00001.ts.nseal", d / "seg00002.ts.nseal"
        x = a.read_bytes()
        a.write_bytes(b.read_bytes())
        b.write_bytes(x)

    def cut_last(d):
        (d / "seg00003.ts.nseal").unlink()
        pl = (d / "playlist.m3u8").read_text().replace("#EXTINF:1.000,\nseg00003.ts.nseal\n", "")
        assert "seg00003" not in pl
        (d / "playlist.m3u8").write_text(pl)

    def reorder_playlist(d):
        pl = (d / "playlist.m3u8").read_text()
        (d / "playlist.m3u8").write_text(
            pl.replace("seg00001", "TMP").replace("seg00002", "seg00001").replace("TMP", "seg00002")
        )

    cases = {
        "missing": (lambda d: (d / "seg00002.ts.nseal").unlink(), "segment 2"),
        "swapped": (swap, "segment 1"),
        "playlist reordered": (reorder_playlist, "segment 1"),
        "flipped": (flip("seg00002.ts.nseal", 100), "segment 2"),
        "flipped tag": (flip("seg00003.ts.nseal", -1), "segment 3"),
        "truncated segment": (
            lambda d: (d / "seg00001.ts.nseal").write_bytes((d / "seg00001.ts.nseal").read_bytes()[:-20]),
            "segment 1",
        ),
        "spliced from another stream": (
            lambda d: shutil.copy(tmp_path / "other" / "seg00002.ts.nseal", d / "seg00002.ts.nseal"),
            "segment 2",
        ),
        "stream cut short": (cut_last, "segment 2"),
        "end mark removed": (
            lambda d: (d / "playlist.m3u8").write_text(
                (d / "playlist.m3u8").read_text().replace("#EXT-X-ENDLIST\n", "")
            ),
            "segment 3: is the final",
        ),
    }
    for what, (change, where) in cases.items():
        msg = _damaged(clip, tmp_path, change)
        assert where in msg, (what, msg)
    assert "cut short" in _damaged(clip, tmp_path, cut_last)
    # header damage: exit 1 as well
    _damaged(clip, tmp_path, flip("stream.nseal", 60))
    _damaged(clip, tmp_path, flip("stream.nseal", -1))


def test_live_pipe_through_seal_and_open(clip):
    """ffmpeg ... -f mpegts pipe:1 | nuri seal -r PK -i - -o - | nuri open --identity SK -i - -o - | ffprobe -"""
    sh = (
        f"ffmpeg -hide_banner -loglevel error -i {clip / 'clip.mp4'} -c copy -f mpegts pipe:1"
        f" | {NURI} seal -r {clip / 'b.pk'} -i - -o - | {NURI} open --identity {clip / 'b.sk'} -i - -o -"
        " | ffprobe -hide_banner -loglevel error -select_streams v:0 -count_frames"
        " -show_entries stream=codec_name,nb_read_frames -of csv=p=0 -"
    )
    r = subprocess.run(["bash", "-o", "pipefail", "-c", sh], capture_output=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().split()[0] == "h264,60"


def test_video_seal_from_a_pipe_and_follow(clip, tmp_path):
    """A live MPEG-TS input sealed segment by segment while 'video open --follow' already plays it."""
    out = tmp_path / "live"
    feed = subprocess.Popen(
        [
            "ffmpeg",
            "-hide_banner",
            "-loglevel",
            "error",
            "-re",
            "-i",
            str(clip / "clip.mp4"),
            "-c",
            "copy",
            "-f",
            "mpegts",
            "pipe:1",
        ],
        stdout=subprocess.PIPE,
    )
    sealer = subprocess.Popen(
        [NURI, "video", "seal", "-r", str(clip / "a.pk"), "-i", "-", "-o", str(out), "--segment-time", "1"],
        stdin=feed.stdout,
        stderr=subprocess.PIPE,
    )
    feed.stdout.close()
    import time

    t0 = time.monotonic()
    while not (out / "stream.nseal").exists() and time.monotonic() - t0 < 20:
        time.sleep(0.05)
    r = run(NURI, "video", "open", "--identity", clip / "a.sk", "-i", out, "-o", "-", "--follow", "--timeout", "20")
    assert sealer.wait(timeout=60) == 0 and feed.wait(timeout=60) == 0
    assert r.returncode == 0, r.stderr
    assert frames(r.stdout) == "h264,60"


def test_bench_records_follow_the_schema(tmp_path):
    """One tiny run of the video benchmark (1 s 96x64 H.264, API only): bench-schema records with the
    robust spread and the busy flag, and the table beside the work's seconds."""
    import json

    r = run(
        sys.executable,
        "-m",
        "nuri_dev.videobench",
        "--dir",
        tmp_path,
        "--seconds",
        "1",
        "--sizes",
        "96x64",
        "--codecs",
        "h264",
        "--runs",
        "2",
        "--no-cli",
    )
    assert r.returncode == 0, r.stderr
    recs = [json.loads(line) for line in r.stdout.decode().splitlines()]
    assert {(x["impl"], x["op"], x["metric"]) for x in recs} == {
        ("python-api", "seal", "seconds"),
        ("python-api", "open", "seconds"),
        ("python-api", "seal+open", "seconds"),
        ("python-api", "seal+open", "cpu-seconds"),
        ("python-api-discard", "seal+open", "seconds"),
        ("python-api-discard", "seal+open", "cpu-seconds"),
        ("copy", "copy+copy", "seconds"),
    }
    for x in recs:
        assert {
            "family",
            "impl",
            "op",
            "param",
            "size",
            "platform",
            "metric",
            "median",
            "min",
            "max",
            "runs",
            "p10",
            "p90",
            "load",
            "busy",
        } <= set(x), x
        assert x["min"] <= x["p10"] <= x["median"] <= x["p90"] <= x["max"] and x["runs"] == 2
        assert isinstance(x["busy"], bool)
    assert "| 96x64 | h264 |" in (tmp_path / "table.md").read_text()


# ---- the end of a stream, outputs written in place, SIGKILL, malformed streams ----


def _segments_plaintext(clip, d, who="a"):
    """The plaintext of each segment, through the API (write is called once per segment)."""
    from nuri.seal import video

    parts = []
    video.open_video(str(d), _identity(clip, who), lambda b: parts.append(bytes(b)))
    return parts


def _identity(clip, who="a"):
    from nuri.seal import recipients

    (ident,) = recipients.load_identities((clip / f"{who}.sk").read_bytes())
    return ident


def _keep_first(d, k):
    """Cuts the stream in d down to its first k segments, with a playlist that still ends."""
    for p in d.glob("seg*.ts.nseal"):
        if int(p.name[3:8]) >= k:
            p.unlink()
    if k == 0:  # the review's playlist, byte for byte
        (d / "playlist.m3u8").write_bytes(b"#EXTM3U\n#EXT-X-ENDLIST\n")
        return
    lines = (d / "playlist.m3u8").read_text().splitlines()
    cut = lines.index(f"seg{k - 1:05d}.ts.nseal") + 1
    (d / "playlist.m3u8").write_text("\n".join(lines[:cut] + ["#EXT-X-ENDLIST"]) + "\n")


def _one_line(stderr):
    text = stderr.decode()
    assert "Traceback" not in text, text
    assert len(text.strip().splitlines()) == 1 and text.startswith("nuri video: "), text
    return text


def test_stream_cut_short_or_emptied_is_incomplete(clip, tmp_path):
    """Truncation at every segment boundary, down to an emptied playlist, in all three output modes:
    exit 1 and no output (file, stdout); --follow releases the authentic segments and says the stream
    is still open."""
    _seal(clip, tmp_path / "s")
    parts = _segments_plaintext(clip, tmp_path / "s")
    assert len(parts) == 4
    sk = clip / "a.sk"
    for k in range(4):
        d = tmp_path / f"cut{k}"
        shutil.copytree(tmp_path / "s", d)
        _keep_first(d, k)
        out = tmp_path / f"cut{k}.ts"
        r = run(NURI, "video", "open", "--identity", sk, "-i", d, "-o", out)
        msg = _one_line(r.stderr)
        assert r.returncode == 1 and not out.exists(), (k, msg)
        assert f"segment {max(k - 1, 0)}:" in msg and "no output written" in msg, (k, msg)
        assert ("emptied" if k == 0 else "cut short") in msg, (k, msg)
        r = run(NURI, "video", "open", "--identity", sk, "-i", d, "-o", "-")
        assert r.returncode == 1 and r.stdout == b"", (k, r.stderr)
        _one_line(r.stderr)
        r = run(NURI, "video", "open", "--identity", sk, "-i", d, "-o", "-", "--follow", "--timeout", "0.5")
        msg = _one_line(r.stderr)
        assert r.returncode == 1 and "still open" in msg, (k, msg)
        assert r.stdout == b"".join(parts[:k]), k
    # the API: nothing released from the emptied stream
    from nuri.seal import video

    got = []
    with pytest.raises(video.SegmentError, match="emptied"):
        video.open_video(str(tmp_path / "cut0"), _identity(clip), got.append)
    assert got == []


def _flip(path, pos):
    b = bytearray(path.read_bytes())
    b[pos] ^= 1
    path.write_bytes(bytes(b))


def _via_fifo(tmp_path, argv):
    """Runs nuri with -o FIFO while cat drains the FIFO into a file; (result, bytes cat got)."""
    fifo, got = tmp_path / "out.fifo", tmp_path / "fifo.got"
    if fifo.exists():
        fifo.unlink()
    os.mkfifo(fifo)
    with open(got, "wb") as sink:
        cat = subprocess.Popen(["cat", str(fifo)], stdout=sink)
    try:
        r = run(*argv, "-o", fifo, timeout=60)
        if r.returncode != 0 and b"cannot write" in r.stderr:
            with open(fifo, "wb"):
                pass  # nuri never opened it: let cat finish
        assert cat.wait(timeout=30) == 0
    finally:
        if cat.poll() is None:
            cat.kill()
            cat.wait()
    return r, got.read_bytes()


def test_output_written_in_place_says_what_it_received(clip, tmp_path):
    """A FIFO or stdout cannot be renamed into place: without --follow nothing reaches it from a stream
    with a tampered segment 3; with --follow segments 0-2 do, and the message says exactly that."""
    _seal(clip, tmp_path / "s")
    parts = _segments_plaintext(clip, tmp_path / "s")
    d = tmp_path / "bad"
    shutil.copytree(tmp_path / "s", d)
    _flip(d / "seg00003.ts.nseal", 300)
    base = [NURI, "video", "open", "--identity", clip / "a.sk", "-i", d]
    r, got = _via_fifo(tmp_path, base)
    msg = _one_line(r.stderr)
    assert r.returncode == 1 and got == b"" and "segment 3:" in msg and "no output written" in msg, msg
    r = run(*base, "-o", "-")
    assert r.returncode == 1 and r.stdout == b"" and "no output written" in _one_line(r.stderr)
    sent = b"".join(parts[:3])
    r, got = _via_fifo(tmp_path, base + ["--follow", "--timeout", "5"])
    msg = _one_line(r.stderr)
    assert r.returncode == 1 and got == sent, msg
    assert f"{tmp_path / 'out.fifo'} received segments 0-2 ({len(sent):,} bytes) before this" in msg, msg
    r = run(*base, "-o", "-", "--follow", "--timeout", "5")
    msg = _one_line(r.stderr)
    assert r.returncode == 1 and r.stdout == sent
    assert f"stdout received segments 0-2 ({len(sent):,} bytes) before this: the output is incomplete" in msg
    # an intact stream through the FIFO: every frame
    r, got = _via_fifo(tmp_path, [NURI, "video", "open", "--identity", clip / "a.sk", "-i", tmp_path / "s"])
    assert r.returncode == 0 and got == b"".join(parts) and frames(got) == "h264,60"


def test_stream_changed_between_the_two_passes(clip, tmp_path, monkeypatch, capsys):
    """-o FIFO authenticates everything first; if a segment is altered after that pass, what the FIFO
    already received is named in the message."""
    import threading

    from nuri.cli.main import main
    from nuri.seal import video

    _seal(clip, tmp_path / "s")
    parts = _segments_plaintext(clip, tmp_path / "s")
    verify = video.verify_video

    def verify_then_tamper(d, ident):
        n = verify(d, ident)
        _flip(tmp_path / "s" / "seg00002.ts.nseal", 200)
        return n

    monkeypatch.setattr(video, "verify_video", verify_then_tamper)
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got = []
    t = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    t.start()
    rc = main(["video", "open", "--identity", str(clip / "a.sk"), "-i", str(tmp_path / "s"), "-o", str(fifo)])
    t.join(30)
    err = capsys.readouterr().err
    sent = b"".join(parts[:2])
    assert rc == 1 and got == [sent]
    assert "segment 2: fails to authenticate" in err and f"received segments 0-1 ({len(sent):,} bytes)" in err, err


def _children(pid):
    out = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                stat = open(f"/proc/{p}/stat").read()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(fields[1]) == pid:
                out.append((int(p), stat[stat.index("(") + 1 : stat.rindex(")")]))
    return out


def _alive(pid):
    try:
        stat = open(f"/proc/{pid}/stat").read()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def _plaintext_files(*dirs):
    """Files under dirs that hold MPEG-TS (sync bytes every 188 bytes) or are named like a segment of it."""
    found = []
    for d in dirs:
        for root, _, files in os.walk(d):
            for name in files:
                p = os.path.join(root, name)
                with open(p, "rb") as f:
                    head = f.read(188 * 3)
                if name.endswith(".ts") or (len(head) == 188 * 3 and head[0] == head[188] == head[376] == 0x47):
                    found.append(p)
    return found


def test_sigkill_of_video_seal_leaves_no_plaintext(clip, tmp_path):
    """kill -9 of 'nuri video seal' in the middle of a live input: ffmpeg dies with it, and no
    plaintext file is left under the output or the temporary directory."""
    import signal
    import time

    out, tmp = tmp_path / "live", tmp_path / "tmp"
    tmp.mkdir()
    feed = subprocess.Popen(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i", str(clip / "clip.mp4")]
        + ["-c", "copy", "-f", "mpegts", "pipe:1"],
        stdout=subprocess.PIPE,
    )  # a live input without end: the sealer is certainly mid-stream when it is killed
    sealer = subprocess.Popen(
        [NURI, "video", "seal", "-r", str(clip / "a.pk"), "-i", "-", "-o", str(out), "--segment-time", "1"],
        stdin=feed.stdout,
        stderr=subprocess.PIPE,
        env=dict(os.environ, TMPDIR=str(tmp)),
    )
    feed.stdout.close()
    try:
        t0 = time.monotonic()
        while not (out / "seg00000.ts.nseal").exists() and time.monotonic() - t0 < 20:
            time.sleep(0.02)
        assert (out / "seg00000.ts.nseal").exists(), sealer.stderr.read() if sealer.poll() is not None else ""
        kids = [pid for pid, comm in _children(sealer.pid) if comm == "ffmpeg"]
        assert len(kids) == 1, _children(sealer.pid)
        os.kill(sealer.pid, signal.SIGKILL)
        sealer.wait(timeout=10)
        t0 = time.monotonic()
        while _alive(kids[0]) and time.monotonic() - t0 < 5:
            time.sleep(0.02)
        assert not _alive(kids[0]), "ffmpeg outlived nuri"
        assert feed.wait(timeout=30) != 0  # its reader is gone: the input ends (broken pipe)
        time.sleep(0.2)
        assert _plaintext_files(out, tmp) == []
        assert not [p for p in os.listdir(out) if p.startswith(".nuri-video-")]
        assert "seg00000.ts.nseal" in os.listdir(out)
    finally:
        for p in (feed, sealer):
            if p.poll() is None:
                p.kill()
                p.wait()


def test_malformed_streams_give_one_line(clip, tmp_path):
    """Every malformed stream ends in one line with the documented exit status (1: the stream is
    damaged or incomplete; 2: a file cannot be read), in every output mode, and nothing is written."""
    _seal(clip, tmp_path / "s")
    good = (tmp_path / "s" / "playlist.m3u8").read_bytes()

    def playlist(data):
        return lambda d: (d / "playlist.m3u8").write_bytes(data)

    def replace_by_dir(name):
        def f(d):
            (d / name).unlink()
            (d / name).mkdir()

        return f

    cases = {
        "non-UTF-8 byte": (playlist(good.replace(b"#EXT-X-VERSION:3", b"#EXT-X-VERSION:\xff")), 1, "UTF-8"),
        "non-UTF-8 name": (playlist(good.replace(b"seg00001", b"seg\xc3\x2801")), 1, "UTF-8"),
        "NUL bytes": (playlist(good.replace(b"seg00002", b"seg\x00\x00002")), 1, "segment 2"),
        "a long name": (playlist(good.replace(b"seg00001.ts.nseal", b"x" * 100000)), 1, "segment 1"),
        "no playlist": (lambda d: (d / "playlist.m3u8").unlink(), 1, "segment 0"),
        "playlist is a directory": (replace_by_dir("playlist.m3u8"), 2, "cannot read"),
        "segment is a directory": (replace_by_dir("seg00001.ts.nseal"), 2, "cannot read"),
        "empty header": (lambda d: (d / "stream.nseal").write_bytes(b""), 1, "no NURISEAL header"),
        "truncated header": (
            lambda d: (d / "stream.nseal").write_bytes((d / "stream.nseal").read_bytes()[:100]),
            1,
            "truncated header",
        ),
        "random header": (lambda d: (d / "stream.nseal").write_bytes(os.urandom(1300)), 1, "NURISEAL"),
        "v1 header": (
            lambda d: (d / "stream.nseal").write_bytes(b"NURISEAL\x01\x00\x10\x00" + bytes(48)),
            1,
            "not a v2 header",
        ),
    }
    for what, (change, rc, needle) in cases.items():
        d = tmp_path / "m"
        if d.exists():
            shutil.rmtree(d)
        shutil.copytree(tmp_path / "s", d)
        change(d)
        for mode in ("file", "-", "follow"):
            out = tmp_path / "m.ts"
            argv = [NURI, "video", "open", "--identity", clip / "a.sk", "-i", d, "-o", "-" if mode == "-" else out]
            if mode == "follow":
                argv += ["--follow", "--timeout", "0.3"]
            r = run(*argv)
            msg = _one_line(r.stderr)
            if mode == "follow" and what == "no playlist":
                assert r.returncode == 1 and "still open" in msg, msg
                continue
            assert r.returncode == rc and needle in msg, (what, mode, msg)
            assert len(msg) < 400, (what, mode, msg)
            assert r.stdout == b"", (what, mode)
            if mode == "follow" and out.exists():  # the segments before the damage, and the message says so
                assert "m.ts received segment" in msg, (what, msg)
                assert f"({out.stat().st_size:,} bytes) before this: the output is incomplete" in msg, (what, msg)
                out.unlink()
            assert not out.exists(), (what, mode)
    # a playlist with CRLF line ends (a text tool's doing) still opens
    d = tmp_path / "crlf"
    shutil.copytree(tmp_path / "s", d)
    (d / "playlist.m3u8").write_bytes(good.replace(b"\n", b"\r\n"))
    assert _open(clip, d, tmp_path / "crlf.ts").returncode == 0
    # usage errors of both commands
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(os.urandom(5000))
    afile = tmp_path / "afile"
    afile.write_bytes(b"x")
    pk, sk = clip / "a.pk", clip / "a.sk"
    for argv, rc in [
        (["seal", "-r", pk, "-i", junk, "-o", tmp_path / "j"], 1),
        (["seal", "-r", pk, "-i", clip / "clip.mp4", "-o", afile / "sub"], 2),
        (["seal", "-r", pk, "-i", clip / "clip.mp4", "-o", tmp_path / "n", "--segment-time", "nan"], 2),
        (["seal", "-r", pk, "-i", clip / "clip.mp4", "-o", tmp_path / "n", "--segment-time", "inf"], 2),
        (["seal", "-r", pk, "-i", clip / "clip.mp4", "-o", tmp_path / "n", "--segment-time", "0"], 2),
        (["seal", "-r", pk, "-i", tmp_path / "nope.mp4", "-o", tmp_path / "n"], 2),
        (["open", "--identity", sk, "-i", tmp_path / "s", "-o", "-", "--timeout", "1"], 2),
        (["open", "--identity", sk, "-i", tmp_path / "s", "-o", "-", "--follow", "--timeout", "nan"], 2),
        (["open", "--identity", sk, "-i", tmp_path / "s", "-o", tmp_path], 2),
        (["open", "--identity", sk, "-i", afile, "-o", "-"], 2),
    ]:
        r = run(NURI, "video", *argv)
        _one_line(r.stderr)
        assert r.returncode == rc, (argv, r.stderr)
    assert not (tmp_path / "j").exists() and not (tmp_path / "n").exists()


def test_segments_are_the_ffmpeg_stream_cut_at_keyframes(clip, tmp_path):
    """The segments concatenate to exactly the MPEG-TS stream ffmpeg writes, and each one starts with
    the tables and a keyframe, so it plays on its own."""
    _seal(clip, tmp_path / "s")
    parts = _segments_plaintext(clip, tmp_path / "s")
    ts = subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", str(clip / "clip.mp4")]
        + ["-map", "0:v:0", "-map", "0:a?", "-c", "copy", "-f", "mpegts", "pipe:1"],
        capture_output=True,
        check=True,
    ).stdout
    assert b"".join(parts) == ts
    for seg in parts:
        assert seg[1:3] in (b"\x40\x00", b"\x40\x11")  # PAT or SDT first
        r = subprocess.run(
            ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame"]
            + ["-of", "csv=p=0", "-"],
            input=seg,
            capture_output=True,
        )
        keys = [k.split(",")[0] for k in r.stdout.decode().split()]
        assert len(keys) == 15 and keys[0] == "1", keys
    pl = (tmp_path / "s" / "playlist.m3u8").read_text()
    assert pl.count("#EXTINF:1.000,") == 4 and pl.endswith("#EXT-X-ENDLIST\n")


def test_mpegts_cutter(clip, tmp_path):
    """The cutter on ffmpeg's stream with audio: any split of the input gives the same segments, the
    segments concatenate to the input; lost sync, a packet cut short and a keyframe-less flood are errors."""
    import random

    from nuri.seal.mpegts import MpegTsCutter, MpegTsError

    av = tmp_path / "av.mp4"
    subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", str(clip / "clip.mp4"), "-f", "lavfi"]
        + ["-i", "sine=duration=4", "-c:v", "copy", "-c:a", "aac", "-shortest", str(av)],
        check=True,
    )
    ts = subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", str(av), "-c", "copy", "-f", "mpegts", "pipe:1"],
        capture_output=True,
        check=True,
    ).stdout

    def cut(data, seconds, sizes):
        c, segs = MpegTsCutter(seconds), []

        def keep(v, s):
            segs.append((bytes(v), round(s, 3)))

        i = 0
        try:
            for k in sizes:
                c.feed(data[i : i + k], keep)
                i += k
            c.feed(data[i:], keep)
            c.finish(keep)
        finally:
            c.close()
        return segs

    whole = cut(ts, 1.0, [])
    assert [s for _, s in whole] == [1.0, 1.0, 1.0, 1.0] and b"".join(b for b, _ in whole) == ts
    rng = random.Random(5)
    for _ in range(5):
        assert cut(ts, 1.0, [rng.randint(1, 3000) for _ in range(60)]) == whole
    assert [s for _, s in cut(ts, 2.0, [])] == [2.0, 2.0]
    assert len(cut(ts, 100.0, [])) == 1 and len(cut(ts, 0.01, [])) == 4  # one keyframe a second
    with pytest.raises(MpegTsError, match="sync"):
        cut(ts[:1000] + b"\x00" + ts[1000:], 1.0, [])
    with pytest.raises(MpegTsError, match="inside a packet"):
        cut(ts[:-5], 1.0, [])
    with pytest.raises(MpegTsError, match="no keyframe"):
        c = MpegTsCutter(1000.0, max_segment=50000)
        try:
            c.feed(ts, lambda v, s: None)
        finally:
            c.close()
    assert cut(b"", 1.0, []) == []


def _fsize_limit():
    import resource
    import signal

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail with EFBIG instead
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


def test_write_errors_are_one_line(clip, tmp_path):
    """A full disk (RLIMIT_FSIZE: EFBIG part way; /dev/full: ENOSPC) while sealing or opening: one
    line, exit 2, and no output left behind (no stream directory nuri created, no OUT)."""
    r = run(
        NURI,
        "video",
        "seal",
        "-r",
        clip / "a.pk",
        "-i",
        clip / "clip.mp4",
        "-o",
        tmp_path / "s",
        preexec_fn=_fsize_limit,
    )
    assert r.returncode == 2 and "cannot write" in _one_line(r.stderr) and not (tmp_path / "s").exists()
    _seal(clip, tmp_path / "s")
    r = run(
        NURI,
        "video",
        "open",
        "--identity",
        clip / "a.sk",
        "-i",
        tmp_path / "s",
        "-o",
        tmp_path / "o.ts",
        preexec_fn=_fsize_limit,
    )
    assert r.returncode == 2 and "cannot write" in _one_line(r.stderr) and not (tmp_path / "o.ts").exists()
    with open("/dev/full", "wb") as full:
        for extra in ([], ["--follow"]):
            r = subprocess.run(
                [NURI, "video", "open", "--identity", str(clip / "a.sk"), "-i", str(tmp_path / "s"), "-o", "-"] + extra,
                stdout=full,
                stderr=subprocess.PIPE,
            )
            assert r.returncode == 2 and "No space left on device" in _one_line(r.stderr), r.stderr
    assert sorted(os.listdir(tmp_path)) == ["s"]


def test_seal_video_from_threads(clip, tmp_path):
    """seal_video on two threads at once (each ffmpeg tied to the thread that started it lives as long
    as its call): both streams open to every frame."""
    import threading

    from nuri.seal import recipients, video

    (pk,) = recipients.load_recipients((clip / "a.pk").read_bytes())
    errors, counts = [], {}

    def seal(name):
        try:
            counts[name] = video.seal_video(str(clip / "clip.mp4"), str(tmp_path / name), [pk], 1.0)
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=seal, args=(n,)) for n in ("t1", "t2")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors and counts == {"t1": 4, "t2": 4}
    for name in counts:
        assert frames(b"".join(_segments_plaintext(clip, tmp_path / name))) == "h264,60"
