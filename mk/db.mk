# FEA where the columns live: the PostgreSQL extension (db/postgres/, PGXS, libnuri linked
# statically from a PIC build of the FEA family), DuckDB functions and Spark (python/nuri/fea_engines/).
#   make pg-ext      builds db/postgres/nuri_fea.so       make pg-install  installs it (root in CI)
#   make duckdb-ext  builds build/duckdb/nuri_fea.duckdb_extension (C, DuckDB's stable C extension API;
#                    headers from the pinned duckdb release at build time, metadata footer appended)
#   make check-db    the smoke in `make check` (tests/db: a real server, DuckDB, one Spark session)
#   make db-soak     a million-row CREATE TABLE AS, then 10 million values through every engine
#   make bench-db    `nuri bench fpe-engines --json` (part of `make bench`)
DB_PG_CONFIG ?= /usr/lib/postgresql/15/bin/pg_config
DB_BUILD := build/pg
DB_PGXS = $(MAKE) -s -C db/postgres PG_CONFIG=$(DB_PG_CONFIG) NURI_LIB=$(CURDIR)/$(DB_BUILD)/libnuri.a

.PHONY: db-lib pg-ext pg-install duckdb-ext duckdb-floor-ext check-db db-soak bench-db
CHECK_EXTRA += check-db
BENCH_EXTRA += bench-db

db-lib:
	@scripts/bootstrap.sh db
	cmake -S . -B $(DB_BUILD) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Release -DNURI_BUILD_TESTS=OFF \
	  -DNURI_BUILD_BENCH=OFF -DNURI_BUILD_SHARED=OFF -DNURI_ONLY=fea >/dev/null
	ninja -C $(DB_BUILD) -j$(JOBS)

pg-ext: db-lib
	$(DB_PGXS)

# The DuckDB extension: libnuri (PIC, static) inside, only the entry point exported. The C API
# version (field 3 of the footer) is the one duckdb_extension.h targets by default.
DUCKDB_DIR := build/duckdb
DUCKDB_EXT := $(DUCKDB_DIR)/nuri_fea.duckdb_extension
duckdb-ext: db-lib
	db/duckdb/get_headers.sh $(VENV)/bin/pip $(DUCKDB_DIR)/include
	$(CC) -std=c11 -O2 -fPIC -shared -fvisibility=hidden -Wall -Wextra -Werror -I$(DUCKDB_DIR)/include -Iinclude \
	  db/duckdb/nuri_fea_duckdb.c $(DB_BUILD)/libnuri.a -Wl,--exclude-libs,ALL -o $(DUCKDB_DIR)/nuri_fea.so
	$(VENV)/bin/python db/duckdb/append_metadata.py $(DUCKDB_DIR)/nuri_fea.so $(DUCKDB_EXT) $(DUCKDB_FOOTER)

# The footer's platform, C API version and extension version
DUCKDB_FOOTER = "$$($(VENV)/bin/python -c 'import duckdb; print(duckdb.execute("PRAGMA platform").fetchone()[0])')" \
	  "v$$(sed -n 's/^\#define DUCKDB_EXTENSION_API_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)/\2/p' \
	      $(DUCKDB_DIR)/include/duckdb_extension.h | paste -sd.)" \
	  "$$(sed -n 's/^\#define NURI_VERSION_STRING "\(.*\)"/\1/p' include/nuri/nuri.h)"

# A benchmark reference only (not installed, not in make check): bench_string_copy(c), the cheapest
# C-extension function that returns a new string per row (db/duckdb/bench_floor/)
DUCKDB_FLOOR_EXT := $(DUCKDB_DIR)/nuri_bench_floor.duckdb_extension
duckdb-floor-ext: duckdb-ext
	$(CC) -std=c11 -O2 -fPIC -shared -fvisibility=hidden -Wall -Wextra -Werror -I$(DUCKDB_DIR)/include \
	  db/duckdb/bench_floor/nuri_bench_floor.c -o $(DUCKDB_DIR)/nuri_bench_floor.so
	$(VENV)/bin/python db/duckdb/append_metadata.py $(DUCKDB_DIR)/nuri_bench_floor.so $(DUCKDB_FLOOR_EXT) $(DUCKDB_FOOTER)

pg-install: pg-ext
	$(DB_PGXS) install >/dev/null

check-db: pg-install duckdb-ext python
	NURI_DB_REQUIRED=1 NURI_DUCKDB_EXT=$(CURDIR)/$(DUCKDB_EXT) $(VENV)/bin/pytest -q tests/db

db-soak: pg-install duckdb-ext python
	NURI_DB_REQUIRED=1 NURI_DUCKDB_EXT=$(CURDIR)/$(DUCKDB_EXT) NURI_DB_ROWS=1000000 NURI_DB_RT_ROWS=100000 $(VENV)/bin/pytest -q tests/db
	NURI_DUCKDB_EXT=$(CURDIR)/$(DUCKDB_EXT) $(VENV)/bin/python -m nuri_dev.roundtrip --rows 10000000

bench-db: pg-install duckdb-ext duckdb-floor-ext python
	@mkdir -p build
	NURI_DUCKDB_EXT=$(CURDIR)/$(DUCKDB_EXT) NURI_DUCKDB_FLOOR_EXT=$(CURDIR)/$(DUCKDB_FLOOR_EXT) $(NURI) bench fpe-engines --json | tee -a build/bench.json
