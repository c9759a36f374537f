"""schemathesis extension for the contract test: how to send a JSON Lines body
(the export that POST /api/verify checks)."""

import json

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx, value):
    if value is None:
        return None
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    if isinstance(value, list):  # the documented shape: one line per item
        return "".join(json.dumps(item) + "\n" for item in value).encode()
    return (json.dumps(value) + "\n").encode()
