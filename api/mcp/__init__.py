"""The MCP server: the seed tools of every screen, with their schemas, for any MCP client.

- `registry.py`   McpTool specs built from each agent's own tool classes (names, descriptions,
                  input schemas as the agents define them) plus guarded read-only SQL/Cypher
- `server.py`     the MCP `Server` (tools/list, tools/call) and its two transports
- `mount.py`      the same server at /mcp inside the API (`python -m api`), loaded on first use
- `__main__.py`   `python -m api.mcp [--transport stdio|http] [--host H] [--port P]`
"""
