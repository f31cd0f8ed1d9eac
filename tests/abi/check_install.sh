#!/usr/bin/env bash
# Installs the library into a scratch prefix and builds programs against it with pkg-config,
# statically and dynamically, as a user of the C library would: a PIPO known answer, and the C
# example of README.md (the first ```c block), so the documented example stays a working one.
set -euo pipefail
build=$1; src=$2
prefix=$(mktemp -d); trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
cat > "$prefix/use.c" <<'C'
#include <nuri/pipo.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    static const uint8_t key[16] = {0x97,0x22,0x15,0x2E,0xAD,0x20,0x1D,0x7E,0xD2,0x28,0x94,0x77,0xDD,0x16,0xC4,0x6D};
    static const uint8_t pt[8] = {0x26,0x00,0x27,0x1E,0xF6,0x52,0x85,0x09}, ct[8] = {0x27,0x03,0x5D,0xAD,0x81,0x29,0x6B,0x6B};
    uint8_t out[8]; nuri_pipo_key k;
    if (nuri_pipo_key_init(&k, key, sizeof key, NULL) != 0) return 1;
    nuri_pipo_encrypt_blocks(&k, out, pt, 1);
    printf("%s via %s\n", memcmp(out, ct, 8) ? "MISMATCH" : "ok", nuri_pipo_key_impl_name(&k));
    return memcmp(out, ct, 8) != 0;
}
C
progs=(use)
if [ -e "$prefix/include/nuri/sparkle.h" ]; then
  awk '/^```c$/ {on = 1; next} on && /^```$/ {exit} on {print}' "$src/README.md" > "$prefix/readme.c"
  [ -s "$prefix/readme.c" ] || { echo "check_install: no \`\`\`c example in README.md"; exit 1; }
  progs+=(readme)
fi
for p in "${progs[@]}"; do
  cc -std=c11 -Wall -Wextra -Werror "$prefix/$p.c" -o "$prefix/${p}_static" $(pkg-config --cflags nuri) "$prefix/lib/libnuri.a"
  "$prefix/${p}_static"
  if [ -e "$prefix/lib/libnuri.so" ]; then
    cc -std=c11 -Wall -Wextra -Werror "$prefix/$p.c" -o "$prefix/${p}_shared" $(pkg-config --cflags --libs nuri) -Wl,-rpath,"$prefix/lib"
    "$prefix/${p}_shared"
  fi
done
echo "check_install: 1 passed, 0 failed"
