#!/bin/sh
# check-cross.sh: configure, build and run the tests of every emulated target (single-target
# builds in build/cross-<target>), print a summary, exit non-zero if anything failed.
#   scripts/check-cross.sh                 all targets
#   scripts/check-cross.sh rv32 avr        only these (rv32 rv32-virt aarch64 avr cortex-m3 cortex-m4)
# Environment: NURI_CROSS_JOBS (default 2), NURI_CROSS_WERROR (default ON; OFF on AVR, where
# 16-bit int makes some portable range checks "always false" warnings: they are still logged).
# Installs nothing: the toolchains come from the bootstrap (apt-get, see CONTRIBUTING.md, "Toolchains");
# a missing tool is reported and counts as a failure.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
JOBS=${NURI_CROSS_JOBS:-2}
WERROR=${NURI_CROSS_WERROR:-ON}
TARGETS=${*:-"rv32 rv32-virt cortex-m3 cortex-m4 avr aarch64"}

# target -> toolchain file, tools needed, families built (the MCU targets build the families whose
# target programs exist in tests/cross; AArch64 builds everything and runs the host tests).
toolchain() {
    case $1 in
        rv32) echo rv32imac-sifive_e ;; rv32-virt) echo rv32imac-virt ;; aarch64) echo aarch64-linux ;;
        avr) echo avr-atmega328p ;; cortex-m3) echo cortex-m3 ;; cortex-m4) echo cortex-m4 ;; *) echo "" ;;
    esac
}
tools() {
    case $1 in
        rv32 | rv32-virt) echo "riscv64-unknown-elf-gcc qemu-system-riscv32" ;;
        aarch64) echo "aarch64-linux-gnu-gcc qemu-aarch64" ;;
        avr) echo "avr-gcc cc" ;;
        cortex-m3 | cortex-m4) echo "arm-none-eabi-gcc qemu-system-arm" ;;
    esac
}
# NURI_CROSS_FAMILIES / NURI_CROSS_FAMILIES_AARCH64 override the lists ("" = every family). What runs:
#   every target: tests/cross target programs of pipo, fea, sparkle (test_*_kat);
#   rv32-virt, cortex-m3/m4, aarch64: also mlkem (test_mlkem_kat; ~28 KB of stack: not on sifive_e's
#   16 KiB nor the ATmega328P's 2 KiB RAM);
#   aarch64: also the host test programs (test_mlkem with every vector for ref, opt and neon, its
#   NIST DRBG on the test's own AES; the neon backend on plain NEON and on the SHA-3 extension),
#   except those that take many minutes under qemu-aarch64 (test_sparkle: the full KAT generator;
#   replaced by test_sparkle_kat + test_sparkle_arm): NURI_CROSS_EXCLUDE_AARCH64.
families() {
    case $1 in
        aarch64) echo "${NURI_CROSS_FAMILIES_AARCH64-pipo;fea;sparkle;mlkem}" ;;
        rv32 | avr) echo "${NURI_CROSS_FAMILIES-pipo;fea;sparkle}" ;;
        *) echo "${NURI_CROSS_FAMILIES-pipo;fea;sparkle;mlkem}" ;;
    esac
}
exclude() {
    case $1 in
        aarch64) echo "${NURI_CROSS_EXCLUDE_AARCH64-^test_sparkle\$}" ;;
        *) echo "" ;;
    esac
}

command -v cmake >/dev/null 2>&1 || { echo "check-cross: cmake is missing"; exit 2; }
mkdir -p build
command -v ninja >/dev/null 2>&1 || { echo "check-cross: ninja is missing"; exit 2; }
SUMMARY=""
FAIL=0
START=$(date +%s)
for t in $TARGETS; do
    tc=$(toolchain "$t")
    if [ -z "$tc" ]; then
        SUMMARY="$SUMMARY\n  $t: FAIL (unknown target)"; FAIL=1; continue
    fi
    missing=""
    for tool in $(tools "$t"); do command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"; done
    if [ "$t" = avr ] && [ ! -f /usr/include/simavr/sim_avr.h ]; then missing="$missing libsimavr-dev"; fi
    if [ -n "$missing" ]; then
        echo "check-cross: $t: missing tool(s):$missing (install them with the bootstrap: make bootstrap-cross)"
        SUMMARY="$SUMMARY\n  $t: FAIL (missing:$missing)"; FAIL=1; continue
    fi
    B=build/cross-$t
    LOG=$B.log
    t0=$(date +%s)
    echo "== $t: configure + build ($B, log in $LOG)"
    if ! { cmake -S . -B "$B" -G Ninja -DCMAKE_TOOLCHAIN_FILE="cmake/toolchains/$tc.cmake" \
               -DNURI_WERROR="$(if [ "$t" = avr ]; then echo "${NURI_CROSS_WERROR:-OFF}"; else echo "$WERROR"; fi)" -DNURI_ONLY="$(families "$t")" >"$LOG" 2>&1 &&
           ninja -C "$B" -j"$JOBS" >>"$LOG" 2>&1; }; then
        tail -n 30 "$LOG"
        SUMMARY="$SUMMARY\n  $t: FAIL (build, see $LOG)"; FAIL=1; continue
    fi
    echo "== $t: ctest"
    ex=$(exclude "$t")
    if (cd "$B" && ctest -V -LE bench ${ex:+-E "$ex"} -j"$JOBS" >>"$ROOT/$LOG" 2>&1); then
        res="ok"
    else
        res="FAIL"; FAIL=1
        grep -E "FAIL|Failed|failed|Timeout|Error" "$LOG" | tail -n 20
    fi
    lines=$(grep -oE '[A-Za-z0-9_]+: [0-9]+ passed, [0-9]+ failed' "$LOG" | tr '\n' ';' | sed 's/;$//; s/;/; /g')
    ntests=$(grep -E 'tests passed|tests failed' "$LOG" | tail -n 1)
    SUMMARY="$SUMMARY\n  $t: $res ($ntests; $(( $(date +%s) - t0 )) s) $lines"
done
printf "check-cross summary (%s s):%b\n" "$(( $(date +%s) - START ))" "$SUMMARY"
exit $FAIL
