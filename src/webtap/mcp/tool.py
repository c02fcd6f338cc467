"""A tool as the MCP server offers it: what ``tools/list`` shows and how a call runs.

Its own module, so that each tool webtap adds (:mod:`webtap.mcp.quote`) and the server that
serves them (:mod:`webtap.mcp.server`) import it one way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mcp_types as types

from webtap.tools import ToolResult

__all__ = ["Runner", "ServedTool"]

# A call: (arguments, deadline in seconds) -> its result (the ``_event`` apart, in ``event``).
Runner = Callable[[dict[str, Any], float], ToolResult]


@dataclass(frozen=True)
class ServedTool:
    """A tool as the MCP server offers it: what ``tools/list`` shows and how a call runs."""

    name: str
    description: str
    input_schema: dict[str, Any]
    run: Runner
    title: str | None = None
    annotations: types.ToolAnnotations | None = None
    timeout: float | None = None  # its schema's own deadline; else the server's
    # Seconds past the deadline before the server gives up on the runner: the host's runner
    # kills a late tool itself and says so better than a bare deadline would.
    grace: float = 0.0

    def listing(self) -> types.Tool:
        return types.Tool(
            name=self.name,
            title=self.title,
            description=self.description,
            input_schema=self.input_schema,
            annotations=self.annotations,
        )
