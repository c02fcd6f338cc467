"""What the model is given: the spec's user message, search tool and search results text."""

from __future__ import annotations

from typing import Any

__all__ = [
    "DESCRIPTION_WIDTH",
    "SEARCH_RESULTS",
    "SEARCH_TOOL",
    "SEARCH_UNAVAILABLE",
    "format_search_results",
    "shorten",
    "user_message",
]

SEARCH_UNAVAILABLE = "Search unavailable. Please answer from your knowledge."
SEARCH_RESULTS = 5  # spec 002: "Top 5 web results"
DESCRIPTION_WIDTH = 200  # spec 002: "truncate to ~200 chars"

# Spec 002, "Tool Definition in Request", to the letter.
SEARCH_TOOL: dict[str, Any] = {
    "name": "web_search",
    "description": "Search the web for current information",
    "input_schema": {
        "type": "object",
        "properties": {"query": {"type": "string", "description": "Search query"}},
        "required": ["query"],
    },
}


def user_message(question: str, context: str = "") -> str:
    """The spec's user message."""
    return f"Context: {context}\n\nQuestion: {question}"


def format_search_results(results: list[Any]) -> str:
    """The spec's text for the model: the top 5, numbered, title, URL, description."""
    if not results:
        return "Search Results:\n\nNo results found."
    entries = []
    for number, result in enumerate(results[:SEARCH_RESULTS], start=1):
        entries.append(
            f"{number}. {result.title}\n   {result.url}\n   {shorten(result.snippet)}".rstrip()
        )
    return "Search Results:\n\n" + "\n\n".join(entries)


def shorten(text: str, width: int = DESCRIPTION_WIDTH) -> str:
    """``text`` cut to about ``width`` characters on a word boundary, with "..."."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    cut = text[:width]
    space = cut.rfind(" ")
    if space > width // 2:
        cut = cut[:space]
    return cut.rstrip(" ,.;:-") + "..."
