"""nuri video seal/open: ffmpeg cuts H.264 into MPEG-TS segments at keyframes, each sealed with its
index and the stream's header MAC bound in. Checks the frames survive, every kind of segment damage
is reported by index with exit 1 and no output, and live pipes (stdin to stdout) work."""

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
        "nuri.seal.videobench",
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
