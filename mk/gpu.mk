# CUDA key-search kernel (gpu/): `make gpu` installs nvcc from PyPI into .venv (CUDA 13 wheel:
# the cu12 wheels have no nvcc), compiles gpu/ks_kernel.cu for sm_80 and sm_90, and writes
# build/gpu/kernel-report.json (registers, spill bytes, LOP3 per key counted in PTX, estimated
# rates). It fails on any spill or more than 96 LOP3 per key for PIPO-64/128. No GPU is needed;
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
	$(PY) scripts/gpu_kernel_report.py --out build/gpu/kernel-report.json \
	  $(foreach a,$(GPU_ARCHS),--arch $(a) build/gpu/ks_kernel.$(a).ptx build/gpu/ptxas.$(a).log)
	@echo "gpu: build/gpu/kernel-report.json written"
