"""Many quotes against many texts and URLs: ``webtap verify --jsonl``'s requests answered.

A request is ``{"text": "...", "quotes": [...]}`` or ``{"url": "...", "quotes": [...]}``; its
answer ``{"results": [{"verified", "start", "end", "exact", "score"}, ...]}``, one result per
quote, in order. A :class:`Checker` reads each distinct text once (its :class:`QuoteIndex`
kept while it is among the last :data:`KEPT` used) and asks for each URL's text once, through
the ``text_of`` it is given: this package knows no way of fetching, so the caller says which
text a URL stands for (``webtap.fetch.given.text_of``: the text a model was given).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from webtap.errors import InvalidInput, WebtapError
from webtap.quotes._index import QuoteIndex
from webtap.redact import redact

__all__ = ["KEPT", "Checker", "TextOf"]

TextOf = Callable[[str], str]
KEPT = 32  # texts whose index is kept; a long run of distinct texts costs no more memory


class Checker:
    """Quotes checked against texts (and URLs, with ``text_of``), each text read once."""

    def __init__(self, text_of: TextOf | None = None) -> None:
        self._text_of = text_of
        self._indexes: dict[str, QuoteIndex] = {}
        self._texts: dict[str, str] = {}

    def index(self, text: str) -> QuoteIndex:
        """The text's index, read once and kept while it is among the last used."""
        index = self._indexes.pop(text, None) or QuoteIndex(text)
        self._indexes[text] = index
        if len(self._indexes) > KEPT:
            del self._indexes[next(iter(self._indexes))]
        return index

    def text(self, url: str) -> str:
        """The text ``url`` stands for, asked for once per URL."""
        if self._text_of is None:
            raise InvalidInput("a URL cannot be checked here: give the text instead")
        if url not in self._texts:
            if len(self._texts) >= KEPT:
                del self._texts[next(iter(self._texts))]
            self._texts[url] = self._text_of(url)
        return self._texts[url]

    def answer(self, request: Any) -> dict[str, Any]:
        """The answer to one request (see the module); an unusable request raises
        :class:`~webtap.errors.InvalidInput`, a URL that cannot be read its fetch's error."""
        if not isinstance(request, dict):
            raise InvalidInput('expected a JSON object: {"text": ..., "quotes": [...]}')
        quotes = request.get("quotes")
        if not isinstance(quotes, list):
            raise InvalidInput('"quotes" must be a list of strings')
        text, url = request.get("text"), request.get("url")
        if (text is None) == (url is None):
            raise InvalidInput('give either "text" or "url", not both and not neither')
        if url is None:
            if not isinstance(text, str):
                raise InvalidInput('"text" must be a string')
        elif isinstance(url, str):
            text = self.text(url)
        else:
            raise InvalidInput('"url" must be a string')
        index = self.index(text)
        return {"results": [_result(index, quote) for quote in quotes]}

    def answer_line(self, line: str) -> str:
        """One request line answered with one JSON line (no newline): the results, or
        ``{"error": "..."}``; never an exception."""
        try:
            answer = self.answer(json.loads(line))
        except json.JSONDecodeError as exc:
            answer = {"error": f"not JSON ({exc.msg} at column {exc.colno})"}
        except WebtapError as exc:
            answer = {"error": exc.message}
        except RecursionError:
            answer = {"error": "not JSON: nested too deep"}
        except Exception as exc:  # a bug must not cost the lines after it
            answer = {"error": redact(f"internal error: {type(exc).__name__}: {exc}")}
        return json.dumps(answer, ensure_ascii=False)


def _result(index: QuoteIndex, quote: Any) -> dict[str, Any]:
    if not isinstance(quote, str):
        return _refused("a quote must be a string")
    try:
        return index.locate(quote, explain=False).result()
    except InvalidInput as exc:
        return _refused(exc.message)


def _refused(message: str) -> dict[str, Any]:
    return {
        "verified": False,
        "start": None,
        "end": None,
        "exact": None,
        "score": 0.0,
        "error": message,
    }
