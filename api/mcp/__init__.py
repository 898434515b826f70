"""The MCP server: the seed tools of every screen, with their schemas, for any MCP client.

- `registry.py`   McpTool specs built from each agent's own tool classes (names, descriptions,
                  input schemas as the agents define them) plus guarded read-only SQL/Cypher
- `server.py`     the MCP `Server` (tools/list, tools/call) and its two transports
- `__main__.py`   `python -m api.mcp [--transport stdio|http] [--host H] [--port P]`
"""
