# CUDA key-search kernels (python/nuri/keysearch/ptx.py emits them as PTX). `make gpu` installs the
# pinned toolkit wheels (scripts/deps/gpu.pip: a CUDA 12 ptxas and libnvfatbin, cuobjdump and
# nvdisasm), rebuilds the shipped fatbin (scripts/gpu_fatbin.py: SASS for sm_75 .. sm_120 plus the
# PTX; a generated file that scripts/autogen checks by digest: commit it with
# scripts/autogen-digests.json) and writes build/gpu/kernel-report.json: SASS instructions, LOP3 and LDS per key per kernel
# and per architecture (scripts/gpu_kernel_report.py). It fails on any spill, on more than 80 LOP3 or
# 4 LDS per key for the specialised PIPO-64/128 kernel, or on a fatbin without SASS for
# sm_75/80/86/89/90 or its PTX. No GPU is needed; `make gpu-check` is the check for a machine with one.
CHECK_EXTRA += check-gpu
.PHONY: gpu check-gpu gpu-check

gpu: python
	@scripts/bootstrap.sh gpu
	$(PY) scripts/gpu_fatbin.py
	scripts/autogen --record python/nuri/keysearch/ks_kernel.fatbin
	$(PY) scripts/gpu_kernel_report.py --out build/gpu/kernel-report.json
	@echo "gpu: build/gpu/kernel-report.json written"

# make check: the same build and report, but the fatbin is built into build/gpu/ and compared with
# the committed one (the pinned toolkit rebuilds it byte for byte; nothing in the tree is written)
check-gpu: python
	@scripts/bootstrap.sh gpu
	$(PY) scripts/gpu_fatbin.py --check
	$(PY) scripts/gpu_kernel_report.py --out build/gpu/kernel-report.json

# On a machine with an NVIDIA GPU: the real-driver self-test, a planted 40-bit search, the benchmark,
# the SASS of the kernel that ran and the CTR kernel's throughput, as one JSON file.
gpu-check:
	scripts/gpu-check.sh
