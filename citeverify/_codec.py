"""The contract codec: strict request validation in, contract-shaped JSON out.

Requests are checked by one walker that collects *every* problem with its
field path (``items[0].rawText``) before anything is built, so a caller fixes
a bad request in one round trip.  Nothing is coerced: ``1``, ``null`` and
``true`` are not strings.  Only after the walk succeeds are the items
structured into model values by cattrs.

Responses are unstructured by cattrs with the contract's JSON names (read from
the model's field metadata) and with absent optional fields omitted; the only
``null`` values the contract allows are ``Comparison.cited`` and ``found``.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, Final

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from citeverify import _model as m
from citeverify._kinds import KINDS, quotable_kinds
from citeverify.errors import ValidationError

__all__ = ["Limits", "decode_body", "response_to_dict", "structure_request", "to_dict"]


@attrs.frozen(slots=True)
class Limits:
    """Bounds on a request, each answered by a ``ValidationError`` naming the field.

    The defaults suit a brief of several hundred citations and keep one request's
    work bounded; raise them deliberately, not by default.
    """

    max_items: int = 1000
    max_id_length: int = 256
    max_raw_text_length: int = 2_000
    max_quote_length: int = 10_000
    max_context_length: int = 10_000
    max_url_length: int = 2_048
    max_body_bytes: int = 1_048_576
    max_problems: int = 100


DEFAULT_LIMITS: Final = Limits()

ITEM_TYPES: Final = frozenset(KINDS)
_ITEM_FIELDS: Final = ("id", "type", "rawText", "quoteText", "parentCaseId", "context", "url")
#: The fields each kind of item must carry besides ``id`` and ``type``.
_REQUIRED: Final = {name: k.required for name, k in KINDS.items()}
#: What a quotation's parent must be, as the kinds and as a problem's prose.
_UNQUOTABLE: Final = frozenset(name for name, k in KINDS.items() if not k.quotable)
_QUOTABLE_TEXT: Final = quotable_kinds()


def _json_name(field: attrs.Attribute[Any]) -> str:
    name: str = field.metadata.get("json", field.name)
    return name


# --- decoding hostile bodies ----------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _parse_int(text: str) -> int:
    if len(text) > 30:
        raise ValueError("number too long")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > 64:
        raise ValueError("number too long")
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("number out of range")
    return value


#: What ``json.loads(text, parse_constant=..., parse_int=..., parse_float=...)`` would
#: build on every call (a decoder and its scanner), built once: ``loads`` with any
#: keyword makes a new ``JSONDecoder`` and ``decode`` is all it then calls.
_DECODER: Final = json.JSONDecoder(
    parse_constant=_reject_constant, parse_int=_parse_int, parse_float=_parse_float
)


def decode_body(body: str | bytes | bytearray, limits: Limits = DEFAULT_LIMITS) -> Any:
    """Decode a JSON body strictly; any failure is a ``ValidationError`` on ``body``."""
    if isinstance(body, bytes | bytearray):
        if len(body) > limits.max_body_bytes:
            raise _body_error(f"body exceeds {limits.max_body_bytes} bytes")
        try:
            text = bytes(body).decode("utf-8")
        except UnicodeDecodeError:
            raise _body_error("body is not valid UTF-8") from None
    else:
        text = body
        if len(text) > limits.max_body_bytes:
            raise _body_error(f"body exceeds {limits.max_body_bytes} characters")
    text = text.removeprefix("\ufeff")
    try:
        return _DECODER.decode(text)
    except RecursionError:
        raise _body_error("JSON nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError is a ValueError, as are our hooks
        raise _body_error(f"body is not valid JSON: {exc}") from None


def _body_error(message: str) -> ValidationError:
    return ValidationError(
        "request body is not a valid VerifyRequest", [{"field": "body", "message": message}]
    )


# --- validating requests --------------------------------------------------------


class _Problems:
    def __init__(self, limit: int) -> None:
        self.details: list[dict[str, str]] = []
        self.limit = limit

    def add(self, field: str, message: str) -> None:
        if len(self.details) < self.limit:
            self.details.append({"field": field, "message": message})

    @property
    def full(self) -> bool:
        return len(self.details) >= self.limit


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, list | tuple):
        return "array"
    return type(value).__name__


def _is_encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@functools.lru_cache(maxsize=16)
def _string_limits(limits: Limits) -> dict[str, int]:
    return {
        "id": limits.max_id_length,
        "type": 32,
        "rawText": limits.max_raw_text_length,
        "quoteText": limits.max_quote_length,
        "parentCaseId": limits.max_id_length,
        "context": limits.max_context_length,
        "url": limits.max_url_length,
    }


def _string_limit(key: str, limits: Limits) -> int:
    return _string_limits(limits)[key]


def _clean_item(item: dict[Any, Any], bounds: Mapping[str, int]) -> dict[str, str] | None:
    """One pass over a well-formed item; ``None`` as soon as anything is off.

    Most items are fine, and for them this is the whole check.  Any problem sends
    the item to ``_check_item_fully``, which names every problem in its fixed order.
    """
    for key, value in item.items():
        bound = bounds.get(key)
        if (
            bound is None
            or type(value) is not str
            or len(value) > bound
            or not (value.isascii() or _is_encodable(value))
        ):
            return None
    required = _REQUIRED.get(item.get("type", ""))  # every value is a str by now
    if required is None or not item.get("id"):
        return None
    for needed in required:
        if needed not in item:
            return None
    return item


def _check_item(
    index: int, item: Any, limits: Limits, bounds: Mapping[str, int], problems: _Problems
) -> dict[str, str] | None:
    """One item's check: the one-pass check, else the full one.

    ``bounds`` is ``_string_limits(limits)``, looked up once per request by the
    caller: ``Limits`` hashes in Python, and a request may hold a thousand items.
    """
    if type(item) is dict:
        clean = _clean_item(item, bounds)
        if clean is not None:
            return clean
    return _check_item_fully(index, item, limits, problems)


def _check_item_fully(
    index: int, item: Any, limits: Limits, problems: _Problems
) -> dict[str, str] | None:
    path = f"items[{index}]"
    if not isinstance(item, Mapping):
        problems.add(path, f"must be an object, not {_type_name(item)}")
        return None
    clean: dict[str, str] = {}
    for key in item:
        if not isinstance(key, str) or key not in _ITEM_FIELDS:
            shown = key[:40] if isinstance(key, str) else repr(key)[:40]
            problems.add(f"{path}.{shown}", "unknown property")
    for key in _ITEM_FIELDS:
        if key not in item:
            continue
        value = item[key]
        if not isinstance(value, str):
            problems.add(f"{path}.{key}", f"must be a string, not {_type_name(value)}")
            continue
        if len(value) > _string_limit(key, limits):
            problems.add(
                f"{path}.{key}", f"longer than the limit of {_string_limit(key, limits)} characters"
            )
            continue
        if not _is_encodable(value):
            problems.add(f"{path}.{key}", "contains a lone surrogate (not valid Unicode text)")
            continue
        clean[key] = value
    ok = True
    for required in ("id", "type"):
        if required not in item:
            problems.add(f"{path}.{required}", "is required")
            ok = False
    kind = clean.get("type")
    if kind is not None and kind not in ITEM_TYPES:
        problems.add(f"{path}.type", f"must be one of {', '.join(sorted(ITEM_TYPES))}")
        ok = False
    if "id" in clean and not clean["id"]:
        problems.add(f"{path}.id", "must not be empty")
        ok = False
    for needed in _REQUIRED.get(kind or "", ()):
        if needed not in item:
            problems.add(f"{path}.{needed}", f"is required for a {kind} item")
            ok = False
    if not ok or len(clean) != sum(1 for k in _ITEM_FIELDS if k in item):
        return None
    return clean


def check_items(raw_items: Sequence[Mapping[str, str]], problems: _Problems) -> None:
    """Cross-item rules: unique ids; a quote's parent is a citation item of the request."""
    kinds: dict[str, str] = {}
    for index, item in enumerate(raw_items):
        ident = item.get("id")
        if ident is None:
            continue
        if ident in kinds:
            problems.add(f"items[{index}].id", f"duplicate id {ident[:60]!r}")
        else:
            kinds[ident] = item.get("type", "")
    for index, item in enumerate(raw_items):
        if item.get("type") != "quote" or "parentCaseId" not in item:
            continue
        parent = item["parentCaseId"]
        parent_kind = kinds.get(parent)
        if parent_kind is None:
            problems.add(
                f"items[{index}].parentCaseId", f"no item with id {parent[:60]!r} in this request"
            )
        elif parent_kind in _UNQUOTABLE:
            problems.add(
                f"items[{index}].parentCaseId",
                f"must name a {_QUOTABLE_TEXT} item, not a {parent_kind} item",
            )


def validate_request(payload: Any, limits: Limits = DEFAULT_LIMITS) -> list[dict[str, str]]:
    """Check a decoded request body; return the clean item dicts or raise ``ValidationError``."""
    problems = _Problems(limits.max_problems)
    if type(payload) is not dict and not isinstance(payload, Mapping):  # the ABC check is slow
        problems.add("body", f"must be a JSON object, not {_type_name(payload)}")
        raise ValidationError("request body is not a valid VerifyRequest", problems.details)
    for key in payload:
        if key != "items":
            shown = key[:40] if isinstance(key, str) else repr(key)[:40]
            problems.add(shown, "unknown property")
    items = payload.get("items")
    clean: list[dict[str, str]] = []
    if "items" not in payload:
        problems.add("items", "is required")
    elif not isinstance(items, list | tuple):
        problems.add("items", f"must be an array, not {_type_name(items)}")
    elif len(items) == 0:
        problems.add("items", "must have at least 1 item")
    elif len(items) > limits.max_items:
        problems.add("items", f"has {len(items)} items; the limit is {limits.max_items}")
    else:
        bounds = _string_limits(limits)
        for index, item in enumerate(items):
            checked = _check_item(index, item, limits, bounds, problems)
            if checked is not None:
                clean.append(checked)
            if problems.full:
                break
        if not problems.details:
            check_items(clean, problems)
    if problems.details:
        raise ValidationError("request body is not a valid VerifyRequest", problems.details)
    return clean


# --- cattrs: structure items, unstructure responses -----------------------------


def _enum_value(value: Enum) -> Any:
    return value.value


#: The contract's response types, each with its JSON field names (see ``_json_name``).
_RESPONSE_CLASSES: Final = (
    m.CitationComponents,
    m.Citation,
    m.Verdict,
    m.Comparison,
    m.Evidence,
    m.Court,
    m.Identifier,
    m.Document,
    m.Opinion,
    m.QuoteLocation,
    m.Quote,
    m.DocumentPosition,
    m.Result,
    m.Summary,
    m.Usage,
    m.DocumentText,
    m.Response,
)


def _make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True)
    conv.register_structure_hook(m.ItemType, lambda v, _: m.ItemType(v))
    # Our enums subclass str, so cattrs would otherwise pick its str hook and keep
    # the enum object; JSON needs the plain value.
    for enum_cls in (m.ItemType, m.Status, m.Outcome):
        conv.register_unstructure_hook(enum_cls, _enum_value)
    for cls in (m.VerifyItem, *_RESPONSE_CLASSES):
        overrides: dict[str, Any] = {
            f.name: override(rename=_json_name(f))
            for f in attrs.fields(cls)
            if _json_name(f) != f.name
        }
        conv.register_unstructure_hook(
            cls,
            make_dict_unstructure_fn(cls, conv, _cattrs_omit_if_default=True, **overrides),
        )
        conv.register_structure_hook(
            cls,
            make_dict_structure_fn(cls, conv, _cattrs_forbid_extra_keys=True, **overrides),
        )
    return conv


CONVERTER: Final = _make_converter()


def structure_request(body: Any, limits: Limits = DEFAULT_LIMITS) -> tuple[m.VerifyItem, ...]:
    """Validate a request (a dict, or JSON text/bytes) and return its items."""
    if isinstance(body, str | bytes | bytearray):
        body = decode_body(body, limits)
    clean = validate_request(body, limits)
    # Validated above: every value is a string, ``type`` is an item type.
    return tuple(
        m.VerifyItem(
            id=item["id"],
            type=KINDS[item["type"]].type,
            raw_text=item.get("rawText"),
            quote_text=item.get("quoteText"),
            parent_case_id=item.get("parentCaseId"),
            context=item.get("context"),
            url=item.get("url"),
        )
        for item in clean
    )


def items_to_dicts(items: Sequence[m.VerifyItem]) -> list[dict[str, Any]]:
    """The JSON form of typed items, for re-validation of typed callers' input."""
    return [CONVERTER.unstructure(item) for item in items]


def to_dict(value: Any) -> Any:
    """Unstructure any model value to its contract JSON shape."""
    return CONVERTER.unstructure(value)


# --- responses: unstructure functions generated once per model class ------------
#
# cattrs' generated functions route every optional field through a generic hook
# (``unstructure_optional``) and every tuple through a generic iterable walk: about
# half the cost of building a 10-item response.  The functions below are written
# from the same field list (order, JSON names, defaults) and omit a field exactly
# when cattrs would (``_cattrs_omit_if_default``: the value equals the default), so
# the dicts are equal key for key and in the same order; tests/test_golden.py holds
# the encoded bytes to the pre-change ones and compares the two on generated values.


def _value_code(tp: Any, expr: str) -> str:
    """Python source unstructuring ``expr`` (a non-None value of declared type ``tp``)."""
    import types
    import typing

    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(members) != 1:  # pragma: no cover - no such field in the model
            raise TypeError(f"unsupported union {tp!r}")
        return _value_code(members[0], expr)
    if origin is tuple:
        inner = _value_code(typing.get_args(tp)[0], "x")
        return f"list({expr})" if inner == "x" else f"[{inner} for x in {expr}]"
    if isinstance(tp, type) and issubclass(tp, Enum):
        return f"{expr}._value_"  # what ``.value`` returns, without its descriptor
    if attrs.has(tp):
        return f"_u_{tp.__name__}({expr})"
    return expr


def _is_optional(tp: Any) -> bool:
    import typing

    return type(None) in typing.get_args(tp)


def _unstructure_source(cls: type) -> str:
    import typing

    hints = typing.get_type_hints(cls)
    lines = [f"def _u_{cls.__name__}(o):", "    d = {}"]
    for field in attrs.fields(cls):
        name = _json_name(field)
        value = _value_code(hints[field.name], "v")
        lines.append(f"    v = o.{field.name}")
        if field.default is attrs.NOTHING:
            # Required fields are always written; only a None one (``cited``) stays None.
            if value != "v" and _is_optional(hints[field.name]):
                lines.append(f"    d[{name!r}] = None if v is None else {value}")
            else:
                lines.append(f"    d[{name!r}] = {value}")
            continue
        if isinstance(field.default, attrs.Factory):  # type: ignore[arg-type]
            raise TypeError(f"{cls.__name__}.{field.name}: factories are not supported")
        default = f"_default_{cls.__name__}_{field.name}"
        test = "v is not None" if field.default is None else f"v != {default}"
        lines.append(f"    if {test}:")
        lines.append(f"        d[{name!r}] = {value}")
    lines.append("    return d")
    return "\n".join(lines)


def _make_unstructurers() -> dict[type, Any]:
    namespace: dict[str, Any] = {}
    for cls in _RESPONSE_CLASSES:
        for field in attrs.fields(cls):
            if field.default is not attrs.NOTHING and field.default is not None:
                namespace[f"_default_{cls.__name__}_{field.name}"] = field.default
    for cls in _RESPONSE_CLASSES:
        exec(_unstructure_source(cls), namespace)  # our own source, from the model's fields
    return {cls: namespace[f"_u_{cls.__name__}"] for cls in _RESPONSE_CLASSES}


_UNSTRUCTURE: Final = _make_unstructurers()
#: Per response class, the function giving its JSON shape (what ``response_to_dict``
#: applies part by part); ``_verify.run_to_dict`` builds results from these.
UNSTRUCTURE: Final[Mapping[type, Any]] = _UNSTRUCTURE
_unstructure_response: Final = _UNSTRUCTURE[m.Response]


def response_to_dict(response: m.Response) -> dict[str, Any]:
    """The contract JSON shape of a ``Response`` (equal to ``to_dict``, faster)."""
    out: dict[str, Any] = _unstructure_response(response)
    return out
