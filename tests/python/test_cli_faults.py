"""Faults that lose nothing: a killed `open` leaves no plaintext (temporaries are 0600, unnamed
where the filesystem allows, removed on SIGINT/SIGTERM/SIGHUP), `--force` never renames over a device, a
FIFO or a symlink, and full disks, /dev/full and read errors give one line, exit 2 and no partial output."""

import contextlib
import os
import resource
import signal
import socket
import stat
import subprocess
import sys
import threading
import time

import pytest

NURI_BIN = os.path.join(os.path.dirname(sys.executable), "nuri")
KEY_HEX = "00112233445566778899aabbccddeeff"


def run(*argv, **kw):
    env = dict(os.environ, NURI_KEY_HEX=KEY_HEX, NURI_NO_PROGRESS="1")
    env.update(kw.pop("env", {}))
    return subprocess.run([NURI_BIN] + [str(a) for a in argv], capture_output=True, env=env, **kw)


def one_line_exit_2(r):
    err = r.stderr.decode()
    assert r.returncode == 2, (r.returncode, err)
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert len(err.strip().splitlines()) == 1, err


@pytest.fixture
def sealed(tmp_path):
    """A 10 MiB sealed file (more than two of the 4 MiB groups `open` works on), and its plaintext."""
    data = os.urandom(10 << 20)
    (tmp_path / "p").write_bytes(data)
    assert run("seal", "-i", tmp_path / "p", "-o", tmp_path / "s").returncode == 0
    return tmp_path / "s", data


def _fd_targets(pid):
    out = {}
    with contextlib.suppress(FileNotFoundError):
        for n in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                out[n] = os.readlink(f"/proc/{pid}/fd/{n}")
    return out


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGKILL])
def test_killed_open_leaves_no_plaintext(tmp_path, sealed, sig):
    """`open` from a pipe that stalls before the last chunk: the partial plaintext sits in a 0600
    temporary; the signal leaves no file behind (SIGKILL too: the temporary is unnamed, O_TMPFILE)."""
    path, data = sealed
    blob = path.read_bytes()
    outdir = tmp_path / "out"
    outdir.mkdir()
    # the child starts with default dispositions: under nohup (or a CI runner ignoring SIGHUP) nuri
    # keeps an inherited SIG_IGN, as it should, and the signal would not be tested
    p = subprocess.Popen(
        [NURI_BIN, "open", "-i", "-", "-o", str(outdir / "plain")],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ, NURI_KEY_HEX=KEY_HEX, NURI_NO_PROGRESS="1"),
        preexec_fn=lambda: [signal.signal(s, signal.SIG_DFL) for s in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT)],
    )
    p.stdin.write(blob[: len(blob) - (100 << 10)])  # all but the last chunks: plaintext is being written
    p.stdin.flush()
    tmp_fd = None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and tmp_fd is None:
        for n, t in _fd_targets(p.pid).items():
            if t.startswith(str(outdir)):
                st = os.stat(f"/proc/{p.pid}/fd/{n}")
                if st.st_size > 0:
                    tmp_fd = (n, t, st)
        time.sleep(0.05)
    assert tmp_fd is not None, "open never wrote its temporary output"
    n, target, st = tmp_fd
    assert stat.S_IMODE(st.st_mode) == 0o600, oct(st.st_mode)  # partial plaintext: owner only
    p.send_signal(sig)
    # stdin stays open until the process is gone: closing it first races the signal with an
    # end of input (then open reports the truncation, exit 1, also writing nothing)
    rc = p.wait(timeout=20)
    try:
        p.stdin.close()
    except BrokenPipeError:
        pass
    err = p.stderr.read().decode()
    assert "Traceback" not in err, err
    assert rc != 0
    if sig == signal.SIGKILL:
        assert rc == -sig
        # an unnamed temporary (O_TMPFILE) disappears with the process; a named one would stay 0600
        left = list(outdir.iterdir())
        assert all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in left), left
        if "(deleted)" in target or target.startswith(str(outdir) + "/#"):
            assert left == []
    else:
        assert rc in (128 + sig, 130, -sig), (rc, err)
        assert list(outdir.iterdir()) == []


def test_open_final_mode_and_temporary(tmp_path, sealed):
    path, data = sealed
    old = os.umask(0o022)
    try:
        assert run("open", "-i", path, "-o", tmp_path / "o").returncode == 0
    finally:
        os.umask(old)
    assert (tmp_path / "o").read_bytes() == data
    assert stat.S_IMODE((tmp_path / "o").stat().st_mode) == 0o644  # a new file's mode (0666 - umask), as documented
    assert not [f for f in tmp_path.iterdir() if f.name.startswith(".nuri-")]


# ------------------------------------------------------------------ --force and special files


def test_force_onto_fifo_writes_through_after_verification(tmp_path, sealed):
    path, data = sealed
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got = {}

    def reader():
        with open(fifo, "rb") as f:
            got["data"] = f.read()

    t = threading.Thread(target=reader)
    t.start()
    r = run("open", "-i", path, "-o", fifo, "--force", timeout=60)
    t.join(30)
    assert r.returncode == 0, r.stderr
    assert got["data"] == data and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    # a tampered file: the FIFO's reader gets nothing at all (verified before the first byte is written)
    bad = bytearray(path.read_bytes())
    bad[-1] ^= 1
    (tmp_path / "bad").write_bytes(bad)
    t = threading.Thread(target=reader)
    t.start()
    r = run("open", "-i", tmp_path / "bad", "-o", fifo, timeout=60)
    t.join(30)
    assert r.returncode == 1 and got["data"] == b""
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_force_onto_char_device_and_symlink(tmp_path, sealed):
    path, data = sealed
    dev = tmp_path / "null"
    try:
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # /dev/null's numbers
    except PermissionError:
        dev = None
    for target in ([dev] if dev else []) + ["/dev/null"]:
        link = tmp_path / "link"
        with contextlib.suppress(FileNotFoundError):
            link.unlink()
        link.symlink_to(target)
        for out in ([dev] if dev else []) + [link]:
            r = run("open", "-i", path, "-o", out, "--force")
            assert r.returncode == 0, r.stderr
        assert os.path.islink(link) and os.readlink(link) == str(target)
        if dev:
            assert stat.S_ISCHR(os.lstat(dev).st_mode)
    # a symlink to a regular file: the file is replaced, the link stays a link
    (tmp_path / "real").write_bytes(b"old")
    (tmp_path / "l2").symlink_to(tmp_path / "real")
    assert run("open", "-i", path, "-o", tmp_path / "l2", "--force").returncode == 0
    assert os.path.islink(tmp_path / "l2") and (tmp_path / "real").read_bytes() == data


def test_refuses_other_special_files(tmp_path, sealed):
    path, _ = sealed
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(tmp_path / "sock"))
    try:
        for cmd in (["open", "-i", path], ["seal", "-i", path], ["pipo", "encrypt", "--mode", "ctr", "-i", path]):
            r = run(*cmd, "-o", tmp_path / "sock", "--force")
            one_line_exit_2(r)
            assert b"not a regular file" in r.stderr
            assert stat.S_ISSOCK(os.lstat(tmp_path / "sock").st_mode)
        (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
        one_line_exit_2(run("open", "-i", path, "-o", tmp_path / "dangling", "--force"))
    finally:
        s.close()


# ------------------------------------------------------------------ full disks and I/O errors


@pytest.fixture
def tiny_fs(tmp_path):
    """A 16 KiB tmpfs (needs root and mount(2)); the rlimit tests below run everywhere."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    if (
        os.geteuid() != 0
        or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(mnt)], capture_output=True).returncode
    ):
        pytest.skip("mounting a tmpfs needs root and mount(2) (make check runs as root in CI)")
    yield mnt
    subprocess.run(["umount", str(mnt)], check=True)


def _commands(tmp_path, big):
    (tmp_path / "big").write_bytes(big)
    assert run("seal", "-i", tmp_path / "big", "-o", tmp_path / "big.sealed").returncode == 0
    csv = "id,card\n" + "".join(f"{i},{4000000000000000 + i * 7919}\n" for i in range(3000))
    (tmp_path / "c.csv").write_text(csv)
    return {
        "seal": ["seal", "-i", tmp_path / "big"],
        "open": ["open", "-i", tmp_path / "big.sealed"],
        "pipo": ["pipo", "encrypt", "--mode", "ctr", "-i", tmp_path / "big"],
        "fpe-csv": ["fpe", "encrypt", "--column", "card", "--format", "digits", "-i", tmp_path / "c.csv"],
    }


def test_full_disk(tmp_path, tiny_fs):
    big = os.urandom(64 << 10)
    for name, cmd in _commands(tmp_path, big).items():
        r = run(*cmd, "-o", tiny_fs / "out")
        one_line_exit_2(r)
        assert b"No space left on device" in r.stderr, (name, r.stderr)
        assert list(tiny_fs.iterdir()) == [], name
    # ML-KEM: sk (2400 B) fits, pk would not: neither is left
    (tiny_fs / "filler").write_bytes(b"x" * (12 << 10))
    r = run("kem", "keygen", "--public", tiny_fs / "pk", "--secret", tiny_fs / "sk")
    one_line_exit_2(r)
    assert sorted(f.name for f in tiny_fs.iterdir()) == ["filler"]


def test_full_disk_parquet(tmp_path, tiny_fs):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    pq.write_table(
        pa.table({"card": [str(4000000000000000 + i * 7919) for i in range(20000)]}),
        tmp_path / "c.parquet",
        compression="none",
    )
    r = run(
        "fpe",
        "encrypt",
        "--column",
        "card",
        "--format",
        "digits",
        "-i",
        tmp_path / "c.parquet",
        "-o",
        tiny_fs / "out.parquet",
    )
    one_line_exit_2(r)
    assert list(tiny_fs.iterdir()) == []


def _fsize_limit():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail with EFBIG instead
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


def test_write_error_on_a_file_any_user(tmp_path):
    """The same without root: RLIMIT_FSIZE makes writes fail (EFBIG) part way."""
    big = os.urandom(64 << 10)
    for name, cmd in _commands(tmp_path, big).items():
        r = run(*cmd, "-o", tmp_path / "out", preexec_fn=_fsize_limit)
        one_line_exit_2(r)
        assert not (tmp_path / "out").exists(), name
        assert not [f for f in tmp_path.iterdir() if f.name.startswith(".nuri-")], name


def test_dev_full_stdout(tmp_path):
    big = os.urandom(64 << 10)
    cmds = _commands(tmp_path, big)
    with open("/dev/full", "wb") as full:
        for name, cmd in cmds.items():
            r = subprocess.run(
                [NURI_BIN] + [str(a) for a in cmd] + ["-o", "-"],
                stdout=full,
                stderr=subprocess.PIPE,
                env=dict(os.environ, NURI_KEY_HEX=KEY_HEX),
            )
            one_line_exit_2(r)
            assert b"No space left on device" in r.stderr, (name, r.stderr)
        (tmp_path / "a").write_bytes(b"abc")
        r = subprocess.run([NURI_BIN, "hash", "esch256", str(tmp_path / "a")], stdout=full, stderr=subprocess.PIPE)
        one_line_exit_2(r)
        r = subprocess.run(
            [NURI_BIN, "kem", "keygen", "--public", str(tmp_path / "pk"), "--secret", str(tmp_path / "sk")],
            stdout=full,
            stderr=subprocess.PIPE,
        )
        assert r.returncode == 0  # writes files, nothing to stdout


def test_read_errors_are_one_line(tmp_path):
    for cmd in (
        ["seal", "-o", tmp_path / "o"],
        ["pipo", "encrypt", "--mode", "ctr", "-o", tmp_path / "o"],
        ["hash", "esch256"],
    ):
        r = (
            run(*cmd, "-i" if cmd[0] != "hash" else "", "/proc/self/mem")
            if cmd[0] != "hash"
            else run(*cmd, "/proc/self/mem")
        )
        one_line_exit_2(r)
        assert b"/proc/self/mem" in r.stderr and b"Input/output error" in r.stderr
        assert not (tmp_path / "o").exists()
