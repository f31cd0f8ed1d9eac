"""Prints, after the run, each vector set of tests/vectors the tests went through and its size
(e.g. `test_aead: LWC_AEAD_KAT_128_128.txt: 1089 vectors passed (x4 runs)`)."""

import vectors


def pytest_terminal_summary(terminalreporter):
    if not vectors.SETS_PASSED:
        return
    terminalreporter.section("vector sets")
    for (module, name), (count, runs) in sorted(vectors.SETS_PASSED.items()):
        more = f" (x{runs} runs)" if runs > 1 else ""
        noun = "vector" if count == 1 else "vectors"
        terminalreporter.write_line(f"{module}: {name}: {count} {noun} passed{more}")
