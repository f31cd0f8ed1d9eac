int nuri_bench_run(const char *family, int fd, int quick, const char *filter);
const char *nuri_bench_families(void);
