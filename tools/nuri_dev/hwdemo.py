"""The ML-KEM hardware core in the main job (``nuri report``, ``make demo``): ML-KEM-768 with two
dual-butterfly units (NBU = 2) in the Verilator simulation, KeyGen, Encaps and Decaps, each output
compared bit for bit with nuri's C library (nuri.mlkem), and the core's cycles as bench records;
then one video sealed with keys the core encapsulated (``sealed_clip``: the 10 s 1080p H.264 clip
through ``nuri video seal --kem-impl hw``, opened by the software path). The full sweep (every level
and NBU, synthesis estimates, Fmax) is `make hw-report`."""

import os
import shutil
import subprocess
import sys
import time

from nuri import hw, mlkem

from . import checkout

LEVEL, NBU = 768, 2
# The deterministic inputs first (an all-zero m and the seed 00 01 .. 3f), then random ones.
FIXED_SEED, FIXED_M = bytes(range(64)), bytes(32)


def _record(op, metric, values):
    vals = sorted(values)
    return {
        "family": "mlkem-hw",
        "impl": f"bu{NBU}",
        "op": op,
        "param": f"ML-KEM-{LEVEL}",
        "size": 1,
        "platform": "verilator",
        "metric": metric,
        "median": vals[len(vals) // 2],
        "min": vals[0],
        "max": vals[-1],
        "runs": len(vals),
    }


def missing():
    """Why the simulation cannot run here (None when it can)."""
    if "verilator" not in hw.backends():
        return "the nuri-dev toolkit's verilator backend is not installed (make python)"
    for tool in ("verilator", "g++", "make"):
        if not shutil.which(tool):
            return f"not installed: {tool} (scripts/bootstrap.sh hwsim)"
    return None


def run(trials=3, log=print):
    """-> (records, (part name, status, why)). Each trial: keygen, encaps, decaps, and decaps of a
    ciphertext with one bit flipped (implicit rejection), every output equal to nuri.mlkem's."""
    name = "ML-KEM hardware"
    why = missing()
    if why:
        return [], (name, "skipped", why)
    t0 = time.monotonic()
    log(f"report: ML-KEM-{LEVEL} hardware core, NBU = {NBU}, Verilator (built on first use) ...")
    try:
        dev = hw.simulator(LEVEL, nbu=NBU)
    except RuntimeError as e:
        return [], (name, "failed", str(e).splitlines()[0])
    built = time.monotonic() - t0
    cycles = {op: [] for op in ("keygen", "encaps", "decaps")}
    io = {op: [] for op in cycles}
    bad = []
    for i in range(trials):
        seed, m = (FIXED_SEED, FIXED_M) if i == 0 else (os.urandom(64), os.urandom(32))
        ek, dk = hw.keygen(LEVEL, seed, device=dev)
        cycles["keygen"].append(dev.cycles[0])
        io["keygen"].append(dev.cycles[1])
        if (ek, dk) != mlkem.keygen(LEVEL, seed):
            bad.append(f"keygen differs from nuri.mlkem (trial {i})")
        ss, ct = hw.encaps(LEVEL, ek, m=m, device=dev)
        cycles["encaps"].append(dev.cycles[0])
        io["encaps"].append(dev.cycles[1])
        if (ss, ct) != mlkem.encaps(LEVEL, ek, m=m):
            bad.append(f"encaps differs from nuri.mlkem (trial {i})")
        got = hw.decaps(LEVEL, dk, ct, device=dev)
        cycles["decaps"].append(dev.cycles[0])
        io["decaps"].append(dev.cycles[1])
        if got != ss or got != mlkem.decaps(LEVEL, dk, ct):
            bad.append(f"decaps differs from nuri.mlkem (trial {i})")
        flipped = bytearray(ct)
        flipped[i % len(ct)] ^= 1 << (i % 8)
        if hw.decaps(LEVEL, dk, bytes(flipped), device=dev) != mlkem.decaps(LEVEL, dk, bytes(flipped)):
            bad.append(f"implicit rejection differs from nuri.mlkem (trial {i})")
    recs = [_record(op, "cycles", v) for op, v in cycles.items()]
    recs += [_record(op, "io_cycles", v) for op, v in io.items()]
    took = time.monotonic() - t0
    if bad:
        return recs, (name, "failed", "; ".join(bad[:3]))
    c = {op: sorted(v)[len(v) // 2] for op, v in cycles.items()}
    return recs, (
        name,
        "ok",
        f"ML-KEM-{LEVEL} NBU {NBU} in Verilator: keygen {c['keygen']:,}, encaps {c['encaps']:,}, decaps "
        f"{c['decaps']:,} cycles; {trials} keygen/encaps/decaps + implicit rejection bit-exact with the C "
        f"library; {took:.1f} s ({built:.1f} s to build or load the model)",
    )


# ---- one hardware-sealed clip ----

CLIP = ("1920x1080", 10, 30)  # the published system's clip: 10 s of 1080p H.264
QUICK_CLIP = ("320x180", 2, 30)  # nuri report --quick


def make_clip(directory, size=CLIP[0], seconds=CLIP[1], fps=CLIP[2]):
    """An ffmpeg testsrc2 H.264 clip in directory (kept: made once), keyframes every second."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"testsrc2-{size}-{seconds}s-h264.mp4")
    if not os.path.exists(path):
        part = path + ".part.mp4"
        subprocess.run(
            ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
             f"testsrc2=size={size}:rate={fps}:duration={seconds}", "-c:v", "libx264", "-pix_fmt", "yuv420p",
             "-g", str(fps), part],
            check=True,
            stdin=subprocess.DEVNULL,  # ffmpeg reads keys from stdin: it would eat what make's caller pipes in
        )  # fmt: skip
        os.replace(part, path)
    return path


def _nuri(*argv):
    """The nuri command line in a process of its own: (exit status, last line of stderr)."""
    r = subprocess.run(
        [sys.executable, "-m", "nuri", *map(str, argv)], capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    return r.returncode, (r.stderr.strip().splitlines() or [""])[-1]


def sealed_clip(outdir, clip_dir=None, quick=False, log=print):
    """-> (part name, status, why). Seals the clip to an ML-KEM-768+X25519 key with `nuri video seal
    --kem-impl hw` (the ML-KEM half on the Verilator model of the core), into outdir with the key pair,
    then opens it with the software path (and with --kem-impl hw): both must give, byte for byte, the
    MPEG-TS stream ffmpeg makes of the clip. quick: a 2 s 320x180 clip instead."""
    from nuri.seal.video import ffmpeg_mpegts_cmd

    name = "hardware-sealed video"
    why = missing() or (None if shutil.which("ffmpeg") else "not installed: ffmpeg (scripts/bootstrap.sh video)")
    if why:
        return (name, "skipped", why)
    t0 = time.monotonic()
    clip_dir = clip_dir or str(checkout() / "build" / "hw" / "video")
    size, seconds, fps = QUICK_CLIP if quick else CLIP
    log(f"report: {seconds} s {size} H.264 clip sealed with nuri video seal --kem-impl hw ...")
    try:
        clip = make_clip(clip_dir, size, seconds, fps)
    except (OSError, subprocess.CalledProcessError) as e:
        return (name, "failed", f"ffmpeg could not make the clip: {e}")
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    pk, sk, sealed = (os.path.join(outdir, n) for n in ("demo.pk", "demo.sk", "sealed"))
    steps = [
        ("keygen", ["kem", "keygen", "--kem", "mlkem768-x25519", "--public", pk, "--secret", sk]),
        ("seal", ["video", "seal", "-r", pk, "-i", clip, "-o", sealed, "--kem-impl", "hw"]),
        ("open", ["video", "open", "--identity", sk, "-i", sealed, "-o", os.path.join(outdir, "opened.ts")]),
        (
            "open on the core",
            ["video", "open", "--identity", sk, "-i", sealed, "-o", os.path.join(outdir, "opened-hw.ts")]
            + ["--kem-impl", "hw"],
        ),
    ]
    for what, argv in steps:
        rc, line = _nuri(*argv)
        if rc != 0:
            return (name, "failed", f"nuri {' '.join(argv[:2])} ({what}): exit {rc}: {line}")
    want = subprocess.run(ffmpeg_mpegts_cmd(clip), capture_output=True, stdin=subprocess.DEVNULL).stdout
    got = [open(os.path.join(outdir, n), "rb").read() for n in ("opened.ts", "opened-hw.ts")]
    os.unlink(os.path.join(outdir, "opened-hw.ts"))
    if not want or any(g != want for g in got):
        return (name, "failed", "the opened stream differs from ffmpeg's MPEG-TS of the clip")
    segments = len([n for n in os.listdir(sealed) if n.endswith(".ts.nseal")])
    return (
        name,
        "ok",
        f"{seconds} s {size} H.264 sealed with nuri video seal --kem-impl hw (ML-KEM-768+X25519, the "
        f"ML-KEM half on the Verilator core) into {segments} segment{'s' if segments != 1 else ''}, opened by "
        "the software path and by the "
        f"core, both ffmpeg's MPEG-TS of the clip byte for byte ({len(want):,} bytes); {time.monotonic() - t0:.1f} s",
    )
