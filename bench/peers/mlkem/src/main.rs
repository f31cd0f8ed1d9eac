//! ML-KEM peers for `bench/bench_mlkem.c`: libcrux-ml-kem (its AVX2 code, picked by its own CPU
//! detection when the simd256 feature is built in) and pqcrypto-mlkem (PQClean's AVX2 code, picked
//! when the CPU has AVX2). Same jobs as nuri's records: keygen, encaps, decaps (valid ciphertext)
//! of ML-KEM-512/768/1024, median rdtsc ticks per operation (metric "cycles").
//! libcrux takes its randomness as an argument (like nuri's derandomized forms that nuri's bench
//! times); pqcrypto-mlkem draws it from the OS inside keygen and encaps (its API has no
//! derandomized form), so its keygen/encaps include that call. Neither runs the FIPS 203
//! input checks inside these calls.
//! Usage: peer_mlkem [--quick]
use pqcrypto_traits::kem::SharedSecret as _;
use std::hint::black_box;

#[path = "../../baton.rs"]
mod baton;

/// median, min, max, p10, p90 of the runs
type Stats = (f64, f64, f64, f64, f64);

#[cfg(target_arch = "x86_64")]
fn ticks() -> u64 {
    unsafe { core::arch::x86_64::_rdtsc() }
}

#[cfg(not(target_arch = "x86_64"))]
fn ticks() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos() as u64
}

/// Median/min/max ticks per call over `runs` runs, as nuri's harness measures (bench/bench.c,
/// nuri_bench_measure_auto): one warm-up call, then enough calls per run for `min_ticks`.
/// The runs alternate with nuri's measurement of the same `tag` when the benchmark driver runs
/// both (baton.rs; "" = compared with nothing).
fn measure<F: FnMut()>(mut f: F, min_ticks: f64, runs: usize, tag: &str) -> Stats {
    baton::take("");
    f(); // warm-up
    let t = ticks();
    f();
    let one = (ticks() - t) as f64;
    let iters = if one >= min_ticks { 1 } else { (min_ticks / one.max(1.0)) as usize + 1 };
    f();
    baton::give();
    let mut v: Vec<f64> = (0..runs)
        .map(|_| {
            baton::take(tag);
            let t = ticks();
            for _ in 0..iters {
                f();
            }
            let d = (ticks() - t) as f64 / iters as f64;
            baton::give();
            d
        })
        .collect();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let q = (runs - 1) / 10; // p10 and p90, as the harness reports them
    (v[runs / 2], v[0], v[runs - 1], v[q], v[runs - 1 - q])
}

fn record(imp: &str, op: &str, param: &str, s: Stats, runs: usize) {
    println!(
        "{{\"family\": \"mlkem\", \"impl\": \"{}\", \"op\": \"{}\", \"param\": \"{}\", \"size\": 1, \"platform\": \"{}\", \"metric\": \"cycles\", \"median\": {:.1}, \"min\": {:.1}, \"max\": {:.1}, \"runs\": {}, \"p10\": {:.1}, \"p90\": {:.1}}}",
        imp, op, param, std::env::consts::ARCH, s.0, s.1, s.2, runs, s.3, s.4
    );
}

macro_rules! libcrux_level {
    ($m:ident, $param:expr, $iters:expr, $runs:expr) => {{
        use libcrux_ml_kem::$m;
        let seed: [u8; 64] = core::array::from_fn(|i| (i * 11 + 5) as u8);
        let m: [u8; 32] = core::array::from_fn(|i| (i * 3 + 9) as u8);
        let kp = $m::generate_key_pair(seed);
        let (ct, ss) = $m::encapsulate(kp.public_key(), m);
        assert_eq!($m::decapsulate(kp.private_key(), &ct), ss, "libcrux round trip");
        let s = measure(|| { black_box($m::generate_key_pair(black_box(seed))); }, $iters, $runs, &format!("keygen {}", $param));
        record("peer:libcrux-ml-kem", "keygen", $param, s, $runs);
        let s = measure(|| { black_box($m::encapsulate(kp.public_key(), black_box(m))); }, $iters, $runs, &format!("encaps {}", $param));
        record("peer:libcrux-ml-kem", "encaps", $param, s, $runs);
        let s = measure(|| { black_box($m::decapsulate(kp.private_key(), black_box(&ct))); }, $iters, $runs, &format!("decaps {}", $param));
        record("peer:libcrux-ml-kem", "decaps", $param, s, $runs);
    }};
}

macro_rules! pqcrypto_level {
    ($m:ident, $param:expr, $iters:expr, $runs:expr) => {{
        use pqcrypto_mlkem::$m;
        let (pk, sk) = $m::keypair();
        let (ss, ct) = $m::encapsulate(&pk);
        assert_eq!($m::decapsulate(&ct, &sk).as_bytes(), ss.as_bytes(), "pqcrypto round trip");
        let s = measure(|| { black_box($m::keypair()); }, $iters, $runs, "");
        record("peer:pqcrypto-mlkem", "keygen", $param, s, $runs);
        let s = measure(|| { black_box($m::encapsulate(black_box(&pk))); }, $iters, $runs, "");
        record("peer:pqcrypto-mlkem", "encaps", $param, s, $runs);
        let s = measure(|| { black_box($m::decapsulate(black_box(&ct), &sk)); }, $iters, $runs, "");
        record("peer:pqcrypto-mlkem", "decaps", $param, s, $runs);
    }};
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let runs = 11;
    let iters = if quick { 2e5 } else { 2e6 }; // minimum ticks per run, as nuri's harness
    libcrux_level!(mlkem512, "ML-KEM-512", iters, runs);
    libcrux_level!(mlkem768, "ML-KEM-768", iters, runs);
    libcrux_level!(mlkem1024, "ML-KEM-1024", iters, runs);
    pqcrypto_level!(mlkem512, "ML-KEM-512", iters, runs);
    pqcrypto_level!(mlkem768, "ML-KEM-768", iters, runs);
    pqcrypto_level!(mlkem1024, "ML-KEM-1024", iters, runs);
}
