"""webtap: the web for LLM agents.

Three tools as executables that speak one JSON protocol (``web-search-brave-tool``,
``web-search-google-tool``, ``web-fetch-tool``), a host that discovers and runs such tools, an
agent loop, DuckDB SQL functions and an MCP server. Importing this package is cheap: the tools'
``--schema`` path imports nothing heavy.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
