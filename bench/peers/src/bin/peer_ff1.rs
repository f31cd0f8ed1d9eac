//! FF1 peer for `bench/bench_fea.c`: the `fpe` crate (FF1 over AES-128, radix 10) on batches of
//! 16-digit decimal strings, the same job as nuri's `digits-encrypt` records.
//! Prints one JSON line per measurement in the harness schema, impl "peer:fpe-ff1-aes128".
//! Timed like the harness: rdtsc ticks per run, turned into values/s with the TSC rate measured against
//! the monotonic clock (bench/bench.c nuri_bench_tick_rate), p10/p90 of the runs beside min/max.
//! Usage: peer_ff1 [--quick]
use aes::Aes128;
use fpe::ff1::{FlexibleNumeralString, FF1};
use std::time::Instant;

#[path = "../../baton.rs"]
mod baton;

#[cfg(target_arch = "x86_64")]
fn ticks() -> u64 {
    unsafe {
        core::arch::x86_64::_mm_lfence();
        core::arch::x86_64::_rdtsc()
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn ticks() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos() as u64
}

/// Ticks per second of ticks(), measured over 50 ms.
fn tick_rate() -> f64 {
    let t = Instant::now();
    let c = ticks();
    while t.elapsed().as_secs_f64() < 0.05 {}
    (ticks() - c) as f64 / t.elapsed().as_secs_f64()
}

fn encrypt_batch(ff1: &FF1<Aes128>, tweak: &[u8], input: &[u8], out: &mut [u8], len: usize) {
    for (src, dst) in input.chunks_exact(len).zip(out.chunks_exact_mut(len)) {
        let digits: Vec<u16> = src.iter().map(|c| (c - b'0') as u16).collect();
        let ct = ff1.encrypt(tweak, &FlexibleNumeralString::from(digits)).expect("ff1");
        let v: Vec<u16> = ct.into();
        for (d, x) in dst.iter_mut().zip(v) {
            *d = b'0' + x as u8;
        }
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    // Self-check against NIST SP 800-38G sample 1 (AES-128, radix 10, empty tweak).
    let nist_key = [
        0x2B, 0x7E, 0x15, 0x16, 0x28, 0xAE, 0xD2, 0xA6, 0xAB, 0xF7, 0x15, 0x88, 0x09, 0xCF, 0x4F, 0x3C,
    ];
    let ff1 = FF1::<Aes128>::new(&nist_key, 10).expect("radix");
    let mut out = [0u8; 10];
    encrypt_batch(&ff1, &[], b"0123456789", &mut out, 10);
    assert_eq!(&out, b"2433477484", "FF1 NIST sample 1");

    let count: usize = if quick { 1000 } else { 10000 };
    let runs: usize = if quick { 5 } else { 11 };
    let len = 16;
    let key: Vec<u8> = (0..16u32).map(|i| (i * 17 + 5) as u8).collect();
    let ff1 = FF1::<Aes128>::new(&key, 10).expect("radix");
    let mut s: u64 = 0x243F6A8885A308D3;
    let mut input = vec![0u8; count * len];
    for i in 0..count {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        for d in 0..len {
            input[i * len + d] = b'0' + ((s >> (4 * d)) % 10) as u8;
        }
    }
    let mut output = vec![0u8; count * len];
    let tweak = [0u8; 8];
    // every run alternates with nuri's "digits-encrypt" run of the default FEA implementation when
    // the benchmark driver runs both (baton.rs)
    baton::take("");
    encrypt_batch(&ff1, &tweak, &input, &mut output, len); // warm-up
    let rate = tick_rate();
    baton::give();
    let mut rates: Vec<f64> = (0..runs)
        .map(|_| {
            baton::take("digits-encrypt 16 digits");
            let t = ticks();
            encrypt_batch(&ff1, &tweak, &input, &mut output, len);
            let r = count as f64 * rate / (ticks() - t) as f64;
            baton::give();
            r
        })
        .collect();
    rates.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let q = (runs - 1) / 10;
    println!(
        "{{\"family\": \"fea\", \"impl\": \"peer:fpe-ff1-aes128\", \"op\": \"digits-encrypt\", \"param\": \"FF1/AES-128 16 digits\", \"size\": {}, \"platform\": \"{}\", \"metric\": \"values_per_s\", \"median\": {:.6e}, \"min\": {:.6e}, \"max\": {:.6e}, \"runs\": {}, \"p10\": {:.6e}, \"p90\": {:.6e}}}",
        count,
        std::env::consts::ARCH,
        rates[runs / 2],
        rates[0],
        rates[runs - 1],
        runs,
        rates[q],
        rates[runs - 1 - q]
    );
}
