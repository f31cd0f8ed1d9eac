//! FF1 peer for `bench/bench_fea.c`: the `fpe` crate (FF1 over AES-128, radix 10) on batches of
//! 16-digit decimal strings, the same job as nuri's `digits-encrypt` records.
//! Prints one JSON line per measurement in the harness schema, impl "peer:fpe-ff1-aes128".
//! Timed like the harness: rdtsc ticks per run, turned into values/s with the TSC rate measured against
//! the monotonic clock (bench/bench.c nuri_bench_tick_rate), p10/p90 of the runs beside min/max.
//! Usage: peer_ff1 [--quick]
use aes::{Aes128, Aes192, Aes256};
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

/// The NIST SP 800-38G FF1 samples (AES-128/192/256, radix 10 and 36), checked before any timing.
const SAMPLES: &str = include_str!("../../../../tests/vectors/ff1/nist_ff1_samples.txt");

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex")).collect()
}

fn numerals(s: &str) -> Vec<u16> {
    s.bytes().map(|c| if c.is_ascii_digit() { (c - b'0') as u16 } else { (c - b'a' + 10) as u16 }).collect()
}

/// FF1 encryption and decryption of one sample with the AES of the given key size.
macro_rules! ff1_both {
    ($aes:ty, $key:expr, $radix:expr, $tweak:expr, $pt:expr, $ct:expr) => {{
        let f = FF1::<$aes>::new($key, $radix).expect("radix");
        let c: Vec<u16> = f.encrypt($tweak, &FlexibleNumeralString::from($pt)).expect("ff1").into();
        let p: Vec<u16> = f.decrypt($tweak, &FlexibleNumeralString::from($ct)).expect("ff1").into();
        (c, p)
    }};
}

fn check_samples() {
    let key_hex = SAMPLES.split("bytes of ").nth(1).expect("key line").split_whitespace().next().expect("key");
    let key = unhex(key_hex);
    let mut n = 0;
    for line in SAMPLES.lines().filter(|l| l.starts_with(|c: char| c.is_ascii_digit())) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (bits, radix): (usize, u32) = (f[1].parse().expect("AES"), f[2].parse().expect("radix"));
        let (k, tweak, pt, ct) = (&key[..bits / 8], unhex(f[3].trim_matches('"')), numerals(f[4]), numerals(f[5]));
        let (c, p) = match bits {
            128 => ff1_both!(Aes128, k, radix, &tweak, pt.clone(), ct.clone()),
            192 => ff1_both!(Aes192, k, radix, &tweak, pt.clone(), ct.clone()),
            _ => ff1_both!(Aes256, k, radix, &tweak, pt.clone(), ct.clone()),
        };
        assert!(c == ct && p == pt, "FF1 NIST sample {}", f[0]);
        n += 1;
    }
    assert_eq!(n, 9, "FF1 NIST samples");
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    check_samples();

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
