# FEA where the columns live (issue 17): the PostgreSQL extension (db/postgres/, PGXS, libnuri linked
# statically from a PIC build of the FEA family), DuckDB functions and Spark (python/nuri/fea_engines/).
#   make pg-ext      builds db/postgres/nuri_fea.so       make pg-install  installs it (root in CI)
#   make check-db    the smoke in `make check` (tests/db: a real server, DuckDB, one Spark session)
#   make db-soak     a million-row CREATE TABLE AS, then 10 million values through every engine
#   make bench-db    `nuri bench fpe-engines --json` (part of `make bench`)
DB_PG_CONFIG ?= /usr/lib/postgresql/15/bin/pg_config
DB_BUILD := build/pg
DB_PGXS = $(MAKE) -s -C db/postgres PG_CONFIG=$(DB_PG_CONFIG) NURI_LIB=$(CURDIR)/$(DB_BUILD)/libnuri.a

.PHONY: pg-ext pg-install check-db db-soak bench-db
CHECK_EXTRA += check-db
BENCH_EXTRA += bench-db

pg-ext:
	@scripts/bootstrap.sh db
	cmake -S . -B $(DB_BUILD) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Release -DNURI_BUILD_TESTS=OFF \
	  -DNURI_BUILD_BENCH=OFF -DNURI_BUILD_SHARED=OFF -DNURI_ONLY=fea >/dev/null
	ninja -C $(DB_BUILD) -j$(JOBS)
	$(DB_PGXS)

pg-install: pg-ext
	$(DB_PGXS) install >/dev/null

check-db: pg-install python
	NURI_DB_REQUIRED=1 $(VENV)/bin/pytest -q tests/db

db-soak: pg-install python
	NURI_DB_REQUIRED=1 NURI_DB_ROWS=1000000 NURI_DB_RT_ROWS=100000 $(VENV)/bin/pytest -q tests/db
	$(VENV)/bin/python -m nuri.fea_engines.roundtrip --rows 10000000

bench-db: pg-install python
	@mkdir -p build
	$(NURI) bench fpe-engines --json | tee -a build/bench.json
