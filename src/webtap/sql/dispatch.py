"""A chunk of rows in, their answers out: each distinct question asked once, concurrently.

The :class:`Dispatcher` owns what lives across chunks of a query: the worker pool, the
questions already asked per query (so that duplicates share one call), the throttle, the
progress count, and the generation that a cancel bumps.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import replace
from typing import Any

from webtap import agent
from webtap.redact import redact
from webtap.sql.cache import AnswerCache, Question
from webtap.sql.errors import Interrupted, error_value
from webtap.sql.pool import Pool
from webtap.sql.progress import ProgressReporter, QueryProgress
from webtap.sql.throttle import POLL, Throttle

__all__ = ["MEMO_QUERIES", "Dispatcher"]

MEMO_QUERIES = 4  # queries whose answers are kept for deduplication (several cursors at once)


class Dispatcher:
    """Answers questions on a bounded pool; ``concurrency`` is read when a pool is made."""

    def __init__(
        self, concurrency: Callable[[], int], progress: ProgressReporter | None = None
    ) -> None:
        self._concurrency = concurrency
        self._lock = threading.Lock()
        self._pool: Pool | None = None
        self._memos: OrderedDict[Any, dict[Question, Future[str]]] = OrderedDict()
        self._generation = 0
        self.progress = QueryProgress(progress)
        self.throttle = Throttle(concurrency)

    def answer(
        self,
        questions: Sequence[Question | None],
        scope: Any,
        ask: Callable[[Question], str],
    ) -> list[str | None]:
        """``ask`` each question on the pool (None stays None), identical ones once per ``scope``.

        Raises :class:`Interrupted` when cancelled; ``ask`` itself never raises.
        """
        generation = self._generation
        memo = self._memo(scope)
        # Counted before the first row goes out: a cancel while rows are handed out then ends
        # a display that has begun, and never leaves a query that was cancelled uncounted.
        asked = len(questions) - questions.count(None)
        query = self.progress.add(scope, asked) if asked else None
        futures: list[Future[str] | None] = []
        for question in questions:
            if question is None:
                futures.append(None)
                continue
            with self._lock:
                # Handing out rows takes a while (each new worker must start): a cancel that
                # came meanwhile stops it here, before a row starts or a new pool is made.
                if self._generation != generation:
                    raise Interrupted("stps_ask_ai: the query was cancelled")
                future = memo.get(question)
                if future is None or future.cancelled():
                    future = self._workers().submit(ask, question)
                    memo[question] = future
            futures.append(future)
        self._wait(futures, query, generation)
        return [None if future is None else future.result() for future in futures]

    def _wait(
        self, futures: list[Future[str] | None], query: object | None, generation: int
    ) -> None:
        rows = [future for future in futures if future is not None]
        if not rows:
            return
        for future in rows:
            future.add_done_callback(lambda _: self.progress.advance(query))
        pending = set(rows)
        try:
            while pending:
                if self._generation != generation:
                    raise Interrupted("stps_ask_ai: the query was cancelled")
                _, pending = wait(pending, timeout=POLL, return_when=FIRST_COMPLETED)
        except KeyboardInterrupt:
            self.cancel()
            raise Interrupted("stps_ask_ai: interrupted (Ctrl-C)") from None
        finally:
            self.progress.check(query)

    def _workers(self) -> Pool:
        if self._pool is None:
            self._pool = Pool(self._concurrency())
        return self._pool

    def _memo(self, scope: Any) -> dict[Question, Future[str]]:
        with self._lock:
            if scope is None:
                return {}  # no query identity: dedupe within the chunk only
            memo = self._memos.get(scope)
            if memo is None:
                memo = self._memos[scope] = {}
                while len(self._memos) > MEMO_QUERIES:
                    self._memos.popitem(last=False)
            return memo

    def resize(self) -> None:
        """The concurrency changed: rows in flight finish, new rows use a new pool."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(cancel=False)

    def cancel(self) -> None:
        """Stop the rows in flight: waiting rows are dropped, and the calls already running
        are abandoned to finish on their daemon threads (they never hold the process open)."""
        with self._lock:
            self._generation += 1
            pool, self._pool = self._pool, None
            self._memos.clear()
        if pool is not None:
            pool.shutdown()
        self.progress.stop()


def ask_model(
    question: Question,
    *,
    settings: agent.AskSettings,
    credentials: Any,
    clients: dict[str, Any],
    cache: AnswerCache | None,
    throttle: Throttle,
) -> str:
    """One question's answer text, from ``cache`` or the model; a failure is an ``ERROR:``
    value. The answer is redacted before it is kept or returned, so a cache file never holds
    a key. A cited question's answer is the JSON of :func:`cited_value`. ``clients``: each
    model's client (``.client``) by its full name, or the error that says why it has none."""
    secrets = credentials.secrets()
    key = question.cache_key()
    if question.kind:
        schema = json.loads(question.schema) if question.schema else None
        settings = replace(settings, citations=True, schema=schema)
    try:
        client = clients.get(question.model)
        if isinstance(client, Exception):
            raise client
        if cache is not None:
            hit = cache.get(key)
            if hit is not None:
                return hit
        with throttle:  # a cache hit is not held back
            answer = agent.ask(
                question.prompt,
                question.context,
                model=question.model,
                max_tokens=question.max_tokens,
                settings=settings,
                credentials=credentials,
                client=getattr(client, "client", None),
            )
        if question.kind == "json":
            text = typed_value(answer, secrets)
        elif question.cited:
            text = cited_value(answer, secrets)
        else:
            text = redact(answer.text, secrets)
        if cache is not None:
            cache.put(key, question.model, text)
        return text
    except Exception as exc:  # a failure, or a bug, becomes a value, not a failed query
        return failed_value(question.kind, error_value(exc, secrets))


def failed_value(kind: str, failure: str) -> str:
    """A failed row's value for its function: the ``ERROR:`` text, in the JSON a cited or
    typed answer is made of."""
    if kind == "cited":
        return json.dumps({"answer": failure, "citations": []})
    if kind == "json":
        return json.dumps({"value": None, "sources": {}, "error": failure})
    return failure


def typed_value(answer: agent.Answer, secrets: Sequence[str]) -> str:
    """``stps_ask_ai_json``'s row, as JSON: the value, each field's checked source, no error.
    Redacted as JSON text: a key could only be in a string, and JSON escapes none of its
    characters."""
    value = {"value": answer.value, "sources": answer.value_sources, "error": None}
    return redact(json.dumps(value, ensure_ascii=False), list(secrets))


def cited_value(answer: agent.Answer, secrets: Sequence[str]) -> str:
    """``stps_ask_ai_cited``'s value as JSON: the answer and its citations (URL, title, the
    quote, whether it stands in what was read), every text redacted."""
    citations = [
        {
            "url": redact(c.url, list(secrets)),
            "title": redact(c.title, list(secrets)),
            "quote": redact(c.quote, list(secrets)),
            "verified": c.verified,
        }
        for c in answer.citations
    ]
    value = {"answer": redact(answer.text, list(secrets)), "citations": citations}
    return json.dumps(value, ensure_ascii=False)
