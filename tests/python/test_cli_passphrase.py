"""Passphrase handling says no in one line: a missing argon2-cffi (a dependency of nuri), an empty
--argon2, and no terminal to ask on (getpass would read stdin with an echo warning)."""

import os
import subprocess
import sys

NURI_BIN = os.path.join(os.path.dirname(sys.executable), "nuri")


def run(tmp_path, *argv, env=None, **kw):
    e = dict(os.environ, NURI_NO_PROGRESS="1")
    e.pop("NURI_PASSPHRASE", None)
    e.update(env or {})
    return subprocess.run([NURI_BIN, *[str(a) for a in argv]], capture_output=True, env=e, **kw)


def one_line_2(r):
    err = r.stderr.decode()
    assert r.returncode == 2, (r.returncode, err)
    assert "Traceback" not in err and "Warning" not in err, err
    assert len(err.strip().splitlines()) == 1, err
    return err


def test_missing_argon2_names_the_package(tmp_path):
    """Hide argon2 with a module that fails to import, first on the path."""
    (tmp_path / "p").write_bytes(b"x")
    fake = tmp_path / "fake"
    (fake / "argon2").mkdir(parents=True)
    (fake / "argon2" / "__init__.py").write_text("raise ImportError('No module named argon2')\n")
    pp = os.pathsep.join([str(fake)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    r = run(
        tmp_path,
        "seal",
        "-p",
        "-i",
        tmp_path / "p",
        "-o",
        tmp_path / "s",
        env={"NURI_PASSPHRASE": "x", "PYTHONPATH": pp},
    )
    err = one_line_2(r)
    assert "pip install argon2-cffi" in err and "nuri[" not in err
    assert not (tmp_path / "s").exists()


def test_empty_argon2_is_a_usage_error(tmp_path):
    (tmp_path / "p").write_bytes(b"x")
    r = run(
        tmp_path, "seal", "-p", "--argon2", "", "-i", tmp_path / "p", "-o", tmp_path / "s", env={"NURI_PASSPHRASE": "x"}
    )
    assert "--argon2" in one_line_2(r)
    assert not (tmp_path / "s").exists()


def test_no_terminal_no_echo_warning(tmp_path):
    (tmp_path / "p").write_bytes(b"x")
    r = run(
        tmp_path,
        "seal",
        "-p",
        "-i",
        tmp_path / "p",
        "-o",
        tmp_path / "s",
        input=b"secret\nsecret\n",
        start_new_session=True,
    )  # no controlling terminal: /dev/tty cannot be opened
    assert "no terminal" in one_line_2(r)
    assert not (tmp_path / "s").exists()
