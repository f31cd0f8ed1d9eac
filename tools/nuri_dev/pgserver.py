"""A throw-away PostgreSQL server for tests and benchmarks (the nuri_fea extension is built and
installed by `make pg-install`).

``TempServer`` runs initdb + pg_ctl in a temporary directory, listening only on a Unix socket in
it. initdb refuses to run as root, so under root (CI) the server runs as the ``postgres`` user
that Debian's postgresql package creates (runuser). SQL goes through ``psql``.
"""

import os
import pathlib
import pwd
import shutil
import subprocess
import tempfile

PG_VERSION = "15"


def pg_bindir():
    """The server programs' directory (Debian: /usr/lib/postgresql/15/bin), or None."""
    for d in (os.environ.get("NURI_PG_BINDIR"), f"/usr/lib/postgresql/{PG_VERSION}/bin"):
        if d and os.path.exists(os.path.join(d, "initdb")):
            return d
    return None


def missing():
    """Why PostgreSQL cannot run here (None when it can)."""
    if pg_bindir() is None:
        return f"PostgreSQL {PG_VERSION} server not installed (Debian: postgresql-{PG_VERSION})"
    if not shutil.which("psql"):
        return "psql not found (Debian: postgresql-client-15)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run the server"
    return None


def extension_installed():
    d = pg_bindir()
    if d is None:
        return False
    share = subprocess.run([os.path.join(d, "pg_config"), "--sharedir"], capture_output=True, text=True).stdout.strip()
    return os.path.exists(os.path.join(share, "extension", "nuri_fea.control"))


class TempServer:
    """with TempServer() as pg: pg.sql("select 1") -> stdout text."""

    def __init__(self, key_dir=None, settings=None):
        self.key_dir_src, self.settings = key_dir, settings or {}

    def _as_server_user(self, argv):
        if os.geteuid() == 0:
            return ["runuser", "-u", "postgres", "--"] + argv
        return argv

    def __enter__(self):
        why = missing()
        if why:
            raise RuntimeError(why)
        self.bindir = pg_bindir()
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="nuri-pg-"))
        self.data, self.sock = self.dir / "data", self.dir / "sock"
        self.sock.mkdir()
        self.keys = self.dir / "keys"
        self.keys.mkdir(mode=0o700)
        if self.key_dir_src:
            for p in pathlib.Path(self.key_dir_src).glob("*.key"):
                shutil.copy(p, self.keys / p.name)
                os.chmod(self.keys / p.name, 0o600)
        if os.geteuid() == 0:
            pw = pwd.getpwnam("postgres")
            for p in [self.dir, self.sock, self.keys, *self.keys.iterdir()]:
                os.chown(p, pw.pw_uid, pw.pw_gid)
        self._run(
            [
                os.path.join(self.bindir, "initdb"),
                "-D",
                str(self.data),
                "-A",
                "trust",
                "-U",
                "postgres",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ]
        )
        conf = {
            "listen_addresses": "''",
            "unix_socket_directories": f"'{self.sock}'",
            "fsync": "off",
            "synchronous_commit": "off",
            "full_page_writes": "off",
            "nuri.key_dir": f"'{self.keys}'",
            "max_parallel_workers_per_gather": "0",
            "shared_buffers": "'256MB'",
            "max_wal_size": "'4GB'",
        }
        conf.update(self.settings)
        with open(self.data / "postgresql.conf", "a") as f:
            for k, v in conf.items():
                f.write(f"{k} = {v}\n")
        self._run(
            [
                os.path.join(self.bindir, "pg_ctl"),
                "-D",
                str(self.data),
                "-l",
                str(self.dir / "log"),
                "-w",
                "-t",
                "60",
                "start",
            ]
        )
        return self

    def _run(self, argv):
        r = subprocess.run(self._as_server_user(argv), capture_output=True, text=True)
        if r.returncode != 0:
            log = (self.dir / "log").read_text() if (self.dir / "log").exists() else ""
            raise RuntimeError(f"{' '.join(argv[:2])} failed: {r.stderr.strip()} {log[-2000:]}")
        return r.stdout

    def add_key(self, name, key_text):
        """Writes <keys>/<name>.key (mode 0600, owned by the server user)."""
        p = self.keys / f"{name}.key"
        p.write_text(key_text)
        os.chmod(p, 0o600)
        if os.geteuid() == 0:
            pw = pwd.getpwnam("postgres")
            os.chown(p, pw.pw_uid, pw.pw_gid)

    def sql(self, text, check=True, db="postgres"):
        """Runs SQL through psql (unaligned, tuples only); -> stdout. check=False returns
        (returncode, stdout, stderr) instead of raising on an error."""
        r = subprocess.run(
            ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", str(self.sock), "-U", "postgres", "-d", db],
            input=text,
            capture_output=True,
            text=True,
        )
        if not check:
            return r.returncode, r.stdout, r.stderr
        if r.returncode != 0:
            raise RuntimeError(f"psql failed: {r.stderr.strip()}")
        return r.stdout

    def __exit__(self, *exc):
        try:
            self._run([os.path.join(self.bindir, "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"])
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
