"""Exceptions shared by every nuri module."""


class NuriError(Exception):
    """An unexpected failure inside the C library (never raised for bad user input)."""


class InvalidTag(Exception):
    """Authentication failed: the ciphertext, tag, nonce or associated data was altered,
    or the key is wrong. No plaintext is released."""
