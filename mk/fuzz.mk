# libFuzzer harnesses (fuzz/*.c, clang) with property checks over the public API: streaming = one-shot
# under random chunking, every implementation against ref, decrypt(encrypt(x)) = x, nothing released on
# failure. Seeds come from the project's own code (scripts/fuzz_seeds.py, through the Python package).
# Python code is fuzzed the same way with atheris (fuzz/fuzz_*.py, scripts/deps/fuzz.pip; each writes
# its own seeds with --seeds DIR): the sealed video reader and MPEG-TS cutter (fuzz_video.py), the CSV
# record reader of nuri fpe (fuzz_csv.py).
#   make check-fuzz   a short run of each (FUZZ_SMOKE_SECONDS, default 20 s each; FUZZ_PY_SMOKE_SECONDS,
#                     default 10 s, for the Python ones) - part of make check
#   make check-fuzz-py  the Python ones alone (no clang build)
#   make fuzz         long runs (FUZZ_SECONDS, default 600 s each); the corpus grows in build/fuzz/corpus
FUZZ_TARGETS := schwaemm pipo esch mlkem fea
FUZZ_PY_TARGETS := video csv
FUZZ_SMOKE_SECONDS ?= 20
FUZZ_PY_SMOKE_SECONDS ?= 10
FUZZ_SECONDS ?= 600
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1
FUZZ_BIN := $(addprefix build/fuzz/fuzz_,$(FUZZ_TARGETS))
CHECK_EXTRA += check-fuzz
.PHONY: check-fuzz check-fuzz-py fuzz fuzz-build fuzz-seeds fuzz-py-deps

fuzz-build: bootstrap-all
	cmake -S . -B build/fuzz/lib -G Ninja -DCMAKE_C_COMPILER=clang -DNURI_WERROR=ON -DNURI_BUILD_TESTS=OFF \
	  -DNURI_BUILD_BENCH=OFF -DNURI_BUILD_SHARED=OFF -DNURI_PROVIDER=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  "-DCMAKE_C_FLAGS=$(FUZZ_SAN) -fsanitize=fuzzer-no-link" >/dev/null
	ninja -C build/fuzz/lib -j$(JOBS)
	@for t in $(FUZZ_TARGETS); do \
	  clang $(FUZZ_SAN) -fsanitize=fuzzer -Wall -Werror -Iinclude fuzz/fuzz_$$t.c build/fuzz/lib/libnuri.a \
	    -o build/fuzz/fuzz_$$t || exit 1; done

fuzz-seeds: python
	$(PY) scripts/fuzz_seeds.py build/fuzz/seeds $(FUZZ_TARGETS)
	@for t in $(FUZZ_PY_TARGETS); do $(PY) fuzz/fuzz_$$t.py --seeds build/fuzz/seeds/$$t || exit 1; done

# one line per harness: executions, new coverage units, seconds (from libFuzzer's final stats);
# $(1) seconds, $(2) the harnesses, $(3) how to start one ($$t is its name)
define run_fuzz
	@mkdir -p build/fuzz/logs
	@for t in $(2); do mkdir -p build/fuzz/corpus/$$t; \
	  echo "fuzz_$$t: $(1) s"; \
	  $(3) -max_total_time=$(1) -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix=build/fuzz/logs/$$t- build/fuzz/corpus/$$t build/fuzz/seeds/$$t \
	    >build/fuzz/logs/$$t.log 2>&1 || { tail -n 40 build/fuzz/logs/$$t.log; echo "fuzz_$$t FAILED (input in build/fuzz/logs/$$t-*)"; exit 1; }; \
	  grep -E '^stat::(number_of_executed_units|new_units_added)' build/fuzz/logs/$$t.log | tr '\n' ' '; echo; done
endef

# atheris alone, for check-fuzz-py (fuzz-build installs every group)
fuzz-py-deps: python
	@scripts/bootstrap.sh fuzz

check-fuzz: fuzz-build fuzz-seeds
	$(call run_fuzz,$(FUZZ_SMOKE_SECONDS),$(FUZZ_TARGETS),build/fuzz/fuzz_$$t)
	$(call run_fuzz,$(FUZZ_PY_SMOKE_SECONDS),$(FUZZ_PY_TARGETS),$(PY) fuzz/fuzz_$$t.py)

check-fuzz-py: fuzz-py-deps fuzz-seeds
	$(call run_fuzz,$(FUZZ_PY_SMOKE_SECONDS),$(FUZZ_PY_TARGETS),$(PY) fuzz/fuzz_$$t.py)

fuzz: fuzz-build fuzz-seeds
	$(call run_fuzz,$(FUZZ_SECONDS),$(FUZZ_TARGETS),build/fuzz/fuzz_$$t)
	$(call run_fuzz,$(FUZZ_SECONDS),$(FUZZ_PY_TARGETS),$(PY) fuzz/fuzz_$$t.py)
