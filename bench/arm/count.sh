#!/bin/sh
# Executed-instruction counts of the SPARKLE permutations on AArch64 under qemu-aarch64.
#   bench/arm/count.sh [N]        (N = permutations per run, default 200)
# Builds libnuri for AArch64 (build/arm-bench, Release: -O3), links bench/arm/count_sparkle.c
# statically with a linker map, and for each implementation (ref, opt = portable C at -O3,
# a64, neon) and each permutation/step count runs it N times under qemu-aarch64 with the
# insnrange TCG plugin restricted to the .text of that implementation's own object file
# (from the map), so the count is exactly the instructions executed inside the permutation
# call (dispatch, prologue, steps, stores), with no loop or harness overhead.
# It counts with the project's own plugin (bench/qemu/insncount.c with lo=/hi=, built by
# scripts/build-qemu-plugin.sh); NURI_COUNT_MODE=singlestep uses `qemu-aarch64 -singlestep -d
# exec,nochain -dfilter lo..hi` and counts Trace lines instead (N=10); the counts are identical.
# Output: one JSON record per measurement on stdout (harness schema, metric "instructions",
# median = instructions per permutation, runs 1), then a ratio summary on stderr.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
N=${1:-200}
B=${NURI_ARM_BUILD:-$ROOT/build/arm-bench}
O=$B/count
mkdir -p "$O"
if [ ! -f "$B/build.ninja" ]; then
    cmake -S "$ROOT" -B "$B" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/toolchains/aarch64-linux.cmake" \
        -DCMAKE_BUILD_TYPE=Release -DNURI_ONLY="sparkle" -DNURI_BUILD_TESTS=OFF >"$O/cmake.log" 2>&1 ||
        { cat "$O/cmake.log" >&2; exit 1; }
fi
ninja -C "$B" -j2 nuri_static >"$O/ninja.log" 2>&1 || { cat "$O/ninja.log" >&2; exit 1; }
DEFS=$(grep -o 'NURI_HAVE_SPARKLE_[A-Z0-9]*=1' "$B/build.ninja" | sort -u | sed 's/^/-D/' | tr '\n' ' ')
# shellcheck disable=SC2086
aarch64-linux-gnu-gcc -O3 -static $DEFS -I"$ROOT/include" -I"$ROOT/src/common" -I"$ROOT/src/sparkle" \
    "$ROOT/bench/arm/count_sparkle.c" "$B/libnuri.a" -Wl,-Map="$O/count.map" -o "$O/count_sparkle"

PLUGIN=$ROOT/build/qemu-plugins/libinsnrange.so
"$ROOT/scripts/build-qemu-plugin.sh" >/dev/null 2>&1 || echo "count.sh: plugin build failed, using -singlestep" >&2
MODE=${NURI_COUNT_MODE:-plugin}
if [ ! -f "$PLUGIN" ] || [ "$MODE" = singlestep ]; then MODE=singlestep; N=10; fi

# .text range of one object file of libnuri.a, from the linker map: "lo hi" (hex).
text_range() {
    awk -v obj="$1" '
        function hex(s,   v, i, d) { v = 0; s = tolower(s); sub(/^0x/, "", s)
            for (i = 1; i <= length(s); i++) { d = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + d }
            return v }
        /^ \.text/ { sec = $1; if (NF == 1) { getline; addr = $1; size = $2; file = $3 } else { addr = $2; size = $3; file = $4 }
                     if (index(file, "(" obj ")") && hex(size) > 0) {
                         lo = hex(addr); hi = lo + hex(size);
                         if (!n || lo < min) min = lo; if (!n || hi > max) max = hi; n++ } }
        END { if (n) printf "0x%x 0x%x %d\n", min, max, n }' "$O/count.map"
}

count_one() { # impl nb steps -> instructions per permutation
    set -- "$1" "$2" "$3" $(text_range "$4")
    if [ "$MODE" = plugin ]; then
        qemu-aarch64 -plugin "$PLUGIN,lo=$4,hi=$5,out=$O/n.txt" -d plugin -D /dev/null "$O/count_sparkle" "$1" "$2" "$3" "$N" >"$O/run.txt"
        c=$(cat "$O/n.txt")
    else
        qemu-aarch64 -singlestep -d exec,nochain -dfilter "$4..$5" -D "$O/exec.log" "$O/count_sparkle" "$1" "$2" "$3" "$N" >"$O/run.txt"
        c=$(grep -c '^Trace' "$O/exec.log")
    fi
    sed 's/.*checksum=//' "$O/run.txt" >"$O/sum_$2_$3_$1.txt"
    echo $((c / N)) $((c % N))
}

: >"$O/results.txt"
for impl in ref opt a64 neon; do
    case $impl in
        ref) obj=sparkle_ref.c.o ;; opt) obj=sparkle_opt.c.o ;;
        a64) obj=sparkle_a64.S.o ;; neon) obj=sparkle_neon.S.o ;;
    esac
    r=$(text_range "$obj")
    if [ -z "$r" ]; then echo "count.sh: $obj not in libnuri.a, skipping $impl" >&2; continue; fi
    for p in "4 7" "4 10" "6 7" "6 11" "8 8" "8 12"; do
        set -- $p
        set -- "$1" "$2" $(count_one "$impl" "$1" "$2" "$obj")
        if [ "$4" != 0 ]; then echo "count.sh: $impl nb=$1 steps=$2: count not a multiple of N" >&2; fi
        bits=$((64 * $1))
        printf '{"family": "sparkle", "impl": "%s", "op": "permute", "param": "sparkle%s-%s", "size": %s, "platform": "aarch64-qemu", "metric": "instructions", "median": %s, "min": %s, "max": %s, "runs": 1}\n' \
            "$impl" "$bits" "$2" $((8 * $1)) "$3" "$3" "$3"
        echo "$impl $bits $2 $3" >>"$O/results.txt"
    done
done
# every implementation must end in the same state
for p in "4_7" "4_10" "6_7" "6_11" "8_8" "8_12"; do
    if [ "$(cat "$O"/sum_${p}_*.txt | sort -u | wc -l)" != 1 ]; then echo "count.sh: CHECKSUM MISMATCH for nb_steps=$p" >&2; exit 1; fi
done
awk -v mode="$MODE" '
    { c[$1 " " $2 " " $3] = $4; impls[$1] = 1 }
    END {
        printf "instructions per permutation (qemu-aarch64, %s); ratio = opt / impl\n", mode > "/dev/stderr"
        split("256 10,384 11,512 12,256 7,384 7,512 8", ps, ",")
        for (k = 1; k <= 6; k++) {
            split(ps[k], q, " "); line = sprintf("  sparkle%s-%-3s", q[1], q[2])
            split("ref opt a64 neon", im, " ")
            for (i = 1; i <= 4; i++) { key = im[i] " " q[1] " " q[2]; if (key in c)
                line = line sprintf("  %s %6d (%.2fx)", im[i], c[key], c["opt " q[1] " " q[2]] / c[key]) }
            print line > "/dev/stderr"
        }
        split("ref opt a64 neon", im, " ")
        line = "  growth sparkle512-12 / sparkle256-10:"
        for (i = 1; i <= 4; i++) { a = c[im[i] " 256 10"]; b = c[im[i] " 512 12"]; if (a) line = line sprintf("  %s %.2fx", im[i], b / a) }
        print line > "/dev/stderr"
    }' "$O/results.txt"
