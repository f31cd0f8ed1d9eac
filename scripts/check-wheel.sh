#!/usr/bin/env bash
# make check-wheel: the nuri wheel as a user gets it (`pip install nuri`, no extras).
#
# Builds a wheel from a copy of this checkout (its tracked and untracked files as they are now),
# installs it with no extras into a fresh virtual environment in another temporary folder, deletes
# the copy (the checkout the wheel came from is gone), and from a folder outside any checkout runs the
# everyday commands: each must exit 0 and do its job. The jobs of a checkout (the report, benchmark
# peers, the database benchmark, the hardware simulation) must say so in one line and exit 2, and no
# command may print a traceback. No installed file may name the folder the wheel was built from, nor
# this checkout. Needs the package registry (PyPI) for the wheel's dependencies (pip's cache serves).
set -euo pipefail
cd "$(dirname "$0")/.."
here=$PWD
venv_py=${VENV:-.venv}/bin/python
[ -x "$venv_py" ] || { echo "check-wheel: $venv_py missing (make python)" >&2; exit 2; }
venv_py=$(cd "$(dirname "$venv_py")" && pwd)/python
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nuri-wheel.XXXXXX")
trap '[ -n "${KEEP:-}" ] && echo "check-wheel: kept $tmp" || rm -rf "$tmp"' EXIT # KEEP=1 keeps it
src=$tmp/src dist=$tmp/dist env=$tmp/env work=$tmp/work
mkdir -p "$src" "$dist" "$work"
fail() { echo "check-wheel: $*" >&2; exit 1; }

# 1. a copy of the checkout: what git tracks plus untracked files it does not ignore
git ls-files -z -co --exclude-standard | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
  tar --null -T - -cf - | tar -xf - -C "$src"

# 2. the wheel, built from the copy with the checkout's build tools (scikit-build-core, cffi)
t0=$(date +%s)
"$venv_py" -m pip wheel -q --no-deps --no-build-isolation -w "$dist" "$src" >"$tmp/build.log" 2>&1 ||
  { tail -20 "$tmp/build.log"; fail "building the wheel failed"; }
whl=$(ls "$dist"/nuri-*.whl)
echo "check-wheel: built $(basename "$whl") ($(du -k "$whl" | cut -f1) KiB) in $(($(date +%s) - t0)) s"

# 3. a fresh environment, the wheel without extras (its dependencies from the package registry)
"$venv_py" -m venv "$env"
"$env/bin/pip" install -q "$whl" >"$tmp/install.log" 2>&1 || { tail -20 "$tmp/install.log"; fail "pip install failed"; }

# 4. the checkout it was built from moves away
rm -rf "$src"

site=$("$env/bin/python" -c 'import nuri, os; print(os.path.dirname(os.path.dirname(nuri.__file__)))')
pkg=$site/nuri
# what the wheel must not hold: the checkout's tools and any record of where it was built
for f in _source_tree.py tools/report.py tools/anchors.py hw/_verilator.py fea_engines/postgres.py \
  fea_engines/bench.py fea_engines/roundtrip.py seal/videobench.py seal/agebench.py; do
  [ ! -e "$pkg/$f" ] || fail "the wheel holds nuri/$f (a job of the checkout's nuri-dev toolkit)"
done
[ -x "$pkg/tools/nuri-bench" ] || fail "the wheel lacks the benchmark harness nuri/tools/nuri-bench"
named=$(grep -rlaF -e "$src" -e "$here" "$pkg" "$site"/nuri-*.dist-info "$env/bin/nuri" || true)
[ -z "$named" ] || fail "installed files name the build directory or the checkout: $named"

# 5. the everyday commands, from a folder outside any checkout, with a clean environment
cd "$work"
run() { # run EXPECTED-STATUS NAME COMMAND...: the status must match and stderr hold no traceback
  local want=$1 name=$2 rc=0
  shift 2
  env -i HOME="$work" PATH="$env/bin:/usr/local/bin:/usr/bin:/bin" LANG=C.UTF-8 "$@" >"$name.out" 2>"$name.err" || rc=$?
  if [ "$rc" != "$want" ] || grep -q '^Traceback' "$name.err"; then
    sed 's/^/  | /' "$name.err" | tail -15 >&2
    fail "$name: exit $rc (expected $want): $*"
  fi
}
head -c 200000 /dev/urandom >msg.bin
run 0 selftest nuri selftest
grep -q 'selftest: [1-9][0-9]* passed, 0 failed' selftest.out || fail "selftest: no passing report"
run 0 keygen nuri keygen -o k.key
run 0 seal-key nuri seal -k k.key -i msg.bin -o msg.sealed
run 0 open-key nuri open -k k.key -i msg.sealed -o msg.opened
cmp -s msg.bin msg.opened || fail "seal/open with a key did not give the input back"
run 0 kem-keygen nuri kem keygen --level 768 --public alice.pk --secret alice.sk
run 0 seal-recipient nuri seal -r alice.pk -i msg.bin -o msg.r.sealed
run 0 open-identity nuri open --identity alice.sk -i msg.r.sealed -o msg.r.opened
cmp -s msg.bin msg.r.opened || fail "seal/open to a recipient did not give the input back"
printf 'id,card\n1,4111-1111-1111-1111\n2,5500005555555559\n3,\n' >cards.csv
run 0 fpe-encrypt nuri fpe encrypt -k k.key --column card --format digits -i cards.csv -o cards.enc.csv
run 0 fpe-decrypt nuri fpe decrypt -k k.key --column card --format digits -i cards.enc.csv -o cards.dec.csv
cmp -s cards.csv cards.dec.csv || fail "fpe: decryption did not give the CSV back"
! cmp -s cards.csv cards.enc.csv || fail "fpe: the encrypted CSV equals the input"
grep -qE '^1,[0-9]{4}-[0-9]{4}-[0-9]{4}-[0-9]{4}$' cards.enc.csv || fail "fpe: the format was not kept"
run 0 hash nuri hash esch256 msg.bin
mv hash.out SUMS
run 0 hash-check nuri hash esch256 -c SUMS
run 0 kem-encaps nuri kem encaps --public alice.pk --ciphertext ct.bin --shared bob.ss
run 0 kem-decaps nuri kem decaps --secret alice.sk --ciphertext ct.bin --shared alice.ss
cmp -s bob.ss alice.ss || fail "kem: the shared keys differ"
run 0 keysearch nuri keysearch --cipher pipo-64/128 --pair 2600271EF6528509:27035DAD81296B6B \
  --key-template '9722152EAD201D7ED2289477DD??????'
grep -qx '9722152EAD201D7ED2289477DD16C46D' keysearch.out || fail "keysearch: the README's key was not found"
run 0 bench nuri bench pipo --quick
grep -q 'ecb-encrypt' bench.out || fail "bench: no PIPO records"
grep -qx 'nuri bench: no peers: they are built from a checkout of nuri (bench/peers)' bench.err ||
  fail "bench: no line saying that peers need a checkout"

# 6. the jobs of a checkout: one line each, exit 2
run 2 report nuri report -o rep
run 2 bench-peers nuri bench pipo --quick --peers
run 2 bench-engines nuri bench fpe-engines --quick
run 1 hw-simulator python -c 'from nuri import hw
from nuri.tools import NeedsCheckout
try:
    hw.simulator(768)
except NeedsCheckout as e:
    print(e)
    raise SystemExit(1)'
for n in report bench-peers bench-engines; do
  [ "$(wc -l <"$n.err")" = 1 ] && grep -q 'needs a checkout' "$n.err" || fail "$n: not one line saying it needs a checkout"
done
grep -q 'needs a checkout' hw-simulator.out || fail "nuri.hw.simulator: no word of the checkout it needs"
! [ -e rep ] || fail "report: wrote a report from a wheel"
echo "check-wheel: ok (the wheel installed without extras runs selftest, seal/open with a key and a recipient," \
  "fpe, hash, kem, keysearch and bench; the checkout's jobs exit 2 in one line; nothing installed names the" \
  "build directory)"
