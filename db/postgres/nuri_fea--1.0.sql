-- nuri_fea 1.0: FEA-1 format-preserving encryption. Keys are named, never given in SQL: the key
-- 'cards' is the nuri key file <nuri.key_dir>/cards.key. Patterns follow nuri's one syntax
-- (docs/fea.md#patterns): digits | template:PATTERN | alphabet:SYMBOLS, or a bare template.
-- The tweak (bytea) is a big-endian integer; the forms without it use tweak 0.
\echo Use "CREATE EXTENSION nuri_fea" to load this file. \quit

CREATE FUNCTION fea_encrypt_digits(value text, key_name text) RETURNS text
  AS 'MODULE_PATHNAME', 'pgnuri_fea_encrypt_digits' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fea_encrypt_digits(value text, key_name text, tweak bytea) RETURNS text
  AS 'MODULE_PATHNAME', 'pgnuri_fea_encrypt_digits' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fea_decrypt_digits(value text, key_name text) RETURNS text
  AS 'MODULE_PATHNAME', 'pgnuri_fea_decrypt_digits' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fea_decrypt_digits(value text, key_name text, tweak bytea) RETURNS text
  AS 'MODULE_PATHNAME', 'pgnuri_fea_decrypt_digits' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION fea_encrypt_template(value text, pattern text, key_name text) RETURNS text
  AS 'MODULE_PATHNAME', 'pgnuri_fea_encrypt_template' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fea_encrypt_template(value text, pattern text, key_name text, tweak bytea) RETURNS text
  AS 'MODULE_PATHNAME', 'pgnuri_fea_encrypt_template' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fea_decrypt_template(value text, pattern text, key_name text) RETURNS text
  AS 'MODULE_PATHNAME', 'pgnuri_fea_decrypt_template' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fea_decrypt_template(value text, pattern text, key_name text, tweak bytea) RETURNS text
  AS 'MODULE_PATHNAME', 'pgnuri_fea_decrypt_template' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Integers keep their type: 0 <= value < 10^18 (bigint) or 10^9 (integer), as W decimal digits.
CREATE FUNCTION fea_encrypt_int(value bigint, key_name text) RETURNS bigint
  AS 'MODULE_PATHNAME', 'pgnuri_fea_encrypt_bigint' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fea_encrypt_int(value bigint, key_name text, tweak bytea) RETURNS bigint
  AS 'MODULE_PATHNAME', 'pgnuri_fea_encrypt_bigint' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fea_decrypt_int(value bigint, key_name text) RETURNS bigint
  AS 'MODULE_PATHNAME', 'pgnuri_fea_decrypt_bigint' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fea_decrypt_int(value bigint, key_name text, tweak bytea) RETURNS bigint
  AS 'MODULE_PATHNAME', 'pgnuri_fea_decrypt_bigint' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fea_encrypt_int(value integer, key_name text) RETURNS integer
  AS 'MODULE_PATHNAME', 'pgnuri_fea_encrypt_integer' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fea_encrypt_int(value integer, key_name text, tweak bytea) RETURNS integer
  AS 'MODULE_PATHNAME', 'pgnuri_fea_encrypt_integer' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fea_decrypt_int(value integer, key_name text) RETURNS integer
  AS 'MODULE_PATHNAME', 'pgnuri_fea_decrypt_integer' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fea_decrypt_int(value integer, key_name text, tweak bytea) RETURNS integer
  AS 'MODULE_PATHNAME', 'pgnuri_fea_decrypt_integer' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
