#!/bin/sh
# Builds the project's own instruction-counting QEMU plugin (bench/qemu/insncount.c) into
# build/qemu-plugins/libinsn.so (whole program; prints "insns: N") and libinsnrange.so (the same
# file; with lo=/hi= it counts an address range), and the constant-time trace plugin
# (tests/ct/qemu_ctrace.c) into libctrace.so. Needs only gcc; Debian's QEMU accepts -plugin.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=${1:-$ROOT/build/qemu-plugins}
mkdir -p "$W"
SRC=$ROOT/bench/qemu/insncount.c
if [ ! -f "$W/libinsn.so" ] || [ "$SRC" -nt "$W/libinsn.so" ]; then
    gcc -shared -fPIC -O2 -Wall -Wextra -I"$ROOT/bench/qemu" "$SRC" -o "$W/libinsn.so"
fi
cp -f "$W/libinsn.so" "$W/libinsnrange.so"
CT=$ROOT/tests/ct/qemu_ctrace.c
if [ ! -f "$W/libctrace.so" ] || [ "$CT" -nt "$W/libctrace.so" ]; then
    gcc -shared -fPIC -O2 -Wall -Wextra -I"$ROOT/bench/qemu" "$CT" -o "$W/libctrace.so"
fi
echo "$W/libinsn.so"
