"""What pages say they are: the schema.org types (JSON-LD ``@type``, microdata ``itemtype``)
and Open Graph ``og:type`` values that change how main content is found, and the objects of
the JSON-LD that says it."""

from __future__ import annotations

from collections.abc import Callable, Iterator

__all__ = ["ARTICLE_TYPES", "DISCUSSION_TYPES", "PRODUCT_TYPES", "json_objects"]

# An article: one text by its author(s), comments under it are not its content.
ARTICLE_TYPES = frozenset((
    "Article", "NewsArticle", "BlogPosting", "TechArticle", "ScholarlyArticle", "Report",
    "AnalysisNewsArticle", "OpinionNewsArticle", "ReportageNewsArticle", "ReviewNewsArticle",
    "BackgroundNewsArticle", "LiveBlogPosting", "SatiricalArticle", "og:article",
))  # fmt: skip
# A product ("Product*": several microdata items, a collection).
PRODUCT_TYPES = frozenset((
    "Product", "Product*", "ProductGroup", "IndividualProduct", "ProductModel", "og:product",
))  # fmt: skip
# A discussion: its posts are its content.
DISCUSSION_TYPES = frozenset(("DiscussionForumPosting", "QAPage"))


def json_objects(
    value: object,
    whole: Callable[[dict], bool] | None = None,
    others: frozenset[str] = frozenset(),
) -> Iterator[dict]:
    """Every object in a parsed JSON value, each before those it holds, in document order;
    not those inside an object ``whole`` says is one (a product group's variants), nor those
    under a key in ``others`` (a product's reviews: other people's pieces)."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(reversed(node))
        elif isinstance(node, dict):
            yield node
            if whole is None or not whole(node):
                held = [v for k, v in node.items() if k not in others]
                stack.extend(reversed([v for v in held if isinstance(v, dict | list)]))
