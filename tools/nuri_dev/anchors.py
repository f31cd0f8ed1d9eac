"""Published and reference performance figures that nuri's measurements are put beside in ``nuri report``.

Every figure carries its source: a publication, or the project's own measurement of a reference
implementation on a named machine. Units and platforms are kept exactly as published: a figure is only
ever plotted beside a measurement of the same unit, or as a ratio to its own baseline (for example
A64 / C on a Cortex-A72 beside a64 / opt in instructions under qemu-aarch64).

Each entry: family, label, value, unit, platform, source, and ``key`` (used by report.py to find
the figure a measurement corresponds to).
"""

ANCHORS = [
    # --- PIPO ------------------------------------------------------------------------------------------------
    dict(
        family="pipo",
        key="rv32-ecb-1blk",
        label="Eum et al. ECB, 1 block",
        value=152.21,
        unit="cycles/byte",
        platform="RV32 SiFive HiFive1 Rev B (FE310)",
        source="Eum et al., KIPS TCCS 11(6):167-174, 2022",
    ),
    dict(
        family="pipo",
        key="rv32-ref-1blk",
        label="Kwak et al., 1 block",
        value=259.75,
        unit="cycles/byte",
        platform="RV32 SiFive HiFive1 Rev B (FE310)",
        source="Eum et al., KIPS TCCS 11(6), 2022 (citing Kwak et al.)",
    ),
    dict(
        family="pipo",
        key="rv32-ecb-4blk",
        label="Eum et al. ECB, 4 blocks, speed-opt.",
        value=59.93,
        unit="cycles/byte",
        platform="RV32 SiFive HiFive1 Rev B (FE310)",
        source="Eum et al., KIPS TCCS 11(6), 2022",
    ),
    dict(
        family="pipo",
        key="rv32-ctr-4blk",
        label="Eum et al. CTR, 4 blocks",
        value=59.59,
        unit="cycles/byte",
        platform="RV32 SiFive HiFive1 Rev B (FE310)",
        source="Eum et al., KIPS TCCS 11(6), 2022",
    ),
    dict(
        family="pipo",
        key="rv32-ecb-4blk-kwak",
        label="Kwak et al., 4 blocks",
        value=113.7,
        unit="cycles/byte",
        platform="RV32 SiFive HiFive1 Rev B (FE310)",
        source="Eum et al., KIPS TCCS 11(6), 2022 (citing Kwak et al.)",
    ),
    dict(
        family="pipo",
        key="a10x-neon-16blk-128",
        label="NEON 16 blocks, PIPO-64/128",
        value=3.9,
        unit="cycles/byte",
        platform="ARMv8 Apple A10X",
        source="Eum et al., KIPS Trans. Comp. Comm. Syst. 10(8), 2021",
    ),
    dict(
        family="pipo",
        key="a10x-ref-128",
        label="reference C, PIPO-64/128",
        value=34.6,
        unit="cycles/byte",
        platform="ARMv8 Apple A10X",
        source="Eum et al., KIPS Trans. Comp. Comm. Syst. 10(8), 2021",
    ),
    dict(
        family="pipo",
        key="x86-ref-128",
        label="reference C (gcc -O2), PIPO-64/128",
        value=76.0,
        unit="cycles/byte",
        platform="x86-64 Xeon VM (TSC)",
        source="the designers' reference C measured for the project (no published x86-64 figure)",
    ),
    dict(
        family="pipo",
        key="x86-ref-256",
        label="reference C (gcc -O2), PIPO-64/256",
        value=99.0,
        unit="cycles/byte",
        platform="x86-64 Xeon VM (TSC)",
        source="the designers' reference C measured for the project (no published x86-64 figure)",
    ),
    # --- SPARKLE ---------------------------------------------------------------------------------------------
    *[
        dict(
            family="sparkle",
            key=f"a72-{impl}-{size}",
            label=f"{label} SPARKLE{size}",
            value=v,
            unit="ns/permutation",
            platform="Cortex-A72 @1.5 GHz (Raspberry Pi 4B)",
            source="Shin et al. 2023 (shb115/SPARKLE_ARMv8 README; KoreaScience JAKO202319440357438)",
        )
        for size, row in (
            (256, (399.692, 232.688, 608.751)),
            (384, (609.941, 336.197, 662.404)),
            (512, (849.483, 503.476, 730.499)),
        )
        for (impl, label), v in zip((("c", "C (sparkle_opt.c -O3)"), ("a64", "A64"), ("neon", "NEON")), row)
    ],
    dict(
        family="sparkle",
        key="x86-designers-schwaemm256-128",
        label="designers' v1.2.1 C, Schwaemm256-128 4 KiB",
        value=7.7,
        unit="cycles/byte",
        platform="x86-64 Xeon VM (TSC), gcc 12 -O3 -march=native",
        source="measured for the project with the authors' C",
    ),
    dict(
        family="sparkle",
        key="x86-designers-esch256",
        label="designers' v1.2.1 C, Esch256 4 KiB",
        value=14.7,
        unit="cycles/byte",
        platform="x86-64 Xeon VM (TSC), gcc 12 -O3 -march=native",
        source="measured for the project with the authors' C",
    ),
    dict(
        family="sparkle",
        key="x86-ascon-aead128",
        label="ascon-c opt64, Ascon-AEAD128 4 KiB",
        value=4.4,
        unit="cycles/byte",
        platform="x86-64 Xeon VM (TSC)",
        source="measured for the project with the authors' C",
    ),
    dict(
        family="sparkle",
        key="x86-ascon-hash256",
        label="ascon-c opt64, Ascon-Hash256 4 KiB",
        value=13.0,
        unit="cycles/byte",
        platform="x86-64 Xeon VM (TSC)",
        source="measured for the project with the authors' C",
    ),
    # The Ascon team's C is faster than any Ascon a registry offers (the Rust package registry has only
    # RustCrypto's pure-Rust
    # ascon-aead/ascon-hash, the peer measured in each run): its figures on this project's machines are drawn
    # beside the peer, hatched, so that Schwaemm is never shown beating Ascon on the peer alone.
    dict(
        family="sparkle",
        key="epyc-ascon-aead128",
        label="ascon-c opt64, Ascon-AEAD128 (AMD EPYC)",
        value=5.1,
        unit="cycles/byte",
        platform="x86-64 AMD EPYC (Zen 3) VM (TSC), the machines nuri is measured on",
        source="the Ascon team's C (ascon-c, opt64) measured for the project on an AMD EPYC VM",
    ),
    dict(
        family="sparkle",
        key="epyc-ascon-hash256",
        label="ascon-c opt64, Ascon-Hash256 (AMD EPYC)",
        value=15.0,
        unit="cycles/byte",
        platform="x86-64 AMD EPYC (Zen 3) VM (TSC), the machines nuri is measured on",
        source="the Ascon team's C (ascon-c, opt64) measured for the project on an AMD EPYC VM",
    ),
    dict(
        family="sparkle",
        key="m4-schwaemm256-128",
        label="Schwaemm256-128, 1024 B (rhys asm)",
        value=39735,
        unit="cycles",
        platform="nRF52840 Cortex-M4F",
        source="usnistgov/Lightweight-Cryptography-Benchmarking benchmarks/*.csv",
    ),
    dict(
        family="sparkle",
        key="m4-esch256",
        label="Esch256, 1024 B",
        value=71762,
        unit="cycles",
        platform="nRF52840 Cortex-M4F",
        source="usnistgov/Lightweight-Cryptography-Benchmarking benchmarks/*.csv",
    ),
    # --- FEA / FPE -------------------------------------------------------------------------------------------
    dict(
        family="fea",
        key="x86-scratch-fea1-54",
        label="table-based FEA-1/128, n=54 (scratch)",
        value=9.4e6,
        unit="values/s",
        platform="x86-64 Xeon VM, 1 thread, dependent chain",
        source="a table-based FEA prototype measured for the project (not part of nuri)",
    ),
    dict(
        family="fea",
        key="x86-scratch-fea2-54",
        label="table-based FEA-2/128, n=54 (scratch)",
        value=6.4e6,
        unit="values/s",
        platform="x86-64 Xeon VM, 1 thread, dependent chain",
        source="a table-based FEA prototype measured for the project (not part of nuri)",
    ),
    dict(
        family="fea",
        key="x86-ff1-fpe-crate",
        label="FF1 AES-128, 16 digits (Rust fpe 0.6)",
        value=297e3,
        unit="values/s",
        platform="x86-64 Xeon VM, 1 thread",
        source="the Rust fpe crate 0.6 measured for the project",
    ),
    # --- ML-KEM ----------------------------------------------------------------------------------------------
    *[
        dict(
            family="mlkem",
            key=f"x86-{impl}-768-{op}",
            label=label,
            value=v,
            unit="cycles",
            op=op,
            platform="x86-64 Xeon VM (2 vCPU, KVM), TSC ticks at 2.6 GHz",
            source=f"{commit}, measured for the project (pinned to one vCPU, median of 5 run-medians)",
        )
        for impl, label, commit, vals in (
            ("pqcrystals-ref", "pq-crystals ref (derand)", "pq-crystals/kyber main 4768bd3", (85308, 98074, 124796)),
            ("mlkemnative-c", "mlkem-native C backend", "mlkem-native d1b2fe7", (53049, 63685, 77540)),
            ("pqcrystals-avx2", "pq-crystals avx2 (derand)", "pq-crystals/kyber main 4768bd3", (15372, 15750, 17888)),
            ("mlkemnative-avx2", "mlkem-native AVX2 backend", "mlkem-native d1b2fe7", (22242, 23675, 30584)),
        )
        for op, v in zip(("keygen", "encaps", "decaps"), vals)
    ],
    # --- ML-KEM hardware: the published designs the core is measured against --------------------------------
    *[
        dict(
            family="mlkem-hw",
            key=f"work-{m}",
            label=f"the HLS design (Vitis HLS, ZCU106), {m}",
            value=v,
            unit=u,
            platform="Zynq UltraScale+ ZU7EV, Vivado post-implementation",
            source="published Vitis HLS ML-KEM-768 design on a ZCU106: the reference of the core's area x time target",
        )
        for m, v, u in (
            ("lut", 170945, "LUT"),
            ("dsp", 1728, "DSP"),
            ("fmax_mhz", 343.3, "MHz"),
            ("time_us", 38.684, "us"),
        )
    ],
    *[
        dict(
            family="mlkem-hw",
            key=f"xl21-768-{op}",
            label=f"Xing & Li 2021, k = 3 {op}",
            value=v,
            unit="cycles",
            platform="Artix-7 XC7A12T (7412 LUT, 2 DSP, 6.2 ns critical path)",
            source="Xing & Li, TCHES 2021(2) 328-356",
        )
        for op, v in zip(("keygen", "encaps", "decaps"), (6316, 7925, 10049))
    ],
    dict(
        family="mlkem-hw",
        key="xl21-lut",
        label="Xing & Li 2021, server core LUTs",
        value=7412,
        unit="LUT",
        platform="Artix-7 XC7A12T",
        source="Xing & Li, TCHES 2021(2) 328-356",
    ),
    dict(
        family="mlkem-hw",
        key="xl21-dsp",
        label="Xing & Li 2021, DSPs",
        value=2,
        unit="DSP",
        platform="Artix-7 XC7A12T",
        source="Xing & Li, TCHES 2021(2) 328-356",
    ),
    # --- PIPO key search ------------------------------------------------------------------------------------
    dict(
        family="keysearch",
        key="rtx3060-pipo-keysearch",
        label="bitsliced CUDA, RTX 3060 (Kim, Eum, Seo 2022)",
        value=1.95685e10,
        unit="keys/s",
        platform="NVIDIA GeForce RTX 3060 (28 SMs)",
        source="Kim, Eum, Seo, Optimal Implementation of Lightweight Block Cipher PIPO on CUDA GPGPU, JKIISC "
        "32(6), 2022",
    ),
    dict(
        family="keysearch",
        key="xeon-core-pipo-keysearch",
        label="byte-sliced AVX-512+GFNI prototype, per core",
        value=0.85e9,
        unit="keys/s per core",
        platform="one core of a 2-vCPU AVX-512+GFNI Xeon VM (CPU time, best of 7)",
        source="a byte-sliced key-search prototype measured for the project (not part of nuri)",
    ),
]

# Figures that exist in print but could not be obtained: listed as missing, none invented.
MISSING = [
    ("fea", "FEA ms on i7-4790 / ATmega328P / SAM3X8E: the paper's figures could not be obtained, so not shown"),
    ("pipo", "PIPO on 8-bit AVR: no published cycles/byte figure could be obtained"),
]


def by_key(key):
    for a in ANCHORS:
        if a["key"] == key:
            return a
    raise KeyError(key)
