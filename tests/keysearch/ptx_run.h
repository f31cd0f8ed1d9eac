/* Runs PTX on the host, one thread after another: the subset nuri's kernel emitter
 * (python/nuri/keysearch/ptx.py) writes, parsed from the same text a driver would JIT-compile.
 * The fake CUDA driver (fake_cuda.c) loads modules with it, so the tests execute exactly the
 * kernels a GPU would be given. Test-only.
 *
 * Memory: every state space is host memory (the fake driver's device pointers are host pointers,
 * a module's __constant__ arrays are host buffers, shared memory is one buffer per block). Threads
 * of a block run one after another to completion; the kernels have no barriers and a thread only
 * reads shared memory it wrote itself, so that order gives the GPU's result. Anything outside the
 * subset is a load error naming the line. */
#ifndef NURI_TEST_PTX_RUN_H
#define NURI_TEST_PTX_RUN_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_NONE, K_R, K_RD, K_P, K_IMM, K_SPEC, K_SYM, K_SHSYM, K_MEM, K_LABEL, K_PARAM };
enum { SP_TID, SP_NTID, SP_CTAID, SP_NCTAID };
enum {
    O_LDPARAM,
    O_MOV,
    O_MULWIDE,
    O_CVT64,
    O_CVT32,
    O_ADD,
    O_SUB,
    O_SHR,
    O_SHL,
    O_MULLO,
    O_SETP,
    O_BRA,
    O_XOR,
    O_AND,
    O_OR,
    O_NOT,
    O_BFE,
    O_BFIND,
    O_NEG,
    O_SELP,
    O_ATOMADD,
    O_ST,
    O_LD,
    O_RET
};
enum { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE };

typedef struct {
    uint8_t kind;
    int32_t idx;  /* register number, parameter number, special register, base register of K_MEM (-1: none) */
    uint64_t imm; /* immediate, symbol address, memory offset (+ symbol address) */
    int32_t slot; /* where the operand's value lives in a thread's value array (set when the entry is read) */
} px_opnd;

typedef struct {
    uint8_t op, wide, bytes, cmp, guard, guard_neg;
    int32_t guard_idx;
    px_opnd d, a, b, c;
} px_insn;

typedef struct {
    char name[64];
    unsigned nparams, maxntid;
    char pname[16][32];
    unsigned psize[16];
    px_insn *code;
    size_t n, cap;
    int32_t nr, nrd, np;
    size_t shared_bytes;
    uint64_t *pool; /* immediates and symbol addresses, copied behind the registers */
    int32_t npool, nslots, spec_at, pool_at;
} px_entry;

typedef struct {
    char name[32];
    uint8_t *mem;
    size_t size;
} px_sym;

typedef struct {
    unsigned version_major, version_minor;
    px_entry entries[8];
    unsigned nentries;
    px_sym syms[8];
    unsigned nsyms;
} px_module;

static char px_error[256];

static int px_fail(const char *what, const char *line)
{
    snprintf(px_error, sizeof px_error, "%s: %.180s", what, line);
    return -1;
}

static const char *px_skip(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

static px_sym *px_find_sym(px_module *m, const char *name, size_t len)
{
    for (unsigned i = 0; i < m->nsyms; i++)
        if (strlen(m->syms[i].name) == len && strncmp(m->syms[i].name, name, len) == 0) return &m->syms[i];
    return NULL;
}

/* label names are resolved after the entry is read: the operand keeps a copy of the name */
typedef struct {
    char name[48];
    size_t at;
} px_label;

static int px_operand(px_module *m, px_entry *e, const char *t, px_opnd *o, const char *line)
{
    size_t len = strlen(t);
    memset(o, 0, sizeof *o);
    if (t[0] == '%') {
        if (strcmp(t, "%tid.x") == 0 || strcmp(t, "%ntid.x") == 0 || strcmp(t, "%ctaid.x") == 0 ||
            strcmp(t, "%nctaid.x") == 0) {
            o->kind = K_SPEC;
            o->idx = t[1] == 't' ? SP_TID : t[1] == 'n' && t[2] == 't' ? SP_NTID : t[1] == 'c' ? SP_CTAID : SP_NCTAID;
            return 0;
        }
        if (t[1] == 'r' && t[2] == 'd') {
            o->kind = K_RD;
            o->idx = atoi(t + 3);
            if (o->idx > e->nrd) e->nrd = o->idx;
        } else if (t[1] == 'r') {
            o->kind = K_R;
            o->idx = atoi(t + 2);
            if (o->idx > e->nr) e->nr = o->idx;
        } else if (t[1] == 'p') {
            o->kind = K_P;
            o->idx = atoi(t + 2);
            if (o->idx > e->np) e->np = o->idx;
        } else return px_fail("unknown register", line);
        return 0;
    }
    if (t[0] == '[') { /* [reg+off], [sym+off], [sym], [param] */
        char inner[64];
        if (len < 3 || len - 2 >= sizeof inner) return px_fail("bad address", line);
        memcpy(inner, t + 1, len - 2);
        inner[len - 2] = 0;
        char *plus = strchr(inner, '+');
        uint64_t off = plus ? strtoull(plus + 1, NULL, 0) : 0;
        if (plus) *plus = 0;
        o->kind = K_MEM;
        o->idx = -1;
        o->imm = off;
        if (inner[0] == '%') {
            if (inner[1] != 'r' || inner[2] != 'd') return px_fail("address register must be 64-bit", line);
            o->idx = atoi(inner + 3);
            if (o->idx > e->nrd) e->nrd = o->idx;
            return 0;
        }
        for (unsigned i = 0; i < e->nparams; i++)
            if (strcmp(e->pname[i], inner) == 0) {
                o->kind = K_PARAM;
                o->idx = (int32_t)i;
                return 0;
            }
        px_sym *s = px_find_sym(m, inner, strlen(inner));
        if (s && !s->mem) return px_fail("shared arrays are addressed through a register", line);
        if (s) {
            o->imm += (uint64_t)(uintptr_t)s->mem;
            return 0;
        }
        return px_fail("unknown symbol", line);
    }
    if ((t[0] >= '0' && t[0] <= '9') || t[0] == '-') {
        o->kind = K_IMM;
        o->imm = (uint64_t)strtoll(t, NULL, 0);
        if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) o->imm = strtoull(t, NULL, 16);
        return 0;
    }
    px_sym *s = px_find_sym(m, t, len);
    if (s) { /* a shared array's address is the block's buffer, bound at launch */
        o->kind = s->mem ? K_SYM : K_SHSYM;
        o->imm = (uint64_t)(uintptr_t)s->mem;
        return 0;
    }
    o->kind = K_LABEL; /* resolved later (idx = the label's slot) */
    return 1;
}

static int px_push(px_entry *e, const px_insn *in)
{
    if (e->n == e->cap) {
        size_t cap = e->cap ? 2 * e->cap : 1024;
        px_insn *c = realloc(e->code, cap * sizeof *c);
        if (!c) return -1;
        e->code = c;
        e->cap = cap;
    }
    e->code[e->n++] = *in;
    return 0;
}

static int px_cmp(const char *s)
{
    static const char *const names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    for (int i = 0; i < 6; i++)
        if (strncmp(s, names[i], 2) == 0) return i;
    return -1;
}

/* Gives every operand its slot in a thread's value array: 32-bit registers, 64-bit registers,
 * predicates, the special registers (tid, ntid, ctaid, nctaid, the block's shared memory), then the
 * immediates. A memory operand's slot is its base register's (-1: none). */
static int px_link(px_entry *e)
{
    int32_t rd_at = e->nr + 1, p_at = rd_at + e->nrd + 1;
    e->spec_at = p_at + e->np + 1;
    e->pool_at = e->spec_at + 5;
    for (size_t i = 0; i < e->n; i++) {
        px_insn *in = &e->code[i];
        px_opnd *ops[4] = {&in->d, &in->a, &in->b, &in->c};
        if (in->guard) in->guard_idx += p_at;
        for (int k = 0; k < 4; k++) {
            px_opnd *o = ops[k];
            switch (o->kind) {
            case K_R:
                o->slot = o->idx;
                break;
            case K_RD:
                o->slot = rd_at + o->idx;
                break;
            case K_P:
                o->slot = p_at + o->idx;
                break;
            case K_SPEC:
                o->slot = e->spec_at + o->idx;
                break;
            case K_SHSYM:
                o->slot = e->spec_at + 4;
                break;
            case K_MEM:
                o->slot = o->idx >= 0 ? rd_at + o->idx : -1;
                break;
            case K_IMM:
            case K_SYM: {
                int32_t j;
                for (j = 0; j < e->npool; j++)
                    if (e->pool[j] == o->imm) break;
                if (j == e->npool) {
                    if ((e->npool & 63) == 0) {
                        uint64_t *np = realloc(e->pool, (size_t)(e->npool + 64) * sizeof *np);
                        if (!np) return px_fail("out of memory", e->name);
                        e->pool = np;
                    }
                    e->pool[e->npool++] = o->imm;
                }
                o->slot = e->pool_at + j;
                break;
            }
            default:
                o->slot = -1;
            }
        }
    }
    e->nslots = e->pool_at + e->npool;
    return 0;
}

/* Parses a PTX module (NUL-terminated text). 0 on success; -1 with px_error set. */
static int px_load(px_module *m, const char *text)
{
    memset(m, 0, sizeof *m);
    px_entry *e = NULL;
    int in_body = 0, in_params = 0;
    px_label *labels = NULL, *refs = NULL;
    size_t nlabels = 0, nrefs = 0, caplab = 0, capref = 0;
    const char *p = text;
    char line[512];
    int rc = 0;
    while (*p && rc == 0) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len >= sizeof line) len = sizeof line - 1;
        memcpy(line, p, len);
        line[len] = 0;
        p = nl ? nl + 1 : p + len;
        char *cm = strstr(line, "//");
        if (cm) *cm = 0;
        char *s = (char *)px_skip(line);
        size_t l = strlen(s);
        while (l && (s[l - 1] == ' ' || s[l - 1] == '\t' || s[l - 1] == '\r')) s[--l] = 0;
        if (!l) continue;
        if (strncmp(s, ".version", 8) == 0) {
            if (sscanf(s + 8, " %u.%u", &m->version_major, &m->version_minor) != 2) rc = px_fail("bad .version", s);
            continue;
        }
        if (strncmp(s, ".target", 7) == 0 || strncmp(s, ".address_size", 13) == 0 || strncmp(s, ".pragma", 7) == 0)
            continue;
        if (strncmp(s, ".const", 6) == 0 || strncmp(s, ".shared", 7) == 0) {
            char name[32];
            size_t n;
            const char *b = strstr(s, ".b8");
            if (!b || sscanf(b + 3, " %31[A-Za-z0-9_][%zu]", name, &n) != 2) {
                rc = px_fail("bad array declaration", s);
                continue;
            }
            if (s[1] == 's') {
                if (!e) {
                    rc = px_fail(".shared outside an entry", s);
                    continue;
                }
                e->shared_bytes = n;
                if (m->nsyms == 8) {
                    rc = px_fail("too many symbols", s);
                    continue;
                }
                px_sym *sy = &m->syms[m->nsyms++];
                snprintf(sy->name, sizeof sy->name, "%s", name);
                sy->mem = NULL; /* the block's shared buffer, bound at launch */
                sy->size = n;
                continue;
            }
            if (m->nsyms == 8) {
                rc = px_fail("too many symbols", s);
                continue;
            }
            px_sym *sy = &m->syms[m->nsyms++];
            snprintf(sy->name, sizeof sy->name, "%s", name);
            sy->mem = calloc(1, n);
            sy->size = n;
            if (!sy->mem) rc = px_fail("out of memory", s);
            continue;
        }
        if (strncmp(s, ".visible .entry", 15) == 0 || strncmp(s, ".entry", 6) == 0) {
            if (m->nentries == 8) {
                rc = px_fail("too many entries", s);
                continue;
            }
            e = &m->entries[m->nentries++];
            const char *n = strstr(s, ".entry") + 6;
            n = px_skip(n);
            size_t k = 0;
            while (n[k] && n[k] != '(' && n[k] != ' ' && k < sizeof e->name - 1) k++;
            memcpy(e->name, n, k);
            e->name[k] = 0;
            e->maxntid = 1024;
            in_params = 1;
            nlabels = nrefs = 0;
            continue;
        }
        if (in_params && strncmp(s, ".param", 6) == 0) {
            char type[8], name[32];
            if (sscanf(s, ".param .%7s %31[A-Za-z0-9_]", type, name) != 2 || e->nparams == 16) {
                rc = px_fail("bad parameter", s);
                continue;
            }
            snprintf(e->pname[e->nparams], sizeof e->pname[0], "%s", name);
            e->psize[e->nparams++] = strcmp(type, "u64") == 0 ? 8 : 4;
            continue;
        }
        if (in_params && s[0] == ')') continue;
        if (strncmp(s, ".maxntid", 8) == 0) {
            if (e) e->maxntid = (unsigned)atoi(s + 8);
            continue;
        }
        if (s[0] == '{') {
            in_params = 0;
            in_body = 1;
            continue;
        }
        if (s[0] == '}') { /* end of the entry: resolve the branch targets */
            for (size_t i = 0; i < nrefs && rc == 0; i++) {
                size_t j;
                for (j = 0; j < nlabels; j++)
                    if (strcmp(labels[j].name, refs[i].name) == 0) break;
                if (j == nlabels) rc = px_fail("unknown label", refs[i].name);
                else e->code[refs[i].at].d.imm = labels[j].at;
            }
            if (rc == 0) rc = px_link(e);
            in_body = 0;
            continue;
        }
        if (!in_body || !e) {
            rc = px_fail("unexpected line", s);
            continue;
        }
        if (strncmp(s, ".reg", 4) == 0) continue;
        if (s[l - 1] == ':') { /* label */
            if (nlabels == caplab) {
                caplab = caplab ? 2 * caplab : 64;
                labels = realloc(labels, caplab * sizeof *labels);
            }
            s[l - 1] = 0;
            snprintf(labels[nlabels].name, sizeof labels[0].name, "%s", s);
            labels[nlabels++].at = e->n;
            continue;
        }
        if (s[l - 1] != ';') {
            rc = px_fail("missing ';'", s);
            continue;
        }
        s[--l] = 0;
        px_insn in;
        memset(&in, 0, sizeof in);
        if (s[0] == '@') {
            in.guard = 1;
            s++;
            if (*s == '!') {
                in.guard_neg = 1;
                s++;
            }
            if (s[0] != '%' || s[1] != 'p') {
                rc = px_fail("bad guard", line);
                continue;
            }
            in.guard_idx = atoi(s + 2);
            while (*s && *s != ' ' && *s != '\t') s++;
            s = (char *)px_skip(s);
        }
        char op[48];
        size_t k = 0;
        while (s[k] && s[k] != ' ' && s[k] != '\t' && k < sizeof op - 1) {
            op[k] = s[k];
            k++;
        }
        op[k] = 0;
        char *args = (char *)px_skip(s + k);
        /* operands: split on commas (none of ours contain one) */
        char *tok[4] = {0};
        int nt = 0;
        for (char *t = args; *t && nt < 4;) {
            char *c = strchr(t, ',');
            if (c) *c = 0;
            char *tt = (char *)px_skip(t);
            size_t tl = strlen(tt);
            while (tl && (tt[tl - 1] == ' ' || tt[tl - 1] == '\t')) tt[--tl] = 0;
            tok[nt++] = tt;
            if (!c) break;
            t = c + 1;
        }
        px_opnd *ops[4] = {&in.d, &in.a, &in.b, &in.c};
        int label_op = -1;
        for (int i = 0; i < nt; i++) {
            int r = px_operand(m, e, tok[i], ops[i], line);
            if (r < 0) {
                rc = -1;
                break;
            }
            if (r == 1) label_op = i;
        }
        if (rc) continue;
        const char *dot = strchr(op, '.');
        size_t base = dot ? (size_t)(dot - op) : strlen(op);
        const char *mods = dot ? dot : "";
        in.wide = strstr(mods, "64") != NULL;
        in.bytes = strstr(mods, ".u8") ? 1 : in.wide ? 8 : 4;
#define IS(x) (base == strlen(x) && strncmp(op, x, base) == 0)
        if (IS("ld") && strstr(mods, ".param")) {
            in.op = O_LDPARAM;
            if (in.a.kind != K_PARAM) rc = px_fail("ld.param needs a parameter", line);
        } else if (IS("ld")) {
            in.op = O_LD;
        } else if (IS("st")) {
            in.op = O_ST;
        } else if (IS("mov") || (IS("cvta") && strcmp(mods, ".to.global.u64") == 0)) {
            in.op = O_MOV; /* cvta: generic and global addresses are the same here */
        } else if (IS("mul") && strstr(mods, ".wide")) in.op = O_MULWIDE;
        else if (IS("mul") && strstr(mods, ".lo")) in.op = O_MULLO;
        else if (IS("cvt")) in.op = strncmp(mods, ".u64.u32", 8) == 0 ? O_CVT64 : O_CVT32;
        else if (IS("add")) in.op = O_ADD;
        else if (IS("sub")) in.op = O_SUB;
        else if (IS("shr")) in.op = O_SHR;
        else if (IS("shl")) in.op = O_SHL;
        else if (IS("setp")) {
            in.op = O_SETP;
            int c = px_cmp(mods + 1);
            if (c < 0) rc = px_fail("unknown comparison", line);
            in.cmp = (uint8_t)c;
        } else if (IS("bra")) {
            in.op = O_BRA;
            if (label_op != 0) rc = px_fail("bra needs a label", line);
            if (nrefs == capref) {
                capref = capref ? 2 * capref : 64;
                refs = realloc(refs, capref * sizeof *refs);
            }
            snprintf(refs[nrefs].name, sizeof refs[0].name, "%s", tok[0]);
            refs[nrefs++].at = e->n;
            label_op = -1;
        } else if (IS("xor")) in.op = O_XOR;
        else if (IS("and")) in.op = O_AND;
        else if (IS("or")) in.op = O_OR;
        else if (IS("not")) in.op = O_NOT;
        else if (IS("bfe") && strcmp(mods, ".s32") == 0) in.op = O_BFE;
        else if (IS("bfind") && strcmp(mods, ".u32") == 0) in.op = O_BFIND;
        else if (IS("neg")) in.op = O_NEG;
        else if (IS("selp")) in.op = O_SELP;
        else if (IS("atom") && strcmp(mods, ".global.add.u32") == 0) in.op = O_ATOMADD;
        else if (IS("ret")) in.op = O_RET;
        else rc = px_fail("instruction outside the supported subset", line);
#undef IS
        if (rc == 0 && label_op >= 0) rc = px_fail("unknown symbol", line);
        if (rc == 0 && px_push(e, &in)) rc = px_fail("out of memory", line);
    }
    free(labels);
    free(refs);
    if (rc == 0 && m->nentries == 0) rc = px_fail("no entry", "");
    return rc;
}

static void px_unload(px_module *m)
{
    for (unsigned i = 0; i < m->nentries; i++) {
        free(m->entries[i].code);
        free(m->entries[i].pool);
    }
    for (unsigned i = 0; i < m->nsyms; i++) free(m->syms[i].mem);
    memset(m, 0, sizeof *m);
}

/* Runs one thread of entry e with its value array V (registers, specials, immediates). */
static int px_thread(const px_entry *e, void **params, uint64_t *V)
{
    size_t pc = 0;
    const px_insn *code = e->code;
    for (;;) {
        if (pc >= e->n) return -1;
        const px_insn *in = &code[pc++];
        if (in->guard && (V[in->guard_idx] != 0) == in->guard_neg) continue;
        uint64_t a, b, v;
#define A      V[in->a.slot]
#define B      V[in->b.slot]
#define D      V[in->d.slot]
#define MEM(o) ((uint8_t *)(uintptr_t)((o).imm + ((o).slot >= 0 ? V[(o).slot] : 0)))
        switch (in->op) {
        case O_XOR:
            D = A ^ B;
            break;
        case O_AND:
            D = A & B;
            break;
        case O_OR:
            D = A | B;
            break;
        case O_NOT:
            D = ~A & 0xFFFFFFFFu;
            break;
        case O_MOV:
            D = A;
            break;
        case O_LDPARAM:
            v = 0;
            memcpy(&v, params[in->a.idx], e->psize[in->a.idx]);
            D = v;
            break;
        case O_MULWIDE:
            D = (uint64_t)(uint32_t)A * (uint32_t)B;
            break;
        case O_MULLO:
            v = A * B;
            D = in->wide ? v : (uint32_t)v;
            break;
        case O_CVT64:
        case O_CVT32:
            D = (uint32_t)A;
            break;
        case O_ADD:
            v = A + B;
            D = in->wide ? v : (uint32_t)v;
            break;
        case O_SUB:
            v = A - B;
            D = in->wide ? v : (uint32_t)v;
            break;
        case O_SHR:
        case O_SHL:
            a = A;
            b = (uint32_t)B;
            if (in->wide) v = b > 63 ? 0 : in->op == O_SHR ? a >> b : a << b;
            else v = b > 31 ? 0 : (uint32_t)(in->op == O_SHR ? (uint32_t)a >> b : (uint32_t)a << b);
            D = v;
            break;
        case O_SETP:
            a = A;
            b = B;
            if (!in->wide) {
                a = (uint32_t)a;
                b = (uint32_t)b;
            }
            D = in->cmp == C_EQ   ? a == b
                : in->cmp == C_NE ? a != b
                : in->cmp == C_LT ? a < b
                : in->cmp == C_LE ? a <= b
                : in->cmp == C_GT ? a > b
                                  : a >= b;
            break;
        case O_BRA:
            pc = (size_t)in->d.imm;
            break;
        case O_BFE: { /* one-bit fields only (sign-extended: 0 or all-ones) */
            uint64_t pos = B;
            if (V[in->c.slot] != 1 || pos > 31) return -2;
            D = (A >> pos & 1) ? 0xFFFFFFFFu : 0u;
            break;
        }
        case O_BFIND: {
            uint32_t x = (uint32_t)A;
            D = x ? 31u - (uint32_t)__builtin_clz(x) : 0xFFFFFFFFu;
            break;
        }
        case O_NEG:
            D = (uint32_t)(0u - (uint32_t)A);
            break;
        case O_SELP:
            D = V[in->c.slot] ? A : B;
            break;
        case O_ATOMADD: {
            uint32_t *q = (uint32_t *)MEM(in->a);
            D = *q;
            *q += (uint32_t)B;
            break;
        }
        case O_ST:
            v = A;
            memcpy(MEM(in->d), &v, in->bytes);
            break;
        case O_LD:
            v = 0;
            memcpy(&v, MEM(in->a), in->bytes);
            D = v;
            break;
        case O_RET:
            return 0;
        default:
            return -3;
        }
#undef A
#undef B
#undef D
#undef MEM
    }
}

/* Runs a grid of grid x block threads of e. 0, or negative on a bad program. */
static int px_launch(const px_entry *e, unsigned grid, unsigned block, void **params)
{
    uint64_t *V = calloc((size_t)e->nslots, sizeof *V);
    uint8_t *shared = calloc(1, e->shared_bytes ? e->shared_bytes : 1);
    int rc = V && shared ? 0 : -4;
    if (rc == 0) memcpy(V + e->pool_at, e->pool, (size_t)e->npool * sizeof *V);
    for (unsigned c = 0; c < grid && rc == 0; c++)
        for (unsigned t = 0; t < block && rc == 0; t++) {
            uint64_t *S = V + e->spec_at;
            S[SP_TID] = t;
            S[SP_NTID] = block;
            S[SP_CTAID] = c;
            S[SP_NCTAID] = grid;
            S[4] = (uint64_t)(uintptr_t)shared;
            rc = px_thread(e, params, V);
        }
    free(V);
    free(shared);
    return rc;
}

#endif
