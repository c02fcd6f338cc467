"""The host: discover, validate, run and export external tools (decision: Discovery).

``discover()`` finds every tool in the system, user and project folders; ``run_tool()`` runs
one with checked arguments and returns a :class:`webtap.tools.ToolResult` (the one result of a
tool's run, as :func:`webtap.tools.call` gives it) whose ``for_model()`` never carries the
tool's ``_event`` (``ToolResult.event`` does: keep it with
:func:`webtap.host.events.keep_event`). Importing this package is cheap; jsonschema is imported
only when a schema or arguments are checked.
"""

from webtap.host.discovery import Discovery, Rejected, Shadowed, Tool, discover, tool_folders
from webtap.host.export import FORMATS, export_tool, export_tools
from webtap.host.install import InstallError, install, target_folder, uninstall
from webtap.host.runner import ToolResult, check_arguments, run_tool, split_event
from webtap.host.validate import Problem, SchemaProblem, check_tool_schema, validate_btcp

__all__ = [
    "FORMATS",
    "Discovery",
    "InstallError",
    "Problem",
    "Rejected",
    "SchemaProblem",
    "Shadowed",
    "Tool",
    "ToolResult",
    "check_arguments",
    "check_tool_schema",
    "discover",
    "export_tool",
    "export_tools",
    "install",
    "run_tool",
    "split_event",
    "target_folder",
    "tool_folders",
    "uninstall",
    "validate_btcp",
]
