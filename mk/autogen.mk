# Generated files checked: every committed output of a generator equals a fresh run, and the outputs
# of generators too slow for make check or needing a toolkit that may be absent (CUDA) match the
# digests recorded when they were made (scripts/autogen, scripts/autogen-digests.json). make check
# runs the quick form (~10 s); check-generated reruns the slow generator too (~6 min).
CHECK_EXTRA += check-generated-quick
.PHONY: check-generated check-generated-quick autogen

autogen:
	scripts/autogen

check-generated-quick:
	scripts/autogen --check --quick

check-generated:
	scripts/autogen --check
