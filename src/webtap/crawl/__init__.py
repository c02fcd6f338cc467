"""A whole site: its URLs (``webtap map``) and its pages (``webtap crawl``), politely
(decision: Polite crawl).

- :mod:`webtap.crawl.urls`: one spelling per page, the key two spellings share, a URL's pattern;
- :mod:`webtap.crawl.scope`: which URLs a crawl keeps;
- :mod:`webtap.crawl.sitemaps`: the URLs a site's sitemaps list;
- :mod:`webtap.crawl.fetching`: everything the crawl asks of :mod:`webtap.fetch`;
- :mod:`webtap.crawl.mapper`: ``map_site``;
- :mod:`webtap.crawl.hosts`: politeness per host (robots.txt's delay, ``Retry-After``,
  connections), on the shared rate budgets;
- :mod:`webtap.crawl.state`: the crawl's journal (SQLite), what makes it resumable;
- :mod:`webtap.crawl.crawler`: ``run_crawl``, breadth first;
- :mod:`webtap.crawl.sites`: ``run_sites``, many sites (one after another, or on Ray).
"""

from __future__ import annotations

from webtap.crawl.mapper import Mapped, map_site, start_url
from webtap.crawl.scope import Scope

__all__ = ["Mapped", "Scope", "map_site", "start_url"]
