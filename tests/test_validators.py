"""The generated request validators check exactly what jsonschema would, with the same errors.

``webtap._validators`` is generated from the packaged schemas by ``tools/gen_validators.py`` so
that a tool call never imports jsonschema. Here both run on the same generated requests, valid
and invalid: the same errors (keyword, value, instance, path, message) in the same order, and
the same message for the model.
"""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from webtap._validators import VALIDATORS
from webtap.protocol import _validator, explain_errors, load_schema

ROOT = Path(__file__).parents[1]
NAMES = sorted(VALIDATORS)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=120),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, 1.0, 2.5, 20.0, 21.0, 91.0, 92.0, -0.0, 1e300]),
    st.text(max_size=4),
    st.sampled_from(["", "a", "ab", "https://example.com", "é", "\ud800"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)


def requests(name: str) -> st.SearchStrategy[Any]:
    """Objects whose fields are the schema's (any value, often a fitting one) plus strangers."""
    properties = load_schema(name)["parameters"]["properties"]
    fitting = st.one_of(values, st.lists(st.text(max_size=5), max_size=3), st.integers(-2, 100))
    known = st.fixed_dictionaries({}, optional={key: fitting for key in properties})
    strangers = st.dictionaries(st.sampled_from(["colour", "q", "URL", "count ", ""]), values)
    objects = st.builds(lambda a, b: {**b, **a}, known, strangers)
    return st.one_of(objects, objects, values)


def jsonschema_errors(name: str, instance: Any) -> list[tuple[Any, ...]]:
    validator = Draft202012Validator(_validator(name).schema)
    return [_key(error) for error in validator.iter_errors(instance)]


def _key(error: Any) -> tuple[Any, ...]:
    message = error.message
    if error.validator == "additionalProperties":
        message = None  # jsonschema names the extras in set order; the instance says which
    return (
        error.validator,
        error.validator_value,
        error.instance,
        tuple(error.absolute_path),
        message,
    )


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generated_validators_match_jsonschema(name: str, data: st.DataObject) -> None:
    instance = data.draw(requests(name))
    generated = _validator(name)
    assert [_key(e) for e in generated.iter_errors(instance)] == jsonschema_errors(name, instance)
    reference = Draft202012Validator(generated.schema)
    assert explain_errors(generated, instance) == explain_errors(reference, instance)


@pytest.mark.parametrize(
    ("name", "instance"),
    [
        ("web_fetch", {"url": "https://example.com", "offset": 2.0, "limit": 1}),
        ("web_fetch", {"url": "https://example.com", "offset": 0.5}),
        ("web_fetch", {"url": 1, "offset": True, "limit": "x", "a": 1, "b": 2}),
        ("web_fetch", []),
        ("web_search_brave", {"query": "a", "count": 21, "allowed_domains": [1, "x", None]}),
        ("web_search_brave", {"query": "ok", "blocked_domains": "x", "offset": -1}),
        ("web_search_google", {"num": 0, "start": 92.0}),
        ("web_search_google", {"query": "\ud800\ud800", "num": 1e300}),
    ],
)
def test_chosen_edge_cases_match_jsonschema(name: str, instance: Any) -> None:
    generated = _validator(name)
    assert [_key(e) for e in generated.iter_errors(instance)] == jsonschema_errors(name, instance)
    reference = Draft202012Validator(generated.schema)
    assert explain_errors(generated, instance) == explain_errors(reference, instance)


def test_valid_requests_have_no_errors() -> None:
    assert _validator("web_fetch").iter_errors({"url": "x", "offset": 1, "limit": 3.0}) == []
    assert _validator("web_search_brave").iter_errors({"query": "ab", "count": 20}) == []
    assert _validator("web_search_google").iter_errors({"query": "ab", "start": 91}) == []


def test_generated_module_is_up_to_date() -> None:
    generator = runpy.run_path(str(ROOT / "tools" / "gen_validators.py"))
    current = (ROOT / "src" / "webtap" / "_validators.py").read_text(encoding="utf-8")
    assert current == generator["source"](), "run tools/gen_validators.py"
