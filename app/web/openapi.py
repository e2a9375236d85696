"""The OpenAPI schema as the API really answers: FastAPI documents its own validation error list
(`HTTPValidationError`) for every route with inputs, while `app.web.app` answers every error, 422 included,
as `{"detail": {"code", "message"}}`, a JSON body that does not parse as 400 `malformed_json`, and any
request while the database is down as 503 `database_unavailable`.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from app.web.schemas import ErrorResponse

REF_TEMPLATE = "#/components/schemas/{model}"
VALIDATION_SCHEMAS = ("HTTPValidationError", "ValidationError")
INVALID = "The request does not fit this operation (the message names the field); code `invalid_request`."
MALFORMED_JSON = "The body is not valid JSON; code `malformed_json`."
UNAVAILABLE = "The database cannot be reached just now; try again later. Code `database_unavailable`."
TOO_LARGE = ("The body is larger than the server takes (`MAX_BODY_BYTES`, 64 KiB by default; a note's up to 12 "
             "bytes a character); code `body_too_large`.")


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """A route's documentation of its error answers, all shaped `{"detail": {"code", "message"}}`."""
    return {code: {"model": ErrorResponse} for code in codes}


def _error(description: str) -> dict[str, Any]:
    schema = {"$ref": REF_TEMPLATE.format(model=ErrorResponse.__name__)}
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def document_errors(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with every 422 in the error shape, a 400 for each operation that takes a JSON body, a 413 for
    each that takes a body, and the 503 any operation may answer while the database is down."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    error_schema = ErrorResponse.model_json_schema(ref_template=REF_TEMPLATE)
    components.update(error_schema.pop("$defs", {}))
    components[ErrorResponse.__name__] = error_schema
    for name in VALIDATION_SCHEMAS:
        components.pop(name, None)
    for item in schema.get("paths", {}).values():
        for operation in item.values():
            responses = operation.setdefault("responses", {})
            if "422" in responses:
                responses["422"] = _error(INVALID)
            if "application/json" in operation.get("requestBody", {}).get("content", {}):
                responses["400"] = _error(MALFORMED_JSON)
            if "requestBody" in operation:
                responses["413"] = _error(TOO_LARGE)
            responses["503"] = _error(UNAVAILABLE)
    return schema


def install(app: FastAPI) -> None:
    """Serve the corrected schema at /openapi.json (FastAPI builds it once, on first request)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        first = app.openapi_schema is None
        schema = build()
        return document_errors(schema) if first else schema

    app.openapi = openapi  # type: ignore[method-assign]
