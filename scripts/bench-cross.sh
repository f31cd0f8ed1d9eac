#!/bin/sh
# bench-cross.sh: counts on the emulated targets, printed as JSON records in the harness schema
# (bench/bench.h) on stdout; progress on stderr.
#   rv32 (QEMU sifive_e, -icount shift=0): executed INSTRUCTIONS from minstret around each call
#   avr (simavr): exact CYCLES between GPIOR0 marks (PIPO, FEA-1-128 one value on every AVR
#        implementation, SPARKLE permutations)
#   rv32 also: SPARKLE permutations (instructions)
#   cortex-m3 (QEMU mps2-an385): FEA, executed INSTRUCTIONS, same method as aarch64
#   aarch64 (qemu-aarch64): executed INSTRUCTIONS of the whole program, taken at 1 and 1+N
#        iterations (the difference over N is the count of one call), counted by the project's
#        own TCG plugin (bench/qemu/insncount.c, built by scripts/build-qemu-plugin.sh); if it cannot
#        be built, aarch64 falls back to `-singlestep -d exec,nochain` (exact in user mode)
# QEMU models no pipeline: instruction counts are not cycles.
#   scripts/bench-cross.sh [rv32] [rv32-virt] [avr] [aarch64] [cortex-m3]
# Builds in build/cross-<target> (configured like scripts/check-cross.sh if absent). Installs
# nothing.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
TARGETS=${*:-"rv32 rv32-virt avr aarch64 cortex-m3"}
JOBS=${NURI_CROSS_JOBS:-2}
FAIL=0
scripts/build-qemu-plugin.sh >/dev/null 2>&1 || echo "bench-cross: could not build the QEMU counting plugin" >&2

# the same family lists as scripts/check-cross.sh (so both scripts share build/cross-<target>)
families() {
    case $1 in
        aarch64) echo "${NURI_CROSS_FAMILIES_AARCH64-pipo;fea;sparkle;mlkem}" ;;
        rv32 | avr) echo "${NURI_CROSS_FAMILIES-pipo;fea;sparkle}" ;;
        *) echo "${NURI_CROSS_FAMILIES-pipo;fea;sparkle;mlkem}" ;;
    esac
}
mkdir -p build
build() { # target toolchain
    B=build/cross-$1
    if [ ! -f "$B/build.ninja" ]; then
        w=ON; [ "$1" = avr ] && w=OFF
        cmake -S . -B "$B" -G Ninja -DCMAKE_TOOLCHAIN_FILE="cmake/toolchains/$2.cmake" -DNURI_WERROR=$w \
            -DNURI_ONLY="$(families "$1")" >"$B.bench.log" 2>&1 || return 1
    fi
    ninja -C "$B" -j"$JOBS" >>"$B.bench.log" 2>&1
}

for t in $TARGETS; do
    case $t in
        rv32 | rv32-virt | avr)
            tc=rv32imac-sifive_e; [ "$t" = avr ] && tc=avr-atmega328p; [ "$t" = rv32-virt ] && tc=rv32imac-virt
            echo "== $t" >&2
            if ! build "$t" "$tc"; then echo "bench-cross: $t: build failed (build/cross-$t.bench.log)" >&2; FAIL=1; continue; fi
            # the bench programs run through the same emulator hook as the tests (ctest label "bench")
            out=$(cd "build/cross-$t" && ctest -L bench -V 2>&1)
            echo "$out" | sed -n 's/^[0-9]*: \({"family".*\)$/\1/p'
            echo "$out" | grep -q "100% tests passed" || { echo "bench-cross: $t: bench program failed" >&2; FAIL=1; }
            ;;
        aarch64)
            echo "== $t" >&2
            if ! build aarch64 aarch64-linux; then echo "bench-cross: aarch64: build failed" >&2; FAIL=1; continue; fi
            P=build/qemu-plugins/libinsn.so
            BIN=build/cross-aarch64/tests/bench_pipo_count
            N=10
            count() { # impl op bytes iters -> instructions of the whole run
                if [ -f "$P" ]; then
                    qemu-aarch64 -L /usr/aarch64-linux-gnu -plugin "$P",inline=on -d plugin "$BIN" "$@" 2>&1 |
                        sed -n 's/^insns: \([0-9]*\)$/\1/p'
                else
                    qemu-aarch64 -L /usr/aarch64-linux-gnu -singlestep -d exec,nochain "$BIN" "$@" 2>&1 >/dev/null |
                        grep -c '^Trace'
                fi
            }
            for impl in neon bitslice64 ref; do
                for spec in "blocks-encrypt 128" "blocks-encrypt 1024" "ecb-encrypt 1024" "cbc-decrypt 1024" "ctr-encrypt 1024"; do
                    set -- $spec
                    c1=$(count $impl "$1" "$2" 1); cn=$(count $impl "$1" "$2" $((N + 1)))
                    if [ -z "$c1" ] || [ -z "$cn" ]; then echo "bench-cross: aarch64 $impl $1: no count" >&2; FAIL=1; continue; fi
                    per=$(( (cn - c1) / N ))
                    for m in instructions instructions_per_byte; do
                        v=$per; [ $m = instructions_per_byte ] && v=$(awk -v a=$per -v b="$2" 'BEGIN{printf "%.2f", a/b}')
                        printf '{"family": "pipo", "impl": "%s", "op": "%s", "param": "64/128", "size": %s, "platform": "aarch64-qemu", "metric": "%s", "median": %s, "min": %s, "max": %s, "runs": %s}\n' \
                            "$impl" "$1" "$2" "$m" "$v" "$v" "$v" "$N"
                    done
                done
            done
            # FEA (neon vs portable C), SPARKLE (a64/neon vs C) and ML-KEM (neon vs C; the peers only
            # with NURI_ARM_PEERS=1: make bench-mlkem-arm) counts have their own drivers
            scripts/bench-fea-neon.sh 2>/dev/null || { echo "bench-cross: aarch64 FEA counts failed" >&2; FAIL=1; }
            bench/arm/count.sh 2>/dev/null || { echo "bench-cross: aarch64 SPARKLE counts failed" >&2; FAIL=1; }
            NURI_ARM_PEERS=${NURI_ARM_PEERS:-0} bench/arm/count_mlkem.sh 2>/dev/null ||
                { echo "bench-cross: aarch64 ML-KEM counts failed" >&2; FAIL=1; }
            ;;
        cortex-m3)
            # FEA-1-128, one 64-bit value: whole-run insn counts at 1 and 1+N iterations (semihosting args)
            echo "== $t" >&2
            if ! build cortex-m3 cortex-m3; then echo "bench-cross: cortex-m3: build failed" >&2; FAIL=1; continue; fi
            P=build/qemu-plugins/libinsn.so
            BIN=build/cross-cortex-m3/tests/bench_fea_count
            N=10
            cmcount() {
                if [ -f "$P" ]; then
                    timeout 300 qemu-system-arm -machine mps2-an385 -nographic -monitor none -icount shift=0 \
                        -semihosting-config enable=on,target=native,arg=bench,arg="$1",arg="$2" \
                        -plugin "$P",inline=on -d plugin -kernel "$BIN" 2>&1 | sed -n 's/^insns: \([0-9]*\)$/\1/p'
                fi  # no plugin: no count (single-stepping is not repeatable in system mode)
            }
            for impl in table bitplane ct64 ref; do
                c1=$(cmcount $impl 1); cn=$(cmcount $impl $((N + 1)))
                if [ -z "$c1" ] || [ -z "$cn" ]; then echo "bench-cross: cortex-m3 fea $impl: no count" >&2; FAIL=1; continue; fi
                v=$(( (cn - c1) / N ))
                printf '{"family": "fea", "impl": "%s", "op": "encrypt-u64", "param": "FEA-1-128 n=64", "size": 1, "platform": "cortex-m3-qemu-mps2-an385", "metric": "instructions", "median": %s, "min": %s, "max": %s, "runs": %s}\n' "$impl" "$v" "$v" "$v" "$N"
            done
            ;;
        *) echo "bench-cross: unknown target $t" >&2; FAIL=1 ;;
    esac
done
exit $FAIL
