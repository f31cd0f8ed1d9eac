# Python lint in `make check`: ruff with the pyflakes rules (unused imports and variables, undefined
# names; configured in pyproject.toml). ruff comes from PyPI through scripts/deps/lint.pip.
CHECK_EXTRA += check-lint
.PHONY: check-lint

check-lint: bootstrap-all
	$(VENV)/bin/ruff check .
