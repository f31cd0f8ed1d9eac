# age interoperability: nuri seal --format age / nuri open of age files, judged by the real age tool.
# `make age-tools` builds age, age-keygen and age-plugin-batchpass (passphrases without a terminal) v1.3.2
# with `go install` from the Go module proxy, everything (GOPATH, module and build caches) inside
# build/age-go; the first run downloads the modules (about a minute). The C2SP CCTV age vectors come the
# same way (c2sp.org/CCTV/age, pinned below; never committed) and tests/python/test_age.py reads them from
# NURI_AGE_CCTV_DIR. `make check-age` is the full cross matrix, the 500+ mutated files and every CCTV
# vector; make check runs the CCTV vectors and a short cross test when Go is present and says so when
# it is not. `make bench-age`
# times nuri and age on a 1 GiB file (JSON records appended to build/bench.json).
AGE_VERSION := v1.3.2
CCTV_AGE_VERSION := v0.0.0-20260829155415-4448f2097b2d
AGE_GO := $(CURDIR)/build/age-go
AGE_GOENV := GOPATH=$(AGE_GO)/gopath GOMODCACHE=$(AGE_GO)/gopath/pkg/mod GOCACHE=$(AGE_GO)/gocache \
	GOFLAGS=-mod=mod GOTOOLCHAIN=local GOBIN=$(AGE_GO)/bin
AGE_BIN := $(AGE_GO)/bin

.PHONY: age-tools check-age check-age-smoke bench-age
age-tools:
	@command -v go >/dev/null || { echo "age-tools: go is not installed (Go 1.25 or newer builds age $(AGE_VERSION))"; exit 1; }
	@mkdir -p $(AGE_GO)
	@[ -x $(AGE_BIN)/age-plugin-batchpass ] && $(AGE_BIN)/age --version | grep -qx '$(AGE_VERSION)' || \
	  $(AGE_GOENV) go install filippo.io/age/cmd/age@$(AGE_VERSION) filippo.io/age/cmd/age-keygen@$(AGE_VERSION) \
	    filippo.io/age/cmd/age-plugin-batchpass@$(AGE_VERSION)

# the CCTV vectors' folder in the module cache (downloaded on first use)
AGE_CCTV_DIR = $$($(AGE_GOENV) go mod download -json c2sp.org/CCTV/age@$(CCTV_AGE_VERSION) | sed -n 's/^\t"Dir": "\(.*\)",$$/\1/p')/testdata

check-age: python age-tools
	@scripts/bootstrap.sh seal
	NURI_AGE_CCTV_DIR=$(AGE_CCTV_DIR) $(VENV)/bin/pytest -q tests/python/test_age.py
	$(PY) tests/age/cross.py --age-bin $(AGE_BIN) --work build/age-cross

check-age-smoke: python
	@if ! command -v go >/dev/null; then echo "check-age: skipped: no go (the age cross test needs Go to build age $(AGE_VERSION))"; \
	elif ! $(MAKE) --no-print-directory age-tools; then \
	  echo "check-age: skipped: age $(AGE_VERSION) could not be built (is the Go module proxy reachable?)"; \
	else scripts/bootstrap.sh seal && \
	  NURI_AGE_CCTV_DIR=$(AGE_CCTV_DIR) $(VENV)/bin/pytest -q tests/python/test_age.py -k cctv && \
	  $(PY) tests/age/cross.py --quick --age-bin $(AGE_BIN) --work build/age-cross-quick; fi

bench-age: python
	@if command -v go >/dev/null; then \
	  scripts/bootstrap.sh seal && $(MAKE) --no-print-directory age-tools && mkdir -p build && \
	  set -o pipefail && $(PY) -m nuri_dev.agebench --age-bin $(AGE_BIN) --dir build/age-bench | tee -a build/bench.json; \
	else echo "bench-age: skipped: no go"; fi

CHECK_EXTRA += check-age-smoke
BENCH_EXTRA += bench-age
