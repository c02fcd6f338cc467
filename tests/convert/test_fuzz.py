"""`convert` never raises on odd input: characters lxml refuses to store, and real pages
mutated at random (a seeded generator: a few hundred cases here, more on demand with
``WEBTAP_CONVERT_FUZZ=20000 .venv/bin/pytest -n 0 -s tests/convert/test_fuzz.py``)."""

from __future__ import annotations

import gzip
import inspect
import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from webtap.convert import convert
from webtap.convert._html import clean, drop, parse

PAGES = sorted((Path(__file__).parent / "data").glob("*.html.gz"))

# Every character libxml2 keeps in text but lxml refuses in a string written to the tree.
CONTROLS = [chr(c) for c in (*range(1, 9), 11, 12, *range(14, 32), 127)]

# Each construct for which the converter once edited the tree: hidden elements (their tail
# joined to the text before), task checkboxes, <br> in code, MathML annotations.
CONSTRUCTS = [
    "<p>a{c}b<span hidden>x</span>c</p>",
    "<p>a<span hidden>x</span>{c}c</p>",
    "<p><span aria-hidden=true>x</span>{c}</p>",
    "<div>{c}<div style='display:none'>x</div>{c}y</div>",
    "<p>a<b>{c}</b><i role=navigation>x</i>{c}</p>",
    "<ul><li><input type=checkbox checked>{c} task</li><li>{c}<input type=checkbox></li></ul>",
    "<ul><li><input type=checkbox hidden>{c}x</li></ul>",
    "<pre>a{c}<br>{c}b</pre>",
    "<p><code>a{c}<br>{c}b</code></p>",
    "<math><mi>x</mi>{c}<annotation>y</annotation>{c}</math>",
    "<div class='highlight-py'><table class=highlighttable><tr><td class=linenos>1</td>"
    "<td><pre>{c}x</pre></td></tr></table></div>",
    "<table><tr><td>{c}<span hidden>x</span>{c}</td></tr></table>",
    # Main-content extraction removes boilerplate and pictures inside the content it keeps.
    "<body><div class=nav>menu</div><article>"
    + "<p>A paragraph of article text, with commas, and more words in it.</p>" * 12
    + "<p>end{c}<div class=share>Share this</div>{c}tail<aside class=related><a href=/x>"
    "Related</a></aside>{c}<figure><img src=a.png><figcaption>c</figcaption></figure>{c}</p>"
    "</article><footer>foot</footer></body>",
]


# Main-content extraction edits the tree too: fuzzed as well where `convert` offers it.
MODES: list[dict[str, bool]] = [{}]
if "main_content" in inspect.signature(convert).parameters:
    MODES.append({"main_content": True})


def test_control_character_before_hidden_element() -> None:
    assert convert("<p>a\x0cb<span hidden>x</span>c</p>").markdown == "a bc\n"


@pytest.mark.parametrize("construct", CONSTRUCTS)
def test_control_characters_never_raise(construct: str, invariants: Callable[[str], None]) -> None:
    for char in CONTROLS:
        for page in (construct.format(c=char), construct.format(c=char).encode()):
            for options in MODES:
                invariants(convert(page, **options).markdown)


def test_drop_keeps_tails_holding_control_characters() -> None:
    root = parse("<div><p>a\x0cb<i>x</i>\x0cc<b>y</b>\x0bd</p></div>")
    drop(root, list(root.iter("i", "b")))
    assert "".join(root.itertext()) == "a\x0cb\x0cc\x0bd"


def test_the_tree_is_never_given_text() -> None:
    """Hidden elements and task checkboxes are renamed and handled by libxml2 or the walk:
    the page's own text nodes are left as libxml2 made them."""
    root = parse("<ul><li><input type=checkbox>\x0ca<span hidden>b</span>\x0c</li></ul>")
    before = [(el.text, el.tail) for el in root.iter("li")]
    clean(root)
    assert [(el.text, el.tail) for el in root.iter("li")] == before
    page = "<ul><li><input type=checkbox>\x0ca<span hidden>b</span>\x0c</li></ul>"
    assert convert(page).markdown == "- [ ] a\n"


# -- mutated real pages ---------------------------------------------------------------------

SNIPPETS = [
    "<span hidden>h</span>", "<div aria-hidden=true>", "<p style='display:none'>",
    "<input type=checkbox checked>", "<li><input type=checkbox>", "<br>", "<pre>", "</pre>",
    "<code>", "</code>", "<table><tr><td>", "</td><td>", "<th colspan=99999999999>",
    "<math alttext='\x0c'>", "<annotation encoding=x-tex>", "<picture><source srcset=a.png>",
    "<img src=data:x alt='\x0b'>", "<h2>", "<a href='#'>¶</a>", "<a href='\x0c'>",
    "&#12;", "&#0;", "&#xD800;", "&#x10FFFF;", "<x-y>", "<svg>", "<ol start=-1>",
    "<blockquote>", "<li value=x>", "<hr>", "<![CDATA[", "<!--", "<?pi?>", "<body hidden>",
    "<div class=share>Share</div>", "<aside class='related-posts'>", "<figure><img src=a>",
    "<figcaption>", "<div id=comments>", "<footer>", "<article>", "</article>",
    "\x00", "\ufffe", "\ufdd0", "\ud800", "\r", "\u2028", "```", "~~~", "\\", "<pre>\n\n",
]  # fmt: skip


def _mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 8)):
        pos = rng.randrange(len(text) + 1)
        kind = rng.random()
        if kind < 0.35:
            text = text[:pos] + rng.choice(CONTROLS) * rng.randint(1, 3) + text[pos:]
        elif kind < 0.75:
            text = text[:pos] + rng.choice(SNIPPETS) + text[pos:]
        elif kind < 0.85:
            text = text[:pos] + text[pos + rng.randint(1, 200) :]  # a cut
        elif kind < 0.95:
            end = min(len(text), pos + rng.randint(1, 500))
            text = text[:end] + text[pos:end] + text[end:]  # a repeat
        else:
            text = text[:pos]  # truncated
    return text


def fuzz_cases(count: int, seed: int = 20261122) -> list[str | bytes]:
    rng = random.Random(seed)
    pages = [gzip.decompress(path.read_bytes()).decode("utf-8", "replace") for path in PAGES]
    cases: list[str | bytes] = []
    for _ in range(count):
        page = rng.choice(pages)
        size = rng.choice((2_000, 20_000, 100_000))
        start = rng.randrange(max(1, len(page) - size))
        text = _mutate(rng, page[start : start + size])
        if rng.random() < 0.5:
            cases.append(text)
        else:
            cases.append(text.encode("utf-8", "surrogatepass"))
    return cases


def test_mutated_real_pages_never_raise(invariants: Callable[[str], None]) -> None:
    count = int(os.environ.get("WEBTAP_CONVERT_FUZZ", "300"))
    characters = 0
    for i, case in enumerate(fuzz_cases(count)):
        options = MODES[i % len(MODES)]
        try:
            markdown = convert(case, "https://example.com/a/", **options).markdown
        except Exception as exc:  # the case that failed, to reproduce it
            raise AssertionError(f"convert raised {exc!r} on {case[:2000]!r}") from exc
        invariants(markdown)
        characters += len(case)
    print(f"\nconvert: {count} mutated pages ({characters / 1e6:.1f} M characters), none raised")
