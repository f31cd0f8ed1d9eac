"""GPU detection for --engine auto/cuda. The CUDA kernel (gpu/) is compiled by `make gpu` and its
host twin is tested in `make check`; this package has no CUDA launcher, so even with a GPU
present the search runs on the CPU (said so on stderr)."""
import ctypes.util
import os


def gpu_present():
    """True if an NVIDIA driver is loaded (device nodes or the driver library)."""
    return os.path.exists("/proc/driver/nvidia/version") or os.path.exists("/dev/nvidia0")


def unavailable_reason():
    if not gpu_present():
        return "no NVIDIA GPU found"
    if ctypes.util.find_library("cuda") is None:
        return "an NVIDIA GPU is present but libcuda was not found"
    return "an NVIDIA GPU is present but this nuri has no CUDA launcher (build gpu/ with make gpu)"
