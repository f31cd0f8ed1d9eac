#!/usr/bin/env python3
"""Instruction counts per candidate from `cuobjdump -sass` of the key-search kernels.

The search kernels are loops (batches per thread, rounds per batch), so a static count means
nothing per key: each instruction is weighted by how often one batch runs it. From the SASS the
script finds the batch loop (the outermost backward branch), the round loop (the largest backward
branch inside it; its body runs `iters` times per batch) and the early abort (the first
conditional forward branch after the round loop: the instructions it jumps over run only for the
share p_full of batches where a lane matches column 0 of the last round). Per key = per batch / 32.
Fails loudly when the SASS does not have that shape."""

import re
import subprocess

LINE = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P[T0-9]\s+)?([A-Z][A-Z0-9_]*)((?:\.[A-Z0-9_]+)*)\s*([^;]*);")
P_FULL = 1 - (255 / 256) ** 32


def functions(sass_text):
    """{function name: [(addr, predicated, opcode, operands)]} from cuobjdump -sass output."""
    out, cur = {}, None
    for line in sass_text.splitlines():
        m = re.search(r"Function : (\w+)", line)
        if m:
            cur = out.setdefault(m.group(1), [])
            continue
        m = LINE.search(line)
        if m and cur is not None:
            cur.append((int(m.group(1), 16), bool(m.group(2)), m.group(3), m.group(5)))
    return out


def sass(cubin, cuobjdump="cuobjdump"):
    return subprocess.run([cuobjdump, "-sass", cubin], capture_output=True, text=True, check=True).stdout


def weights(ins, iters, p_full=P_FULL):
    """Per-batch execution weight of every instruction (see the module's docstring)."""
    branches = []
    for a, pred, op, args in ins:
        if op == "BRA":
            m = re.search(r"0x([0-9a-f]+)", args)
            if m:
                branches.append((a, int(m.group(1), 16), pred))
    back = [(a, t) for a, t, _ in branches if t < a]
    if not back:
        raise ValueError("no loop in the SASS")
    b_back, b_head = max(back, key=lambda x: x[0] - x[1])  # the batch loop: the largest
    inner = [(a, t) for a, t in back if b_head < t and a < b_back]
    if not inner:
        raise ValueError("no round loop inside the batch loop")
    l_back, l_head = max(inner, key=lambda x: x[0] - x[1])
    fwd = [(a, t) for a, t, pred in branches if pred and l_back < a < t <= b_back]
    if not fwd:
        raise ValueError("no early abort after the round loop")
    ab, ab_t = min(fwd)
    w = {}
    for a, _, _, _ in ins:
        if a < b_head or a > b_back:
            w[a] = 0.0
        elif l_head <= a <= l_back:
            w[a] = float(iters)
        elif ab < a < ab_t:
            w[a] = p_full
        else:
            w[a] = 1.0
    return w, {"loop_instructions": (l_back - l_head) // 16 + 1, "slow_instructions": (ab_t - ab) // 16 - 1}


def per_key(ins, iters, p_full=P_FULL):
    """{'total', 'LOP3', 'LDS', ...: instructions per key} plus the static figures."""
    w, info = weights(ins, iters, p_full)
    out = {"total": 0.0}
    for a, _, op, _ in ins:
        if op in ("NOP",) or w[a] == 0:
            continue
        out["total"] += w[a] / 32
        out[op] = out.get(op, 0.0) + w[a] / 32
    out["static_instructions"] = len(ins)
    out.update(info)
    return out
