//! Runs one ML-KEM-768 operation of one peer N times, for instruction counting under qemu-aarch64
//! (bench/arm/count_mlkem.sh runs it with N = 1 and N = 1 + R under the whole-program counting plugin;
//! the difference over R is the count of one operation). The inputs are those of
//! bench/arm/count_mlkem.c (seed[i] = 7i + 1, m[i] = 5i + 3), every operation the derandomized one,
//! and the checksum printed covers ek, ct and the shared secret the same way, so the script can
//! check that every peer computed what nuri computed.
//! oqs has no derandomized encapsulation: a randombytes callback hands it m. AWS-LC is called
//! through its deterministic EVP functions (key generation, encapsulation) and EVP decapsulation.
//! Usage: count_peer_mlkem <libcrux|pqclean|oqs|aws-lc> <keygen|encaps|decaps> <N>
use std::hint::black_box;

// PQClean's derandomized entry points in the AArch64 build that pqcrypto-mlkem compiles.
extern crate pqcrypto_mlkem;
extern "C" {
    fn PQCLEAN_MLKEM768_AARCH64_keypair_derand(pk: *mut u8, sk: *mut u8, coins: *const u8) -> i32;
    fn PQCLEAN_MLKEM768_AARCH64_enc_derand(ct: *mut u8, ss: *mut u8, pk: *const u8, coins: *const u8)
        -> i32;
    fn PQCLEAN_MLKEM768_AARCH64_crypto_kem_dec(ss: *mut u8, ct: *const u8, sk: *const u8) -> i32;
}

/// liboqs randombytes replacement: the 32 random bytes of encapsulation become m.
unsafe extern "C" fn oqs_fixed_random(out: *mut u8, len: usize) {
    for i in 0..len {
        *out.add(i) = (5 * (i % 32) + 3) as u8;
    }
}

const EK: usize = 1184;
const DK: usize = 2400;
const CT: usize = 1088;

fn fnv(h: u32, bytes: &[u8]) -> u32 {
    bytes.iter().fold(h, |h, &b| (h ^ b as u32).wrapping_mul(16777619))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: {} <libcrux|pqclean|oqs|aws-lc> <keygen|encaps|decaps> <N>", args[0]);
        std::process::exit(2);
    }
    let (peer, op) = (args[1].as_str(), args[2].as_str());
    let n: usize = args[3].parse().expect("N");
    let seed: [u8; 64] = std::array::from_fn(|i| (7 * i + 1) as u8);
    let m: [u8; 32] = std::array::from_fn(|i| (5 * i + 3) as u8);
    let (ek, ct, ss) = match peer {
        "libcrux" => {
            use libcrux_ml_kem::mlkem768;
            let kp = mlkem768::generate_key_pair(seed);
            let (c, s) = mlkem768::encapsulate(kp.public_key(), m);
            let s2 = mlkem768::decapsulate(kp.private_key(), &c);
            assert_eq!(s, s2, "libcrux round trip");
            for _ in 0..n {
                match op {
                    "keygen" => drop(black_box(mlkem768::generate_key_pair(black_box(seed)))),
                    "encaps" => drop(black_box(mlkem768::encapsulate(kp.public_key(), black_box(m)))),
                    _ => drop(black_box(mlkem768::decapsulate(kp.private_key(), black_box(&c)))),
                }
            }
            (kp.public_key().as_slice().to_vec(), c.as_slice().to_vec(), s2.to_vec())
        }
        "pqclean" => {
            let (mut pk, mut sk, mut c, mut s, mut s2) = ([0u8; EK], [0u8; DK], [0u8; CT], [0u8; 32], [0u8; 32]);
            unsafe {
                PQCLEAN_MLKEM768_AARCH64_keypair_derand(pk.as_mut_ptr(), sk.as_mut_ptr(), seed.as_ptr());
                PQCLEAN_MLKEM768_AARCH64_enc_derand(c.as_mut_ptr(), s.as_mut_ptr(), pk.as_ptr(), m.as_ptr());
                PQCLEAN_MLKEM768_AARCH64_crypto_kem_dec(s2.as_mut_ptr(), c.as_ptr(), sk.as_ptr());
                assert_eq!(s, s2, "PQClean round trip");
                for _ in 0..n {
                    match op {
                        "keygen" => {
                            PQCLEAN_MLKEM768_AARCH64_keypair_derand(
                                black_box(pk.as_mut_ptr()),
                                sk.as_mut_ptr(),
                                seed.as_ptr(),
                            );
                        }
                        "encaps" => {
                            PQCLEAN_MLKEM768_AARCH64_enc_derand(
                                black_box(c.as_mut_ptr()),
                                s.as_mut_ptr(),
                                pk.as_ptr(),
                                m.as_ptr(),
                            );
                        }
                        _ => {
                            PQCLEAN_MLKEM768_AARCH64_crypto_kem_dec(black_box(s2.as_mut_ptr()), c.as_ptr(), sk.as_ptr());
                        }
                    }
                }
            }
            (pk.to_vec(), c.to_vec(), s2.to_vec())
        }
        "oqs" => {
            oqs::init();
            unsafe { oqs::ffi::rand::OQS_randombytes_custom_algorithm(Some(oqs_fixed_random)) };
            let kem = oqs::kem::Kem::new(oqs::kem::Algorithm::MlKem768).expect("liboqs ML-KEM-768");
            let (pk, sk) = kem.keypair_derand(kem.keypair_seed_from_bytes(&seed).unwrap()).unwrap();
            let (c, s) = kem.encapsulate(&pk).unwrap();
            let s2 = kem.decapsulate(&sk, &c).unwrap();
            assert_eq!(s, s2, "oqs round trip");
            for _ in 0..n {
                match op {
                    "keygen" => drop(black_box(kem.keypair_derand(kem.keypair_seed_from_bytes(&seed).unwrap()))),
                    "encaps" => drop(black_box(kem.encapsulate(black_box(&pk)))),
                    _ => drop(black_box(kem.decapsulate(&sk, black_box(&c)))),
                }
            }
            (pk.as_ref().to_vec(), c.as_ref().to_vec(), s2.as_ref().to_vec())
        }
        "aws-lc" => unsafe {
            use aws_lc_sys::*;
            use std::ptr::null_mut;
            let gen = EVP_PKEY_CTX_new_id(EVP_PKEY_KEM, null_mut());
            assert!(!gen.is_null() && EVP_PKEY_CTX_kem_set_params(gen, NID_MLKEM768) == 1);
            assert_eq!(EVP_PKEY_keygen_init(gen), 1);
            let keygen = || {
                let (mut key, mut sl) = (null_mut(), 64usize);
                assert_eq!(EVP_PKEY_keygen_deterministic(gen, &mut key, black_box(seed.as_ptr()), &mut sl), 1);
                key
            };
            let key = keygen();
            let ctx = EVP_PKEY_CTX_new(key, null_mut());
            let (mut c, mut s, mut s2) = ([0u8; CT], [0u8; 32], [0u8; 32]);
            let encaps = |c: &mut [u8; CT], s: &mut [u8; 32]| {
                let (mut cl, mut sl, mut ml) = (CT, 32usize, 32usize);
                let rc = EVP_PKEY_encapsulate_deterministic(
                    ctx,
                    c.as_mut_ptr(),
                    &mut cl,
                    s.as_mut_ptr(),
                    &mut sl,
                    black_box(m.as_ptr()),
                    &mut ml,
                );
                assert_eq!(rc, 1);
            };
            let decaps = |s2: &mut [u8; 32], c: &[u8; CT]| {
                let mut sl = 32usize;
                assert_eq!(EVP_PKEY_decapsulate(ctx, s2.as_mut_ptr(), &mut sl, black_box(c.as_ptr()), CT), 1);
            };
            encaps(&mut c, &mut s);
            decaps(&mut s2, &c);
            assert_eq!(s, s2, "AWS-LC round trip");
            for _ in 0..n {
                match op {
                    "keygen" => EVP_PKEY_free(black_box(keygen())),
                    "encaps" => encaps(&mut c, &mut s),
                    _ => decaps(&mut s2, &c),
                }
            }
            let (mut pk, mut pkl) = ([0u8; EK], EK);
            assert_eq!(EVP_PKEY_get_raw_public_key(key, pk.as_mut_ptr(), &mut pkl), 1);
            EVP_PKEY_CTX_free(ctx);
            EVP_PKEY_free(key);
            EVP_PKEY_CTX_free(gen);
            (pk.to_vec(), c.to_vec(), s2.to_vec())
        },
        _ => {
            eprintln!("unknown peer {peer}");
            std::process::exit(2);
        }
    };
    let h = [&ek[..], &ct[..], &ss[..]].iter().fold(2166136261u32, |h, p| fnv(h, p));
    println!("{peer} ML-KEM-768 {op} checksum={h:08x}");
}
