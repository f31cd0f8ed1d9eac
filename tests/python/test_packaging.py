"""The split between the installed package and the checkout's toolkit.

The nuri wheel holds the library, the bindings and the everyday commands; the jobs that need the
repository (report, peers, hardware simulation, database and video fixtures) are the nuri-dev toolkit
(tools/nuri_dev), found by import alone. Here the toolkit is hidden from the import system to play an
installed wheel; `make check-wheel` (scripts/check-wheel.sh) does the same with a real wheel in a fresh
environment, the checkout moved away.
"""

import ast
import pathlib
import sys

import pytest

from nuri import hw
from nuri.cli.main import main
from nuri.tools import NeedsCheckout, dev_toolkit

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "python" / "nuri"


@pytest.fixture
def wheel_only(monkeypatch):
    """nuri_dev is not installed: every import of it fails as it would from a wheel."""
    for name in [m for m in sys.modules if m == "nuri_dev" or m.startswith("nuri_dev.")] + ["nuri_dev"]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setattr(hw, "backends", lambda: {})
    monkeypatch.setattr(hw, "_shared", {})


@pytest.mark.parametrize(
    "argv",
    [
        ["report", "--quick", "-o", "never-written"],
        ["bench", "pipo", "--quick", "--peers"],
        ["bench", "fpe-engines", "--quick"],
    ],
)
def test_jobs_of_a_checkout_say_so_in_one_line(wheel_only, capsys, tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "needs a checkout of nuri" in err, err
    assert err.startswith(f"nuri {argv[0]}: ")
    assert not (tmp_path / "never-written").exists()


def test_bench_runs_without_peers_from_a_wheel(wheel_only, capsys):
    assert main(["bench", "pipo", "--quick", "--impl", "ref", "--json"]) == 0
    out, err = capsys.readouterr()
    assert '"family": "pipo"' in out and err == ""
    # without --impl the peers would run from a checkout: from a wheel one line says why they do not
    assert main(["bench", "sparkle", "--quick"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("nuri bench: no peers: they are built from a checkout of nuri (bench/peers)\n")


def test_hardware_simulation_needs_the_checkout(wheel_only):
    with pytest.raises(NeedsCheckout, match="Verilator model of the ML-KEM core needs a checkout"):
        hw.simulator(768)
    with pytest.raises(ValueError, match="no device backend 'board'"):
        hw.open_device("board", 768)
    with pytest.raises(NeedsCheckout, match="^the thing needs a checkout of nuri"):
        dev_toolkit("report", "the thing")


def test_the_checkout_plugs_its_simulator_in_by_entry_point():
    ep = hw.backends().get("verilator")
    assert ep is not None and ep.value == "nuri_dev.hwsim:VerilatorDevice"
    assert issubclass(ep.load(), hw.Device)


def test_a_dependency_missing_in_the_toolkit_is_not_taken_for_a_missing_toolkit(monkeypatch):
    """nuri_dev installed, but a module it imports missing: that error, not "needs a checkout"."""
    import importlib

    import nuri.tools

    def fake_import(name):
        raise ModuleNotFoundError("No module named 'matplotlib'", name="matplotlib")

    monkeypatch.setattr(nuri.tools.importlib, "import_module", fake_import)
    with pytest.raises(ModuleNotFoundError, match="matplotlib"):
        dev_toolkit("report", "the report")
    monkeypatch.setattr(nuri.tools.importlib, "import_module", importlib.import_module)


def _imports(path):
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


# the distribution of each third-party module the package imports
DIST = {
    "cffi": "cffi",
    "numpy": "numpy",
    "cryptography": "cryptography",
    "argon2": "argon2-cffi",
    "pyarrow": "pyarrow",
    "rich": "rich",
    "dask": "dask",
    "distributed": "distributed",
    "ray": "ray",
    "duckdb": "duckdb",
    "pyspark": "pyspark",
    "pandas": "pandas",
    "pynq": None,  # on the FPGA board only (nuri.hw.PynqDevice says so)
}
# optional engines: only these modules may import them
OPTIONAL = {
    "dask": {"keysearch/cluster.py"},
    "distributed": {"keysearch/cluster.py"},
    "ray": {"keysearch/cluster.py"},
    "duckdb": {"fea_engines/duckdb.py"},
    "pyspark": {"fea_engines/spark.py"},
    "pandas": {"fea_engines/spark.py"},
    "pynq": {"hw/_pynq.py"},
}


def test_every_import_of_the_package_is_a_dependency_or_an_optional_engine():
    tomllib = pytest.importorskip("tomllib")
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = {d.split(">")[0].split("=")[0].split("<")[0].strip() for d in meta["dependencies"]}
    extras = {
        d.split(">")[0].split("=")[0].split("<")[0].strip() for v in meta["optional-dependencies"].values() for d in v
    }
    stdlib = set(sys.stdlib_module_names)
    seen = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).as_posix()
        for mod in _imports(path):
            if mod in stdlib or mod in ("nuri", "__future__"):
                continue
            seen.setdefault(mod, set()).add(rel)
    unknown = {m: sorted(f) for m, f in seen.items() if m not in DIST and m != "nuri_dev"}
    assert not unknown, f"imports that are neither dependencies nor optional engines: {unknown}"
    # the toolkit is imported in two places only: the import-only lookup and the DuckDB extension's path
    assert seen.get("nuri_dev", set()) <= {"fea_engines/duckdb.py"}, seen.get("nuri_dev")
    for mod, files in seen.items():
        if mod in OPTIONAL:
            assert files <= OPTIONAL[mod], (mod, files)
            assert DIST[mod] is None or DIST[mod] in extras, f"{mod}: no extra installs {DIST[mod]}"
        elif mod in DIST:
            assert DIST[mod] in deps, f"{mod} ({sorted(files)}) is imported but {DIST[mod]} is not a dependency"
    assert "matplotlib" not in seen  # charts are the report's, in the checkout's toolkit


def test_the_package_never_looks_for_its_checkout():
    """No record of the build tree and no walking up directories: what needs the repository is the
    toolkit's, imported by name."""
    assert not list(PACKAGE.rglob("_source_tree*"))
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text()
        for needle in (
            ".parents[",
            "find_repo_file",
            "_source_tree",
            "SOURCE_DIR",
            "os.path.dirname(os.path.dirname(",
        ):
            assert needle not in text, f"{path.relative_to(ROOT)} contains {needle!r}"
    assert "_source_tree" not in (ROOT / "python" / "CMakeLists.txt").read_text()


def test_the_checkouts_jobs_live_in_the_toolkit():
    """The report, benchmark peers and fixtures, and the benchmarks against other tools (video, age)
    are nuri-dev's modules, not the installed package's (scripts/check-wheel.sh checks the wheel)."""
    for rel in (
        "tools/report.py",
        "tools/anchors.py",
        "hw/_verilator.py",
        "fea_engines/postgres.py",
        "fea_engines/bench.py",
        "fea_engines/roundtrip.py",
        "seal/videobench.py",
        "seal/agebench.py",
    ):
        assert not (PACKAGE / rel).exists(), f"python/nuri/{rel} belongs to tools/nuri_dev"
    import nuri_dev.agebench
    import nuri_dev.videobench

    assert nuri_dev.agebench.__doc__.startswith("nuri against age")
    assert nuri_dev.videobench.__doc__
