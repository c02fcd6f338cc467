"""What pages say they are: the schema.org types (JSON-LD ``@type``, microdata ``itemtype``)
and Open Graph ``og:type`` values that change how main content is found."""

from __future__ import annotations

__all__ = ["ARTICLE_TYPES", "DISCUSSION_TYPES", "PRODUCT_TYPES"]

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
