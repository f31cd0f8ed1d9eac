#!/bin/sh
# bench-fea-neon.sh: executed-instruction counts of FEA-1/128 encryption (n = 64, one tweak per
# batch) on AArch64 under qemu-aarch64, per value, for the neon kernel and the portable table
# and ct64 C compiled for AArch64 (Release, -O3). One JSON record per measurement on stdout
# (harness schema: family "fea", op "encrypt", param "fea1-128-n64", size = values per call,
# platform "aarch64-qemu", metric "instructions" = instructions per value); ratios on stderr.
#   scripts/bench-fea-neon.sh [sizes...]          default sizes: 1 16 64 256
#   NURI_FEA_IMPLS="neon neon-aes table bitplane ct64" (default) selects the implementations.
# Method: bench/arm/count_fea.c runs one batch call 1 and 1+N times; the whole-program count
# difference over N is the exact cost of one call (Feistel layer, tweak handling and kernel).
# Counting: the project's own QEMU plugin (bench/qemu/insncount.c, built by
# scripts/build-qemu-plugin.sh); without it `qemu-aarch64 -singlestep -d exec,nochain` (Trace
# lines, same counts, slower).
# QEMU models no pipeline: these are instructions, not cycles.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${NURI_FEA_NEON_BUILD:-$ROOT/build/feaneon-bench}
O=$B/count
SIZES=${*:-"1 16 64 256"}
IMPLS=${NURI_FEA_IMPLS:-"neon neon-aes table bitplane ct64"}
mkdir -p "$O"
if [ ! -f "$B/build.ninja" ]; then
    cmake -S "$ROOT" -B "$B" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/toolchains/aarch64-linux.cmake" \
        -DCMAKE_BUILD_TYPE=Release -DNURI_ONLY="fea" -DNURI_BUILD_TESTS=OFF -DNURI_BUILD_BENCH=OFF \
        >"$O/cmake.log" 2>&1 || { cat "$O/cmake.log" >&2; exit 1; }
fi
ninja -C "$B" -j2 nuri_static >"$O/ninja.log" 2>&1 || { cat "$O/ninja.log" >&2; exit 1; }
aarch64-linux-gnu-gcc -O3 -static -I"$ROOT/include" "$ROOT/bench/arm/count_fea.c" "$B/libnuri.a" -o "$O/count_fea"

PLUGIN=$ROOT/build/qemu-plugins/libinsn.so
"$ROOT/scripts/build-qemu-plugin.sh" >/dev/null 2>&1 || true
if [ -f "$PLUGIN" ] && [ "${NURI_COUNT_MODE:-}" != singlestep ]; then MODE=plugin; N=4; else MODE=singlestep; N=2; fi

count() { # impl values iterations -> instructions of the whole run; checksum into $O/sum
    if [ $MODE = plugin ]; then
        qemu-aarch64 -plugin "$PLUGIN",inline=on -d plugin -D "$O/plugin.txt" "$O/count_fea" "$@" >"$O/run.txt"
        sed -n 's/^insns: \([0-9]*\)$/\1/p' "$O/plugin.txt"
    else
        qemu-aarch64 -singlestep -d exec,nochain -D "$O/exec.log" "$O/count_fea" "$@" >"$O/run.txt"
        grep -c '^Trace' "$O/exec.log"
        rm -f "$O/exec.log"
    fi
    cat "$O/run.txt" >"$O/sum"
}

: >"$O/results.txt"
for v in $SIZES; do
    ref_sum=
    for impl in $IMPLS; do
        c1=$(count "$impl" "$v" 1)
        cn=$(count "$impl" "$v" $((N + 1)))
        sum=$(cat "$O/sum")
        if [ -z "$ref_sum" ]; then ref_sum=$sum; elif [ "$sum" != "$ref_sum" ]; then
            echo "bench-fea-neon: $impl at $v values: $sum differs from $ref_sum" >&2; exit 1
        fi
        d=$((cn - c1))
        if [ $((d % N)) != 0 ]; then echo "bench-fea-neon: $impl $v: count not a multiple of N" >&2; fi
        per=$(awk -v d="$d" -v n="$N" -v v="$v" 'BEGIN { printf "%.1f", d / n / v }')
        printf '{"family": "fea", "impl": "%s", "op": "encrypt", "param": "fea1-128-n64", "size": %s, "platform": "aarch64-qemu", "metric": "instructions", "median": %s, "min": %s, "max": %s, "runs": %s}\n' \
            "$impl" "$v" "$per" "$per" "$per" "$N"
        echo "$impl $v $per" >>"$O/results.txt"
    done
done
awk -v mode="$MODE" '
    { c[$1 " " $2] = $3; if (!($2 in seen)) { seen[$2] = 1; sizes[++ns] = $2 } if (!($1 in si)) { si[$1] = 1; im[++ni] = $1 } }
    END {
        printf "FEA-1/128 n=64 encryption, instructions per value (qemu-aarch64, %s); ratio = impl / neon\n", mode > "/dev/stderr"
        for (s = 1; s <= ns; s++) {
            line = sprintf("  %4d values:", sizes[s]); base = c["neon " sizes[s]]
            for (i = 1; i <= ni; i++) { k = im[i] " " sizes[s]; if (k in c)
                line = line sprintf("  %s %9.1f", im[i], c[k]) (base ? sprintf(" (%.2fx)", c[k] / base) : "") }
            print line > "/dev/stderr"
        }
    }' "$O/results.txt"
