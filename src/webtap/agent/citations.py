"""An answer's citations: which snapshot each quote stands in, where, and whether it does
(decision: Checkable answers): the provider's mechanism where it has one, and webtap's own
check either way.

A provider that cites (the Messages API's ``search_result_location``) names a source and a
range of its blocks; the quote it copied is checked again against that source's snapshot
(:func:`webtap.quotes.locate`), never taken on trust: a quote that does not stand in its
snapshot is kept and marked ``verified: false``, never dropped or passed.
"""

from __future__ import annotations

from collections.abc import Sequence

from webtap.agent.steps import Citation, Source
from webtap.agent.turn import CitedSpan
from webtap.quotes import locate

__all__ = ["from_spans"]


def from_spans(cited: Sequence[CitedSpan], sources: Sequence[Source]) -> tuple[Citation, ...]:
    """The citations a provider gave, each checked against the snapshot it names; one per
    distinct quote and stretch of the answer. A citation of a source never sent is dropped:
    it points at nothing webtap gave the model (a provider bug, not a quote to show)."""
    found: dict[tuple[int, int, int, int, int], Citation] = {}
    for span in cited:
        if span.source >= len(sources):
            continue
        source = sources[span.source]
        key = (span.answer_start, span.answer_end, span.source, span.first, span.end)
        if key not in found:
            found[key] = _checked(span, source)
    return tuple(found.values())


def _checked(span: CitedSpan, source: Source) -> Citation:
    snapshot = source.snapshot
    blocks = source.blocks[span.first : span.end]
    texts = [snapshot.text[a:b] for a, b in blocks]
    quote = span.cited_text or "\n".join(texts)
    start: int | None
    end: int | None
    if blocks and _words(quote) == "".join(map(_words, texts)):
        # The blocks the provider names, copied whole (it joins them without a separator).
        verified, start, end = True, blocks[0][0], blocks[-1][1]
    else:
        match = locate(quote, snapshot.text)
        verified, start, end = match.verified, match.start, match.end
    return Citation(
        url=snapshot.url,
        title=snapshot.title,
        quote=quote,
        verified=verified,
        start=start,
        end=end,
        snapshot=snapshot.hash,
        answer_start=span.answer_start,
        answer_end=span.answer_end,
    )


def _words(text: str) -> str:
    return "".join(text.split())
