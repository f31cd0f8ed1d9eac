"""nuri-dev: the tools of a nuri checkout, kept out of the installed ``nuri`` package.

The nuri wheel holds the library, its bindings and the command line's everyday jobs. What needs the
repository lives here and is installed into the checkout's ``.venv`` by ``make python`` (editable,
so these modules run from the checkout):

- ``report``, ``anchors``: ``nuri report`` (``make demo``): self-test, benchmarks, emulated targets,
  the ML-KEM hardware core in simulation and key search, charts beside published figures;
- ``peers``: the peer programs of bench/peers (built with cargo) run side by side with nuri's harness;
- ``hwsim``: the Verilator model of the ML-KEM core (hw/rtl), a device of ``nuri.hw`` (entry point
  ``nuri.hw.devices``: ``verilator``); ``hwdemo``: its ML-KEM-768 run for the report;
- ``engines_bench``, ``pgserver``, ``roundtrip``: FEA in PostgreSQL, DuckDB and Spark (benchmark and
  test fixtures: a throw-away PostgreSQL server); ``videobench``: the sealed-video benchmark;
  ``agebench``: nuri against age on one large file.

The nuri package finds this toolkit by import alone (``nuri.tools.dev_toolkit``); without it the
commands that need a checkout say so in one line and exit 2.
"""

from pathlib import Path

# The checkout this toolkit runs from: tools/nuri_dev/ sits two levels below the repository root.
ROOT = Path(__file__).resolve().parents[2]


def checkout() -> Path:
    """The repository root; RuntimeError when this toolkit was copied out of its checkout (it is
    installed editable, in place, by `make python`)."""
    if not (ROOT / "hw" / "rtl").is_dir() or not (ROOT / "bench").is_dir():
        raise RuntimeError(f"nuri-dev runs from a checkout of nuri (make python installs it in place), not from {ROOT}")
    return ROOT
