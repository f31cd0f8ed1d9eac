#!/usr/bin/env python3
"""Static dependency analysis of one step of the generated SPARKLE AArch64 kernels.

    python3 bench/arm/critpath.py

For each routine of src/sparkle/a64/sparkle_a64.S and src/sparkle/neon/sparkle_neon.S, takes the
first unrolled step (from the loop label to the first exit branch) and reports its instruction
count and the length of its longest register dependency chain counted in instructions (unit
latency). QEMU counts instructions only; the chain length is what latency-bound cores feel, and
every instruction on the NEON chains is an ASIMD instruction (several cycles of latency each on
Cortex-A72), while most of the A64 chain is single-cycle ALU work. This is a property of the
code, not a timing."""

import os
import re

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def regs(text):
    out = []
    for m in re.finditer(r"\b([wxv])(\d+)\b", text):
        kind = "v" if m.group(1) == "v" else "r"
        out.append(f"{kind}{m.group(2)}")
    return out


def step_body(path, loop_label):
    lines = open(path).read().splitlines()
    i = lines.index(loop_label + ":")
    body = []
    for ln in lines[i + 1 :]:
        ln = ln.strip()
        if ln.startswith("b.") or ln.startswith("b "):
            break
        body.append(ln)
    return body


def analyse(body):
    ready = {}
    longest = 0
    for ins in body:
        op, _, args = ins.partition(" ")
        rs = regs(args)
        if op in ("adds", "subs", "cmp"):
            dst, srcs = (["nzcv"] + rs[:1]) if op != "cmp" else (["nzcv"]), rs[1:] if op != "cmp" else rs
        else:
            dst, srcs = rs[:1], rs[1:]
        if op == "sri":  # shift-right-and-insert also reads its destination
            srcs = srcs + dst
        t = 1 + max([ready.get(s, 0) for s in srcs] + [0])
        for d in dst:
            ready[d] = t
        longest = max(longest, t)
    return longest


def main():
    print(f"{'kernel':<16}{'instructions/step':>18}{'dependency chain/step':>23}")
    for impl, path, label in (
        ("a64", "src/sparkle/a64/sparkle_a64.S", ".Lloop"),
        ("neon", "src/sparkle/neon/sparkle_neon.S", ".Lnloop"),
    ):
        for nb in (4, 6, 8):
            body = step_body(os.path.join(ROOT, path), f"{label}{nb}")
            print(f"{impl + ' ' + str(64 * nb):<16}{len(body) + 1:>18}{analyse(body):>23}")


if __name__ == "__main__":
    main()
