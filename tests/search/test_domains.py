"""The domain matcher (decision: Domain filters): examples, then properties over generated hosts."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webtap.errors import InvalidInput
from webtap.search.domains import (
    filter_results,
    host_of,
    matches,
    normalize_domain,
    normalize_domains,
)
from webtap.search.results import SearchResult


def allowed(url: str, domain: str) -> bool:
    host = host_of(url)
    return host is not None and matches(host, normalize_domain(domain))


@pytest.mark.parametrize(
    ("url", "domain", "expected"),
    [
        ("https://example.com/a", "example.com", True),
        ("https://www.example.com/a", "example.com", True),
        ("https://a.b.example.com", "example.com", True),
        ("https://fakeexample.com/", "example.com", False),
        ("https://example.com.evil/", "example.com", False),
        ("https://EXAMPLE.Com/", "example.COM", True),
        ("https://example.com:8443/x", "example.com", True),
        ("https://user:pw@example.com/", "example.com", True),
        ("https://example.com@evil.com/", "example.com", False),
        ("https://evil.com\\@example.com/", "example.com", False),
        ("https://example.com./", "example.com", True),
        ("https://www.example.com/", "example.com.", True),
        ("https://bücher.de/", "xn--bcher-kva.de", True),
        ("https://xn--bcher-kva.de/", "BÜCHER.de", True),
        ("https://shop.bücher.de/", "bücher.de", True),
        ("https://example.com/", "www.example.com", False),
        ("https://example.com/", "https://Example.com:443/path", True),
        ("https://www.example.com/", "*.example.com", True),
        ("https://[::1]:8080/", "[::1]", True),
        ("not a url", "example.com", False),
    ],
)
def test_examples(url: str, domain: str, expected: bool) -> None:
    assert allowed(url, domain) is expected


def test_entries_that_are_not_domains_are_invalid_input() -> None:
    assert normalize_domains(["Example.com", "example.com.", "b.org"], "x") == (
        "example.com",
        "b.org",
    )
    with pytest.raises(InvalidInput, match=r"'allowed_domains\[1\]' is not a domain name"):
        normalize_domains(["ok.com", "  "], "allowed_domains")


@pytest.mark.parametrize("typo", ["exa mple.com", "docs.python.org!", "python..org", "a,b.com"])
def test_a_typo_is_invalid_input_rather_than_a_filter_that_drops_everything(typo) -> None:
    with pytest.raises(InvalidInput) as error:
        normalize_domains([typo], "blocked_domains")
    assert error.value.message == (
        f"Invalid input: field 'blocked_domains[0]' is not a domain name (got {typo!r}); "
        "use a host such as 'example.com'"
    )


label = st.text(string.ascii_lowercase + string.digits, min_size=1, max_size=10)
unicode_label = st.text("abcdeäöüéñçøß", min_size=1, max_size=8).filter(lambda s: not s.isascii())
domain = st.lists(label, min_size=1, max_size=3).map(".".join).map(lambda d: d + ".com")


def swap_case(text: str, flips: list[bool]) -> str:
    return "".join(
        c.upper() if f else c for c, f in zip(text, flips + [False] * len(text), strict=False)
    )


@given(domain, st.lists(label, max_size=3), st.lists(st.booleans(), max_size=40))
def test_a_domain_matches_its_subdomains_in_any_case(d, subs, flips) -> None:
    host = ".".join([*subs, d])
    assert allowed(f"https://{swap_case(host, flips)}/page", d)
    assert allowed(f"http://{host}/", swap_case(d, flips))


@given(domain, label)
def test_lookalikes_never_match(d, extra) -> None:
    assert not allowed(f"https://{extra}{d}/", d)  # fakeexample.com
    assert not allowed(f"https://{d}.{extra}/", d)  # example.com.evil
    assert not allowed(f"https://{d}-{extra}.com/", d)


@given(
    domain,
    st.integers(min_value=1, max_value=65535),
    st.sampled_from(["", "user@", "user:pass@"]),
    st.booleans(),
)
def test_port_userinfo_and_trailing_dot_do_not_change_the_host(d, port, userinfo, dot) -> None:
    url = f"https://{userinfo}{d}{'.' if dot else ''}:{port}/x?y=1#z"
    assert host_of(url) == d
    assert allowed(url, d)


@given(st.lists(unicode_label, min_size=1, max_size=2), st.sampled_from(["de", "com"]))
def test_idn_hosts_match_in_either_form(labels, tld) -> None:
    unicode_domain = ".".join([*labels, tld])
    ascii_domain = normalize_domain(unicode_domain)
    assert ascii_domain is not None and ascii_domain.isascii()
    assert allowed(f"https://www.{unicode_domain}/", ascii_domain)
    assert allowed(f"https://{ascii_domain}/", unicode_domain)


urls = st.builds(
    lambda sub, d, path: f"https://{sub}{d}/{path}",
    st.sampled_from(["", "www.", "docs.", "fake"]),
    st.sampled_from(["a.com", "b.org", "c.net", "a.com.evil"]),
    st.sampled_from(["", "x", "y"]),
)


@given(
    st.lists(urls, max_size=15),
    st.lists(st.sampled_from(["a.com", "b.org", "c.net"]), max_size=2),
    st.lists(st.sampled_from(["a.com", "b.org", "docs.c.net"]), max_size=2),
)
def test_filter_keeps_order_drops_duplicates_and_obeys_both_lists(urls, allow, block) -> None:
    results = [SearchResult(f"t{i}", u, "") for i, u in enumerate(urls)]
    kept = filter_results(results, tuple(allow), tuple(block))
    kept_urls = [r.url for r in kept]
    assert len(kept_urls) == len(set(kept_urls))
    assert [r for r in results if r in kept] == kept  # order preserved, first copy kept
    for result in results:
        host = host_of(result.url)
        in_allowed = not allow or any(matches(host, d) for d in allow)
        in_blocked = any(matches(host, d) for d in block)
        assert (result.url in kept_urls) == (in_allowed and not in_blocked)
