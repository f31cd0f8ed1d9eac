"""Turns the public C headers (include/nuri/*.h) into cffi declarations, so every function declared
with NURI_API appears in nuri._native without a hand-written copy.

cffi's parser takes plain C declarations and `#define NAME <integer>`, not the preprocessor, so this
keeps: the integer macros (values computed here, so array sizes such as `ek[NURI_MLKEM512_EK_BYTES]`
become numbers), typedefs, enums and struct definitions, and every NURI_API declaration (with the
NURI_API and NURI_MUST_CHECK markers removed). It drops #include, the include guards and every
conditional block (the C++ `extern "C"` wrapper, the attribute macros). A construct it cannot
translate is an error, never silently skipped.

    python3 gen_cdef.py include/nuri/*.h      prints the cdef text"""

import re
import sys

_MACRO = re.compile(r"^#\s*define\s+(NURI_\w+)\s+(.*)$")
_INT = re.compile(r"\b(0x[0-9A-Fa-f]+|\d+)[uUlL]*\b")


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def _eval_int(expr, values):
    """The integer value of a macro body made of integers, known macros and + - * << | ( )."""
    body = re.sub(r"\b(NURI_\w+)\b", lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), expr)
    body = _INT.sub(lambda m: str(int(m.group(1), 0)), body)
    if not re.fullmatch(r"[\d\s()+\-*<>|]+", body):
        return None
    return int(eval(body, {"__builtins__": {}}))  # only digits and operators reach here


def cdef_from_headers(paths):
    values, out = {}, []
    for path in paths:
        text = _strip_comments(open(path, encoding="utf-8").read())
        lines = text.splitlines()
        depth, guard = 0, None
        decl = []
        for _i, raw in enumerate(lines):
            line = raw.rstrip()
            s = line.strip()
            if s.startswith("#"):
                d = re.match(r"#\s*(\w+)", s).group(1)
                if d in ("if", "ifdef", "ifndef"):
                    if guard is None and d == "ifndef" and depth == 0:
                        guard = s.split()[1]  # include guard: its content is the header
                        continue
                    depth += 1
                elif d == "endif":
                    if depth == 0:
                        continue  # end of the include guard
                    depth -= 1
                elif d == "define" and depth == 0:
                    m = _MACRO.match(s)
                    if m and m.group(1) != guard and "(" not in m.group(1):
                        v = _eval_int(m.group(2).strip(), values) if m.group(2).strip() else None
                        if v is not None:
                            values[m.group(1)] = v
                            out.append(f"#define {m.group(1)} ...")  # value taken from the C compiler
                continue
            if depth or not s:
                continue
            decl.append(s)
            joined = " ".join(decl)
            if joined.count("{") > joined.count("}") or not joined.endswith(";"):
                continue
            decl = []
            joined = re.sub(r"\bNURI_API\b\s*|\bNURI_MUST_CHECK\b\s*", "", joined)
            joined = re.sub(r"\[([^\]]+)\]", lambda m, path=path: f"[{_size(m.group(1), values, path)}]", joined)
            out.append(joined)
        if decl:
            raise SystemExit(f"{path}: unterminated declaration: {' '.join(decl)}")
    return "\n".join(out) + "\n"


def _size(expr, values, path):
    v = _eval_int(expr, values)
    if v is None:
        raise SystemExit(f"{path}: array size {expr!r} is not an integer expression of known macros")
    return v


if __name__ == "__main__":
    sys.stdout.write(cdef_from_headers(sys.argv[1:]))
