"""`web` and `serve`: the static web player."""

from __future__ import annotations

import sys

from ..errors import UsageError
from .common import int_option, summary


def _list_options(p) -> None:
    p.add_argument("--answers", metavar="FILE", help="the answer list of trees made for custom lists (with --guesses)")
    p.add_argument("--guesses", metavar="FILE", help="the guess list of trees made for custom lists (with --answers)")


def add_web(sub) -> None:
    p = sub.add_parser("web", help=summary("web"))
    p.add_argument("trees", nargs="*", metavar="TREE",
                   help="Wordle-family, Hangman, Dordle, Absurdle or multi-board files or shipped trees' names "
                        "(default: every shipped tree of those); each is verified before it is published")
    p.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="folder to write: new, empty, or a site written here before")
    _list_options(p)


def run_web(args) -> int:
    from pathlib import Path

    from ..web import build_site

    from ..families import tree_path

    site = build_site([str(tree_path(tree)) for tree in args.trees], args.output, args.answers, args.guesses)
    index = (Path(args.output) / "index.html").resolve()
    count = sum(p.suffix == ".json" for p in site.files)
    print(f"verified {count} tree(s); wrote {len(site.files)} files to {args.output}; open {index.as_uri()}")
    return 0


def add_serve(sub) -> None:
    p = sub.add_parser("serve", help=summary("serve"))
    p.add_argument("trees", nargs="*", metavar="TREE",
                   help="Wordle-family, Hangman, Dordle, Absurdle or multi-board files or shipped trees' names "
                        "(default: every shipped tree of those); each is verified before it is served")
    p.add_argument("--port", type=int_option("--port", 0, 65535), default=8000, help="port on 127.0.0.1 (default 8000; 0 picks a free one)")
    p.add_argument("--seconds", type=float, metavar="S", help="stop after S seconds (default: run until Ctrl-C)")
    _list_options(p)


def run_serve(args) -> int:
    import tempfile

    from ..web import SiteServer, build_site

    if args.seconds is not None and not args.seconds > 0:
        raise UsageError(f"--seconds {args.seconds}: must be more than 0")
    with tempfile.TemporaryDirectory(prefix="wordtree-web-") as site:
        from ..families import tree_path

        built = build_site([str(tree_path(tree)) for tree in args.trees], site, args.answers, args.guesses)
        count = sum(p.suffix == ".json" for p in built.files)
        server = SiteServer(site, args.port)
        print(f"serving {count} verified tree(s) at {server.url} (Ctrl-C stops)", flush=True)
        try:
            server.serve(args.seconds)
        except KeyboardInterrupt:
            print("stopped", file=sys.stderr)
        finally:
            server.httpd.server_close()
    return 0
