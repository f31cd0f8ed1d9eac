"""Tooling around the primitives, not part of the cryptographic API: the benchmark runner
(bench: the C harness program nuri-bench installed here, peers, key search), the report
(report: tables and figures from the records), its reference figures (anchors) and the known-answer
self-test of every family (selftest)."""
