"""HTTP API and MCP server over the same service functions the Streamlit screens call.

Module map:
- `config.py`        ApiConfig (API_HOST, API_PORT, API_TOKEN, limits) and `check_bind`
- `stores.py`        the stores, bootstrapped once per process, then only reported on
- `security.py`      rate limit, bearer token, request size (one ASGI middleware)
- `errors.py`        every failure as JSON {status, error, retry_hint} with its HTTP status
- `models.py`        request/response models (the OpenAPI schema)
- `turns.py`         a run as the API drives it (Turn), input checks, storing a chat turn
- `agent_turns.py`   one Turn per screen over its service function
- `streaming.py`     Server-Sent Events: a step leaves when it finishes, keep-alive, disconnect
- `routes_*.py`      agent endpoints, stored work, operations
- `app.py`           create_app(config, stores)
- `__main__.py`      `python -m api [--host H] [--port P]`
- `mcp/`             the MCP server (`python -m api.mcp [--transport stdio|http]`)

Nothing is imported here, so `python -m api --host 0.0.0.0` without a token is refused before
the agents load.
"""
