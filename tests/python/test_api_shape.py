"""The one Python API shape of 1.0: every family module lists its implementations and takes
``impl=`` by keyword only, every implementation it lists is the one that runs, ``nuri.FAMILIES``
names every C registry, and no module imports another module's private names."""

import ast
import importlib
import inspect
import pathlib

import pytest

import nuri
from nuri import UnsupportedImplementation, aead, fea, keysearch, mlkem, pipo, sparkle
from nuri import hash as H
from nuri._native import lib

# module -> the C registry it lists (aead and hash run Schwaemm and Esch on the sparkle registry)
MODULES = {
    "pipo": "pipo",
    "fea": "fea",
    "sparkle": "sparkle",
    "aead": "sparkle",
    "hash": "sparkle",
    "mlkem": "mlkem",
    "keysearch": "keysearch",
}
PACKAGE = pathlib.Path(nuri.__file__).parent


def c_registry(family):
    count, info, ok = (getattr(lib, f"nuri_{family}_impl_{x}") for x in ("count", "info", "supported"))
    from nuri._native import ffi

    return [ffi.string(info(i).name).decode() for i in range(count()) if ok(i)]


def test_families_are_every_c_registry():
    registries = {n[len("nuri_") : -len("_impl_count")] for n in dir(lib) if n.endswith("_impl_count")}
    assert set(nuri.FAMILIES) == registries
    assert set(nuri.FAMILIES) <= set(MODULES)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_family_module_lists_its_implementations(name):
    mod = importlib.import_module(f"nuri.{name}")
    assert {"implementations", "default_implementation"} <= set(mod.__all__)
    impls = mod.implementations()
    assert impls == c_registry(MODULES[name]) and "ref" in impls and all(isinstance(i, str) for i in impls)
    assert mod.default_implementation() in impls


def _public_callables(mod):
    """(qualified name, callable) of the module's public functions, classes and their public methods."""
    for n in mod.__all__:
        obj = getattr(mod, n)
        if inspect.isfunction(obj):
            yield f"{mod.__name__}.{n}", obj
        elif inspect.isclass(obj):
            yield f"{mod.__name__}.{n}", obj.__init__
            for m, f in vars(obj).items():
                f = f.__func__ if isinstance(f, (classmethod, staticmethod)) else f
                if inspect.isfunction(f) and not m.startswith("_"):
                    yield f"{mod.__name__}.{n}.{m}", f


@pytest.mark.parametrize("name", sorted(MODULES))
def test_impl_is_keyword_only_and_the_only_selector(name):
    mod = importlib.import_module(f"nuri.{name}")
    seen = 0
    for qual, fn in _public_callables(mod):
        params = inspect.signature(fn).parameters
        assert not {"engine", "impl_name", "implementation", "backend"} & set(params), qual
        if "impl" in params:
            seen += 1
            assert params["impl"].kind is inspect.Parameter.KEYWORD_ONLY, f"{qual}: impl must be keyword-only"
            assert params["impl"].default is None, qual
    assert seen, f"nuri.{name} has no function taking impl="


# every entry point that sets up a key, a context or a one-shot call, with an implementation name
ENTRY_POINTS = {
    "pipo": [
        lambda i: pipo.encrypt_block(bytes(16), bytes(8), impl=i),
        lambda i: pipo.decrypt_block(bytes(32), bytes(8), impl=i),
        lambda i: pipo.encrypt(bytes(16), bytes(24), "cbc", iv=bytes(8), impl=i),
        lambda i: pipo.decrypt(bytes(16), bytes(24), "ctr", iv=bytes(8), impl=i),
        lambda i: pipo.Encryptor(bytes(16), "ctr", bytes(8), impl=i).update(bytes(40)),
        lambda i: pipo.Decryptor(bytes(16), "ecb", impl=i).update(bytes(40)),
    ],
    "fea": [
        lambda i: fea.encrypt(bytes(16), 5, 64, impl=i),
        lambda i: fea.decrypt(bytes(16), 5, 100, variant=2, impl=i),
        lambda i: list(fea.encrypt_batch(bytes(16), [1, 2, 3], 40, impl=i)),
        lambda i: fea.encrypt_digits(bytes(16), "4111111111111111", impl=i),
        lambda i: fea.encrypt_digits_batch(bytes(16), ["123456", "1234567"], impl=i),
        lambda i: fea.encrypt_radix_batch(bytes(16), [[1] * 8], 16, impl=i),
        lambda i: fea.FPE(bytes(16), impl=i).template("####-####").encrypt("1234-5678"),
    ],
    "sparkle": [lambda i: sparkle.permute(bytes(48), 11, impl=i)],
    "aead": [
        lambda i: aead.Schwaemm256_128(bytes(16), impl=i).encrypt(bytes(32), b"msg", b"ad"),
        lambda i: aead.Schwaemm128_128(bytes(16), impl=i).encrypt_many([bytes(16)] * 3, [b"a", b"bb", b""]),
    ],
    "hash": [
        lambda i: H.esch256(b"abc", impl=i),
        lambda i: H.esch384(b"abc", impl=i),
        lambda i: H.Esch256(b"abc", impl=i).digest(),
        lambda i: H.esch256_many([b"a", b"bc"], impl=i),
        lambda i: H.esch384_many([b"a", b"bc"], impl=i),
    ],
    "mlkem": [
        lambda i: mlkem.keygen(512, bytes(64), impl=i),
        lambda i: mlkem.encaps(512, mlkem.keygen(512, bytes(64))[0], bytes(32), impl=i),
        lambda i: mlkem.decaps(512, mlkem.keygen(512, bytes(64))[1], bytes(768), impl=i),
        lambda i: mlkem.encaps_many(512, [mlkem.keygen(512, bytes(64))[0]] * 2, [bytes(32)] * 2, impl=i),
        lambda i: mlkem.decaps_many(512, mlkem.keygen(512, bytes(64))[1], [bytes(768)] * 2, impl=i),
        lambda i: mlkem.MLKEM768PrivateKey.from_seed_bytes(bytes(64), impl=i).decapsulate(bytes(1088)),
        lambda i: (
            mlkem.MLKEM512PublicKey.from_public_bytes(mlkem.keygen(512, bytes(64))[0], impl=i).encapsulate()[0] and None
        ),
    ],
    "keysearch": [
        lambda i: keysearch.Problem("pipo-64/128", "00" * 15 + "??", [("00" * 8, "00" * 8)]).search(0, 256, impl=i),
        lambda i: keysearch.selftest(impl=i),
    ],
}


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_every_implementation_gives_refs_result_and_an_unknown_one_is_refused(name):
    mod = importlib.import_module(f"nuri.{name}")
    for k, call in enumerate(ENTRY_POINTS[name]):
        want = call("ref")
        assert call(None) == want, (name, k)
        for impl in mod.implementations():
            assert call(impl) == want, (name, k, impl)
        with pytest.raises(UnsupportedImplementation):
            call("no-such-implementation")


def test_objects_run_the_implementation_they_were_made_with():
    """The object-style APIs report the implementation their C key or context holds."""
    for impl in pipo.implementations():
        assert pipo.Encryptor(bytes(16), "ctr", bytes(8), impl=impl).implementation == impl
    for impl in aead.implementations():
        assert aead.Schwaemm256_256(bytes(32), impl=impl).implementation == impl
        h = H.Esch384(b"x", impl=impl)
        assert h.implementation == impl and h.copy().implementation == impl
    for impl in mlkem.implementations():
        key = mlkem.MLKEM1024PrivateKey.generate(impl=impl)
        assert key.implementation == impl and key.public_key().implementation == impl
    assert aead.Schwaemm256_128(bytes(16)).implementation == aead.default_implementation()
    assert mlkem.MLKEM512PrivateKey.generate().implementation == mlkem.default_implementation()


def test_impl_cannot_be_passed_by_position():
    with pytest.raises(TypeError):
        pipo.encrypt_block(bytes(16), bytes(8), "ref")
    with pytest.raises(TypeError):
        sparkle.permute(bytes(32), 7, "ref")
    with pytest.raises(TypeError):
        fea.encrypt(bytes(16), 5, 64, 0, 1, "ref")
    with pytest.raises(TypeError):
        aead.Schwaemm256_128(bytes(16), "ref")
    with pytest.raises(TypeError):
        H.Esch256(b"", "ref")
    with pytest.raises(TypeError):
        mlkem.decaps(512, bytes(1632), bytes(768), "ref")


def test_nuri_impl_environment_reaches_every_family(monkeypatch):
    """NURI_IMPL=<family>:ref is what impl=None honours (the C dispatch reads it)."""
    import subprocess
    import sys

    code = (
        "from nuri import aead, fea, hash, keysearch, mlkem, pipo, sparkle\n"
        "print([m.default_implementation() for m in (pipo, fea, sparkle, aead, hash, mlkem, keysearch)])\n"
        "print(aead.Schwaemm256_128(bytes(16)).implementation, mlkem.MLKEM768PrivateKey.generate().implementation)"
    )
    env = dict(
        __import__("os").environ, NURI_IMPL="pipo:ref,fea:ref,sparkle:ref,mlkem:ref,keysearch:ref", PYTHONPATH=""
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == [str(["ref"] * 7), "ref ref"]


def _private_uses(path):
    """Private names of another nuri module that path imports or reads: `from .m import _x` and
    `m._x` on a module imported as m (private helper modules such as _util are meant to be shared)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules, bad = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("nuri")):
            src = (node.module or "").split(".")[-1]
            for a in node.names:
                private = a.name.startswith("_") and not a.name.startswith("__")
                if private and node.module and not src.startswith("_"):
                    bad.append(f"from {'.' * node.level}{node.module or ''} import {a.name}")
                if not node.module or a.name[:1] != "_":
                    modules.add(a.asname or a.name)  # `from .. import mlkem [as m]`: a module name
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("nuri"):
                    modules.add(a.asname or a.name.split(".")[0])
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            bad.append(f"{node.value.id}.{node.attr}")
    return bad


def test_no_module_uses_another_modules_private_names():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        bad = _private_uses(path)
        if bad:
            found[str(path.relative_to(PACKAGE))] = bad
    assert not found, found


def test_the_private_use_check_finds_one(tmp_path):
    p = tmp_path / "x.py"
    p.write_text("from .fea import _check_key\nfrom .. import mlkem\nmlkem._sized(b'', 'x', 1, 512)\n")
    assert _private_uses(p) == ["from .fea import _check_key", "mlkem._sized"]
    p.write_text("from ._util import check\nfrom . import _common as C\nC.run()\n")
    assert _private_uses(p) == []
