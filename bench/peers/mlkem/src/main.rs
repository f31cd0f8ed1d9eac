//! ML-KEM peers for `bench/bench_mlkem.c`, measured side by side with nuri (same ops, params and
//! metric as nuri's mlkem records: keygen, encaps, decaps of a valid ciphertext, median rdtsc ticks
//! per operation):
//!  - libcrux-ml-kem (Cryspen; its AVX2 code with the simd256 feature, picked by its own run-time
//!    CPU detection, `libcrux_platform::simd256_support`);
//!  - pqcrypto-mlkem (PQClean's code; the crate's Rust wrapper only reaches the AVX2 build under a
//!    cfg that its build script never sets, so the wrapper always runs the portable "clean" code:
//!    this program calls the AVX2 build's C entry points itself on CPUs with AVX2, BMI2 and POPCNT);
//!  - oqs (liboqs built from the crate's vendored sources; its ML-KEM is mlkem-native, whose x86-64
//!    AVX2 backend liboqs picks at run time when `OQS_CPU_has_extension` reports AVX2, BMI2, POPCNT);
//!  - aws-lc-rs (AWS-LC, whose ML-KEM is also mlkem-native, with its own AVX2 and BMI2 check).
//!
//! Every operation is the derandomized one, as nuri's bench times them: libcrux takes its
//! randomness as an argument; pqcrypto-mlkem through PQClean's `*_derand` C functions; oqs with
//! `keypair_derand` and, for encapsulation (liboqs 0.13 has no derandomized form), a custom
//! randombytes callback that copies the fixed message m; AWS-LC through its deterministic EVP
//! functions (keygen, encapsulation) and aws-lc-rs's `kem` module (decapsulation). Before timing,
//! every peer's ek, ct and shared secret for the same seed and m must be identical, which checks
//! that all of them time the same FIPS 203 computation. None of the timed calls runs the FIPS 203
//! input checks except where the peer always does.
//!
//! Each record states the code path: `"simd": "avx2"` only when the peer's own dispatch condition
//! holds on this CPU and the AVX2 code is in this binary (checked from the symbols: extern
//! references for liboqs and PQClean, `nm` of this executable for AWS-LC), else `"portable"`;
//! `"simd_check"` says how it was decided.
//! Usage: peer_mlkem [--quick]
use std::hint::black_box;
// The PQClean C libraries that pqcrypto-mlkem builds (their entry points are declared below).
extern crate pqcrypto_mlkem;

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
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
}

/// One measurement per peer of the same operation, as nuri's harness measures one (bench/bench.c,
/// nuri_bench_measure_auto): a warm-up call, then enough calls per run for `min_ticks`, `runs`
/// runs. The peers take turns run by run (a, b, c, d, a, b, ...), and when the benchmark driver
/// runs nuri beside this program, these runs alternate with nuri's runs of the same `tag`
/// (baton.rs), so a busy spell of the shared machine hits every one of them.
fn measure_group(
    fs: &mut [&mut dyn FnMut()],
    min_ticks: f64,
    runs: usize,
    tag: &str,
) -> Vec<Stats> {
    let iters: Vec<usize> = fs
        .iter_mut()
        .map(|f| {
            baton::take("");
            f(); // warm-up
            let t = ticks();
            f();
            let one = (ticks() - t) as f64;
            f();
            baton::give();
            if one >= min_ticks {
                1
            } else {
                (min_ticks / one.max(1.0)) as usize + 1
            }
        })
        .collect();
    let mut v = vec![Vec::with_capacity(runs); fs.len()];
    for _ in 0..runs {
        for (i, f) in fs.iter_mut().enumerate() {
            baton::take(tag);
            let t = ticks();
            for _ in 0..iters[i] {
                f();
            }
            v[i].push((ticks() - t) as f64 / iters[i] as f64);
            baton::give();
        }
    }
    v.into_iter()
        .map(|mut v| {
            v.sort_by(|a, b| a.partial_cmp(b).unwrap());
            let q = (runs - 1) / 10; // p10 and p90, as the harness reports them
            (v[runs / 2], v[0], v[runs - 1], v[q], v[runs - 1 - q])
        })
        .collect()
}

/// The code path a peer runs here and how that was decided.
struct Path {
    simd: &'static str,
    check: String,
}

fn record(imp: &str, op: &str, param: &str, s: Stats, runs: usize, path: &Path) {
    println!(
        "{{\"family\": \"mlkem\", \"impl\": \"{}\", \"op\": \"{}\", \"param\": \"{}\", \"size\": 1, \"platform\": \"{}\", \"metric\": \"cycles\", \"median\": {:.1}, \"min\": {:.1}, \"max\": {:.1}, \"runs\": {}, \"p10\": {:.1}, \"p90\": {:.1}, \"simd\": \"{}\", \"simd_check\": \"{}\"}}",
        imp, op, param, std::env::consts::ARCH, s.0, s.1, s.2, runs, s.3, s.4, path.simd, path.check
    );
}

const SEED: [u8; 64] = {
    let mut s = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        s[i] = (i * 11 + 5) as u8; // the same d || z as bench/bench_mlkem.c
        i += 1;
    }
    s
};
const MSG: [u8; 32] = {
    let mut m = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        m[i] = (i * 3 + 9) as u8; // the same m as bench/bench_mlkem.c
        i += 1;
    }
    m
};

/// What each peer produced for SEED and MSG, compared across peers before timing.
#[derive(PartialEq, Debug)]
struct Outputs {
    ek: Vec<u8>,
    ct: Vec<u8>,
    ss: Vec<u8>,
}

fn cpu_has(f: &str) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        match f {
            "avx2" => std::arch::is_x86_feature_detected!("avx2"),
            "bmi2" => std::arch::is_x86_feature_detected!("bmi2"),
            "popcnt" => std::arch::is_x86_feature_detected!("popcnt"),
            _ => false,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = f;
        false
    }
}

/// Names of the symbols of this executable (`nm`), or None when nm is not available.
fn own_symbols() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let out = std::process::Command::new("nm").arg(exe).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// One peer at one parameter set: its outputs for SEED and MSG, and its three timed operations.
struct Peer {
    name: &'static str,
    path: Path,
    out: Outputs,
    ops: [Box<dyn FnMut()>; 3], // keygen, encaps, decaps
}

// ---- libcrux-ml-kem ----

fn libcrux_path() -> Path {
    let on = libcrux_platform::simd256_support();
    Path {
        simd: if on { "avx2" } else { "portable" },
        check: format!(
            "built with feature simd256; libcrux_platform::simd256_support() = {}",
            on
        ),
    }
}

macro_rules! libcrux_peer {
    ($m:ident) => {{
        use libcrux_ml_kem::$m;
        let kp = std::rc::Rc::new($m::generate_key_pair(SEED));
        let (ct, ss) = $m::encapsulate(kp.public_key(), MSG);
        assert_eq!(
            $m::decapsulate(kp.private_key(), &ct),
            ss,
            "libcrux round trip"
        );
        let out = Outputs {
            ek: kp.public_key().as_slice().to_vec(),
            ct: ct.as_slice().to_vec(),
            ss: ss.to_vec(),
        };
        let (k1, k2) = (kp.clone(), kp);
        Peer {
            name: "peer:libcrux-ml-kem",
            path: libcrux_path(),
            out,
            ops: [
                Box::new(|| {
                    black_box($m::generate_key_pair(black_box(SEED)));
                }),
                Box::new(move || {
                    black_box($m::encapsulate(k1.public_key(), black_box(MSG)));
                }),
                Box::new(move || {
                    black_box($m::decapsulate(k2.private_key(), black_box(&ct)));
                }),
            ],
        }
    }};
}

// ---- pqcrypto-mlkem (PQClean) ----

type KeypairDerand = unsafe extern "C" fn(*mut u8, *mut u8, *const u8) -> i32;
type EncDerand = unsafe extern "C" fn(*mut u8, *mut u8, *const u8, *const u8) -> i32;
type Dec = unsafe extern "C" fn(*mut u8, *const u8, *const u8) -> i32;
type PqFns = (KeypairDerand, EncDerand, Dec);

/// PQClean's derandomized entry points of both builds (in the C libraries pqcrypto-mlkem's build
/// script compiles; its Rust ffi module declares only the randomized ones).
macro_rules! pqclean_fns {
    ($($kp:ident, $enc:ident, $dec:ident;)*) => {
        extern "C" { $( fn $kp(pk: *mut u8, sk: *mut u8, coins: *const u8) -> i32; fn $enc(ct: *mut u8, ss: *mut u8, pk: *const u8, coins: *const u8) -> i32; fn $dec(ss: *mut u8, ct: *const u8, sk: *const u8) -> i32; )* }
    };
}
pqclean_fns! {
    PQCLEAN_MLKEM512_CLEAN_crypto_kem_keypair_derand, PQCLEAN_MLKEM512_CLEAN_crypto_kem_enc_derand, PQCLEAN_MLKEM512_CLEAN_crypto_kem_dec;
    PQCLEAN_MLKEM768_CLEAN_crypto_kem_keypair_derand, PQCLEAN_MLKEM768_CLEAN_crypto_kem_enc_derand, PQCLEAN_MLKEM768_CLEAN_crypto_kem_dec;
    PQCLEAN_MLKEM1024_CLEAN_crypto_kem_keypair_derand, PQCLEAN_MLKEM1024_CLEAN_crypto_kem_enc_derand, PQCLEAN_MLKEM1024_CLEAN_crypto_kem_dec;
}
#[cfg(target_arch = "x86_64")]
pqclean_fns! {
    PQCLEAN_MLKEM512_AVX2_crypto_kem_keypair_derand, PQCLEAN_MLKEM512_AVX2_crypto_kem_enc_derand, PQCLEAN_MLKEM512_AVX2_crypto_kem_dec;
    PQCLEAN_MLKEM768_AVX2_crypto_kem_keypair_derand, PQCLEAN_MLKEM768_AVX2_crypto_kem_enc_derand, PQCLEAN_MLKEM768_AVX2_crypto_kem_dec;
    PQCLEAN_MLKEM1024_AVX2_crypto_kem_keypair_derand, PQCLEAN_MLKEM1024_AVX2_crypto_kem_enc_derand, PQCLEAN_MLKEM1024_AVX2_crypto_kem_dec;
}

/// PQClean's AVX2 code needs AVX2, BMI2 and POPCNT (its build flags).
fn pqclean_avx2() -> bool {
    cfg!(target_arch = "x86_64") && cpu_has("avx2") && cpu_has("bmi2") && cpu_has("popcnt")
}

fn pqclean_path() -> Path {
    let on = pqclean_avx2();
    Path {
        simd: if on { "avx2" } else { "portable" },
        check: format!(
            "PQClean avx2 build (crate feature avx2) called directly; CPU AVX2+BMI2+POPCNT = {}",
            on
        ),
    }
}

/// (clean, avx2) entry points of one parameter set.
fn pqclean_fns(level: usize) -> (PqFns, Option<PqFns>) {
    let clean: PqFns = match level {
        512 => (
            PQCLEAN_MLKEM512_CLEAN_crypto_kem_keypair_derand,
            PQCLEAN_MLKEM512_CLEAN_crypto_kem_enc_derand,
            PQCLEAN_MLKEM512_CLEAN_crypto_kem_dec,
        ),
        768 => (
            PQCLEAN_MLKEM768_CLEAN_crypto_kem_keypair_derand,
            PQCLEAN_MLKEM768_CLEAN_crypto_kem_enc_derand,
            PQCLEAN_MLKEM768_CLEAN_crypto_kem_dec,
        ),
        _ => (
            PQCLEAN_MLKEM1024_CLEAN_crypto_kem_keypair_derand,
            PQCLEAN_MLKEM1024_CLEAN_crypto_kem_enc_derand,
            PQCLEAN_MLKEM1024_CLEAN_crypto_kem_dec,
        ),
    };
    #[cfg(target_arch = "x86_64")]
    let avx2: Option<PqFns> = Some(match level {
        512 => (
            PQCLEAN_MLKEM512_AVX2_crypto_kem_keypair_derand,
            PQCLEAN_MLKEM512_AVX2_crypto_kem_enc_derand,
            PQCLEAN_MLKEM512_AVX2_crypto_kem_dec,
        ),
        768 => (
            PQCLEAN_MLKEM768_AVX2_crypto_kem_keypair_derand,
            PQCLEAN_MLKEM768_AVX2_crypto_kem_enc_derand,
            PQCLEAN_MLKEM768_AVX2_crypto_kem_dec,
        ),
        _ => (
            PQCLEAN_MLKEM1024_AVX2_crypto_kem_keypair_derand,
            PQCLEAN_MLKEM1024_AVX2_crypto_kem_enc_derand,
            PQCLEAN_MLKEM1024_AVX2_crypto_kem_dec,
        ),
    });
    #[cfg(not(target_arch = "x86_64"))]
    let avx2: Option<PqFns> = None;
    (clean, avx2)
}

fn pqclean_peer(level: usize, sizes: (usize, usize, usize)) -> Peer {
    let (clean, avx2) = pqclean_fns(level);
    let (kp, enc, dec) = match avx2 {
        Some(f) if pqclean_avx2() => f,
        _ => clean,
    };
    let (ekl, dkl, ctl) = sizes;
    let (mut ek, mut dk, mut ct, mut ss, mut ss2) = (
        vec![0u8; ekl],
        vec![0u8; dkl],
        vec![0u8; ctl],
        [0u8; 32],
        [0u8; 32],
    );
    unsafe {
        assert_eq!(kp(ek.as_mut_ptr(), dk.as_mut_ptr(), SEED.as_ptr()), 0);
        assert_eq!(
            enc(ct.as_mut_ptr(), ss.as_mut_ptr(), ek.as_ptr(), MSG.as_ptr()),
            0
        );
        assert_eq!(dec(ss2.as_mut_ptr(), ct.as_ptr(), dk.as_ptr()), 0);
    }
    assert_eq!(ss, ss2, "pqcrypto round trip");
    let out = Outputs {
        ek: ek.clone(),
        ct: ct.clone(),
        ss: ss.to_vec(),
    };
    let (mut e2, mut d2, mut c2, mut s2, mut s3) =
        (ek.clone(), dk.clone(), ct.clone(), [0u8; 32], [0u8; 32]);
    Peer {
        name: "peer:pqcrypto-mlkem",
        path: pqclean_path(),
        out,
        ops: [
            Box::new(move || unsafe {
                kp(e2.as_mut_ptr(), d2.as_mut_ptr(), black_box(SEED.as_ptr()));
            }),
            Box::new(move || unsafe {
                enc(
                    c2.as_mut_ptr(),
                    s2.as_mut_ptr(),
                    ek.as_ptr(),
                    black_box(MSG.as_ptr()),
                );
            }),
            Box::new(move || unsafe {
                dec(s3.as_mut_ptr(), black_box(ct.as_ptr()), dk.as_ptr());
            }),
        ],
    }
}

// ---- oqs (liboqs: mlkem-native) ----

/// liboqs randombytes replacement: encapsulation's 32 random bytes become the fixed m, the
/// derandomized form that liboqs 0.13's API lacks.
unsafe extern "C" fn oqs_fixed_random(out: *mut u8, len: usize) {
    for i in 0..len {
        *out.add(i) = MSG[i % 32];
    }
}

#[cfg(target_arch = "x86_64")]
extern "C" {
    // mlkem-native's x86-64 build inside liboqs (OQS_ENABLE_KEM_ml_kem_*_x86_64): referenced so
    // that the link fails loudly if the vendored build ever leaves it out.
    fn PQCP_MLKEM_NATIVE_MLKEM768_X86_64_keypair_derand(
        pk: *mut u8,
        sk: *mut u8,
        seed: *const u8,
    ) -> i32;
}

fn oqs_path() -> Path {
    use oqs::ffi::common::{OQS_CPU_has_extension, OQS_CPU_EXT};
    let has = |e| unsafe { OQS_CPU_has_extension(e) } != 0;
    #[cfg(target_arch = "x86_64")]
    let linked = {
        // this reference links the x86-64 build in or fails the link: present once linked
        black_box(PQCP_MLKEM_NATIVE_MLKEM768_X86_64_keypair_derand as *const ());
        true
    };
    #[cfg(not(target_arch = "x86_64"))]
    let linked = false;
    let cpu = cfg!(target_arch = "x86_64")
        && has(OQS_CPU_EXT::OQS_CPU_EXT_AVX2)
        && has(OQS_CPU_EXT::OQS_CPU_EXT_BMI2)
        && has(OQS_CPU_EXT::OQS_CPU_EXT_POPCNT);
    Path {
        simd: if cpu && linked { "avx2" } else { "portable" },
        check: format!(
            "mlkem-native x86_64 backend linked = {}; OQS_CPU_has_extension(AVX2, BMI2, POPCNT) = {} (liboqs's dispatch condition)",
            linked, cpu
        ),
    }
}

fn oqs_peer(alg: oqs::kem::Algorithm) -> Peer {
    let kem = std::rc::Rc::new(oqs::kem::Kem::new(alg).expect("liboqs ML-KEM enabled"));
    let seed = kem.keypair_seed_from_bytes(&SEED).expect("64-byte seed");
    let (pk, sk) = kem.keypair_derand(seed).unwrap();
    let (ct, ss) = kem.encapsulate(&pk).unwrap();
    assert_eq!(kem.decapsulate(&sk, &ct).unwrap(), ss, "oqs round trip");
    let out = Outputs {
        ek: pk.as_ref().to_vec(),
        ct: ct.as_ref().to_vec(),
        ss: ss.as_ref().to_vec(),
    };
    let (k0, k1, k2) = (kem.clone(), kem.clone(), kem);
    Peer {
        name: "peer:oqs",
        path: oqs_path(),
        out,
        ops: [
            Box::new(move || {
                black_box(
                    k0.keypair_derand(k0.keypair_seed_from_bytes(black_box(&SEED)).unwrap())
                        .unwrap(),
                );
            }),
            Box::new(move || {
                black_box(k1.encapsulate(black_box(&pk)).unwrap());
            }),
            Box::new(move || {
                black_box(k2.decapsulate(&sk, black_box(&ct)).unwrap());
            }),
        ],
    }
}

// ---- aws-lc-rs (AWS-LC: mlkem-native) ----

fn awslc_path() -> Path {
    let cpu = cfg!(target_arch = "x86_64") && cpu_has("avx2") && cpu_has("bmi2");
    let linked = own_symbols().map(|s| s.contains("mlkem_ntt_avx2"));
    Path {
        simd: if cpu && linked == Some(true) { "avx2" } else { "portable" },
        check: format!(
            "mlkem-native x86_64 backend in this binary (nm: mlkem_ntt_avx2) = {}; CPU AVX2+BMI2 = {} (AWS-LC's dispatch condition)",
            linked.map_or("unknown (no nm)".to_string(), |b| b.to_string()),
            cpu
        ),
    }
}

/// AWS-LC's EVP objects of one parameter set (freed on drop).
struct AwsLc {
    gen: *mut aws_lc_sys::EVP_PKEY_CTX,
    pkey: *mut aws_lc_sys::EVP_PKEY,
    ectx: *mut aws_lc_sys::EVP_PKEY_CTX,
}

impl AwsLc {
    /// Deterministic key generation from SEED (the new key is the caller's to free).
    fn keygen(&self) -> *mut aws_lc_sys::EVP_PKEY {
        let mut pkey = std::ptr::null_mut();
        let mut sl = SEED.len();
        assert_eq!(
            unsafe {
                aws_lc_sys::EVP_PKEY_keygen_deterministic(
                    self.gen,
                    &mut pkey,
                    black_box(SEED.as_ptr()),
                    &mut sl,
                )
            },
            1
        );
        pkey
    }
    /// Deterministic encapsulation with m = MSG; returns the ciphertext length.
    fn encaps(&self, ct: &mut [u8], ss: &mut [u8; 32]) -> usize {
        let (mut cl, mut sl, mut ml) = (ct.len(), 32usize, MSG.len());
        let rc = unsafe {
            aws_lc_sys::EVP_PKEY_encapsulate_deterministic(
                self.ectx,
                ct.as_mut_ptr(),
                &mut cl,
                ss.as_mut_ptr(),
                &mut sl,
                black_box(MSG.as_ptr()),
                &mut ml,
            )
        };
        assert_eq!(rc, 1);
        cl
    }
}

impl Drop for AwsLc {
    fn drop(&mut self) {
        unsafe {
            aws_lc_sys::EVP_PKEY_CTX_free(self.ectx);
            aws_lc_sys::EVP_PKEY_free(self.pkey);
            aws_lc_sys::EVP_PKEY_CTX_free(self.gen);
        }
    }
}

fn awslc_peer(
    nid: i32,
    alg: &'static aws_lc_rs::kem::Algorithm<aws_lc_rs::kem::AlgorithmId>,
) -> Peer {
    use aws_lc_sys::*;
    use std::ptr::null_mut;
    let a = unsafe {
        let gen = EVP_PKEY_CTX_new_id(EVP_PKEY_KEM, null_mut());
        assert!(
            !gen.is_null()
                && EVP_PKEY_CTX_kem_set_params(gen, nid) == 1
                && EVP_PKEY_keygen_init(gen) == 1
        );
        let mut a = AwsLc {
            gen,
            pkey: null_mut(),
            ectx: null_mut(),
        };
        a.pkey = a.keygen();
        a.ectx = EVP_PKEY_CTX_new(a.pkey, null_mut());
        assert!(!a.ectx.is_null());
        std::rc::Rc::new(a)
    };
    let (mut ek, mut dk) = (vec![0u8; 1568], vec![0u8; 3168]);
    let (mut ekl, mut dkl) = (ek.len(), dk.len());
    unsafe {
        assert_eq!(
            EVP_PKEY_get_raw_public_key(a.pkey, ek.as_mut_ptr(), &mut ekl),
            1
        );
        assert_eq!(
            EVP_PKEY_get_raw_private_key(a.pkey, dk.as_mut_ptr(), &mut dkl),
            1
        );
    }
    ek.truncate(ekl);
    dk.truncate(dkl);
    let mut ct = vec![0u8; 1568];
    let mut ss = [0u8; 32];
    let ctl = a.encaps(&mut ct, &mut ss);
    ct.truncate(ctl);
    // decapsulation through aws-lc-rs's kem module, which also checks the EVP outputs above
    let dkey = aws_lc_rs::kem::DecapsulationKey::new(alg, &dk).expect("aws-lc-rs accepts the dk");
    assert_eq!(
        dkey.decapsulate(ct.as_slice().into()).unwrap().as_ref(),
        &ss,
        "aws-lc round trip"
    );
    let ekey = aws_lc_rs::kem::EncapsulationKey::new(alg, &ek).expect("aws-lc-rs accepts the ek");
    let (ct3, ss3) = ekey.encapsulate().unwrap();
    assert_eq!(
        dkey.decapsulate(ct3.as_ref().into()).unwrap().as_ref(),
        ss3.as_ref(),
        "aws-lc-rs kem round trip"
    );
    let out = Outputs {
        ek,
        ct: ct.clone(),
        ss: ss.to_vec(),
    };
    let (a0, a1) = (a.clone(), a);
    let mut c2 = vec![0u8; ctl];
    let mut s2 = [0u8; 32];
    Peer {
        name: "peer:aws-lc-rs",
        path: awslc_path(),
        out,
        ops: [
            Box::new(move || unsafe { EVP_PKEY_free(black_box(a0.keygen())) }),
            Box::new(move || {
                black_box(a1.encaps(&mut c2, &mut s2));
            }),
            Box::new(move || {
                black_box(dkey.decapsulate(black_box(ct.as_slice()).into()).unwrap());
            }),
        ],
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let runs = 11;
    let iters = if quick { 2e5 } else { 2e6 }; // minimum ticks per run, as nuri's harness
    oqs::init();
    unsafe { oqs::ffi::rand::OQS_randombytes_custom_algorithm(Some(oqs_fixed_random)) };
    let levels = [
        ("ML-KEM-512", 512, (800, 1632, 768)),
        ("ML-KEM-768", 768, (1184, 2400, 1088)),
        ("ML-KEM-1024", 1024, (1568, 3168, 1568)),
    ];
    for (param, level, sizes) in levels {
        let mut peers = match level {
            512 => [
                libcrux_peer!(mlkem512),
                pqclean_peer(level, sizes),
                oqs_peer(oqs::kem::Algorithm::MlKem512),
                awslc_peer(aws_lc_sys::NID_MLKEM512, &aws_lc_rs::kem::ML_KEM_512),
            ],
            768 => [
                libcrux_peer!(mlkem768),
                pqclean_peer(level, sizes),
                oqs_peer(oqs::kem::Algorithm::MlKem768),
                awslc_peer(aws_lc_sys::NID_MLKEM768, &aws_lc_rs::kem::ML_KEM_768),
            ],
            _ => [
                libcrux_peer!(mlkem1024),
                pqclean_peer(level, sizes),
                oqs_peer(oqs::kem::Algorithm::MlKem1024),
                awslc_peer(aws_lc_sys::NID_MLKEM1024, &aws_lc_rs::kem::ML_KEM_1024),
            ],
        };
        for p in &peers[1..] {
            assert!(
                p.out == peers[0].out,
                "{}: {} output differs from {}'s for the same seed and m",
                param,
                p.name,
                peers[0].name
            );
        }
        for (oi, op) in ["keygen", "encaps", "decaps"].iter().enumerate() {
            let mut fs: Vec<&mut dyn FnMut()> = peers
                .iter_mut()
                .map(|p| &mut *p.ops[oi] as &mut dyn FnMut())
                .collect();
            let stats = measure_group(&mut fs, iters, runs, &format!("{} {}", op, param));
            for (p, s) in peers.iter().zip(stats) {
                record(p.name, op, param, s, runs, &p.path);
            }
        }
    }
}
