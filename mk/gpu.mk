# CUDA key-search kernel (gpu/): `make gpu` installs nvcc from PyPI into .venv (CUDA 13 wheel:
# the cu12 wheels have no nvcc), compiles gpu/ks_kernel.cu for sm_80 and sm_90, and writes
# build/gpu/kernel-report.json (registers, spill bytes, LOP3 per key counted in PTX, estimated
# rates). It fails on any spill or more than 96 LOP3 per key for PIPO-64/128. It also regenerates the
# PTX the package's CUDA launcher loads (python/nuri/keysearch/ks_kernel.ptx) and records its digests
# for scripts/autogen --check (commit both; the check fails when gpu/ changed since). No GPU is needed;
# the kernel's search functions also run on the CPU as the host twin (test_bitplane, make check).
.PHONY: gpu
GPU_ARCHS := sm_80 sm_90

gpu: bootstrap
	@$(PY) -c 'import nvidia.cu13' 2>/dev/null || $(VENV)/bin/pip install -q nvidia-cuda-nvcc
	@mkdir -p build/gpu
	@NV=$$($(PY) -c 'import nvidia.cu13 as m; print(m.__path__[0])'); export PATH=$$NV/bin:$$PATH; \
	for a in $(GPU_ARCHS); do \
	  nvcc -arch=$$a -ptx -Igpu gpu/ks_kernel.cu -o build/gpu/ks_kernel.$$a.ptx || exit 1; \
	  nvcc -arch=$$a -cubin -Xptxas -v -Igpu gpu/ks_kernel.cu -o build/gpu/ks_kernel.$$a.cubin \
	    > build/gpu/ptxas.$$a.log 2>&1 || { cat build/gpu/ptxas.$$a.log; exit 1; }; \
	done
	@NV=$$($(PY) -c 'import nvidia.cu13 as m; print(m.__path__[0])'); export PATH=$$NV/bin:$$PATH; \
	nvcc -arch=compute_75 -ptx -DNURI_KS_SEARCH_ONLY -Igpu gpu/ks_kernel.cu -o build/gpu/ks_search.compute_75.ptx
	$(PY) scripts/gpu_ptx.py --ptx build/gpu/ks_search.compute_75.ptx --arch compute_75
	scripts/autogen --record python/nuri/keysearch/ks_kernel.ptx
	@NV=$$($(PY) -c 'import nvidia.cu13 as m; print(m.__path__[0])'); \
	$$NV/bin/ptxas -arch=sm_86 -v python/nuri/keysearch/ks_kernel.ptx -o build/gpu/shipped.sm_86.cubin \
	  > build/gpu/ptxas.shipped.log 2>&1 || { cat build/gpu/ptxas.shipped.log; exit 1; }; \
	! grep -E '[1-9][0-9]* bytes spill' build/gpu/ptxas.shipped.log # the shipped PTX, JIT-compiled as the driver would
	$(PY) scripts/gpu_kernel_report.py --out build/gpu/kernel-report.json \
	  $(foreach a,$(GPU_ARCHS),--arch $(a) build/gpu/ks_kernel.$(a).ptx build/gpu/ptxas.$(a).log)
	@echo "gpu: build/gpu/kernel-report.json written"
