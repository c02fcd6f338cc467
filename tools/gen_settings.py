"""Write the README's settings tables and docs/ask.md's model providers from the declarations,
between the marker comments.

    .venv/bin/python tools/gen_settings.py          # rewrite both
    .venv/bin/python tools/gen_settings.py --check  # exit 1 if either is out of date

Three tables' worth of sources, each declared once: every ``WEBTAP_*`` setting by its section
(:data:`webtap.settings.SETTINGS`, a provider's rate from its record), the endpoints (each
search and model provider's record in :mod:`webtap.providers`), and the keys
(:data:`webtap.credentials.KEY_SOURCES`). ``tests/test_settings_docs.py`` fails when the README
says anything else; the commands' ``--help`` is written from the same declarations at run time
(:func:`webtap.settings.environment_help`).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
START = (
    "<!-- settings: written by tools/gen_settings.py from the declarations in "
    "src/webtap/settings.py; edit those, then run it -->"
)
END = "<!-- settings: end -->"
ASK = ROOT / "docs" / "ask.md"
MODELS_START = (
    "<!-- models: written by tools/gen_settings.py from MODEL_PROVIDERS in "
    "src/webtap/providers.py; edit those, then run it -->"
)
MODELS_END = "<!-- models: end -->"


def tables() -> str:
    """The Markdown between the markers: settings by section, endpoints, keys."""
    from webtap.credentials import KEY_SOURCES
    from webtap.providers import MODEL_PROVIDERS, PROVIDERS
    from webtap.settings import SECTIONS, SETTINGS

    out: list[str] = []
    for section, heading in SECTIONS.items():
        rows = [s for s in SETTINGS.values() if s.section == section]
        out += [f"**{heading}**", "", "| variable | default | what |", "|---|---|---|"]
        out += [f"| `{s.name}` | {_default(s)} | {s.doc} |" for s in rows]
        out.append("")
    out += [
        "**Endpoints**, for tests and private deployments (decision: Endpoints)",
        "",
        "| variable | default | what |",
        "|---|---|---|",
    ]
    for provider in PROVIDERS.values():
        if provider.endpoint_env:
            out.append(
                f"| `{provider.endpoint_env}` | `{provider.endpoint_default}` "
                f"| {provider.title}'s API |"
            )
    for model in MODEL_PROVIDERS.values():
        what = (
            "the Anthropic API (its SDK reads it)"
            if model.name == "anthropic"
            else (f"`{model.name}:` models ({model.title.removeprefix('the ')})")
        )
        out.append(f"| `{model.endpoint_env}` | `{model.endpoint_default}` | {what} |")
    out += [
        "",
        "**Keys and addresses**: the environment first, then `~/.config/ikigai/credentials.json`"
        " (the ask loop and SQL: a value set from SQL first, and `~/.stps/` before the file)",
        "",
        "| variable | in `credentials.json` | in `~/.stps/` | what | set from SQL |",
        "|---|---|---|---|---|",
    ]
    for key in KEY_SOURCES.values():
        out.append(
            f"| `{key.env}` | `{'.'.join(key.file_path)}` | `{key.stps_file}` | {key.label} "
            f"| `{key.setter}` |"
        )
    return "\n".join(out)


def model_table() -> str:
    """docs/ask.md's table of model providers: prefix, protocol, address, key."""
    from webtap.providers import MODEL_PROVIDERS

    protocols = {"messages": "Anthropic Messages", "chat": "OpenAI Chat Completions"}
    out = [
        "| model name | protocol | address (variable: default) | key | e.g. |",
        "|---|---|---|---|---|",
    ]
    for p in MODEL_PROVIDERS.values():
        prefix = "`NAME` or `anthropic:NAME`" if p.name == "anthropic" else f"`{p.name}:NAME`"
        key = f"`{p.key.env}`" if p.key else "none"
        out.append(
            f"| {prefix} | {protocols[p.protocol]} | `{p.endpoint_env}`: "
            f"`{p.endpoint_default}{p.api_path}` | {key} | `{p.spec(p.example)}` |"
        )
    return "\n".join(out)


def ask_doc(text: str) -> str:
    """``text`` (docs/ask.md) with its model providers' table written anew."""
    start, end = text.index(MODELS_START) + len(MODELS_START), text.index(MODELS_END)
    return text[:start] + "\n\n" + model_table() + "\n\n" + text[end:]


def _default(setting: object) -> str:
    from webtap.settings import Setting

    assert isinstance(setting, Setting)
    text = setting.default_text()
    if setting.shown or setting.default is None or isinstance(setting.default, bool):
        return text
    value, _, rest = text.partition(" ")
    return f"`{value}`" + (f" {rest}" if rest else "")


def readme(text: str) -> str:
    """``text`` (the README) with the part between the markers written anew."""
    start, end = text.index(START) + len(START), text.index(END)
    return text[:start] + "\n\n" + tables() + "\n\n" + text[end:]


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT / "src"))
    stale = 0
    for path, write in ((README, readme), (ASK, ask_doc)):
        current = path.read_text(encoding="utf-8")
        wanted = write(current)
        if "--check" in argv:
            if current != wanted:
                print(f"{path.name}'s tables are out of date: run tools/gen_settings.py")
                stale = 1
        else:
            path.write_text(wanted, encoding="utf-8")
    return stale


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
