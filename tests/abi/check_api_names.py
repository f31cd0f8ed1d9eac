#!/usr/bin/env python3
"""Checks that the public headers follow the one C API convention written at the top of
include/nuri/nuri.h, by parsing every NURI_API declaration:

  impl        the implementation selector is a `const char *impl` parameter, found only in the
              functions that create a key or a context (names ending in _init) and in the
              registry's self-test (_selftest); every family with a registry has such a function;
              no other spelling of a selector (impl_name, engine, backend, ...)
  buffers     no outlen / inlen / buflen / bare len; an output length `out_len` (any `x_len`
              pointer) is `size_t *` and follows its buffer's `x_cap` (or a fixed-size array);
              an input length `x_len` is size_t and follows its pointer `x` when `x` is a
              parameter; `x_cap` is size_t and follows a writable pointer `x`; a byte output
              `out` comes with `out_cap` (unless it is a fixed-size array or the function
              transforms `count` items in place)
  enums       a variant / level / mode / padding parameter has its enum type, declared in the
              headers as a typedef'd enum
  defined     every declared function is defined by name in src/ (a plain definition that grep
              finds, not one made by token pasting)
  registry    a family with nuri_<f>_impl_count also has _impl_info, _impl_supported, _default_impl
  version     NURI_VERSION_STRING is NURI_VERSION_MAJOR.MINOR.PATCH, major >= 1 (the stable API)

    check_api_names.py [--src DIR] HEADER...   exit 1 and one line per violation
    check_api_names.py --self-test             breaks copies of the headers one rule at a time and
                                               checks that each break is reported (and the real
                                               headers pass)
Prints "check_api_names: N passed, M failed" like the other test programs."""

import pathlib
import re
import shutil
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
SELECTOR_SPELLINGS = {"impl_name", "engine", "backend", "implementation", "impl_index"}
ENUM_PARAMS = {
    "variant": r"nuri_\w+_variant",
    "level": r"nuri_mlkem_level",
    "mode": r"nuri_\w+_mode",
    "padding": r"nuri_padding",
}
COUNT = re.compile(r"^(count|n|n[a-z]+)$")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


class Param:
    def __init__(self, text):
        self.text = " ".join(text.split())
        m = re.match(r"^(.*?)\b(\w+)\s*((?:\[[^\]]*\])*)$", self.text)
        if not m or self.text == "void":
            self.type, self.name, self.array = self.text, "", ""
        else:
            self.type, self.name, self.array = " ".join(m.group(1).split()), m.group(2), m.group(3)
        self.pointer = self.type.endswith("*") or bool(self.array)
        self.writable = (
            self.pointer and not self.type.startswith("const") and "*const" not in self.type.replace(" ", "")
        )

    def __repr__(self):
        return self.text


class Func:
    def __init__(self, path, ret, name, params):
        self.path, self.ret, self.name = path, ret, name
        self.params = [Param(p) for p in split_params(params)]
        self.params = [p for p in self.params if p.name]


def split_params(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += ch in "([" and 1 or ch in ")]" and -1 or 0
        cur += ch
    if cur.strip():
        out.append(cur)
    return out


def parse(paths):
    """(functions, enum typedef names, integer macros) of the headers."""
    funcs, enums, macros = [], set(), {}
    for path in paths:
        text = strip_comments(pathlib.Path(path).read_text(encoding="utf-8"))
        for m in re.finditer(r"^#\s*define\s+(NURI_\w+)\s+(\S+)", text, flags=re.M):
            macros[m.group(1)] = m.group(2).strip('"')
        for m in re.finditer(r"typedef\s+enum\s*\{[^}]*\}\s*(\w+)\s*;", text):
            enums.add(m.group(1))
        for m in re.finditer(r"\bNURI_API\b([^;{]*?)\b(nuri_\w+)\s*\(([^;]*)\)\s*;", text, flags=re.S):
            ret = " ".join(m.group(1).replace("NURI_MUST_CHECK", "").split())
            funcs.append(Func(pathlib.Path(path).name, ret, m.group(2), m.group(3)))
    return funcs, enums, macros


def check_func(f, enums):
    errs = []
    ps = f.params

    def err(msg):
        errs.append(f"{f.path}: {f.name}: {msg}")

    for i, p in enumerate(ps):
        prev = ps[i - 1] if i else None
        # the selector
        if p.name in SELECTOR_SPELLINGS or ("impl" in p.name and p.name != "impl" and "char" in p.type):
            err(f"parameter '{p.text}': the implementation selector is named impl (const char *impl)")
        if p.name == "impl":
            if p.type != "const char *":
                err(f"parameter '{p.text}': impl is a const char * (an implementation name)")
            if not (f.name.endswith("_init") or f.name.endswith("_selftest")):
                err(
                    "takes impl, but only the functions that create a key or a context (nuri_<x>_key_init, "
                    "nuri_<x>_init) choose the implementation; take the key or context instead"
                )
        # buffer names
        if p.name == "len" or re.fullmatch(r"[a-z]+len", p.name):
            err(f"parameter '{p.text}': lengths are named <buffer>_len (inputs) or <buffer>_cap (outputs)")
        if p.name.endswith("_len"):
            stem = p.name[:-4]
            if p.type == "size_t":
                # the length of a buffer of the call follows it (a length alone, e.g. of a value
                # the caller will pass later, has no buffer here)
                if any(q.name == stem for q in ps) and not (prev and prev.name == stem and prev.pointer):
                    err(f"parameter '{p.text}': an input length follows its buffer ({stem}, {p.name})")
            elif p.type == "size_t *":
                if not (prev and (prev.name == stem + "_cap" or (prev.name == stem and prev.array))):
                    err(
                        f"parameter '{p.text}': an output length follows the buffer's capacity "
                        f"({stem}, {stem}_cap, {p.name})"
                    )
            else:
                err(f"parameter '{p.text}': {p.name} is size_t (input length) or size_t * (bytes written)")
        if p.name == "out_len" and p.type != "size_t *":
            err(f"parameter '{p.text}': out_len is a size_t * (the number of bytes written)")
        if p.name.endswith("_cap"):
            stem = p.name[:-4]
            if p.type != "size_t":
                err(f"parameter '{p.text}': a capacity is a size_t")
            if not (prev and prev.name == stem and prev.writable):
                err(f"parameter '{p.text}': a capacity follows its writable buffer ({stem}, {p.name})")
        if p.name.endswith("_lens") and p.type != "const size_t *":
            err(f"parameter '{p.text}': per-item lengths are const size_t *")
        if p.name == "out" and p.writable and not p.array and re.fullmatch(r"(uint8_t|char|void) \*", p.type):
            nxt = ps[i + 1] if i + 1 < len(ps) else None
            sized = nxt is not None and nxt.type == "size_t"
            # a size right after out is its capacity; with none, the function must be a batch
            # transform of `count` items (out receives as many as in holds)
            if (sized and nxt.name != "out_cap") or (not sized and not any(COUNT.match(q.name) for q in ps)):
                err(f"parameter '{p.text}': a byte output comes with its capacity (out, out_cap)")
        # enums
        for name, pattern in ENUM_PARAMS.items():
            if p.name == name and not (re.fullmatch(pattern, p.type) and p.type in enums):
                err(f"parameter '{p.text}': {name} has its enum type ({pattern.replace(chr(92) + 'w+', '<x>')})")
    return errs


def defined_names(src):
    """Function names defined by a plain definition in src/**/*.c: a line starting with the return
    type, then the name and '(' (token-pasted definitions in macros do not count)."""
    names = set()
    for path in pathlib.Path(src).rglob("*.c"):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            m = re.match(r"^[A-Za-z_][\w \*]*?\b(nuri_\w+)\(", line)
            if m and not line.rstrip().endswith("\\"):
                names.add(m.group(1))
    return names


def check(headers, src):
    funcs, enums, macros = parse(headers)
    errs = []
    if not funcs:
        return [f"no NURI_API declarations in {', '.join(map(str, headers))}"]
    for f in funcs:
        errs += check_func(f, enums)
    # every family with a registry chooses its implementation somewhere
    names = {f.name for f in funcs}
    for f in funcs:
        m = re.fullmatch(r"nuri_(\w+)_impl_count", f.name)
        if not m:
            continue
        fam = m.group(1)
        for need in ("impl_info", "impl_supported", "default_impl"):
            if f"nuri_{fam}_{need}" not in names:
                errs.append(f"{f.path}: the {fam} registry has no nuri_{fam}_{need}")
        if not any(p.name == "impl" for g in funcs if g.path == f.path for p in g.params):
            errs.append(f"{f.path}: the {fam} registry has implementations but no function takes impl to choose one")
    # plain definitions
    if src is not None:
        have = defined_names(src)
        for f in funcs:
            if f.name not in have:
                errs.append(f"{f.path}: {f.name} has no plain definition in {src} (grep finds no '{f.name}(')")
    # version
    if "NURI_VERSION_STRING" in macros:
        parts = [macros.get(f"NURI_VERSION_{k}") for k in ("MAJOR", "MINOR", "PATCH")]
        if None in parts or macros["NURI_VERSION_STRING"] != ".".join(parts):
            errs.append(
                f"nuri.h: NURI_VERSION_STRING {macros['NURI_VERSION_STRING']!r} is not NURI_VERSION_MAJOR.MINOR.PATCH"
            )
        elif int(parts[0]) < 1:
            errs.append("nuri.h: the API is declared stable from 1.0.0, but NURI_VERSION_MAJOR is 0")
    return errs


# ---- self-test: each rule must catch a deliberately broken header ----
BREAKS = [
    ("selector spelled impl_name", "pipo.h", "const char *impl);", "const char *impl_name);", "impl_name"),
    (
        "impl outside creation",
        "pipo.h",
        "const uint8_t *in, size_t nblocks);",
        "const uint8_t *in, size_t nblocks, const char *impl);",
        "only the functions that create",
    ),
    (
        "inlen",
        "sha3.h",
        "nuri_sha3_256(uint8_t out[NURI_SHA3_256_BYTES], const uint8_t *in, size_t in_len)",
        "nuri_sha3_256(uint8_t out[NURI_SHA3_256_BYTES], const uint8_t *in, size_t inlen)",
        "inlen",
    ),
    (
        "outlen",
        "sha3.h",
        "nuri_shake128(uint8_t *out, size_t out_cap,",
        "nuri_shake128(uint8_t *out, size_t outlen,",
        "outlen",
    ),
    (
        "out_len not size_t *",
        "pipo.h",
        "nuri_pipo_final(nuri_pipo_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len)",
        "nuri_pipo_final(nuri_pipo_ctx *ctx, uint8_t *out, size_t out_cap, unsigned *out_len)",
        "out_len",
    ),
    (
        "out_len as input size",
        "sparkle.h",
        "uint8_t *out, size_t out_cap, size_t *out_len);\n/* One-shot (dispatch). */",
        "uint8_t *out, size_t out_len);\n/* One-shot (dispatch). */",
        "out_len",
    ),
    (
        "output without capacity",
        "nuri.h",
        "int nuri_randombytes(uint8_t *out, size_t out_cap);",
        "int nuri_randombytes(uint8_t *out, size_t n);",
        "(out, out_cap)",
    ),
    (
        "variant as int",
        "sparkle.h",
        "size_t nuri_schwaemm_key_bytes(nuri_schwaemm_variant variant);",
        "size_t nuri_schwaemm_key_bytes(int variant);",
        "variant has its enum type",
    ),
    (
        "fea variant as unsigned",
        "fea.h",
        "nuri_fea_variant variant, unsigned nbits, const char *impl);",
        "unsigned variant, unsigned nbits, const char *impl);",
        "variant has its enum type",
    ),
    (
        "level as unsigned",
        "mlkem.h",
        "size_t nuri_mlkem_ek_bytes(nuri_mlkem_level level);",
        "size_t nuri_mlkem_ek_bytes(unsigned level);",
        "level has its enum type",
    ),
    (
        "engine selector",
        "keysearch.h",
        "int nuri_keysearch_selftest(const char *impl);",
        "int nuri_keysearch_selftest(const char *engine);",
        "named impl",
    ),
    (
        "no definition",
        "pipo.h",
        "NURI_API void nuri_pipo_key_wipe(nuri_pipo_key *k);",
        "NURI_API void nuri_pipo_key_wipe(nuri_pipo_key *k);\nNURI_API void nuri_pipo_not_defined(void);",
        "no plain definition",
    ),
    (
        "version not stable",
        "nuri.h",
        "#define NURI_VERSION_MAJOR  1",
        "#define NURI_VERSION_MAJOR  0",
        "NURI_VERSION_STRING",
    ),
]


def self_test():
    headers = sorted((ROOT / "include" / "nuri").glob("*.h"))
    passed = failed = 0
    base = check(headers, ROOT / "src")
    if base:
        print("the real headers fail:", *base, sep="\n  ")
        failed += 1
    else:
        passed += 1
    # a token-pasted definition is not a definition
    with tempfile.TemporaryDirectory() as tmp:
        (pathlib.Path(tmp) / "pasted.c").write_text(
            "#define F(L) int nuri_mlkem##L##_thing(void) { return 0; }\nF(768)\nint nuri_plain(void) { return 0; }\n"
        )
        have = defined_names(tmp)
        if "nuri_plain" in have and not any("thing" in n for n in have):
            passed += 1
        else:
            print("defined_names: token pasting counted as a definition, or a plain one missed:", sorted(have))
            failed += 1
    for what, name, old, new, expect in BREAKS:
        with tempfile.TemporaryDirectory() as tmp:
            inc = pathlib.Path(tmp)
            for h in headers:
                shutil.copy(h, inc / h.name)
            text = (inc / name).read_text()
            if old not in text:
                print(f"self-test '{what}': the text to break is not in {name} (update BREAKS): {old!r}")
                failed += 1
                continue
            (inc / name).write_text(text.replace(old, new, 1))
            errs = check(sorted(inc.glob("*.h")), ROOT / "src")
            if any(expect in e for e in errs):
                passed += 1
            else:
                print(f"self-test '{what}': not caught (expected a message with {expect!r}); got: {errs}")
                failed += 1
    return passed, failed


def main(argv):
    if "--self-test" in argv:
        passed, failed = self_test()
    else:
        src = None
        if "--src" in argv:
            i = argv.index("--src")
            src = pathlib.Path(argv[i + 1])
            argv = argv[:i] + argv[i + 2 :]
        errs = check([pathlib.Path(a) for a in argv], src)
        for e in errs:
            print(e)
        passed, failed = (0, len(errs)) if errs else (1, 0)
    print(f"check_api_names: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
