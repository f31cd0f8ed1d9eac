//! Ascon peer for `bench/bench_sparkle.c`: RustCrypto's `ascon-aead` (Ascon-AEAD128) and
//! `ascon-hash` (Ascon-Hash256) on 4 KiB messages, the same jobs as nuri's Schwaemm256-128
//! "aead-encrypt" and Esch256 "hash" records. Cycles are rdtsc ticks, like the harness.
//! Prints one JSON line per measurement in the harness schema.
//! Usage: peer_ascon [--quick]
use ascon_aead::aead::{Aead, KeyInit};
use ascon_aead::{AsconAead128, AsconAead128Key, AsconAead128Nonce};
use ascon_hash::{AsconHash256, Digest};
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

/// Median/min/max cycles per call over `runs` runs, as nuri's harness measures (bench/bench.c,
/// nuri_bench_measure_auto): warm-up, then enough calls per run for `min_ticks` (a run as long as
/// nuri's: a fixed 2000 calls made a run of tens of ms, preempted on a busy machine). The runs
/// alternate with nuri's measurement of the same `tag` when the benchmark driver runs both (baton.rs).
fn measure<F: FnMut()>(mut f: F, min_ticks: f64, runs: usize, tag: &str) -> Stats {
    baton::take("");
    f(); // warm-up
    let t = ticks();
    f();
    let one = (ticks() - t) as f64;
    let iters = if one >= min_ticks { 1 } else { (min_ticks / one.max(1.0)) as usize + 1 };
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

fn record(op: &str, imp: &str, param: &str, size: usize, s: Stats, runs: usize) {
    let n = size as f64;
    println!(
        "{{\"family\": \"sparkle\", \"impl\": \"{}\", \"op\": \"{}\", \"param\": \"{}\", \"size\": {}, \"platform\": \"{}\", \"metric\": \"cpb\", \"median\": {:.6}, \"min\": {:.6}, \"max\": {:.6}, \"runs\": {}, \"p10\": {:.6}, \"p90\": {:.6}}}",
        imp, op, param, size, std::env::consts::ARCH, s.0 / n, s.1 / n, s.2 / n, runs, s.3 / n, s.4 / n
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let runs = if quick { 5 } else { 11 };
    let iters = if quick { 2e5 } else { 2e6 }; // minimum ticks per run, as nuri's harness
    let size = 4096;
    let msg: Vec<u8> = (0..size).map(|i| (i * 7 + 1) as u8).collect();

    let key: AsconAead128Key = (*b"very secret key.").into();
    let nonce: AsconAead128Nonce = (*b"unique nonce 012").into();
    let cipher = AsconAead128::new(&key);
    // self-check: round trip and tamper rejection
    let ct = cipher.encrypt(&nonce, msg.as_ref()).expect("encrypt");
    assert_eq!(ct.len(), size + 16);
    assert_eq!(cipher.decrypt(&nonce, ct.as_ref()).expect("decrypt"), msg);
    let mut bad = ct.clone();
    bad[0] ^= 1;
    assert!(cipher.decrypt(&nonce, bad.as_ref()).is_err());
    let s = measure(|| { black_box(cipher.encrypt(&nonce, black_box(msg.as_ref())).unwrap()); }, iters, runs, "aead-encrypt 4096");
    record("aead-encrypt", "peer:ascon-aead128", "Ascon-AEAD128", size, s, runs);

    let s = measure(|| { black_box(AsconHash256::digest(black_box(&msg))); }, iters, runs, "hash 4096");
    record("hash", "peer:ascon-hash256", "Ascon-Hash256", size, s, runs);
}
