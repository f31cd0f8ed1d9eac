# The wheel as a user gets it (scripts/check-wheel.sh): built from a copy of the checkout, installed
# without extras into a fresh virtual environment, the copy deleted, then the everyday commands run
# (selftest, seal/open with a key and a recipient, fpe on a CSV, hash, kem, keysearch, bench); the jobs
# of a checkout must exit 2 in one line, and no installed file may name the build directory.
# A few minutes: one Release build of the library, and the dependencies from the package registry.
.PHONY: check-wheel
CHECK_EXTRA += check-wheel

check-wheel: python
	VENV=$(VENV) scripts/check-wheel.sh
