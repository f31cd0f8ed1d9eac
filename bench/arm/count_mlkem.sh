#!/bin/sh
# Executed-instruction counts of ML-KEM key generation, encapsulation and decapsulation on AArch64
# under qemu-aarch64, for nuri's ref, opt and neon and the peers (bench/arm/peers: libcrux-ml-kem,
# PQClean, liboqs, AWS-LC; ML-KEM-768 only), one JSON record per measurement on stdout (harness
# schema: family "mlkem", op keygen|encaps|decaps, param ML-KEM-<n>, metric "instructions"), and a
# table of the counts with the ratios to opt on stderr.
#   bench/arm/count_mlkem.sh [levels...]          default: 768
# Method: bench/arm/count_mlkem.c (and count_peer_mlkem) run the operation 1 and 1 + R times after
# the same setup; the difference of the whole-program counts over R is the exact count of one
# call (the first one, which may differ by a few instructions, is left out), through the public
# length-checked API on a context made once (length checks and the FIPS 203 key checks nuri runs;
# nuri_mlkem_init chose the implementation before).
# Counting: the project's own QEMU plugin (bench/qemu/insncount.c, scripts/build-qemu-plugin.sh).
# Platforms: "aarch64-qemu" is QEMU's default CPU model (max: it has the SHA-3 extension, which
# neon's Keccak uses); "aarch64-qemu-cortex-a72" runs neon on a model without it (plain NEON).
# Every implementation's checksum of ek, ct and the shared secret must be the same.
# NURI_ARM_PEERS=0 skips the peers (building them cross-compiles four crates with C parts: a few
# minutes the first time; it needs cargo (rustup adds the aarch64-unknown-linux-gnu target), cmake
# and libclang: scripts/deps/peers.apt).
# QEMU models no pipeline: these are instructions, not cycles.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LEVELS=${*:-768}
B=${NURI_ARM_MLKEM_BUILD:-$ROOT/build/arm-mlkem}
O=$B/count
R=4
mkdir -p "$O"
if [ ! -f "$B/build.ninja" ]; then
    cmake -S "$ROOT" -B "$B" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/toolchains/aarch64-linux.cmake" \
        -DCMAKE_BUILD_TYPE=Release -DNURI_ONLY=mlkem -DNURI_BUILD_TESTS=OFF -DNURI_BUILD_BENCH=OFF \
        >"$O/cmake.log" 2>&1 || { cat "$O/cmake.log" >&2; exit 1; }
fi
ninja -C "$B" -j2 nuri_static >"$O/ninja.log" 2>&1 || { cat "$O/ninja.log" >&2; exit 1; }
aarch64-linux-gnu-gcc -O2 -static -I"$ROOT/include" "$ROOT/bench/arm/count_mlkem.c" "$B/libnuri.a" -o "$O/count_mlkem"
"$ROOT/scripts/build-qemu-plugin.sh" >/dev/null
PLUGIN=$ROOT/build/qemu-plugins/libinsn.so

PEER=
if [ "${NURI_ARM_PEERS:-1}" != 0 ]; then
    echo "count_mlkem: building the peers for aarch64 (bench/arm/peers, log in $O/peers.log)" >&2
    if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx aarch64-unknown-linux-gnu; then
        rustup target add aarch64-unknown-linux-gnu >>"$O/peers.log" 2>&1 || true
    fi
    if CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
        CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc \
        AR_aarch64_unknown_linux_gnu=aarch64-linux-gnu-ar \
        CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUSTFLAGS="-C target-feature=+crt-static" \
        BINDGEN_EXTRA_CLANG_ARGS_aarch64_unknown_linux_gnu="--sysroot=/usr/aarch64-linux-gnu -I/usr/aarch64-linux-gnu/include" \
        cargo build -q --release --target aarch64-unknown-linux-gnu --manifest-path "$ROOT/bench/arm/peers/Cargo.toml" \
        --target-dir "$ROOT/build/arm-peers" >"$O/peers.log" 2>&1; then
        PEER=$ROOT/build/arm-peers/aarch64-unknown-linux-gnu/release/count_peer_mlkem
    else
        echo "count_mlkem: the peers did not build (see $O/peers.log; is the aarch64-unknown-linux-gnu target installed?): skipped" >&2
    fi
fi

count() { # cpu program args... -> instructions of the whole run; its output line into $O/sum
    cpu=$1
    shift
    qemu-aarch64 -cpu "$cpu" -plugin "$PLUGIN",inline=on -d plugin -D "$O/plugin.txt" "$@" >"$O/run.txt"
    sed 's/.*checksum=//' "$O/run.txt" >"$O/sum"
    sed -n 's/^insns: \([0-9]*\)$/\1/p' "$O/plugin.txt"
}

: >"$O/results.txt"
measure() { # label platform cpu level op program args... (the program's last argument is N)
    label=$1 platform=$2 cpu=$3 level=$4 op=$5
    shift 5
    c0=$(count "$cpu" "$@" 1)
    cn=$(count "$cpu" "$@" $((1 + R)))
    sum=$(cat "$O/sum")
    if [ -z "$c0" ] || [ -z "$cn" ]; then echo "count_mlkem: $label $op: no count" >&2; exit 1; fi
    d=$((cn - c0))
    if [ $((d % R)) != 0 ]; then echo "count_mlkem: $label $op: count not a multiple of $R" >&2; fi
    per=$((d / R))
    impl=$label
    case $label in libcrux | pqclean | oqs | aws-lc) impl="peer:$label" ;; esac
    printf '{"family": "mlkem", "impl": "%s", "op": "%s", "param": "ML-KEM-%s", "size": 1, "platform": "%s", "metric": "instructions", "median": %s, "min": %s, "max": %s, "runs": %s}\n' \
        "$impl" "$op" "$level" "$platform" "$per" "$per" "$per" "$R"
    echo "$level $op $label $platform $per $sum" >>"$O/results.txt"
}

for level in $LEVELS; do
    for op in keygen encaps decaps; do
        for impl in ref opt neon; do measure $impl aarch64-qemu max "$level" $op "$O/count_mlkem" $impl "$level" $op; done
        measure neon aarch64-qemu-cortex-a72 cortex-a72 "$level" $op "$O/count_mlkem" neon "$level" $op
        if [ -n "$PEER" ] && [ "$level" = 768 ]; then
            for p in libcrux pqclean oqs aws-lc; do measure $p aarch64-qemu max "$level" $op "$PEER" $p $op; done
        fi
    done
done

# every implementation and peer must compute the same keys, ciphertexts and shared secrets
for level in $LEVELS; do
    if [ "$(awk -v l="$level" '$1 == l { print $6 }' "$O/results.txt" | sort -u | wc -l)" != 1 ]; then
        echo "count_mlkem: CHECKSUM MISMATCH at ML-KEM-$level:" >&2
        cat "$O/results.txt" >&2
        exit 1
    fi
done
awk '
    { key = $1 " " $2; n[key] = 1; c[key, $3 " " $4] = $5; if (!($3 " " $4 in seen)) { seen[$3 " " $4] = 1; rows[++nr] = $3 " " $4 } }
    END {
        printf "instructions per operation (qemu-aarch64, whole API call); in brackets: / opt\n" > "/dev/stderr"
        for (r = 1; r <= nr; r++) {
            split(rows[r], p, " ")
            line = sprintf("  %-8s %-24s", p[1], p[2])
            for (k in n) { }
            for (l = 512; l <= 1024; l += 256) for (o = 1; o <= 3; o++) {
                op = o == 1 ? "keygen" : o == 2 ? "encaps" : "decaps"; key = l " " op
                if ((key, rows[r]) in c)
                    line = line sprintf("  %d %s %7d (%.2f)", l, op, c[key, rows[r]], c[key, rows[r]] / c[key, "opt aarch64-qemu"])
            }
            print line > "/dev/stderr"
        }
    }' "$O/results.txt"
