# Generated files checked: every committed output of a generator equals a fresh run
# (scripts/autogen). make check runs the quick form (~30 s); check-generated all of it (~6 min).
CHECK_EXTRA += check-generated-quick
.PHONY: check-generated check-generated-quick autogen

autogen:
	scripts/autogen

check-generated-quick:
	scripts/autogen --check --quick

check-generated:
	scripts/autogen --check
