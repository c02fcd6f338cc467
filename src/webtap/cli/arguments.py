"""Every ``webtap`` command's arguments and help: what ``webtap --help`` and ``webtap CMD --help``
need, and no more.

This module imports only what the help texts quote (the settings, the provider registry, the
packaged schemas), so that building the parser stays cheap. Each command's parser names the
module that runs it (``run="fetch"`` is :mod:`webtap.cli.fetch`); :func:`webtap.cli.main`
imports that module only once the command is chosen.
"""

from __future__ import annotations

import argparse
from typing import Any

from webtap.protocol import load_schema
from webtap.providers import MODEL_PROVIDERS, PROVIDERS
from webtap.settings import (
    CACHE,
    DB,
    MCP_MAX_LINES,
    MCP_TIMEOUT,
    MCP_TOKEN,
    MODEL,
    SEARCH_CACHE_TTL,
    SETTINGS,
    environment_help,
)

__all__ = ["EXPORT_FORMATS", "add_parsers"]

EXPORT_FORMATS = ["anthropic", "openai", "mcp", "btcp"]


def add_parsers(subparsers: Any) -> None:
    """Every command's parser, in the order ``--help`` lists them."""
    for add in (fetch, search, ask, verify, sql, batch, map_, crawl, tools, events, install, mcp):
        add(subparsers)


# --- webtap fetch ------------------------------------------------------------------------------

FETCH = """\
Fetch URL and print it as Markdown (HTML and XHTML are converted; plain text, Markdown and JSON
are shown as they are). For an HTML page that is its main content, without menus, sidebars and
footers; --full (or WEBTAP_FETCH_MODE=page) prints the whole page. --offset and --limit select
lines of the Markdown, as the web_fetch tool does. Errors go to stderr as one line, with a
non-zero exit status.

Converted pages are kept in the user cache folder, so reading a page in parts downloads it once.

A bot check or block page is an error (BLOCKED), and so are a login or consent wall, an empty
page and a page that needs JavaScript (NO_CONTENT); a paywalled article's teaser is printed,
with a note on stderr. You chose the URL, so robots.txt is not asked (WEBTAP_ROBOTS=obey to
obey it, as fetches a model chooses do).

A page whose content is built by JavaScript (an empty shell from the server) is rendered in a
browser when one is installed (WEBTAP_RENDER=auto, the default; apt-get install
chromium-headless-shell, or any Chrome or Chromium, or WEBTAP_BROWSER=path); --render renders
any HTML page first (as WEBTAP_RENDER=always), and WEBTAP_RENDER=off never renders.

On a terminal, the page's title comes first, and under it, dimmed, what the page says of itself
(its date, author and site) when it says it; --json gives those as fields ("published",
"author", "site_name"...). A pipe gets the Markdown alone.

Private, loopback and link-local addresses are refused unless WEBTAP_ALLOW_PRIVATE_NETWORKS=1.
"""


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {value}")
    return value


def fetch(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "fetch",
        help="fetch a URL and print it as Markdown",
        description=FETCH,
        epilog=environment_help(
            *(setting for setting in SETTINGS.values() if setting.section == "fetch"), CACHE
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("url", metavar="URL", help="the http:// or https:// URL to fetch")
    parser.add_argument(
        "--offset", type=_positive, metavar="N", help="first line to print (1-based)"
    )
    parser.add_argument("--limit", type=_positive, metavar="N", help="print at most N lines")
    parser.add_argument(
        "--full",
        action="store_true",
        help="the whole page, not only its main content (as WEBTAP_FETCH_MODE=page)",
    )
    parser.add_argument(
        "--render",
        action="store_true",
        help="render the page in a browser first (as WEBTAP_RENDER=always)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the web_fetch tool's JSON response"
    )
    parser.set_defaults(run="fetch")


# --- webtap search -----------------------------------------------------------------------------


def search(subparsers: Any) -> None:
    names = list(PROVIDERS)
    titles = _listed([provider.title for provider in PROVIDERS.values()])
    keys = " / ".join(
        " + ".join(key.env for key in provider.keys.values()) for provider in PROVIDERS.values()
    )
    counts = ", ".join(
        f"{provider.name} {_range(load_schema(provider.tool), provider.count_field)}"
        for provider in PROVIDERS.values()
    )
    parser = subparsers.add_parser(
        "search",
        help=f"search the web with {titles}",
        description=(
            f"Search the web with {titles} and print a numbered list of results. Keys come from "
            f"{keys} or ~/.config/ikigai/credentials.json. An identical search is answered from "
            f"the cache for {SEARCH_CACHE_TTL.name} seconds (default "
            f"{SEARCH_CACHE_TTL.default_text()}; {CACHE.name}=off turns the caches off)."
        ),
    )
    parser.add_argument("query", nargs="+", help="what to search for")
    parser.add_argument(
        "--provider",
        choices=names,
        help=f"{_listed(names)} (default: the first set up in that order, else {names[0]})",
    )
    parser.add_argument("--count", type=int, metavar="N", help=f"number of results ({counts})")
    parser.add_argument(
        "--allow",
        action="append",
        default=[],
        metavar="DOMAIN",
        help="only results from this domain or its subdomains (repeatable)",
    )
    parser.add_argument(
        "--block",
        action="append",
        default=[],
        metavar="DOMAIN",
        help="no results from this domain or its subdomains (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="print the tool's JSON response")
    parser.set_defaults(run="search")


def _listed(names: list[str]) -> str:
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]


def _range(schema: dict[str, Any], field: str) -> str:
    rule = schema["parameters"]["properties"].get(field, {})
    return f"{rule.get('minimum', 1)}-{rule.get('maximum', '')}".rstrip("-")


# --- webtap ask --------------------------------------------------------------------------------


def ask(subparsers: Any) -> None:
    presets = ", ".join(
        f"{name}:NAME" for name in MODEL_PROVIDERS if name not in ("anthropic", "openai", "ollama")
    )
    parser = subparsers.add_parser(
        "ask",
        help="answer a question with a model, searching and fetching the web when it helps",
        description=(
            "Ask a model a question. The model may search the web (when Brave, SearXNG or "
            "Google is set up) and fetch pages; each tool call is shown on stderr, the answer "
            "goes to stdout. Name the model provider:model: a bare name is Anthropic's (its key "
            "from ANTHROPIC_API_KEY or the first line of ~/.stps/anthropic_api_key), "
            "openai:NAME any OpenAI-compatible server (OPENAI_BASE_URL, OPENAI_API_KEY), "
            f"ollama:NAME a local Ollama (OLLAMA_HOST), or a hosted preset: {presets}."
        ),
    )
    parser.add_argument("question", nargs="+", help="the question")
    parser.add_argument("--context", "-c", default="", help="context for the question")
    parser.add_argument(
        "--model",
        "-m",
        help=f"the model, provider:model, e.g. ollama:qwen2.5 (default: {MODEL.name}, else "
        f"{MODEL.default})",
    )
    parser.add_argument(
        "--max-tokens", type=int, metavar="N", help="the answer's length limit (default 1000)"
    )
    parser.add_argument(
        "--max-tool-calls",
        type=int,
        metavar="N",
        help="tool calls the model may make, 0-20 (default 1)",
    )
    parser.add_argument(
        "--provider",
        "--search-provider",
        dest="search_provider",
        choices=[*PROVIDERS, "none"],
        help=f"the search the model gets (default: the first set up of {', '.join(PROVIDERS)})",
    )
    parser.add_argument(
        "--schema",
        metavar="SCHEMA",
        help="answer as data that fits SCHEMA: a JSON Schema (a file, or its JSON) or a DuckDB "
        "type such as 'STRUCT(city VARCHAR, founded INTEGER)'; prints the value as JSON, each "
        "field's source under _sources",
    )
    parser.add_argument(
        "--unsupported",
        choices=["keep", "null"],
        default="keep",
        help="with --schema: a field whose quote is not in what was read is kept and marked "
        "(keep, the default) or made null",
    )
    parser.add_argument(
        "--no-citations",
        dest="citations",
        action="store_false",
        help="no sources: the tools' results go to the model as the spec's plain texts",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the answer, its citations and its steps as JSON",
    )
    parser.set_defaults(run="ask")


# --- webtap verify -----------------------------------------------------------------------------

VERIFY = """\
Check that QUOTE stands on the page at URL: the page is read as web_fetch gives it to a model
(its Markdown, main content), and the quote is verified only when every one of its words is
there, in order. Forgiven: line breaks and spaces, Markdown syntax present or absent, curly or
straight quotes, dash forms, ... for …, ligatures, entities, the first letter's case, a final
full stop, and an ellipsis (…, ..., [...]) joining pieces of one passage. Refused: any other
word changed, put in or left out (a number, a negation, a name), words in another order.

Verified: ✓ and the passage where it stands, exit status 0. Not verified: ✗, the nearest
passage and what differs, exit status 1. The page or the quote could not be read: one line on
stderr, exit status 2.

--text FILE checks the quote against a file's text instead (- for stdin). --jsonl reads
requests from stdin, one JSON object a line, {"text": "...", "quotes": ["...", ...]} or
{"url": "...", "quotes": [...]}, and answers each with one line, {"results": [{"verified",
"start", "end", "exact", "score"}, ...]} in the quotes' order (start and end: code-point
offsets into the text, text[start:end] == exact), or {"error": "..."} for a line it cannot
answer; exit status 0.

Private, loopback and link-local addresses are refused unless WEBTAP_ALLOW_PRIVATE_NETWORKS=1.
"""


def verify(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="check that a quote stands on a page",
        description=VERIFY,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "words", nargs="*", metavar="URL QUOTE", help="the page's URL and the quote"
    )
    parser.add_argument(
        "--text", metavar="FILE", help="check the quote against this file's text (- for stdin)"
    )
    parser.add_argument(
        "--jsonl",
        action="store_true",
        help="answer JSON requests from stdin, one a line (see above)",
    )
    parser.set_defaults(run="verify")


# --- webtap map and webtap crawl ---------------------------------------------------------------


def map_(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "map",
        help="a site's URLs from its sitemaps, without fetching its pages",
        description="List the URLs of URL's site: those its sitemaps list (robots.txt's "
        "Sitemap: lines, /sitemap.xml, indexes, gzip), each once, in scope and allowed by "
        "robots.txt. One URL a line.",
        epilog="See docs/crawl.md.",
    )
    parser.add_argument("url", metavar="URL", help="the site (its start page)")
    parser.add_argument("--links", action="store_true", help="add the start page's links")
    parser.add_argument(
        "--json", action="store_true", help="one JSON object a line: url, lastmod, source"
    )
    parser.add_argument("--limit", type=int, metavar="N", help="at most N URLs")
    _scope(parser)
    parser.set_defaults(run="map")


def _scope(parser: argparse.ArgumentParser) -> None:
    """The scope options ``map`` and ``crawl`` share."""
    parser.add_argument("--subdomains", action="store_true", help="the site's subdomains too")
    parser.add_argument("--prefix", default="", metavar="PATH", help="only paths under PATH")
    parser.add_argument(
        "--include", action="append", default=[], metavar="GLOB",
        help="only URLs matching GLOB (path and query, or the whole URL; repeatable)",
    )  # fmt: skip
    parser.add_argument(
        "--exclude", action="append", default=[], metavar="GLOB",
        help="no URL matching GLOB (repeatable)",
    )  # fmt: skip


CRAWL = (
    "robots.txt is obeyed and its Crawl-delay honoured (else WEBTAP_HOST_RATE, fetches a second "
    "per host). Run the same command again after a stop or a crash: it goes on from "
    "OUT.crawl/ without fetching a written page again. See docs/crawl.md."
)


def crawl(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "crawl",
        help="a site's pages into a .jsonl, .parquet or .csv file, politely, resumable",
        description="Crawl URL's site breadth first, from URL and its sitemaps, and write one "
        "row per page to OUT: url, final_url, depth, status, title, content (Markdown, the "
        "main content), published, error_code, error, fetched_at.",
        epilog=CRAWL,
    )
    parser.add_argument(
        "url", metavar="URL", nargs="+",
        help="the start page; several: one crawl per site, in OUT.sites/, merged into OUT",
    )  # fmt: skip
    parser.add_argument("target", metavar="OUT", help="the output file (.jsonl, .parquet, .csv)")
    _scope(parser)
    parser.add_argument(
        "--max-pages", type=int, default=10_000, metavar="N",
        help="fetch N pages at most (default: 10000)",
    )  # fmt: skip
    parser.add_argument(
        "--max-depth", type=int, metavar="N", help="follow links N steps from URL at most"
    )
    parser.add_argument(
        "--max-per-pattern", type=int, default=1000, metavar="N",
        help="queue N URLs of one pattern at most, such as /calendar/{n}/{n} (default: 1000)",
    )  # fmt: skip
    parser.add_argument("--no-sitemaps", action="store_true", help="start from URL alone")
    parser.add_argument(
        "--rate", type=float, metavar="R", help="R requests a second per host at most (slower)"
    )
    parser.add_argument(
        "--connections", type=int, default=2, metavar="N",
        help="requests at once per host (default: 2)",
    )  # fmt: skip
    parser.add_argument(
        "--threads", type=int, default=8, metavar="N", help="requests at once (default: 8)"
    )
    _cluster(parser, "sites crawled at once on Ray")
    parser.add_argument("--no-progress", action="store_true", help="never show progress")
    parser.set_defaults(run="crawl")


# --- webtap sql --------------------------------------------------------------------------------


def sql(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sql",
        help="run DuckDB SQL with stps_ask_ai() and friends",
        description=(
            "Run SQL in DuckDB with webtap's functions loaded: stps_ask_ai(context, prompt "
            "[, model] [, max_tokens]), stps_set_api_key(), stps_set_brave_api_key(), "
            "stps_set_model(), stps_set_search_provider(), stps_set_concurrency(), "
            "stps_set_cache() and more (see docs/ask.md). With no query and a terminal on "
            "stdin, an interactive prompt; otherwise SQL is read from stdin."
        ),
    )
    parser.add_argument("query", nargs="?", help="SQL to run (several statements allowed)")
    parser.add_argument("-f", "--file", metavar="FILE", help="run the SQL in FILE (- for stdin)")
    parser.add_argument(
        "--db", metavar="PATH", default=":memory:", help="DuckDB database file (default: memory)"
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--csv", action="store_true", help="print results as CSV")
    output.add_argument("--json", action="store_true", help="print results as JSON")
    parser.add_argument(
        "--concurrency", type=int, metavar="N", help="model calls at once, 1-64 (default 32)"
    )
    parser.add_argument(
        "--cache", metavar="PATH", help="keep answers in this SQLite file and reuse them"
    )
    parser.add_argument("--model", "-m", help="default model for stps_ask_ai")
    parser.add_argument("--no-progress", action="store_true", help="never show progress")
    parser.set_defaults(run="sql")


# --- webtap batch ------------------------------------------------------------------------------

BATCH = (
    "Rows already in OUT are skipped, so a stopped run resumes where it was. Rate budgets: "
    "WEBTAP_BUDGET=file (one machine, the default), ray (one Ray cluster) or redis://HOST:PORT "
    "(any engine); WEBTAP_HOST_RATE: fetches a second per web host (default 1). See docs/scale.md."
)


def batch(subparsers: Any) -> None:
    parser = subparsers.add_parser(  # without a job: its help
        "batch",
        help="fetch or ask over a Parquet or CSV file, resumable, locally or on Ray",
        description="Run fetch or ask on every row of IN and write OUT (Parquet or CSV, by the "
        "extension), with every column of IN and the results.",
        epilog=BATCH,
    )
    jobs = parser.add_subparsers(dest="kind", metavar="JOB")

    p = jobs.add_parser(
        "fetch",
        help="fetch each URL: final_url, title, markdown, verdict, error",
        epilog=BATCH,
    )
    _files(p)
    p.add_argument("--column", default="url", help="the URL column (default: url)")
    p.add_argument("--full", action="store_true", help="whole pages, not their main content")
    _engine(p, threads=16)

    p = jobs.add_parser("ask", help="ask the model about each row: answer, error", epilog=BATCH)
    _files(p)
    p.add_argument("--context", default="context", help="the context column (default: context)")
    p.add_argument("--prompt", default="prompt", help="the prompt column (default: prompt)")
    p.add_argument(
        "--model",
        help="the model, provider:model, e.g. ollama:qwen2.5 (default: WEBTAP_MODEL or webtap's "
        "default)",
    )
    p.add_argument("--max-tokens", type=int, metavar="N", help="the longest answer in tokens")
    p.add_argument(
        "--schema",
        metavar="SCHEMA",
        help="answers as data that fits SCHEMA (a JSON Schema, a file holding one, or a DuckDB "
        "type): a typed answer column, each field's checked quote in sources",
    )
    _engine(p, threads=8)


def _files(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="IN", help="the input file (.parquet, .csv or .jsonl)")
    parser.add_argument("target", metavar="OUT", help="the output file (.parquet, .csv or .jsonl)")


def _cluster(parser: argparse.ArgumentParser, workers: str) -> None:
    """Where a batch or a crawl runs: ``--engine``, ``--address``, ``--workers``."""
    parser.add_argument(
        "--engine", choices=["local", "ray"], default="local", help="where to run (default: local)"
    )
    parser.add_argument(
        "--address", help="an existing Ray cluster (default: start one on this machine)"
    )
    parser.add_argument(
        "--workers", type=int, default=2, metavar="N", help=f"{workers} at most (default: 2)"
    )


def _engine(parser: argparse.ArgumentParser, threads: int) -> None:
    _cluster(parser, "Ray actors")
    parser.add_argument(
        "--threads",
        type=int,
        default=threads,
        metavar="N",
        help=f"rows at once per worker (default: {threads})",
    )
    parser.add_argument(
        "--retry-errors", action="store_true", help="redo the rows of OUT that ended in an error"
    )
    parser.add_argument("--no-progress", action="store_true", help="never show progress")
    parser.set_defaults(run="batch")


# --- webtap tools ------------------------------------------------------------------------------


def tools(subparsers: Any) -> None:
    parser = subparsers.add_parser(  # without an action: its help
        "tools",
        help="list, inspect, run, validate and export external tools",
        description="External tools found in the system, user and project folders "
        "(<prefix>/libexec/ikigai, ~/.ikigai/tools, ./.ikigai/tools).",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")

    p = actions.add_parser("list", help="the tools found (a table; --json for machines)")
    p.add_argument("--all", action="store_true", help="also show tools left out, and why")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run="tools")

    p = actions.add_parser("schema", help="print one tool's schema")
    p.add_argument("name", metavar="NAME", help="the tool's name, e.g. web_fetch")
    p.set_defaults(run="tools")

    p = actions.add_parser("run", help="run one tool with JSON arguments")
    p.add_argument("name", metavar="NAME", help="the tool's name, e.g. web_fetch")
    p.add_argument(
        "arguments", metavar="JSON", help="the arguments as a JSON object, or - for stdin"
    )
    p.add_argument("--session", metavar="S", help="session id to store the tool's event under")
    p.add_argument("--timeout", type=float, metavar="SECONDS", help="override the tool's timeout")
    # Like its siblings' --json; the result is JSON either way (its event goes to stderr).
    p.add_argument("--json", action="store_true", help="print JSON (the default)")
    p.set_defaults(run="tools")

    p = actions.add_parser("validate", help="check BTCP tool definitions in a JSON file")
    p.add_argument("file", metavar="FILE", help="a JSON file (one definition or a list), or -")
    p.add_argument("--json", action="store_true", help="print the problems as JSON")
    p.set_defaults(run="tools")

    p = actions.add_parser("export", help="the tools as definitions for a model API")
    p.add_argument("--format", required=True, choices=EXPORT_FORMATS, help="target ecosystem")
    p.set_defaults(run="tools")


# --- webtap events -----------------------------------------------------------------------------


def events(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "events",
        help="list the events tools raised (e.g. config_required)",
        description="Events tools raised, oldest first, from the events store "
        f"({DB.name}, else webtap.db in the user data folder).",
    )
    parser.add_argument("--session", metavar="S", help="only this session's events")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run="events")


# --- webtap install / uninstall ----------------------------------------------------------------


def install(subparsers: Any) -> None:
    for name, verb in (
        ("install", "put launchers for web-fetch-tool, web-search-*-tool"),
        ("uninstall", "remove the launchers webtap install wrote"),
    ):
        parser = subparsers.add_parser(
            name,
            help=f"{verb} (--user, --project or --system PREFIX)",
            description=f"{verb[0].upper()}{verb[1:]}: ~/.ikigai/tools (--user), "
            "./.ikigai/tools (--project) or PREFIX/libexec/ikigai (--system PREFIX).",
        )
        where = parser.add_mutually_exclusive_group(required=True)
        where.add_argument("--user", action="store_true", help="~/.ikigai/tools")
        where.add_argument("--project", action="store_true", help="./.ikigai/tools")
        where.add_argument("--system", metavar="PREFIX", help="PREFIX/libexec/ikigai")
        parser.set_defaults(run="install")


# --- webtap mcp --------------------------------------------------------------------------------

MCP = """\
Serve webtap's tools (web_fetch, web_search_brave, web_search_searxng, web_search_google; and
web_map, a site's URLs from its sitemaps, and verify_quote, which checks a quote against a
page) over the Model Context Protocol. By default the server speaks MCP on stdin/stdout, as
Claude Desktop and Claude Code start it; --http HOST:PORT serves the streamable HTTP transport at
http://HOST:PORT/mcp instead.
Nothing but protocol messages is written to stdout; diagnostics go to stderr.

Over HTTP beyond loopback (--http 0.0.0.0:8812, or this machine's own address) every request
must carry "Authorization: Bearer <token>": the token in WEBTAP_MCP_TOKEN, or else one made at
start and shown once on stderr; any other request gets 401 and no tools. On 127.0.0.1,
localhost or ::1 no token is needed, unless WEBTAP_MCP_TOKEN is set: then it is required there
too. --discovered beyond loopback is refused unless --allow-remote-discovered is given.
SIGTERM, SIGHUP and Ctrl-C stop the server at once, calls in flight or not: every running
tool is killed, and the exit status is 143, 129 or 130.
"""


def _mcp_epilog() -> str:
    """The environment section of ``--help``: the settings as declared, then the search keys
    as the provider registry names them."""
    keys = ", ".join(key.env for provider in PROVIDERS.values() for key in provider.keys.values())
    return environment_help(
        MCP_MAX_LINES,
        MCP_TIMEOUT,
        MCP_TOKEN,
        more=f"{keys}: the search tools' keys and addresses (or "
        "~/.config/ikigai/credentials.json); web_fetch needs none.",
    )


def mcp(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "mcp",
        help="serve the tools to MCP clients (Claude Desktop, Claude Code, ...)",
        description=MCP,
        epilog=_mcp_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--http",
        metavar="HOST:PORT",
        help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio",
    )
    parser.add_argument(
        "--discovered",
        action="store_true",
        help="also serve every valid tool the host discovers (webtap's own names win)",
    )
    parser.add_argument(
        "--allow-remote-discovered",
        action="store_true",
        help="with --http beyond loopback, serve --discovered tools anyway: every client "
        "holding the token may run the executables in the tool folders",
    )
    parser.add_argument("--only", nargs="+", metavar="NAME", help="serve only these tools")
    parser.add_argument(
        "--max-lines",
        type=int,
        metavar="N",
        help="lines web_fetch returns when the client gives no limit; 0 for no cap "
        f"(default {MCP_MAX_LINES.default_text()}, or {MCP_MAX_LINES.name})",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="seconds a call of webtap's tools may take before it ends in an error result "
        f"(default {MCP_TIMEOUT.default_text()}, or {MCP_TIMEOUT.name}); discovered tools keep "
        "the host's timeout",
    )
    parser.set_defaults(run="mcp")
