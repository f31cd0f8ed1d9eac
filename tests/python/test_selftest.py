"""nuri.tools.selftest: the known-answer tables of every family, kept out of the primitive modules."""

import importlib

import pytest

import nuri
from nuri.tools import selftest


def test_every_family_has_a_selftest_and_all_pass():
    assert set(selftest.FAMILY_TESTS) == set(nuri.FAMILIES)
    rows = selftest.run()
    assert {r[0] for r in rows} == set(nuri.FAMILIES)
    failed = [r for r in rows if not r[3]]
    assert not failed, failed
    # every usable implementation of every family ran at least one known answer
    for fam in nuri.FAMILIES:
        impls = importlib.import_module(f"nuri.{fam}").implementations()
        assert {r[1] for r in rows if r[0] == fam} == set(impls)


def test_one_family():
    rows = selftest.run("fea")
    assert rows and {r[0] for r in rows} == {"fea"}


@pytest.mark.parametrize("fam", nuri.FAMILIES)
def test_primitive_modules_hold_no_known_answer_tables(fam):
    mod = importlib.import_module(f"nuri.{fam}")
    # keysearch.selftest runs the engines' own self-test in C (nuri_keysearch_selftest), no table here
    assert not hasattr(mod, "selftest") or fam == "keysearch"
    assert not [n for n in vars(mod) if n.endswith("_KAT")]


def test_a_wrong_known_answer_fails(monkeypatch):
    k, p, c = selftest._PIPO_KAT[0]
    wrong = c[:-1] + ("0" if c[-1] != "0" else "1")
    monkeypatch.setattr(selftest, "_PIPO_KAT", [(k, p, wrong)])
    rows = selftest.run("pipo")
    assert rows and not any(r[3] for r in rows)
