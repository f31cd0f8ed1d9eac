"""Exceptions shared by every nuri module (as in pyca/cryptography's cryptography.exceptions)."""


class NuriError(Exception):
    """An unexpected failure inside the C library (never raised for bad user input)."""


class InvalidTag(Exception):
    """Authentication failed: the ciphertext, tag, nonce or associated data was altered,
    or the key is wrong. No plaintext is released."""


class AlreadyFinalized(ValueError):
    """A context was used after its final call (or out of sequence). A ValueError, since the
    call is a bad argument for the context's state."""


class UnsupportedImplementation(ValueError):
    """The implementation asked for (impl= or NURI_IMPL) does not exist, or cannot run on this
    CPU or build. A ValueError: the name is a bad value."""
