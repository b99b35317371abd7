"""The ``citeverify`` command.

Each family of sub-commands lives beside the code it drives and registers
itself here through ``register(subparsers)``; this module only assembles them,
so ``citeverify --help`` stays cheap (heavy imports happen inside handlers).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

from citeverify._version import CONTRACT_VERSION, DISTRIBUTION, __version__

# Modules that contribute sub-commands; each has ``register(subparsers) -> None``
# and sets ``func`` (taking the parsed ``argparse.Namespace``, returning an exit
# code) on the parsers it adds.
_COMMAND_MODULES = (
    "citeverify._cli_verify",  # verify, info
    "citeverify._cli_check",  # check
    "citeverify.store._cli",  # build-corpus
    "citeverify.importers._cli",  # import
    "citeverify.http._cli",  # serve, keys
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="citeverify",
        description="Verify legal citations and quotations (contract v1.1).",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"{DISTRIBUTION} {__version__} (contract {CONTRACT_VERSION})",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and name.startswith(exc.name):
                continue  # that part of the package is not there (yet)
            raise
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # Retries are reported in the verdicts they lead to; stamina's per-retry log
    # lines would otherwise reach stderr through logging's last-resort handler.
    logging.getLogger("stamina").setLevel(logging.ERROR)
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        code: int = func(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
