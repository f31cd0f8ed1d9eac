typedef struct nuri_impl_info {
    const char *name;
    uint32_t cpu_features;
    int constant_time;
    const char *description;
} nuri_impl_info;
const char *nuri_strerror(int code);
const char *nuri_version(void);
uint32_t nuri_cpu_features(void);
const char *nuri_cpu_feature_names(uint32_t features, char *buf, size_t buflen);
void nuri_wipe(void *p, size_t n);
int nuri_randombytes(uint8_t *out, size_t n);
int nuri_bench_run(const char *family, int fd, int quick, const char *filter);
const char *nuri_bench_families(void);
