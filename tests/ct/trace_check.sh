#!/bin/sh
# Constant-time check of emulated AArch64 code (valgrind runs none): each case runs trace_mlkem
# (tests/ct/trace_mlkem.c) under qemu with the trace plugin (tests/ct/qemu_ctrace.c) for three
# secret variants; the digests of executed instruction addresses and memory access addresses must
# be equal. The control cases (a branch on a secret, a table read at a secret index) must differ,
# which shows that the check can fail.
#   tests/ct/trace_check.sh <plugin dir> <trace_mlkem> [impl[/cpu mask] ...]
# Default cases: neon (SHA-3 extension), neon/40000 (plain NEON: NURI_CPU_MASK hides the
# extension), opt, ref; ML-KEM-512/768/1024; encaps, decaps, decaps-many. QEMU names the emulator
# (default qemu-aarch64). The plugin is built by scripts/build-qemu-plugin.sh (host gcc).
set -u
DIR=$1
PROG=$2
shift 2
CASES=${*:-"neon neon/40000 opt ref"}
QEMU=${QEMU:-qemu-aarch64}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
"$ROOT/scripts/build-qemu-plugin.sh" "$DIR" >/dev/null || { echo "trace_check: cannot build the plugin"; exit 1; }
PLUGIN=$DIR/libctrace.so
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
pass=0
fail=0

trace() { # impl mask level op variant -> "digest instructions accesses"
    NURI_CPU_MASK=$2 $QEMU -plugin "$PLUGIN,out=$OUT/t" -d plugin -D /dev/null "$PROG" "$1" "$3" "$4" "$5" >"$OUT/o" 2>&1 ||
        { echo "trace_check: $1 $3 $4 variant $5 failed: $(cat "$OUT/o")" >&2; echo "error"; return; }
    cat "$OUT/t"
}

for c in $CASES; do
    impl=${c%%/*}
    mask=
    [ "$impl" != "$c" ] && mask=${c#*/}
    for level in 512 768 1024; do
        for op in encaps decaps decaps-many; do
            t1=$(trace "$impl" "$mask" $level $op 1)
            t2=$(trace "$impl" "$mask" $level $op 2)
            t3=$(trace "$impl" "$mask" $level $op 3)
            set -- $t1
            if [ "$t1" != error ] && [ "$t1" = "$t2" ] && [ "$t1" = "$t3" ]; then
                pass=$((pass + 1))
                echo "trace_check: $c ML-KEM-$level $op: 3 secret variants, one trace ($2 instructions, $3 accesses)"
            else
                fail=$((fail + 1))
                echo "trace_check: FAIL $c ML-KEM-$level $op: traces differ: $t1 / $t2 / $t3"
            fi
        done
    done
done
for op in leak-branch leak-index; do # control cases: the check must see these
    t1=$(trace ref "" 768 $op 1)
    t2=$(trace ref "" 768 $op 2)
    if [ "$t1" != error ] && [ "$t2" != error ] && [ "$t1" != "$t2" ]; then
        pass=$((pass + 1))
        echo "trace_check: control $op: traces differ, as they must"
    else
        fail=$((fail + 1))
        echo "trace_check: FAIL control $op: the traces do not differ ($t1 / $t2)"
    fi
done
echo "trace_check: $pass passed, $fail failed"
[ $fail = 0 ]
