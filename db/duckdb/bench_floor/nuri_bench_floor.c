/* A benchmark reference, not part of nuri: the cheapest scalar function a loadable C extension can
 * be that returns a new VARCHAR per row. `bench_string_copy(c)` writes each input string back as a
 * new string through the same C API call the nuri_fea extension uses
 * (duckdb_unsafe_vector_assign_string_element_len), with no parsing and no cryptography. Its time
 * against DuckDB's plain copy is the floor of any C extension that maps a string column to a string
 * column (`nuri bench fpe-engines` records it as duckdb-floor). Built by `make bench-db` only. */
#define DUCKDB_EXTENSION_NAME nuri_bench_floor
#include "duckdb_extension.h"

DUCKDB_EXTENSION_EXTERN

static int row_valid(const uint64_t *validity, idx_t row)
{
    return !validity || (validity[row / 64] >> (row % 64)) & 1;
}

static void string_copy(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    (void)info;
    idx_t n = duckdb_data_chunk_get_size(input);
    duckdb_vector in = duckdb_data_chunk_get_vector(input, 0);
    duckdb_string_t *s = duckdb_vector_get_data(in);
    uint64_t *valid = duckdb_vector_get_validity(in);
    for (idx_t r = 0; r < n; r++) {
        if (!row_valid(valid, r)) {
            duckdb_vector_ensure_validity_writable(out);
            duckdb_validity_set_row_invalid(duckdb_vector_get_validity(out), r);
            continue;
        }
        uint32_t len = s[r].value.inlined.length; /* strings of up to 12 bytes are stored inline */
        const char *p = len <= 12 ? s[r].value.inlined.inlined : s[r].value.pointer.ptr;
        duckdb_unsafe_vector_assign_string_element_len(out, r, p, len);
    }
}

DUCKDB_EXTENSION_ENTRYPOINT(duckdb_connection connection, duckdb_extension_info info,
                            struct duckdb_extension_access *access)
{
    duckdb_scalar_function f = duckdb_create_scalar_function();
    duckdb_scalar_function_set_name(f, "bench_string_copy");
    duckdb_logical_type t = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
    duckdb_scalar_function_add_parameter(f, t);
    duckdb_scalar_function_set_return_type(f, t);
    duckdb_destroy_logical_type(&t);
    duckdb_scalar_function_set_function(f, string_copy);
    duckdb_state st = duckdb_register_scalar_function(connection, f);
    duckdb_destroy_scalar_function(&f);
    if (st != DuckDBSuccess) {
        access->set_error(info, "nuri_bench_floor: cannot register bench_string_copy");
        return false;
    }
    return true;
}
