#define NURI_FEA_PATTERN_DIGITS 1
#define NURI_FEA_PATTERN_TEMPLATE 2
#define NURI_FEA_PATTERN_ALPHABET 3
#define NURI_FEA_PATTERN_MAX_SYMBOLS 128
typedef struct nuri_fea_pattern {
    const char *tmpl;
    const char *symbols;
    size_t tmpl_len, symbols_len;
    unsigned kind, radix;
    size_t nenc, nchars;
} nuri_fea_pattern;
int nuri_fea_pattern_init(nuri_fea_pattern *p, const char *spec, size_t spec_len, const char *symbols,
                          size_t symbols_len, char *msg, size_t msg_cap);
int nuri_fea_pattern_check_domain(unsigned radix, size_t nsymbols, unsigned flags, char *msg, size_t msg_cap);
int nuri_fea_pattern_split(const nuri_fea_pattern *p, const char *value, size_t len, uint16_t *syms,
                           size_t *nsyms, unsigned flags, char *msg, size_t msg_cap);
size_t nuri_fea_pattern_max_out(const nuri_fea_pattern *p, size_t value_len);
int nuri_fea_pattern_join(const nuri_fea_pattern *p, const char *value, size_t len, const uint16_t *syms,
                          size_t nsyms, char *out, size_t out_cap, size_t *out_len);
