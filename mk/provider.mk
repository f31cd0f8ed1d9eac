# The OpenSSL 3 provider nuri.so (provider/): its own Release build with the three families it
# exposes, the EVP test program (ctest provider_evp), the OpenSSL CLI tests
# (tests/python/test_provider_cli.py) and the EVP-versus-direct benchmark.
PROVIDER_BUILD := build/provider-check
PROVIDER_DIR := $(CURDIR)/$(PROVIDER_BUILD)/provider

.PHONY: provider check-provider bench-provider
provider: bootstrap
	cmake -S . -B $(PROVIDER_BUILD) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Release -DNURI_PROVIDER=ON \
	  -DNURI_ONLY="pipo;sparkle;mlkem" >/dev/null
	ninja -C $(PROVIDER_BUILD) -j$(JOBS) nuri_provider provider_evp nuri-prov-decap nuri-bench-provider

check-provider: provider python
	cd $(PROVIDER_BUILD) && ctest --output-on-failure -R '^provider_'
	NURI_PROVIDER_DIR=$(PROVIDER_DIR) $(VENV)/bin/pytest -q tests/python/test_provider_cli.py
	$(PROVIDER_BUILD)/provider/bench/nuri-bench-provider $(PROVIDER_DIR) --quick >/dev/null

bench-provider: provider
	@mkdir -p build
	$(PROVIDER_BUILD)/provider/bench/nuri-bench-provider $(PROVIDER_DIR) | tee -a build/bench.json

CHECK_EXTRA += check-provider
BENCH_EXTRA += bench-provider
