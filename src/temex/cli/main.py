"""The ``temex`` command line: the parser and the dispatch.

Each sub-command lives in its own module of this package with an
``add_parser(sub)`` that registers it (and its runner as ``func``); a runner
takes the parsed namespace and returns the exit code: 0 success, 1 the work
failed (one-line reason on stderr), 2 bad usage, 3 (``candidates``) fewer
pages than asked for.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from .. import __version__
from ..errors import ParameterError, TemexError
from . import batch, candidates, content, crawl, demo, extension, extract, fit, serve, strip
from . import eval as eval_
from .common import (
    EXIT_CODES,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    MissingExtra,
    UsageError,
    os_reason,
    say,
    set_command,
)

__all__ = ["build_parser", "main"]

#: Sub-command modules in the order ``temex --help`` lists them.
COMMANDS = (extract, eval_, candidates, demo, serve, extension, content, fit, strip, batch,
            crawl)


class _Version(argparse.Action):
    """``--version``: the version and the page reader's status line
    (:func:`temex.page.kernel.status`), loaded only when asked."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from ..page.kernel import status

        print(f"temex {__version__}\n{status()}")
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """argparse's parser, its errors on one line as every message of temex:
    ``temex COMMAND: error: REASON (temex COMMAND --help lists the options)``,
    exit 2 (argparse prints the usage first, over several lines)."""

    #: The sub-commands' parsers by name (on the top parser).
    commands: dict[str, argparse.ArgumentParser]

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} ({self.prog} --help lists "
                              "the options)\n")


def build_parser() -> _Parser:
    parser = _Parser(
        prog="temex", description="Site-level web template extraction.")
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="show the version and which page reader runs (the compiled "
                             "kernel or the pure-Python path), and exit")
    sub = parser.add_subparsers(dest="command", required=True)
    parser.commands = {}
    for module in COMMANDS:
        p = module.add_parser(sub)
        p.epilog = EXIT_CODES
        parser.commands[p.prog.split()[-1]] = p
    parser.epilog = EXIT_CODES
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # said under the command's name, not the top parser's
        parser.commands[args.command].error(f"unrecognized arguments: {' '.join(unknown)}")
    set_command(args.command)
    try:
        return int(args.func(args))
    except (UsageError, ParameterError) as e:
        say(f"error: {e}")
        return EXIT_USAGE
    except MissingExtra as e:
        say(str(e))
        return EXIT_FAILED
    except BrokenPipeError:  # `temex ... | head`: the reader left; no message
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILED
    except TemexError as e:
        say(str(e))
        return EXIT_FAILED
    except OSError as e:  # a path as given, then the reason: "out.json: Is a directory"
        name = getattr(e, "filename", None)
        say(f"{name}: {os_reason(e)}" if name else os_reason(e))
        return EXIT_FAILED
    except KeyboardInterrupt:
        say(interrupted_hint(args.command))
        return EXIT_INTERRUPTED


def interrupted_hint(command: str) -> str:
    """What Ctrl-C leaves: commands that keep their progress resume."""
    if command in ("crawl", "batch"):
        return "interrupted; run the same command again to resume (the work done is kept)"
    return "interrupted"


if __name__ == "__main__":
    sys.exit(main())
