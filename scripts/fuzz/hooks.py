"""Schemathesis hooks of `npm run fuzz` (scripts/fuzz.ts sets SCHEMATHESIS_HOOKS to this file).

Why (docs/fuzz.md, "Configuration"): an Idempotency-Key is bound to the first body it came with,
and the same key with another body answers 422 IDEMPOTENCY_KEY_REUSED (IETF
draft-ietf-httpapi-idempotency-key-header). That answer depends on what the caller sent before,
not on the request itself, while Schemathesis draws header values from a small space (the
documented example, boundary values) and sends them again with other bodies. So every request
that carries a valid generated key gets its own: the generated value, cut to leave room, plus a
fresh suffix. The key stays schema-valid (printable ASCII, at most 255 characters); negative
cases (an invalid key) are sent as generated.
"""

import re
import uuid

import schemathesis

HEADER = "idempotency-key"
VALID = re.compile(r"^[\x20-\x7e]{1,255}$")


@schemathesis.hook
def before_call(context, case, kwargs):
    headers = case.headers
    if not headers:
        return
    name = next((k for k in headers if k.lower() == HEADER), None)
    if name is None:
        return
    value = headers[name]
    meta = getattr(case, "meta", None)
    negative = meta is not None and meta.generation.mode.is_negative
    if negative or not isinstance(value, str) or not VALID.match(value):
        return
    headers[name] = f"{value[:200]}~{uuid.uuid4().hex}"
