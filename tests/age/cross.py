#!/usr/bin/env python3
"""nuri against the real age tool (v1.3.2, built by `make check-age`), in both directions.

- nuri -> age: `nuri seal --format age` files (post-quantum keys made by nuri and by age-keygen,
  X25519, a passphrase, several recipients, post-quantum beside X25519 with --allow-mixed) open with
  `age -d` byte for byte; age -> nuri: files `age` writes open with `nuri open`; at sizes around the
  64 KiB chunk and nuri's 4 MiB group (0, 1, 64 KiB x k +/- 1, many chunks), armored and not.
- keys: identities and recipients made by either tool work in the other (age-keygen -y of a nuri
  identity gives nuri's recipient; a nuri v2 file sealed to an age1pq1 recipient opens with the age
  identity).
- rejections: files either tool wrote, tampered, truncated or opened with a wrong identity: both
  tools refuse them (nuri: exit 1, no output file).
- mutations: every header byte of an X25519 and of a passphrase file flipped, every eighth byte of a
  post-quantum header, truncations, reordered/duplicated/dropped stanzas, bad MACs, payload and armor
  damage: nuri exits 1 with one line, no traceback and no output, and age refuses each one too.

Prints the failed cases and the counts; exit status 1 if any case failed.
usage: cross.py --age-bin DIR [--work DIR] [--quick]
"""

import argparse
import contextlib
import io
import os
import shutil
import subprocess
import sys

KiB = 1 << 10
GROUP = 4 * 64 * KiB  # the chunks nuri reads, seals and writes at once in an age file (256 KiB)
SIZES_FULL = [0, 1, 1000, 64 * KiB - 1, 64 * KiB, 64 * KiB + 1, 128 * KiB - 1, 128 * KiB, 128 * KiB + 1]
SIZES_FULL += [GROUP - 1, GROUP, GROUP + 1, 64 * 64 * KiB + 1, 3 * 64 * 64 * KiB + 5]
SIZES_QUICK = [0, 64 * KiB, 64 * KiB + 1]
PASSPHRASE = "cross-test passphrase"
WORK_FACTOR = "10"


class Run:
    def __init__(self, age_bin, work, quick):
        self.age = os.path.join(age_bin, "age")
        self.keygen = os.path.join(age_bin, "age-keygen")
        self.nuri = os.path.join(os.path.dirname(sys.executable), "nuri")
        self.work, self.quick = work, quick
        self.env = dict(os.environ, PATH=age_bin + os.pathsep + os.environ.get("PATH", ""), NURI_NO_PROGRESS="1")
        self.env.update(AGE_PASSPHRASE=PASSPHRASE, AGE_PASSPHRASE_WORK_FACTOR=WORK_FACTOR, NURI_PASSPHRASE=PASSPHRASE)
        self.counts, self.failed = {}, []

    def p(self, name):
        return os.path.join(self.work, name)

    def sh(self, *cmd, stdin=None):
        return subprocess.run([str(c) for c in cmd], capture_output=True, env=self.env, stdin=stdin)

    def case(self, group, name, ok, why=""):
        n, good = self.counts.get(group, (0, 0))
        self.counts[group] = (n + 1, good + bool(ok))
        if not ok:
            self.failed.append(f"{group}: {name}: {why}")
            print(f"FAIL {group}: {name}: {why}", flush=True)

    # -- keys --

    def make_keys(self):
        must = self.sh
        r = must(
            self.nuri, "kem", "keygen", "--format", "age", "-o", self.p("n_pq.txt"), "--public", self.p("n_pq.pub")
        )
        assert r.returncode == 0, r.stderr
        assert must(self.keygen, "-pq", "-o", self.p("a_pq.txt")).returncode == 0
        assert must(self.keygen, "-o", self.p("a_x.txt")).returncode == 0
        assert must(self.keygen, "-o", self.p("a_x2.txt")).returncode == 0  # a stranger
        for k in ("a_pq", "a_x", "a_x2"):
            r = must(self.keygen, "-y", "-o", self.p(f"{k}.pub"), self.p(f"{k}.txt"))
            assert r.returncode == 0, r.stderr
        with open(self.p("both.txt"), "w") as f:  # an identity file with two identities
            f.write(open(self.p("a_x.txt")).read() + open(self.p("a_pq.txt")).read())
        # recipients: how nuri is given them (string, file) and how age is (-R file)
        self.read = lambda k: open(self.p(f"{k}.pub")).read().strip()
        self.kinds = {
            # name: (nuri -r values, age args, identity for the opener, nuri-only)
            "pq-nuri-key": ([self.p("n_pq.pub")], ["-R", self.p("n_pq.pub")], "n_pq.txt", False),
            "pq-age-key": ([self.read("a_pq")], ["-R", self.p("a_pq.pub")], "a_pq.txt", False),
            "x25519": ([self.read("a_x")], ["-r", self.read("a_x")], "a_x.txt", False),
            "passphrase": (None, None, None, False),
            "two-pq": (
                [self.p("n_pq.pub"), self.read("a_pq")],
                ["-R", self.p("n_pq.pub"), "-R", self.p("a_pq.pub")],
                "a_pq.txt",
                False,
            ),
            "pq+x25519": ([self.read("a_pq"), self.read("a_x")], None, "both.txt", True),  # age refuses to mix
        }

    def key_cases(self):
        g = "keys"
        r = self.sh(self.keygen, "-y", self.p("n_pq.txt"))
        self.case(
            g,
            "age-keygen -y of a nuri identity is nuri's recipient",
            r.stdout.decode().strip() == self.read("n_pq"),
            r.stderr,
        )
        data = os.urandom(5000)
        open(self.p("k.in"), "wb").write(data)
        # age encrypts to a nuri identity file itself (age -e -i)
        self.sh(self.age, "-e", "-i", self.p("n_pq.txt"), "-o", self.p("k1.age"), self.p("k.in"))
        r = self.open_nuri("k1.age", ["--identity", self.p("n_pq.txt")])
        self.case(g, "age -e -i <nuri identity> opens in nuri", r == data, "differs")
        # an identity file with two identities (X25519 and post-quantum) in both tools
        for who, f in (("x25519", "a_x"), ("pq", "a_pq")):
            self.sh(self.age, "-R", self.p(f"{f}.pub"), "-o", self.p("k2.age"), self.p("k.in"))
            r = self.open_nuri("k2.age", ["--identity", self.p("both.txt")])
            self.case(g, f"a two-identity file opens an age file to its {who} key in nuri", r == data, "differs")
        # nuri v2 files to age keys
        for k in ("a_pq", "n_pq"):
            r1 = self.sh(self.nuri, "seal", "-r", self.read(k), "-i", self.p("k.in"), "-o", self.p("k3.nseal"))
            r = self.open_nuri("k3.nseal", ["--identity", self.p(f"{k}.txt")])
            self.case(
                g, f"nuri v2 to {k} recipient opens with its age identity", r1.returncode == 0 and r == data, r1.stderr
            )
            os.unlink(self.p("k3.nseal"))
        # a nuri-kem-v1 ML-KEM-768+X25519 key file is an age recipient for nuri; age opens with... nothing
        # of its own, so the key's age form (the same seed) is checked instead: same public key
        r = self.sh(
            self.nuri, "seal", "--format", "age", "-r", self.p("n_pq.txt"), "-i", self.p("k.in"), "-o", self.p("k4.age")
        )
        self.case(g, "an identity file given where a recipient goes is refused (exit 2)", r.returncode == 2, r.stderr)

    # -- opening --

    def open_nuri(self, f, args):
        out = self.p("nuri.out")
        if os.path.exists(out):
            os.unlink(out)
        r = self.sh(self.nuri, "open", *args, "-i", self.p(f), "-o", out)
        if r.returncode != 0 or not os.path.exists(out):
            return None
        with open(out, "rb") as fh:
            return fh.read()

    def open_age(self, f, ident):
        args = ["-j", "batchpass"] if ident is None else ["-i", self.p(ident)]
        r = self.sh(self.age, "-d", *args, "-o", self.p("age.out"), self.p(f))
        if r.returncode != 0:
            return None
        with open(self.p("age.out"), "rb") as fh:
            return fh.read()

    def nuri_args(self, ident):
        return ["-p"] if ident is None else ["--identity", self.p(ident)]

    # -- the matrix --

    def matrix(self):
        sizes = SIZES_QUICK if self.quick else SIZES_FULL
        kinds = ["pq-nuri-key", "x25519", "passphrase"] if self.quick else list(self.kinds)
        for size in sizes:
            data = os.urandom(size)
            with open(self.p("m.in"), "wb") as f:
                f.write(data)
            for kind in kinds:
                rs, age_args, ident, nuri_only = self.kinds[kind]
                for armor in ([], ["-a"]):
                    label = f"{kind} {size} bytes{' armored' if armor else ''}"
                    # nuri -> age
                    if os.path.exists(self.p("m.age")):
                        os.unlink(self.p("m.age"))
                    if rs is None:
                        cmd = ["-p", "--scrypt-work-factor", WORK_FACTOR]
                    else:
                        cmd = [a for r in rs for a in ("-r", r)] + (["--allow-mixed"] if nuri_only else [])
                    r = self.sh(
                        self.nuri, "seal", "--format", "age", *armor, *cmd, "-i", self.p("m.in"), "-o", self.p("m.age")
                    )
                    got = self.open_age("m.age", ident) if r.returncode == 0 else None
                    self.case("nuri -> age", label, got == data, r.stderr.decode()[-200:] or "age -d differs or failed")
                    if nuri_only:
                        got = self.open_age("m.age", "a_pq.txt")  # the other identity opens it too
                        self.case("nuri -> age", label + " (post-quantum identity)", got == data, "age -d failed")
                        continue
                    # age -> nuri
                    if os.path.exists(self.p("m2.age")):
                        os.unlink(self.p("m2.age"))
                    a = ["-e", "-j", "batchpass"] if age_args is None else age_args
                    r = self.sh(self.age, *a, *armor, "-o", self.p("m2.age"), self.p("m.in"))
                    got = self.open_nuri("m2.age", self.nuri_args(ident)) if r.returncode == 0 else None
                    self.case(
                        "age -> nuri", label, got == data, r.stderr.decode()[-200:] or "nuri open differs or failed"
                    )

    # -- rejections, both ways --

    def rejections(self):
        g = "rejections"
        sizes = [64 * KiB] if self.quick else [0, 64 * KiB, 200_000]
        for size in sizes:
            data = os.urandom(size)
            with open(self.p("r.in"), "wb") as f:
                f.write(data)
            for kind in ("pq-age-key", "x25519", "passphrase"):
                rs, age_args, ident, _ = self.kinds[kind]
                made = {}
                cmd = ["-p", "--scrypt-work-factor", WORK_FACTOR] if rs is None else [a for r in rs for a in ("-r", r)]
                r1 = self.sh(
                    self.nuri, "seal", "--force", "--format", "age", *cmd, "-i", self.p("r.in"), "-o", self.p("r_n.age")
                )
                a = ["-e", "-j", "batchpass"] if age_args is None else age_args
                r2 = self.sh(self.age, *a, "-o", self.p("r_a.age"), self.p("r.in"))
                assert r1.returncode == 0 and r2.returncode == 0, (r1.stderr, r2.stderr)
                for maker in ("n", "a"):
                    with open(self.p(f"r_{maker}.age"), "rb") as f:
                        made[maker] = f.read()
                for maker, blob in made.items():
                    hl = blob.index(b"\n---") + 49
                    bad = {
                        "payload byte flipped": blob[:-1] + bytes([blob[-1] ^ 0x40]),
                        "stanza byte flipped": blob[:30] + bytes([blob[30] ^ 1]) + blob[31:],
                        "last byte cut": blob[:-1],
                        "cut after the nonce": blob[: hl + 16],
                        "cut at a chunk boundary": blob[: hl + 16 + 65552] if size > 65536 else blob[:hl],
                        "a byte appended": blob + b"\x00",
                    }
                    for name, b in bad.items():
                        self.both_refuse(
                            g, f"{kind} {size} bytes by {'nuri' if maker == 'n' else 'age'}: {name}", b, ident
                        )
                    if ident is not None:  # a wrong identity
                        self.both_refuse(
                            g,
                            f"{kind} {size} bytes by {'nuri' if maker == 'n' else 'age'}: wrong identity",
                            blob,
                            "a_x2.txt",
                        )
                    else:
                        env = dict(self.env)
                        self.env.update(AGE_PASSPHRASE="wrong", NURI_PASSPHRASE="wrong")
                        self.both_refuse(
                            g,
                            f"{kind} {size} bytes by {'nuri' if maker == 'n' else 'age'}: wrong passphrase",
                            blob,
                            None,
                        )
                        self.env = env

    def both_refuse(self, g, name, blob, ident, in_process=False):
        with open(self.p("x.age"), "wb") as f:
            f.write(blob)
        out = self.p("x.out")
        for p in (out, self.p("age.out")):
            if os.path.exists(p):
                os.unlink(p)
        if in_process:
            rc, err = self.nuri_in_process(["open", *self.nuri_args(ident), "-i", self.p("x.age"), "-o", out])
        else:
            r = self.sh(self.nuri, "open", *self.nuri_args(ident), "-i", self.p("x.age"), "-o", out)
            rc, err = r.returncode, r.stderr.decode()
        left = [n for n in os.listdir(self.work) if n.startswith(".nuri-")]
        ok_nuri = (
            rc == 1
            and not os.path.exists(out)
            and not left
            and "Traceback" not in err
            and len(err.strip().splitlines()) == 1
        )
        got_age = self.open_age("x.age", ident)
        self.case(
            g,
            name,
            ok_nuri and got_age is None,
            f"nuri rc={rc} ({err.strip()[:160]}), age {'opened it' if got_age is not None else 'refused'}",
        )

    def nuri_in_process(self, argv):
        from nuri.cli.main import main

        err = io.StringIO()
        saved = {k: os.environ.get(k) for k in ("NURI_PASSPHRASE", "NURI_NO_PROGRESS")}
        os.environ.update(NURI_PASSPHRASE=self.env["NURI_PASSPHRASE"], NURI_NO_PROGRESS="1")
        try:
            with contextlib.redirect_stderr(err):
                try:
                    rc = main(argv)
                except SystemExit as e:
                    rc = e.code
                except Exception as e:  # an escaped exception is a traceback for the user
                    rc, err = -1, io.StringIO(f"Traceback: {type(e).__name__}: {e}")
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        return rc, err.getvalue()

    # -- mutations --

    def mutations(self):
        g = "mutations"
        data = os.urandom(200_000)
        with open(self.p("mu.in"), "wb") as f:
            f.write(data)
        self.sh(self.age, "-R", self.p("a_x.pub"), "-o", self.p("mu_x.age"), self.p("mu.in"))
        self.sh(self.age, "-a", "-R", self.p("a_x.pub"), "-o", self.p("mu_xa.age"), self.p("mu.in"))
        self.sh(
            self.nuri,
            "seal",
            "--format",
            "age",
            "-p",
            "--scrypt-work-factor",
            WORK_FACTOR,
            "-i",
            self.p("mu.in"),
            "-o",
            self.p("mu_s.age"),
        )
        self.sh(
            self.nuri,
            "seal",
            "--format",
            "age",
            "-r",
            self.read("a_pq"),
            "-i",
            self.p("mu.in"),
            "-o",
            self.p("mu_pq.age"),
        )
        three = [self.read("a_pq"), self.read("n_pq"), self.read("a_pq")]
        self.sh(
            self.nuri,
            "seal",
            "--format",
            "age",
            *[a for r in three for a in ("-r", r)],
            "-i",
            self.p("mu.in"),
            "-o",
            self.p("mu_3.age"),
        )
        files = {}
        for k, ident in (("x", "a_x.txt"), ("xa", "a_x.txt"), ("s", None), ("pq", "a_pq.txt"), ("3", "n_pq.txt")):
            with open(self.p(f"mu_{k}.age"), "rb") as f:
                files[k] = f.read()
            # the files mutated below open in both tools as they are
            got = (self.open_nuri(f"mu_{k}.age", self.nuri_args(ident)), self.open_age(f"mu_{k}.age", ident))
            self.case("mutation bases", f"mu_{k}.age opens in nuri and age", got == (data, data), "it does not")
        muts = []  # (name, bytes, identity)

        def hlen(b):
            return b.index(b"\n---") + 49

        def flip(b, i, m=1):
            return b[:i] + bytes([b[i] ^ m]) + b[i + 1 :]

        x, s, pq, three_b, xa = files["x"], files["s"], files["pq"], files["3"], files["xa"]
        stride = 16 if self.quick else 1
        muts += [(f"X25519 header byte {i} flipped", flip(x, i), "a_x.txt") for i in range(0, hlen(x), stride)]
        if not self.quick:
            muts += [(f"scrypt header byte {i} flipped", flip(s, i), None) for i in range(hlen(s))]
            muts += [(f"post-quantum header byte {i} flipped", flip(pq, i), "a_pq.txt") for i in range(0, hlen(pq), 8)]
        h = hlen(x)
        cuts = sorted(
            {0, 1, 21, 22, 23, h - 1, h, h + 1, h + 8, h + 15, h + 16, h + 17, h + 16 + 65552, h + 16 + 65551}
        )
        cuts += [h + 16 + 65553, len(x) - 17, len(x) - 16, len(x) - 1]
        cuts += [i + 1 for i, c in enumerate(x[:h]) if c == 10]  # after every header line
        muts += [(f"X25519 file cut to {c} bytes", x[:c], "a_x.txt") for c in sorted(set(cuts)) if c < len(x)]
        # stanzas reordered, duplicated, dropped (three post-quantum stanzas)
        lines = three_b[: hlen(three_b)].split(b"\n")
        st = [i for i, ln in enumerate(lines) if ln.startswith(b"->")]
        blocks = [lines[a:b] for a, b in zip(st, st[1:] + [len(lines) - 2])]
        head, tail, rest = lines[: st[0]], lines[len(lines) - 2 :], three_b[hlen(three_b) :]

        def rebuild(bs):
            return b"\n".join(head + [ln for b in bs for ln in b] + tail) + rest

        assert rebuild(blocks) == three_b
        for name, bs in (
            ("stanzas 1 and 2 swapped", [blocks[1], blocks[0], blocks[2]]),
            ("stanzas reversed", blocks[::-1]),
            ("stanza 1 duplicated", [blocks[0]] + blocks),
            ("stanza 3 dropped", blocks[:2]),
            ("stanza 1 dropped", blocks[1:]),
        ):
            muts.append((name, rebuild(bs), "a_pq.txt"))
        # MACs
        mac_at = hlen(x) - 44
        muts.append(("MAC of another file", x[:mac_at] + s[hlen(s) - 44 : hlen(s) - 1] + x[hlen(x) - 1 :], "a_x.txt"))
        muts.append(("MAC all A", x[:mac_at] + b"A" * 43 + x[hlen(x) - 1 :], "a_x.txt"))
        muts.append(("MAC not canonical", x[: hlen(x) - 2] + bytes([x[hlen(x) - 2] ^ 1]) + x[hlen(x) - 1 :], "a_x.txt"))
        muts.append(("MAC line without its space", x[: mac_at - 1] + x[mac_at:], "a_x.txt"))
        # payload
        p0 = hlen(x) + 16
        c = [x[p0 + i * 65552 : p0 + (i + 1) * 65552] for i in range(4)]
        muts += [(f"chunk {i} flipped", flip(x, p0 + i * 65552 + 100), "a_x.txt") for i in range(4)]
        muts.append(("chunks 1 and 2 swapped", x[:p0] + c[0] + c[2] + c[1] + c[3], "a_x.txt"))
        muts.append(("chunk 1 duplicated", x[:p0] + c[0] + c[1] + c[1] + c[2] + c[3], "a_x.txt"))
        muts.append(("final chunk dropped", x[:p0] + c[0] + c[1] + c[2], "a_x.txt"))
        muts.append(("nonce flipped", flip(x, hlen(x) + 3), "a_x.txt"))
        muts.append(("16 bytes appended", x + bytes(16), "a_x.txt"))
        # armor
        alines = xa.split(b"\n")
        step = 8 if self.quick else 1
        for i in range(1, len(alines) - 2, max(1, (len(alines) - 3) // (4 if self.quick else 24)) * step):
            j = sum(len(ln) + 1 for ln in alines[:i]) + 10
            muts.append((f"armored line {i} flipped", flip(xa, j, 0x20), "a_x.txt"))
        muts.append(("armored line removed", b"\n".join(alines[:5] + alines[6:]), "a_x.txt"))
        muts.append(("armor END line missing", b"\n".join(alines[:-2]) + b"\n", "a_x.txt"))
        muts.append(("armor BEGIN line changed", xa.replace(b"BEGIN AGE", b"BEGIN PGP", 1), "a_x.txt"))
        self.mutation_count = len(muts)
        for k, (name, blob, ident) in enumerate(muts):
            # every tenth through a real process, the others in this process (the same main())
            self.both_refuse(g, name, blob, ident, in_process=k % 10 != 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--age-bin", required=True, help="folder holding age, age-keygen and age-plugin-batchpass")
    ap.add_argument("--work", default="build/age-cross")
    ap.add_argument("--quick", action="store_true", help="a few sizes and mutations (make check)")
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    run = Run(os.path.abspath(a.age_bin), os.path.abspath(a.work), a.quick)
    ver = run.sh(run.age, "--version").stdout.decode().strip()
    print(f"age cross: nuri against age {ver} ({'quick' if a.quick else 'full'})", flush=True)
    run.make_keys()
    run.key_cases()
    run.matrix()
    run.rejections()
    run.mutations()
    total = good = 0
    for g, (n, ok) in run.counts.items():
        print(f"  {g}: {ok}/{n} passed")
        total, good = total + n, good + ok
    print(f"age cross: {good}/{total} cases passed ({run.mutation_count} mutated files, each refused by both)")
    if good != total:
        print(f"age cross: {total - good} FAILED")
        return 1
    shutil.rmtree(a.work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
