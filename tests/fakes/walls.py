"""Pages that put a wall in front of the content, and pages that only talk about walls.

Each bot wall is written here, in our own markup, from what its vendor documents about its
challenge and block responses (status, headers, the script or wording its page carries); each
site wall (login, paywall, consent, soft 404, script shell) is the shape such pages have. The
false positives are pages a reader wants, with the walls' words in them: they must stay
content. Used by the classifier's tests (tests/verdict) and by the fetch's, end to end through
the executable, MCP and the ask loop (tests/fetch/test_verdicts.py and its neighbours).
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = [
    "AKAMAI_BLOCK",
    "AWS_WAF_CHALLENGE",
    "CLOUDFLARE_BLOCK",
    "CLOUDFLARE_CHALLENGE",
    "CLOUDFRONT_BLOCK",
    "CONSENT_PAGE",
    "DATADOME_CAPTCHA",
    "FALSE_POSITIVES",
    "GENERIC_CAPTCHA",
    "HTML",
    "IMPERVA_CHALLENGE",
    "LOGIN",
    "PAYWALL",
    "PERIMETERX_CAPTCHA",
    "SHELL",
    "SOFT_404",
    "VERDICTS",
    "WALLS",
    "Case",
    "paragraphs",
    "serve",
]


def paragraphs(sentence: str, n: int) -> str:
    return "".join(f"<p>{sentence} Paragraph {i} goes on with more detail.</p>" for i in range(n))


# --- Bot walls, by vendor --------------------------------------------------------------------

CLOUDFLARE_CHALLENGE = """<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<meta http-equiv="refresh" content="390"></head><body><div class="main-wrapper" role="main">
<div class="main-content"><h1>www.example.com</h1><p id="status">Verifying you are human.
This may take a few seconds.</p><noscript><span>Enable JavaScript and cookies to continue
</span></noscript></div></div><script>(function(){window._cf_chl_opt={cvId:'3',
cZone:'www.example.com',cType:'managed'};var s=document.createElement('script');
s.src='/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8a1b2c3d4e5f6a7b';
document.head.appendChild(s);}());</script></body></html>"""

CLOUDFLARE_BLOCK = """<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title>
</head><body><div id="cf-wrapper"><div id="cf-error-details"><h1>Sorry, you have been
blocked</h1><h2>You are unable to access example.com</h2><p>This website is using a security
service to protect itself from online attacks.</p><p>Cloudflare Ray ID: 8a1b2c3d4e5f6a7b
&bull; Performance &amp; security by Cloudflare</p></div></div></body></html>"""

AKAMAI_BLOCK = """<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY><H1>Access Denied</H1>
You don't have permission to access "http&#58;&#47;&#47;www&#46;example&#46;com&#47;shop" on
this server.<P>Reference&#32;&#35;18&#46;2f4d3b17&#46;1712345678&#46;1a2b3c4d<P>https&#58;&#47;
&#47;errors&#46;edgesuite&#46;net&#47;18&#46;2f4d3b17&#46;1712345678&#46;1a2b3c4d</P></BODY>
</HTML>"""

DATADOME_CAPTCHA = """<html><head><title>example.com</title></head><body><p>Please enable JS
and disable any ad blocker</p><script data-cfasync="false">var dd={'rt':'c','cid':'AHrlqAAAAAMA',
'hsh':'0A1B2C3D','t':'fe','s':41234,'host':'geo.captcha-delivery.com'}</script>
<script data-cfasync="false" src="https://ct.captcha-delivery.com/c.js"></script></body></html>"""

PERIMETERX_CAPTCHA = """<html lang="en"><head><title>Access to this page has been denied</title>
<script>window._pxAppId = 'PXa1b2c3d4';window._pxJsClientSrc = '/a1b2c3d4/init.js';</script>
</head><body><div class="px-block"><h1>Before we continue...</h1><p>Press &amp; Hold to confirm
you are a human (and not a bot).</p><div id="px-captcha"></div></div>
<script src="/a1b2c3d4/captcha/captcha.js?a=c&amp;m=0"></script></body></html>"""

IMPERVA_CHALLENGE = """<html style="height:100%"><head><meta name="robots" content="noindex,
nofollow"><script src="/_Incapsula_Resource?SWJIYLWA=5074a744e2e3d891814e9a2dace20bd4"></script>
</head><body style="margin:0px;height:100%"><iframe id="main-iframe" src="/_Incapsula_Resource?
CWUDNSAI=23&amp;xinfo=9-1234567-0%200NNN&amp;incident_id=1234000560012345678&amp;edet=15"
frameborder="0" width="100%" height="100%">Request unsuccessful. Incapsula incident ID:
1234000560012345678-123456789012345678</iframe></body></html>"""

AWS_WAF_CHALLENGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title></title>
<script>window.awsWafCookieDomainList = [];window.gokuProps = {"key":"AQIDAHj","iv":"CgAE",
"context":"abc"};</script><script src="https://a1b2c3.c4d5e6.us-east-1.token.awswaf.com/a1b2c3/
challenge.js"></script></head><body><div id="challenge-container"></div><noscript><h1>JavaScript
is disabled</h1>In order to continue, you need to verify that you're not a robot by solving a
CAPTCHA puzzle.</noscript></body></html>"""

CLOUDFRONT_BLOCK = """<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><HTML><HEAD>
<TITLE>ERROR: The request could not be satisfied</TITLE></HEAD><BODY><H1>403 ERROR</H1><H2>The
request could not be satisfied.</H2><HR>Request blocked. We can't connect to the server for this
app or website at this time.<BR><HR><PRE>Generated by cloudfront (CloudFront)
Request ID: a1B2c3D4e5F6g7H8i9J0==</PRE></BODY></HTML>"""

GENERIC_CAPTCHA = """<html><head><title>Security check</title>
<script src="https://www.google.com/recaptcha/api.js" async defer></script></head><body>
<h1>One more step</h1><p>Please verify you are human to continue to example.org.</p>
<form method="post"><div class="g-recaptcha" data-sitekey="6Lc_aX0UAAAAABx"></div>
<button>Continue</button></form></body></html>"""

# (test id, status, headers, page, vendor, challenge)
WALLS = [
    ("cloudflare header", 403, {"Server": "cloudflare", "cf-mitigated": "challenge"},
     CLOUDFLARE_CHALLENGE, "Cloudflare", True),
    ("cloudflare markup, 503", 503, {"server": "cloudflare"}, CLOUDFLARE_CHALLENGE, "Cloudflare",
     True),
    ("cloudflare block", 403, {"server": "cloudflare"}, CLOUDFLARE_BLOCK, "Cloudflare", False),
    ("akamai block", 403, {"Server": "AkamaiGHost"}, AKAMAI_BLOCK, "Akamai", False),
    ("akamai block, no header", 403, {}, AKAMAI_BLOCK, "Akamai", False),
    ("datadome captcha", 403, {"X-DataDome": "protected", "X-DD-B": "1"}, DATADOME_CAPTCHA,
     "DataDome", True),
    ("perimeterx press and hold", 403, {}, PERIMETERX_CAPTCHA, "PerimeterX (HUMAN)", True),
    ("imperva incident, 200", 200, {"X-Iinfo": "9-1234567-0 0NNN RT(1) q(0 -1 -1 0)",
     "X-CDN": "Imperva"}, IMPERVA_CHALLENGE, "Imperva (Incapsula)", False),
    ("imperva iframe only", 200, {}, IMPERVA_CHALLENGE.split("Request unsuccessful")[0]
     + "</iframe></body></html>", "Imperva (Incapsula)", True),
    ("aws waf challenge header", 202, {"x-amzn-waf-action": "challenge"}, AWS_WAF_CHALLENGE,
     "AWS WAF", True),
    ("aws waf captcha header", 405, {"x-amzn-waf-action": "captcha"}, AWS_WAF_CHALLENGE,
     "AWS WAF", True),
    ("aws waf markup only", 202, {}, AWS_WAF_CHALLENGE, "AWS WAF", True),
    ("cloudfront block", 403, {"Server": "CloudFront"}, CLOUDFRONT_BLOCK, "Amazon CloudFront",
     False),
    ("vercel challenge", 429, {"x-vercel-mitigated": "challenge"}, "<p>Checking</p>", "Vercel",
     True),
    ("generic captcha, 429", 429, {}, GENERIC_CAPTCHA, None, True),
    ("generic captcha, 200", 200, {}, GENERIC_CAPTCHA, None, True),
]  # fmt: skip


# --- Site walls --------------------------------------------------------------------------

LOGIN = """<html><head><title>Sign in · Example</title></head><body><main><h1>Sign in to
Example</h1><form action="/session" method="post"><label>Email <input type="email" name="login">
</label><label>Password <input type="password" name="password"></label><button>Sign in</button>
</form><p><a href="/password_reset">Forgot password?</a> New here? <a href="/signup">Create an
account</a>.</p></main><footer>Terms Privacy Docs Contact</footer></body></html>"""

PAYWALL = """<html><head><title>Rates rise again - The Daily Ledger</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle",
"headline":"Rates rise again","isAccessibleForFree":false,"hasPart":{"@type":"WebPageElement",
"isAccessibleForFree":false,"cssSelector":".paywall"}}</script></head><body><nav>Home World
Markets</nav><article><h1>Rates rise again</h1><p>The central bank raised its main rate by a
quarter point on Wednesday, the third rise this year.</p><p>Markets had expected the move, and
shares rose...</p><div class="paywall-prompt">Subscribe to continue reading. Already a
subscriber? Sign in.</div></article></body></html>"""

CONSENT_PAGE = """<html><head><title>Before you continue to Example</title></head><body><h1>Before
you continue</h1><p>We use cookies and data to deliver and maintain our services, measure
audience engagement and show personalised ads, with our partners.</p><form><button>Reject all
</button><button>Accept all</button></form><a href="/privacy">More options</a></body></html>"""

SOFT_404 = """<html><head><title>Page not found – The Example Blog</title></head><body><header>
<a href="/">The Example Blog</a></header><main><h1>Oops! That page can't be found.</h1><p>It
looks like nothing was found at this location. Maybe try a search?</p><form role="search">
<input type="search" name="s"></form></main><footer>Proudly powered by a CMS</footer></body>
</html>"""

SHELL = """<!doctype html><html><head><title>Example App</title><script defer
src="/static/js/main.3f2a1b.js"></script></head><body><noscript>You need to enable JavaScript
to run this app.</noscript><div id="root"></div></body></html>"""


# --- False positives: real-looking content with the walls' words ---------------------------

# name -> (URL path, page)
FALSE_POSITIVES: dict[str, tuple[str, str]] = {
    "an article about logging in with a newsletter form": (
        "/router-login",
        (
            "<html><head><title>How to log in to your router</title></head><body><article>"
            "<h1>How to log in to your router</h1>"
            + paragraphs("Open the login page, sign in with the admin password, then log in.", 12)
            + "</article><form><input type='email' name='email'><button>Subscribe</button></form>"
            "</body></html>"
        ),
    ),
    "a forum thread with a hidden login dialog": (
        "/t/login-problems/123",
        (
            "<html><head><title>Login problems since the update - Forum</title></head><body>"
            "<div id='login-modal' style='display: none'><form action='/login'>"
            "<input type='text' name='u'><input type='password' name='p'></form></div>"
            "<h1>Login problems since the update</h1>"
            + paragraphs("Since the update I cannot log in; the login button does nothing.", 8)
            + "</body></html>"
        ),
    ),
    "a short news item that asks readers to subscribe": (
        "/a-short-news-item-that-asks-readers-to-subscribe",
        (
            "<html><head><title>Library opens late</title></head><body><article><h1>Library opens "
            "late</h1><p>The city library opens at noon on Monday for repairs.</p><p>Subscribe to "
            "our newsletter for more local news, or log in to comment.</p></article></body></html>"
        ),
    ),
    "an article about cookies and consent": (
        "/an-article-about-cookies-and-consent",
        (
            "<html><head><title>What the cookie consent rules mean</title></head><body><article>"
            + paragraphs(
                "Sites must ask consent before setting cookies; accept all and reject "
                "all must be equally easy, and partners must be named.",
                10,
            )
            + "</article><div id='cmp'>We use cookies. <button>Accept all</button>"
            "<button>Reject all</button></div></body></html>"
        ),
    ),
    "a recipe with a cookie banner": (
        "/a-recipe-with-a-cookie-banner",
        (
            "<html><head><title>Chocolate chip cookies</title></head><body><h1>Chocolate chip "
            "cookies</h1><ul><li>200 g flour</li><li>100 g butter</li><li>100 g chocolate</li></ul>"
            "<p>Mix, bake at 180 degrees for 12 minutes.</p><div class='banner'>This site uses "
            "cookies for personalised ads with our partners. <button>Accept all</button></div>"
            "</body></html>"
        ),
    ),
    "an article about 404 errors": (
        "/an-article-about-404-errors",
        (
            "<html><head><title>What is a 404 error, and how to fix one</title></head><body>"
            "<h1>What is a 404 error?</h1>"
            + paragraphs("A 404 means the page you are looking for could not be found.", 10)
            + "</body></html>"
        ),
    ),
    "a song called not found with its article": (
        "/a-song-called-not-found-with-its-article",
        (
            "<html><head><title>Not Found (song) - Encyclopedia</title></head><body><h1>Not Found"
            "</h1>"
            + paragraphs("Not Found is a song by the band, released as a single.", 30)
            + "</body></html>"
        ),
    ),
    "a short product page with a sign in link": (
        "/mug",
        (
            "<html><head><title>Blue mug - Shop</title></head><body><a href='/login'>Sign in</a>"
            "<h1>Blue mug</h1><p>A blue mug, 300 ml. 12 euros.</p><button>Add to cart</button>"
            "</body></html>"
        ),
    ),
}


# --- Each verdict, as every front end must say it (issue 22) --------------------------------

HTML = {"Content-Type": "text/html; charset=utf-8"}


class Case(NamedTuple):
    """A page served with ``status`` and ``headers`` at ``path``, and what a fetch must say of
    it: the code, the verdict field, the advice, and how the message starts."""

    name: str
    status: int
    headers: dict[str, str]
    page: str
    path: str
    code: str
    verdict: str | None
    retryable: bool
    retry_with: str
    message: str


VERDICTS = [
    Case("blocked", 403, {"Server": "cloudflare", "cf-mitigated": "challenge"},
         CLOUDFLARE_CHALLENGE, "/news", "BLOCKED", "blocked", False, "another_url",
         "Blocked: Cloudflare's bot protection answered with a bot check"),
    Case("soft 404", 200, {}, SOFT_404, "/old-post", "HTTP_ERROR", "soft_404", False,
         "another_url", "HTTP 200, but the page says it was not found (a soft 404: 'Page not"),
    Case("login", 200, {}, LOGIN, "/session", "NO_CONTENT", "login", False, "credentials",
         "The page is a sign-in form, not the content: it needs an account."),
    Case("consent", 200, {}, CONSENT_PAGE, "/article", "NO_CONTENT", "consent", False,
         "another_url", "A cookie-consent wall stands in front of the content."),
    Case("script shell", 200, {}, SHELL, "/app", "NO_CONTENT", "script_shell", False, "render",
         "The page is a JavaScript application shell"),
    Case("empty", 200, {}, "<html><head><title></title></head><body> </body></html>", "/blank",
         "NO_CONTENT", "empty", False, "another_url", "The page is empty: it holds no text."),
    Case("not found", 404, {}, "<h1>Nothing here</h1>", "/gone", "HTTP_ERROR", None, False,
         "another_url", "HTTP 404: Not Found"),
    Case("rate limited", 429, {"Retry-After": "30"}, "<p>Slow down</p>", "/busy", "HTTP_ERROR",
         None, True, "later",
         "HTTP 429: Too Many Requests"),
]  # fmt: skip


def serve(site: Any, case: Case) -> str:
    """Serve ``case``'s page on the fake site (tests/fakes/site.py); its URL."""
    return site.route(case.path, case.page, status=case.status, headers={**HTML, **case.headers})
