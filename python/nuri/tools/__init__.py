"""Tooling around the primitives, not part of the cryptographic API: the benchmark runner (bench:
the C harness program nuri-bench installed here, key search) and the known-answer self-test of every
family (selftest).

What needs a checkout of the repository (benchmark peers, the report with its emulated targets and
hardware simulation, database and video benchmark fixtures) is the nuri-dev toolkit (tools/nuri_dev
in the repository), found by import alone: :func:`dev_toolkit`."""

import importlib

__all__ = ["NeedsCheckout", "dev_toolkit"]


class NeedsCheckout(RuntimeError):
    """A job of the nuri-dev toolkit was asked for where it is not installed (an installed wheel): the
    message is one line and says so; the command line turns it into exit status 2."""


def dev_toolkit(module, what, hint="run it in a checkout of the repository, after make python"):
    """The module nuri_dev.<module> of a checkout's toolkit, or NeedsCheckout naming `what` (a singular
    noun phrase) and what to do (`hint`)."""
    try:
        return importlib.import_module(f"nuri_dev.{module}")
    except ModuleNotFoundError as e:
        if e.name not in ("nuri_dev", f"nuri_dev.{module}"):
            raise
        raise NeedsCheckout(f"{what} needs a checkout of nuri (its nuri-dev toolkit): {hint}") from None
