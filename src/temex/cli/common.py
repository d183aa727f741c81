"""What the sub-commands share: exit codes, the detector flags and writing an
output to a file or stdout."""

from __future__ import annotations

import argparse
import os.path
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..site.defaults import DEFAULT_N as DEFAULT_CS_SIZE
from ..template.defaults import DEFAULT_EQUALITY, DEFAULT_N_PAGES, DEFAULT_REGION, EQUALITIES

if TYPE_CHECKING:
    from ..page.dom import Document
    from ..template.detectors import ExtractOptions

__all__ = ["DEFAULT_CS_SIZE", "EXIT_CODES", "EXIT_FAILED", "EXIT_INCOMPLETE",
           "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_PARTIAL", "EXIT_USAGE", "STDIO", "MissingExtra",
           "UsageError", "add_force_argument", "add_format_argument", "add_guard_arguments",
           "add_method_arguments",
           "allow_host", "at_least", "extract_options", "fraction",
           "guard_settings", "is_stdio", "load_page", "os_reason", "output_exists",
           "positive_float", "positive_int", "read_input", "refuse_existing", "require", "say",
           "set_command", "write_output"]

#: Exit codes of every command: success; the work failed, or a page given by
#: name could not be used (one-line reason on stderr); bad usage (argparse, or
#: a value that cannot be honoured); done but less than asked for (fewer pages
#: than ``-n`` could be found: the outputs are written and the shortfall is
#: said on stderr); done with failures (some pages or URLs of a run failed:
#: the others are written, the failures counted on stderr); interrupted.
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INCOMPLETE, EXIT_PARTIAL = 0, 1, 2, 3, 4
EXIT_INTERRUPTED = 130

#: The epilog of every command's ``--help``.
EXIT_CODES = ("exit status: 0 done; 1 failed, or a page named on the command line could "
              "not be used (one-line reason on stderr); 2 bad usage or a value that cannot "
              "be honoured; 3 done, but fewer pages than asked for with -n could be found "
              "(said on stderr; candidates: also with its default -n); 4 done with failures "
              "(extract -i, batch, crawl: some URLs or pages failed; counted on stderr, even "
              "with -q); 130 interrupted (crawl and batch: run the same command again to "
              "resume). "
              f"Docs, installed with temex: "
              f"{os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), 'docs')}"
              " (CLI.md: every command, stdin/stdout, exit codes).")

#: ``-`` as an input is stdin, as an output (``-o -``) stdout.
STDIO = "-"


def require(module: str, extra: str, feature: str) -> None:
    """Raise MissingExtra (one line naming the extra to install) when the
    optional ``module`` cannot be imported."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        raise MissingExtra(f"{feature} needs the optional package {module.split('.')[0]}: "
                           f"pip install 'temex[{extra}]'") from None


class MissingExtra(Exception):
    """An optional feature whose extra is not installed (exit 1, one line)."""


def is_stdio(path: str | None) -> bool:
    return path == STDIO


#: The command being run (set by :func:`temex.cli.main.main`): the prefix of
#: every message, ``temex COMMAND:``.
_command = {"name": ""}


def set_command(name: str) -> None:
    _command["name"] = name


def say(message: str, command: str = "") -> None:
    """One line on stderr, prefixed ``temex COMMAND:`` (the command being run
    unless ``command`` names one; ``temex:`` outside a command)."""
    command = command or _command["name"]
    print(f"temex {command}: {message}" if command else f"temex: {message}", file=sys.stderr)


def os_reason(e: OSError) -> str:
    """An OSError in words, without ``[Errno N]`` nor the file name (the
    caller says which file): ``Is a directory``."""
    return e.strerror or str(e) or type(e).__name__


class UsageError(Exception):
    """A value that cannot be honoured: exit 2 with a one-line reason."""


def positive_int(text: str) -> int:
    """argparse type: an int >= 1 (``-n 0`` is refused, exit 2)."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive whole number")
    return v


def at_least(low: int) -> Callable[[str], int]:
    """argparse type: an int >= ``low``."""
    def check(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if v < low:
            raise argparse.ArgumentTypeError(f"{text} is below the least possible value {low}")
        return v
    check.__name__ = f"int>={low}"
    return check


def fraction(low_open: bool = False, high_open: bool = False) -> Callable[[str], float]:
    """argparse type: a number in [0, 1] (ends open as asked)."""
    def check(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        lo_ok = v > 0 if low_open else v >= 0
        hi_ok = v < 1 if high_open else v <= 1
        if not (lo_ok and hi_ok):
            span = f"{'(' if low_open else '['}0, 1{')' if high_open else ']'}"
            raise argparse.ArgumentTypeError(f"{text} is not in {span}")
        return v
    check.__name__ = "fraction"
    return check


def positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not v > 0:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return v


def allow_host(text: str) -> str:
    """argparse type of ``--allow-host HOST[:PORT]``: checked now (a name is
    resolved now), so a bad entry is a usage error (exit 2)."""
    from ..site.sources.netguard import BadAllowEntry, parse_allow

    try:
        parse_allow(text)
    except BadAllowEntry as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text.strip()


def add_guard_arguments(g: argparse._ActionsContainer, who: str = "temex") -> None:
    """``--allow-private`` and ``--allow-host``: the address guard's two
    explicit exceptions, under the same names in every command that fetches
    (:mod:`temex.site.sources.netguard`)."""
    g.add_argument("--allow-private", action="store_true",
                   help=f"let {who} fetch every private, loopback and link-local address "
                        "(refused by default, redirects and DNS answers included); for one "
                        "site on this machine prefer --allow-host")
    g.add_argument("--allow-host", action="append", default=[], type=allow_host,
                   metavar="HOST[:PORT]",
                   help="allow this address, network (10.0.0.0/8) or host name although it is "
                        "not public, on PORT only when given (e.g. 127.0.0.1:8000); "
                        "repeatable. Every other private address stays refused")


def add_quiet_arguments(p: argparse._ActionsContainer) -> None:
    """``-q`` and ``--quiet-errors`` of the commands that report failed pages
    (``batch``, ``crawl``): the count of failures stays on stderr under
    ``-q``; the exit status says it in any case."""
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress on stderr (failed pages are still counted there)")
    p.add_argument("--quiet-errors", action="store_true",
                   help="with -q, not even the count of failed pages (the exit status, 4, "
                        "still says it)")


def add_comments_argument(p: argparse._ActionsContainer) -> None:
    """``--no-comments``, one name and one meaning on every command that
    writes main content (``ContentParams.comments``)."""
    p.add_argument("--no-comments", dest="comments", action="store_false",
                   help="the article alone: leave out comment sections and the replies of "
                        "a thread (default: kept, as the page's own content)")


def guard_settings(args: argparse.Namespace) -> tuple[bool, tuple[str, ...]]:
    """``(allow_private, guard_allow)`` of :func:`add_guard_arguments`' flags."""
    return bool(getattr(args, "allow_private", False)), tuple(getattr(args, "allow_host", ()))


def add_method_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("extraction")
    g.add_argument("--method", choices=["vote", "intersect", "rtdm", "chunks"], default="vote",
                   help="vote: TeMex majority vote (default); intersect: ETDM paper Alg. 2; "
                        "rtdm: RTDM-TD (Vieira et al.); chunks: text-chunk document frequency")
    g.add_argument("--equality", choices=sorted(EQUALITIES), default=DEFAULT_EQUALITY,
                   help=f"node equality relation (default: {DEFAULT_EQUALITY})")
    g.add_argument("--threshold", type=fraction(high_open=True), default=0.5,
                   help="vote: a node is template when more than this share of the "
                        "pages map it (default 0.5: a strict majority)")
    g.add_argument("-n", "--n-pages", type=positive_int, default=None, metavar="N",
                   help=f"candidate pages to compare (default {DEFAULT_N_PAGES} from a "
                        f"folder; {DEFAULT_CS_SIZE} for a URL, the complete subdigraph size)")
    g.add_argument("--no-evidence", action="store_true",
                   help="count every mapped node as template (the papers' behaviour)")
    g.add_argument("--region", type=fraction(low_open=True), default=DEFAULT_REGION,
                   help=f"content-region coverage in (0, 1] (default {DEFAULT_REGION})")
    g.add_argument("--no-region", action="store_true", help="turn the content-region rule off")
    g.add_argument("--region-threshold", type=fraction(high_open=True), default=0.67,
                   help="vote inside the content region: more than this share of the pages "
                        "(default 0.67)")


def extract_options(args: argparse.Namespace) -> ExtractOptions:
    from ..template.detectors import ExtractOptions

    return ExtractOptions(method=args.method, equality=args.equality,
                          threshold=args.threshold,
                          n_pages=args.n_pages if args.n_pages else DEFAULT_N_PAGES,
                          evidence=not args.no_evidence,
                          region=None if args.no_region else args.region,
                          region_threshold=args.region_threshold)


def add_format_argument(p: argparse._ActionsContainer, formats: Sequence[str],
                        help: str) -> None:
    """``-f/--format`` (``--output-format``, trafilatura's name, too) of a
    command writing ``formats``; ``text`` and ``txt`` name ``content``
    (:data:`temex.content.formats.FORMAT_ALIASES`)."""
    from ..content.formats import canonical_format

    p.add_argument("-f", "--format", "--output-format", dest="format", choices=tuple(formats),
                   default="content", type=canonical_format, metavar="FORMAT",
                   help=f"{help}; one of {', '.join(formats)} (text and txt: content)")


def add_force_argument(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--force``: the one switch that lets a command replace an output
    file that exists (:func:`refuse_existing`)."""
    parser.add_argument("--force", action="store_true",
                        help="replace output files that exist (without it an existing file "
                             "is refused and left as it was)")


def output_exists(path: str | os.PathLike[str], force: bool) -> str:
    """The one-line reason an output file is not written ("" when it may
    be): no output is overwritten unless ``--force`` says so."""
    from pathlib import Path

    if force or not Path(path).exists():
        return ""
    return f"{path}: exists; not overwritten (--force replaces it)"


def refuse_existing(output: str | None, force: bool) -> None:
    """Before any work: UsageError (exit 2) when the output file ``output``
    exists and ``force`` is not given; nothing for stdout."""
    if output and not is_stdio(output):
        why = output_exists(output, force)
        if why:
            raise UsageError(why)


def write_output(text: str, output: str | None, force: bool = False) -> None:
    """Write ``text`` to the file ``output`` (folders made), or to stdout
    (no ``output``, or ``-``). A file that exists is replaced only with
    ``force``; else FileExistsError (an OSError), the file left as it was
    (exclusive creation: one that appeared since the command's check
    counts too)."""
    if output and not is_stdio(output):
        from pathlib import Path

        Path(output).parent.mkdir(parents=True, exist_ok=True)
        with open(output, "w" if force else "x", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def read_input(path: str) -> bytes:
    """The bytes of a page file, or of stdin for ``-`` (same size cap)."""
    if is_stdio(path):
        from ..page.dom import DEFAULT_MAX_BYTES

        data = sys.stdin.buffer.read(DEFAULT_MAX_BYTES + 1)
        if len(data) > DEFAULT_MAX_BYTES:
            raise OSError(f"stdin: more than {DEFAULT_MAX_BYTES} bytes")
        return data
    from ..page.files import read_page

    return read_page(path)


def load_page(path: str) -> Document | None:
    """Read and parse one page file (``-``: stdin); a page that cannot be
    used is reported on stderr and None returned."""
    from ..errors import ParseError
    from ..page.dom import parse
    from ..page.files import unusable

    try:
        doc = parse(read_input(path), url="<stdin>" if is_stdio(path) else path)
    except OSError as e:
        say(f"skipped {path}: cannot read ({os_reason(e)})")
        return None
    except ParseError as e:
        say(f"skipped {path}: {e}")
        return None
    reason = unusable(doc)
    if reason:
        say(f"skipped {path}: {reason}")
        return None
    return doc
