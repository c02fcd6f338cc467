"""What each search provider is, one record per provider: the registry everything else reads.

A :class:`Provider` says what the rest of webtap needs to know about a provider without running
it: its tool (name, executable, title), the keys it takes and the argument each is passed as
(:class:`KeySource`: the variable, the path in ``credentials.json``, the ``~/.stps`` file and
the SQL function that set it), its endpoint variable and default, its starting rate and the
variable that overrides it (a setting :func:`register` declares, as :mod:`webtap.settings`
declares the others), its setup texts (the spec's exact ``AUTH_MISSING`` text and
``config_required`` event), its free quota, and the request fields its tool counts and pages
with. What a provider *does* (request parameters and headers, parsing, error mapping,
rate-limit headers) is its own module's, named by ``engine`` and imported only when it searches.

:data:`PROVIDERS` is in the order "Which search" decides (Brave, SearXNG, Google): the first
configured one is the one offered. Each is added by :func:`register`, the one hook, as simonw/llm's
models declare their own ``needs_key``/``key_env_var`` and are registered through one hook. A fourth
provider is one more record and credentials class here, and its own module under
:mod:`webtap.search`.

Light on purpose (no dataclasses, no pathlib): every tool call imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from webtap.settings import declare

if TYPE_CHECKING:
    from webtap.settings import Setting

__all__ = [
    "ANTHROPIC",
    "BRAVE",
    "GOOGLE",
    "MODEL_PROVIDERS",
    "OLLAMA",
    "OPENAI",
    "PROVIDERS",
    "SEARXNG",
    "BraveCredentials",
    "Found",
    "GoogleCredentials",
    "KeySource",
    "ModelProvider",
    "Provider",
    "SearxngConfig",
    "provider_of_tool",
    "register",
    "register_model",
]


class KeySource:
    """One credential: where it may come from and how it is kept secret. The tools read the
    environment, then the file; the SQL side reads a value set from SQL, the environment,
    ``~/.stps``, then the file. (A plain class: a NamedTuple or dataclass costs the executables'
    start-up a few hundred µs.)

    ``url``: the value is an address whose user and password are the secret, not the address.
    """

    __slots__ = ("env", "file_path", "label", "name", "setter", "setter_help", "stps_file", "url")

    def __init__(
        self,
        name: str,
        env: str,
        stps_file: str,
        file_path: tuple[str, ...],
        label: str,
        setter: str,
        setter_help: str,
        *,
        url: bool = False,
    ) -> None:
        self.name = name  # in the key table: "brave", "google_api_key"
        self.env = env  # the environment variable
        self.stps_file = stps_file  # a file name in ~/.stps (the SQL side only)
        self.file_path = file_path  # the path in credentials.json
        self.label = label  # for people: "Brave API key"
        self.setter = setter  # the SQL function that sets it, with its argument: "f(key)"
        self.setter_help = setter_help  # what that function does, for docs and --help
        self.url = url

    def secrets(self, value: str | None) -> list[str]:
        """Every form in which ``value`` travels that must never be shown: a key as it is; for
        an address, its user and password as written and decoded, the password alone (or a
        lone user, which is then the token) and the ``Basic`` encoding they are sent in."""
        if not value:
            return []
        return _userinfo_forms(value) if self.url else [value]

    def __repr__(self) -> str:
        return f"KeySource({self.name!r}, {self.env!r})"


def _userinfo_forms(url: str) -> list[str]:
    from urllib.parse import unquote, urlsplit  # not for webtap --help, which loads this module

    try:
        parts = urlsplit(url.strip())
        user, password = parts.username, parts.password
    except ValueError:
        return []
    if not user and not password:
        return []
    import base64  # only for an address that carries credentials

    decoded = f"{unquote(user or '')}:{unquote(password or '')}"
    basic = base64.b64encode(decoded.encode("utf-8", "surrogatepass")).decode("ascii")
    secret = password or user or ""
    forms = [parts.netloc.rpartition("@")[0], decoded, basic, basic.rstrip("="), secret]
    return list(dict.fromkeys([*forms, unquote(secret)]))


class Found:
    """A provider's credentials, typed per provider: each value under the argument it is passed
    as (``found.api_key``) and ``source``, where they came from ("BRAVE_API_KEY" or the file).
    The values stay out of ``repr``: a log line or a traceback shows only where they came from.
    Plain slotted classes: importing dataclasses costs a fresh search process about 10 ms."""

    __slots__ = ("source",)
    keys: ClassVar[dict[str, KeySource]]  # argument -> its key, in the order __init__ takes them
    given: ClassVar[str] = "the given credentials"  # the source of values a caller passed in
    source: str

    def __init__(self, *values: str, source: str) -> None:
        """Each value under its argument, in the order of :attr:`keys` (a subclass may spell
        its own ``__init__`` out, in that order, for its readers and type checkers)."""
        for argument, value in zip(self.keys, values, strict=True):
            setattr(self, argument, value)
        self.source = source

    def arguments(self) -> dict[str, str]:
        """The values by argument: ``{"api_key": ...}``."""
        return {argument: getattr(self, argument) for argument in self.keys}

    def secrets(self) -> list[str]:
        """Every form of every value that must be kept out of messages (from the key table)."""
        return [form for arg, key in self.keys.items() for form in key.secrets(getattr(self, arg))]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(source={self.source!r})"


class Provider:
    """One search provider: what the front doors, the credentials and the search pipeline read.
    (A plain slotted class: a NamedTuple of this many fields costs every tool call's start.)"""

    __slots__ = (
        "auth_missing",
        "config_required",
        "count_field",
        "credentials",
        "endpoint_default",
        "endpoint_env",
        "engine_path",
        "event_data",
        "name",
        "quota_message",
        "quota_period",
        "rate",
        "rate_env",
        "rate_setting",
        "start_field",
        "title",
        "tool_title",
    )

    def __init__(
        self,
        *,
        name: str,
        title: str,
        credentials: type[Found],
        engine_path: str,
        tool_title: str,
        auth_missing: str,
        config_required: str,
        event_data: dict[str, Any],
        count_field: str = "count",
        start_field: str = "offset",
        endpoint_env: str | None = None,
        endpoint_default: str | None = None,
        rate: float | None = None,
        rate_env: str | None = None,
        quota_message: str | None = None,
        quota_period: str | None = None,
    ) -> None:
        self.name = name  # "brave": --provider, stps_set_search_provider, cache, rate budget
        self.title = title  # "Brave Search": how messages name it
        self.credentials = credentials  # its typed credentials, which name its keys
        self.engine_path = engine_path  # "module:Class": its own part (pipeline.Engine)
        self.tool_title = tool_title  # "Search the web (Brave)"
        self.auth_missing = auth_missing  # the tool's AUTH_MISSING text (the spec's, to the byte)
        self.config_required = config_required  # the config_required event's content
        self.event_data = event_data  # the config_required event's data
        self.count_field = count_field  # the tool request's field for how many results
        self.start_field = start_field  # ... and for where they start
        # The variable that points it elsewhere (decision: Endpoints).
        self.endpoint_env = endpoint_env
        self.endpoint_default = endpoint_default
        # Requests a second a key starts with (decision: Rate budgets); None: no budget.
        self.rate = rate
        self.rate_env = rate_env  # the variable that overrides it
        self.rate_setting: Setting[float] | None = None  # its declaration, once registered
        self.quota_message = quota_message  # the spec's text when the free quota is used up
        self.quota_period = quota_period  # "monthly", "daily"

    def __repr__(self) -> str:
        return f"Provider({self.name!r})"

    @property
    def tool(self) -> str:
        return f"web_search_{self.name}"

    @property
    def executable(self) -> str:
        return f"web-search-{self.name}-tool"

    @property
    def keys(self) -> dict[str, KeySource]:
        """Its keys by the argument each is passed as."""
        return self.credentials.keys


PROVIDERS: dict[str, Provider] = {}


def register(provider: Provider) -> Provider:
    """Add ``provider`` after those already registered (the order "Which search" decides).
    Everything that reads the registry builds its tables when it is imported: register first."""
    if provider.name in PROVIDERS:
        raise ValueError(f"search provider {provider.name!r} is registered already")
    if provider.rate is not None and provider.rate_env:
        provider.rate_setting = declare(
            provider.rate_env,
            "number",
            provider.rate,
            f"{provider.title}: searches a second per key until the provider says otherwise",
            section="search",
        )
    PROVIDERS[provider.name] = provider
    return provider


def provider_of_tool(tool: str) -> Provider | None:
    """The provider whose tool is ``tool`` ("web_search_brave"), or None."""
    return next((p for p in PROVIDERS.values() if p.tool == tool), None)


# -- Brave Search -----------------------------------------------------------------------------


class BraveCredentials(Found):
    __slots__ = ("api_key",)
    keys: ClassVar[dict[str, KeySource]] = {
        "api_key": KeySource(
            "brave",
            "BRAVE_API_KEY",
            "brave_api_key",
            ("web_search", "brave", "api_key"),
            "Brave API key",
            "stps_set_brave_api_key(key)",
            "the Brave Search key (turns web search on)",
        )
    }
    given = "the given API key"

    def __init__(self, api_key: str, source: str) -> None:
        self.api_key = api_key
        self.source = source


BRAVE = register(
    Provider(
        name="brave",
        title="Brave Search",
        credentials=BraveCredentials,
        engine_path="webtap.search.brave:Brave",
        tool_title="Search the web (Brave)",
        # The spec's exact texts (000, web-search-brave-tool "Error Response").
        auth_missing=(
            "Web search requires API key configuration.\n\n"
            "Brave Search offers 2,000 free searches/month.\n"
            "Get your key: https://brave.com/search/api/\n"
            "Add to: ~/.config/ikigai/credentials.json as 'web_search.brave.api_key'"
        ),
        config_required=(
            "⚠ Configuration Required\n\n"
            "Web search needs an API key. Brave Search offers 2,000 free searches/month.\n\n"
            "Get your key: https://brave.com/search/api/\n"
            "Add to: ~/.config/ikigai/credentials.json\n\n"
            'Example:\n{\n  "web_search": {\n    "brave": {\n      "api_key": '
            '"your-api-key-here"\n    }\n  }\n}'
        ),
        event_data={
            "tool": "web_search_brave",
            "credential": "api_key",
            "signup_url": "https://brave.com/search/api/",
        },
        endpoint_env="BRAVE_SEARCH_URL",
        endpoint_default="https://api.search.brave.com/res/v1/web/search",
        rate=1.0,  # the free plan's 1 request a second
        rate_env="WEBTAP_BRAVE_RATE",
        # The spec's exact text (000, "When rate limit exceeded").
        quota_message="Rate limit exceeded. You've used your free search quota (2,000/month).",
        quota_period="monthly",
    )
)


# -- SearXNG ----------------------------------------------------------------------------------


class SearxngConfig(Found):
    __slots__ = ("url",)
    keys: ClassVar[dict[str, KeySource]] = {
        "url": KeySource(
            "searxng",
            "SEARXNG_URL",
            "searxng_url",
            ("web_search", "searxng", "url"),
            "SearXNG URL",
            "stps_set_searxng_url(url)",
            "the SearXNG instance's address (turns web search on)",
            url=True,
        )
    }
    given = "the given URL"

    def __init__(self, url: str, source: str) -> None:
        self.url = url  # may carry a user and password
        self.source = source


SEARXNG = register(
    Provider(
        name="searxng",
        title="SearXNG",
        credentials=SearxngConfig,
        engine_path="webtap.search.searxng:Searxng",
        tool_title="Search the web (SearXNG)",
        auth_missing=(
            "Web search through SearXNG needs the address of a SearXNG instance.\n\n"
            "SearXNG is a self-hosted metasearch engine: no API key, no quota. Start one with\n"
            "  docker run -p 8080:8080 searxng/searxng\n"
            "and enable JSON output (search.formats in its settings.yml).\n"
            "Set SEARXNG_URL=http://localhost:8080, or add to: ~/.config/ikigai/credentials.json "
            "as 'web_search.searxng.url'"
        ),
        config_required=(
            "⚠ Configuration Required\n\n"
            "Web search through SearXNG needs the address of your SearXNG instance (no API key, "
            "no quota).\n\n"
            "Start one: docker run -p 8080:8080 searxng/searxng\n"
            "Enable JSON output: in its settings.yml, under 'search:', set\n"
            "  formats:\n    - html\n    - json\n"
            "Then set SEARXNG_URL=http://localhost:8080, or add to: "
            "~/.config/ikigai/credentials.json\n\n"
            'Example:\n{\n  "web_search": {\n    "searxng": {\n      "url": '
            '"http://localhost:8080"\n    }\n  }\n}'
        ),
        event_data={
            "tool": "web_search_searxng",
            "credential": "url",
            "setup_url": "https://docs.searxng.org/admin/installation-docker.html",
        },
    )
)


# -- Google Custom Search ---------------------------------------------------------------------


class GoogleCredentials(Found):
    __slots__ = ("api_key", "engine_id")
    keys: ClassVar[dict[str, KeySource]] = {
        "api_key": KeySource(
            "google_api_key",
            "GOOGLE_SEARCH_API_KEY",
            "google_api_key",
            ("web_search", "google", "api_key"),
            "Google API key",
            "stps_set_google_api_key(key)",
            "the Google Custom Search key",
        ),
        "engine_id": KeySource(
            "google_cse_id",
            "GOOGLE_SEARCH_ENGINE_ID",
            "google_cse_id",
            ("web_search", "google", "engine_id"),
            "Google search engine id",
            "stps_set_google_cse_id(id)",
            "the Google search engine id",
        ),
    }

    def __init__(self, api_key: str, engine_id: str, source: str) -> None:
        self.api_key = api_key
        self.engine_id = engine_id
        self.source = source


GOOGLE = register(
    Provider(
        name="google",
        title="Google Custom Search",
        credentials=GoogleCredentials,
        engine_path="webtap.search.google:Google",
        tool_title="Search the web (Google)",
        # The spec's exact texts (000, web-search-google-tool "Error Response").
        auth_missing=(
            "Web search requires API key configuration.\n\n"
            "Google Custom Search offers 100 free searches/day.\n"
            "Get API key: https://developers.google.com/custom-search/v1/overview\n"
            "Get Search Engine ID: https://programmablesearchengine.google.com/controlpanel/create\n"
            "Add to: ~/.config/ikigai/credentials.json as 'web_search.google.api_key' and "
            "'web_search.google.engine_id'"
        ),
        config_required=(
            "⚠ Configuration Required\n\n"
            "Web search needs an API key and Search Engine ID. Google Custom Search offers 100 "
            "free searches/day.\n\n"
            "Get API key: https://developers.google.com/custom-search/v1/overview\n"
            "Get Search Engine ID: https://programmablesearchengine.google.com/controlpanel/create\n"
            "Add to: ~/.config/ikigai/credentials.json\n\n"
            'Example:\n{\n  "web_search": {\n    "google": {\n      "api_key": '
            '"your-api-key-here",\n      "engine_id": "your-search-engine-id"\n    }\n  }\n}'
        ),
        event_data={"tool": "web_search_google", "credentials": ["api_key", "engine_id"]},
        count_field="num",
        start_field="start",
        endpoint_env="GOOGLE_SEARCH_URL",
        endpoint_default="https://www.googleapis.com/customsearch/v1",
        rate=100 / 60,  # 100 queries a minute
        rate_env="WEBTAP_GOOGLE_RATE",
        quota_message="Rate limit exceeded. You've used your free search quota (100/day).",
        quota_period="daily",
    )
)


# == Model providers (decision: Model names) ========================================
#
# A model is named ``provider:model`` (a bare name is Anthropic's). Each provider is one record:
# the protocol its adapter speaks, where it is and the variable that moves it, and its key (a
# KeySource in the same table as the search keys: resolved, set from SQL and redacted the same
# way). What a protocol *does* is its adapter's (webtap.agent.messages_api, .chat_api).


class ModelProvider:
    """One model provider: ``name`` is the prefix of a model's name (``groq:llama-3.3-70b``)."""

    __slots__ = (
        "api_path",
        "endpoint_default",
        "endpoint_env",
        "example",
        "key",
        "key_url",
        "local",
        "name",
        "protocol",
        "rpm_setting",
        "title",
    )

    def __init__(
        self,
        *,
        name: str,
        title: str,
        protocol: str,
        endpoint_env: str,
        endpoint_default: str,
        example: str,
        key: KeySource | None = None,
        key_url: str = "",
        api_path: str = "",
        local: bool = False,
        rpm_setting: Setting[float] | None = None,
    ) -> None:
        self.name = name  # the model name's prefix
        self.title = title  # how messages name it: "the Anthropic API", "Ollama", "Groq"
        self.protocol = protocol  # "messages" (Anthropic) or "chat" (OpenAI Chat Completions)
        # The variable that points it elsewhere (decision: Endpoints).
        self.endpoint_env = endpoint_env
        self.endpoint_default = endpoint_default
        self.api_path = api_path  # added to the address the variable gives (Ollama's /v1)
        self.example = example  # a model it serves that can use tools, for advice
        self.key = key  # None: no key (a server on this machine)
        self.key_url = key_url  # where a person gets a key
        self.local = local  # a server the person runs: "is it running?" when it is not there
        self.rpm_setting = rpm_setting  # calls a minute per key until the API says its limit

    def __repr__(self) -> str:
        return f"ModelProvider({self.name!r})"

    def base_url(self, environ: Any = None) -> str:
        """Where its API is: the endpoint variable (an address with or without ``http://``, as
        ``OLLAMA_HOST`` is written; ``0.0.0.0`` is where a server listens, not where to call),
        else the default; with :attr:`api_path`."""
        import os

        value = (environ if environ is not None else os.environ).get(self.endpoint_env) or ""
        value = value.strip() or self.endpoint_default
        if self.api_path:
            if "://" not in value:
                value = "http://" + value
            value = value.replace("://0.0.0.0", "://127.0.0.1", 1).rstrip("/")
            if not value.endswith(self.api_path):
                value += self.api_path
        return value

    def spec(self, model: str) -> str:
        """The full name of ``model`` of this provider (Anthropic's stay bare, as before)."""
        return model if self.name == "anthropic" else f"{self.name}:{model}"


MODEL_PROVIDERS: dict[str, ModelProvider] = {}


def register_model(provider: ModelProvider) -> ModelProvider:
    """Add a model provider (its name is the prefix of its models' names)."""
    if provider.name in MODEL_PROVIDERS:
        raise ValueError(f"model provider {provider.name!r} is registered already")
    MODEL_PROVIDERS[provider.name] = provider
    return provider


def _model_key(name: str, env: str, label: str, title: str) -> KeySource:
    return KeySource(
        name,
        env,
        f"{name}_api_key",
        (name, "api_key"),
        label,
        f"stps_set_{name}_api_key(key)",
        f"the {title} key for this session, for {name}: models (NULL clears it)",
    )


def _anthropic_rpm() -> Setting[float]:
    from webtap.settings import ANTHROPIC_RPM

    return ANTHROPIC_RPM


ANTHROPIC = register_model(
    ModelProvider(
        name="anthropic",
        title="the Anthropic API",
        protocol="messages",
        endpoint_env="ANTHROPIC_BASE_URL",  # the SDK reads it itself
        endpoint_default="https://api.anthropic.com",
        example="claude-sonnet-5-5",
        key=KeySource(
            "anthropic",
            "ANTHROPIC_API_KEY",
            "anthropic_api_key",
            ("anthropic", "api_key"),
            "Anthropic API key",
            "stps_set_api_key(key)",
            "the Anthropic key for this session (NULL clears it)",
        ),
        key_url="https://console.anthropic.com/settings/keys",
        rpm_setting=_anthropic_rpm(),
    )
)
OPENAI = register_model(
    ModelProvider(
        name="openai",
        title="the OpenAI-compatible API",
        protocol="chat",
        endpoint_env="OPENAI_BASE_URL",
        endpoint_default="https://api.openai.com/v1",
        example="gpt-4.1-mini",
        key=_model_key("openai", "OPENAI_API_KEY", "OpenAI API key", "OpenAI-compatible API"),
        key_url="https://platform.openai.com/api-keys",
    )
)
OLLAMA = register_model(
    ModelProvider(
        name="ollama",
        title="Ollama",
        protocol="chat",
        endpoint_env="OLLAMA_HOST",  # as the ollama command reads it: host:port, or a URL
        endpoint_default="http://127.0.0.1:11434",
        api_path="/v1",  # its OpenAI-compatible endpoint
        example="qwen2.5",
        local=True,
    )
)

# Hosted services that speak Chat Completions: a name, an address and a key variable each.
for _name, _title, _url, _example in (
    ("openrouter", "OpenRouter", "https://openrouter.ai/api/v1", "openai/gpt-4.1-mini"),
    ("groq", "Groq", "https://api.groq.com/openai/v1", "llama-3.3-70b-versatile"),
    ("together", "Together AI", "https://api.together.xyz/v1", "Qwen/Qwen2.5-72B-Instruct-Turbo"),
    (
        "gemini",
        "Gemini",
        "https://generativelanguage.googleapis.com/v1beta/openai",
        "gemini-2.5-flash",
    ),
    ("mistral", "Mistral", "https://api.mistral.ai/v1", "mistral-small-latest"),
    ("deepseek", "DeepSeek", "https://api.deepseek.com/v1", "deepseek-chat"),
):
    register_model(
        ModelProvider(
            name=_name,
            title=_title,
            protocol="chat",
            endpoint_env=f"{_name.upper()}_BASE_URL",
            endpoint_default=_url,
            example=_example,
            key=_model_key(_name, f"{_name.upper()}_API_KEY", f"{_title} API key", _title),
        )
    )
