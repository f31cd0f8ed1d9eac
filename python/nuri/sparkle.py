"""The SPARKLE permutations (SPARKLE256/384/512) behind Schwaemm and Esch.

A state is 32, 48 or 64 bytes: the words x0,y0,x1,y1,... each little-endian.

>>> from nuri import sparkle
>>> sparkle.permute(bytes(48), 11).hex().upper()[:32]
'25BFC2F355DD53FC0654D6CA17F9AF9E'
>>> sparkle.permute(bytes(32), 0) == bytes(32)
True
>>> sparkle.permute(bytes(48), 11, impl="ref") == sparkle.permute(bytes(48), 11)
True
"""

from ._native import ffi, lib
from ._util import as_bytes, as_int, c_name, check, impl_arg, impl_names

__all__ = ["permute", "implementations", "default_implementation", "SLIM_STEPS", "BIG_STEPS"]

#: steps used by Schwaemm/Esch, by state size in bytes
SLIM_STEPS = {32: 7, 48: 7, 64: 8}
BIG_STEPS = {32: 10, 48: 11, 64: 12}


def implementations():
    """Names of the registered SPARKLE implementations usable on this CPU, fastest first."""
    return impl_names(lib.nuri_sparkle_impl_count, lib.nuri_sparkle_impl_info, lib.nuri_sparkle_impl_supported)


def default_implementation():
    """The implementation dispatch picks now (honours NURI_IMPL=sparkle:<name>)."""
    return c_name(lib.nuri_sparkle_default_impl())


def permute(state: bytes, steps: int, *, impl: str = None) -> bytes:
    """SPARKLE256/384/512 (by the length of state: 32, 48 or 64 bytes) with `steps` steps; impl: the
    name of one of implementations() (None = dispatch)."""
    state = as_bytes(state, "state")
    if len(state) not in (32, 48, 64):
        raise ValueError(f"state must be 32, 48 or 64 bytes long (SPARKLE256/384/512), got {len(state)}")
    steps = as_int(steps, "steps")
    if steps < 0 or steps > 0xFFFFFFFF:
        raise ValueError(f"steps must be an integer in 0..2**32-1, got {steps!r}")
    ctx = ffi.new("nuri_sparkle_ctx *")
    check(lib.nuri_sparkle_init(ctx, impl_arg(impl)), "SPARKLE permutation")
    buf = ffi.new("uint8_t[]", state)
    check(lib.nuri_sparkle_permute_bytes(ctx, buf, len(state), steps), "SPARKLE permutation")
    return ffi.buffer(buf, len(state))[:]
