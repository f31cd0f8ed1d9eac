/* Benchmark harness shared by every family (docs/ARCHITECTURE.md, principle 7).
 * One JSON record per measurement, one schema for all families:
 * {"family","impl","op","param","size","platform","metric","median","min","max","runs",
 *  "p10","p90","load","busy"}: p10..p90 is the robust spread of the runs (max is often one
 * preempted run); busy = the 1-minute load reached the number of CPUs or p90 > 1.25 p10.
 * Cycles are rdtsc ticks on x86-64 (reference cycles at the TSC rate; the VM has no PMU),
 * cntvct ticks scaled to ns on AArch64, and clock_gettime ns elsewhere. */
#ifndef NURI_BENCH_H
#define NURI_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct nuri_bench {
    FILE *out;            /* JSON lines go here */
    int quick;            /* 1: fewer runs and sizes (tests, smoke runs) */
    unsigned runs;        /* measurements per record (median taken over these) */
    const char *platform; /* e.g. "x86_64" */
    const char *filter;   /* only implementations whose name contains this (NULL = all) */
} nuri_bench;

typedef void (*nuri_bench_fn)(void *arg);

uint64_t nuri_bench_cycles(void);
/* Calls fn(arg) `iters` times per run, b->runs runs; stats = {median, min, max} cycles per call. */
void nuri_bench_measure(const nuri_bench *b, nuri_bench_fn fn, void *arg, size_t iters, double stats[3]);
/* Picks iters so one run takes at least ~min_cycles, then measures. */
void nuri_bench_measure_auto(const nuri_bench *b, nuri_bench_fn fn, void *arg, double stats[3]);
/* Two measurements in one, for a peer in the same process: runs alternate (a, b, a, b, ...), each
 * as nuri_bench_measure_auto would time it, so a busy spell of the machine hits both alike. */
void nuri_bench_measure_pair(const nuri_bench *b, nuri_bench_fn fa, void *aa, nuri_bench_fn fb, void *ab, double sa[3],
                             double sb[3]);
/* As nuri_bench_measure_auto, on the thread's CPU time (converted to TSC ticks): for long calls
 * on a shared machine, where wall time charges the call for the scheduler slices of others. */
void nuri_bench_measure_cpu(const nuri_bench *b, nuri_bench_fn fn, void *arg, double stats[3]);
/* Emits one record. stats are per-call cycles; metric "cpb" divides by size, "cycles" keeps them,
 * "ops_per_s"/"values_per_s" converts with the measured TSC rate (size = items per call). */
void nuri_bench_record(const nuri_bench *b, const char *family, const char *impl, const char *op, const char *param,
                       double size, const char *metric, const double stats[3]);
/* Run-by-run interleaving with a peer program (bench/peers). When the Python driver
 * (nuri.tools.bench) sets NURI_BENCH_BATON="<read fd>,<write fd>", every run of every measurement
 * (and every warm-up) first asks the driver for its turn ("R <tag>" on the write fd, one byte back),
 * then says "D" when done: no two timed runs of nuri and the peer overlap, and the runs of the
 * measurement tagged here alternate with the peer's runs of the same tag (nuri, peer, nuri, ...)
 * so that a busy spell of the shared machine hits both. nuri_bench_pair(tag) tags the next
 * measurement only; without the variable nothing changes. */
void nuri_bench_pair(const char *tag);
/* Ticks per second of nuri_bench_cycles (measured once against CLOCK_MONOTONIC). */
double nuri_bench_tick_rate(void);
/* 1-minute load average (/proc/loadavg), -1 where there is none. */
double nuri_bench_loadavg(void);
/* 1 if impl name passes b->filter. */
int nuri_bench_selected(const nuri_bench *b, const char *impl);

/* Family entry points (bench/bench_<family>.c): each writes its records, returns 0 or -1. */
typedef int (*nuri_bench_family_fn)(const nuri_bench *b);

/* Runs one family ("pipo", ...) or all (NULL / "all"); writes JSON lines to fd.
 * Returns 0, or -1 for an unknown family. Exported for the Python CLI (`nuri bench`). */
int nuri_bench_run(const char *family, int fd, int quick, const char *filter);
/* Comma-separated list of the families compiled into the harness. */
const char *nuri_bench_families(void);

#endif
