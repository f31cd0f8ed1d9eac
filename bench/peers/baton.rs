//! Run-by-run interleaving with nuri's benchmark harness (the other side is bench/bench.c,
//! nuri_bench_pair). When the Python driver (nuri.tools.bench) sets
//! NURI_BENCH_BATON="<read fd>,<write fd>", every run (and warm-up) first asks for its turn
//! ("R <tag>\n", one byte back) and says "D\n" when done, so no two timed runs of nuri and the peer
//! overlap, and the runs tagged like a nuri measurement alternate with it (nuri, peer, nuri, ...).
//! Without the variable, or once the driver is gone, take/give do nothing.
use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::io::FromRawFd;
use std::sync::Mutex;

static BATON: Mutex<Option<Option<(File, File)>>> = Mutex::new(None);

fn with<F: FnOnce(&mut (File, File)) -> std::io::Result<()>>(f: F) {
    let mut g = BATON.lock().unwrap();
    if g.is_none() {
        let fds = std::env::var("NURI_BENCH_BATON").ok().and_then(|v| {
            let (r, w) = v.split_once(',')?;
            Some((r.trim().parse::<i32>().ok()?, w.trim().parse::<i32>().ok()?))
        });
        // SAFETY: the driver passes these two descriptors to this process for this use only
        *g = Some(fds.map(|(r, w)| unsafe { (File::from_raw_fd(r), File::from_raw_fd(w)) }));
    }
    let gone = match g.as_mut().unwrap() {
        Some(p) => f(p).is_err(),
        None => false,
    };
    if gone {
        *g = Some(None); // the driver went away: run freely
    }
}

/// Waits for this process's turn to run once; tag "" = a run compared with nothing.
pub fn take(tag: &str) {
    with(|(r, w)| {
        w.write_all(format!("R {}\n", tag).as_bytes())?;
        let mut go = [0u8; 1];
        r.read_exact(&mut go)
    });
}

/// This run is over.
pub fn give() {
    with(|(_, w)| w.write_all(b"D\n"));
}
