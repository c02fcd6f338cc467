"""Write the README's settings tables from the declarations, between the marker comments.

    .venv/bin/python tools/gen_settings.py          # rewrite README.md's settings tables
    .venv/bin/python tools/gen_settings.py --check  # exit 1 if they are out of date

Three tables' worth of sources, each declared once: every ``WEBTAP_*`` setting by its section
(:data:`webtap.settings.SETTINGS`, a provider's rate from its record), the endpoints (each
search provider's record in :mod:`webtap.providers`, and the Anthropic API's), and the keys
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


def tables() -> str:
    """The Markdown between the markers: settings by section, endpoints, keys."""
    from webtap.agent.settings import ENDPOINT_DEFAULT, ENDPOINT_ENV
    from webtap.credentials import KEY_SOURCES
    from webtap.providers import PROVIDERS
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
    anthropic = "the Anthropic API (its SDK reads it)"
    out.append(f"| `{ENDPOINT_ENV}` | `{ENDPOINT_DEFAULT}` | {anthropic} |")
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
    current = README.read_text(encoding="utf-8")
    wanted = readme(current)
    if "--check" in argv:
        if current != wanted:
            print("README.md's settings tables are out of date: run tools/gen_settings.py")
            return 1
        return 0
    README.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
