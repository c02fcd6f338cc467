"""Which URLs a crawl or a map keeps: the start URL's site, and what the person narrowed it to.

By default the start URL's host, ``www.`` or not (:func:`webtap.crawl.urls.same_site`); with
``subdomains``, any host under it too. ``prefix`` keeps paths that start with it;
``include`` globs keep only the URLs that match one of them, ``exclude`` globs drop those that
match any (globs match the path and query, ``/blog/*``, or the whole URL when they start with a
scheme; ``*`` crosses ``/``, as in Firecrawl's and Crawl4AI's filters).
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import NamedTuple
from urllib.parse import urlsplit

from webtap.crawl.urls import same_site

__all__ = ["Scope"]


class Scope(NamedTuple):
    """The site and the narrowing of one crawl."""

    host: str
    subdomains: bool = False
    prefix: str = ""
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    @classmethod
    def of(
        cls,
        start: str,
        *,
        subdomains: bool = False,
        prefix: str = "",
        include: tuple[str, ...] = (),
        exclude: tuple[str, ...] = (),
    ) -> Scope:
        """The scope of a crawl from ``start`` (normalised already)."""
        host = urlsplit(start).hostname or ""
        if prefix and not prefix.startswith("/"):
            prefix = "/" + prefix
        return cls(host, subdomains, prefix, tuple(include), tuple(exclude))

    def on_site(self, url: str) -> bool:
        """Whether ``url``'s host is the site's (robots.txt and sitemaps follow only this)."""
        host = urlsplit(url).hostname or ""
        if same_site(host, self.host):
            return True
        site = self.host.removeprefix("www.")
        return self.subdomains and host.endswith("." + site)

    def keeps(self, url: str) -> bool:
        """Whether ``url`` (normalised) is in scope."""
        if not self.on_site(url):
            return False
        parts = urlsplit(url)
        local = parts.path + (f"?{parts.query}" if parts.query else "")
        if self.prefix and not parts.path.startswith(self.prefix):
            return False
        if self.include and not any(_matches(glob, url, local) for glob in self.include):
            return False
        return not any(_matches(glob, url, local) for glob in self.exclude)


def _matches(glob: str, url: str, local: str) -> bool:
    return fnmatchcase(url if "://" in glob else local, glob)
