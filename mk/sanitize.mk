# clang UndefinedBehaviorSanitizer build of the library and its C tests (GCC's UBSan, in check-c, misses
# some reports clang gives, e.g. "applying zero offset to null pointer"). Every report aborts the test.
# abi_* tests link installed copies with the system compiler (no sanitizer runtime): check-ct runs them.
UBSAN_CLANG_FLAGS := -fsanitize=undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CHECK_EXTRA += check-ubsan-clang
.PHONY: check-ubsan-clang
check-ubsan-clang: bootstrap-all
	cmake -S . -B build/ubsan-clang -G Ninja -DCMAKE_C_COMPILER=clang -DNURI_WERROR=ON -DNURI_BUILD_BENCH=OFF \
	  -DNURI_PROVIDER=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_C_FLAGS=$(UBSAN_CLANG_FLAGS)" \
	  "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=undefined" "-DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=undefined" >/dev/null
	ninja -C build/ubsan-clang -j$(JOBS)
	cd build/ubsan-clang && UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j$(JOBS) -E '^abi_'
