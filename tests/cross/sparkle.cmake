# SPARKLE target program on every target (AArch64 too: it covers the a64/neon kernels with the
# KAT records and step counts 0..13, in seconds where the host test_sparkle takes minutes).
nuri_add_cross_test(test_sparkle_kat ${NURI_CROSS_DIR}/test_sparkle_kat.c)
