# House style in `make check`: clang-format (.clang-format) over the C sources and ruff over all
# Python (lint rules F, E, W, I, B, UP and the formatter; pyproject.toml), both pinned in
# scripts/deps/lint.pip. `make format` rewrites the files in place.
CHECK_EXTRA += check-lint
.PHONY: check-lint format

check-lint: bootstrap-all
	VENV=$(VENV) scripts/check-format.sh

format: bootstrap-all
	VENV=$(VENV) scripts/check-format.sh --fix
