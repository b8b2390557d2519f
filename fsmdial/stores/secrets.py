"""Credentials in a store URL: shown masked, and redacted from whatever a database driver says about the URL.

A store URL may hold a password in its userinfo (``postgresql://user:pw@host/db``), in a query parameter
(``?password=...``, ``sslpassword``, ``passfile``, a token...) or, in libpq's other form, as ``password=...``.
Wherever a store URL is shown (a store's ``location`` in its messages, a log line, ``fsmdial serve``'s start line,
an HTTP error body) it is :func:`shown_url`'s form, the one masking function::

    >>> shown_url("postgresql://me:pw@db:5432/fsmdial?sslmode=require&password=pw")
    'postgresql://me:***@db:5432/fsmdial?sslmode=require&password=***'

A parameter's value is shown only when its name is one of libpq's settings that never hold a secret
(:data:`SHOWN_PARAMETERS`) and does not look like a credential; every other one (a password, a key, a name libpq
does not know, a part with no ``=``) is masked, so a credential parameter nobody listed yet is hidden too. The
userinfo password is read as leniently as any reader of the URL could read it (up to the *last* ``@``, so a raw
``/``, ``?`` or ``@`` in it cannot push part of it out of the mask): the display may hide more than it must, never
less. A driver's own message may quote what it could not parse (libpq quotes a bad percent-escape, or the whole
URL), so a store passes every such message through :func:`redact` with :func:`url_secrets` of its URL.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from urllib.parse import quote, unquote

__all__ = ["MASK", "SHOWN_PARAMETERS", "redact", "shown_url", "url_secrets"]

MASK = "***"

SHOWN_PARAMETERS = frozenset(
    {
        "host", "hostaddr", "port", "dbname", "user", "connect_timeout", "client_encoding", "application_name",
        "fallback_application_name", "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count",
        "tcp_user_timeout", "replication", "gssencmode", "sslmode", "sslnegotiation", "sslcompression", "sslcert",
        "sslcertmode", "sslrootcert", "sslcrl", "sslcrldir", "sslsni", "requirepeer", "ssl_min_protocol_version",
        "ssl_max_protocol_version", "krbsrvname", "gsslib", "gssdelegation", "service", "target_session_attrs",
        "load_balance_hosts", "channel_binding",
    }
)  # fmt: skip
"""libpq settings whose values are shown. Not ``options`` (free text: ``-c`` settings may hold anything), nor any
credential: ``password``, ``passfile``, ``sslpassword``, ``sslkey``, ``require_auth``, ``oauth_*``, ``scram_*``."""

CREDENTIAL = re.compile(r"pass|pwd|secret|token|key|cred|auth|sign|cookie|private", re.IGNORECASE)
"""A parameter name that suggests a credential (checked even for a name in :data:`SHOWN_PARAMETERS`)."""

KEYWORD_FORM = re.compile(r"\s*[A-Za-z_][A-Za-z0-9_]*\s*=")
"""The start of libpq's ``key=value`` form (``host=db password=...``)."""
KEYWORD = re.compile(r"\s*([^\s=]+)\s*=\s*")
"""One ``key =`` of that form."""


def shown_parameter(name: str) -> bool:
    """Whether the value of the parameter ``name`` (as written in a URL: maybe percent-encoded) may be shown."""
    plain = unquote(name).strip().lower()
    return plain in SHOWN_PARAMETERS and CREDENTIAL.search(plain) is None


def shown_url(url: str) -> str:
    """``url`` with every credential masked (see the module docstring); a bare file path is itself."""
    return _masked(url)[0]


def url_secrets(url: str) -> frozenset[str]:
    """Every credential of ``url``, in each form a message could show it: as written, percent-decoded (as libpq
    reads it), percent-encoded, and escaped as ``repr`` and JSON write it."""
    forms: set[str] = set()
    for secret in _masked(url)[1]:
        for plain in (secret, unquote(secret)):
            forms |= {plain, quote(plain, safe=""), quote(plain), repr(plain)[1:-1], json.dumps(plain)[1:-1]}
    return frozenset(form for form in forms if form)


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every occurrence of each of ``secrets`` replaced by :data:`MASK` (longest first, so a secret
    that holds another is masked whole)."""
    for secret in sorted(secrets, key=len, reverse=True):
        if secret:
            text = text.replace(secret, MASK)
    return text


# ------------------------------------------------------------------ reading a URL


def _masked(url: str) -> tuple[str, list[str]]:
    """``(the URL as shown, the raw text of each part masked)``."""
    scheme, sep, rest = url.partition("://")
    if sep:
        return _masked_uri(scheme, rest)
    if KEYWORD_FORM.match(url):
        return _masked_keywords(url)
    return url, []


def _masked_uri(scheme: str, rest: str) -> tuple[str, list[str]]:
    secrets: list[str] = []
    # The secrets as each reader could read a URL with a raw "@" in it: no userinfo, up to the first "@" (libpq), up
    # to the last (Python's urlsplit); redacting them all from a message leaves no reading's password in it.
    _masked_query(rest, secrets)
    for at in {rest.find("@"), rest.rfind("@")} - {-1}:
        _, colon, password = rest[:at].partition(":")
        secrets.extend([password] if colon else [])
        _masked_query(rest[at + 1 :], secrets)
    at = rest.rfind("@")
    user, colon, _ = rest[: max(at, 0)].partition(":")
    if at >= 0 and colon:  # shown: everything between the first ":" and the last "@" is the password
        return f"{scheme}://{_masked_query(user, secrets)}:{MASK}@{_masked_query(rest[at + 1 :], secrets)}", secrets
    return f"{scheme}://{_masked_query(rest, secrets)}", secrets


def _masked_query(text: str, secrets: list[str]) -> str:
    """``text`` with the parameters after its first ``?`` masked (see :func:`shown_parameter`); each value masked is
    added to ``secrets``."""
    where, question, query = text.partition("?")
    if not question:
        return text
    shown = []
    for part in query.split("&"):
        name, equals, value = part.partition("=")
        if equals and shown_parameter(name):
            shown.append(part)
        elif equals:
            shown.append(f"{name}={MASK}")
            secrets.append(value)
        elif part:  # not a parameter at all (libpq refuses it, quoting it): it may be anything
            shown.append(MASK)
            secrets.append(part)
        else:
            shown.append(part)
    return f"{where}?{'&'.join(shown)}"


def _masked_keywords(text: str) -> tuple[str, list[str]]:
    """libpq's ``key = value`` form: a value is a run of non-blanks or single-quoted, ``\\`` escaping either."""
    shown: list[str] = []
    secrets: list[str] = []
    position = 0
    while True:
        match = KEYWORD.match(text, position)
        if match is None:
            rest = text[position:].strip()
            if rest:  # not key=value: shown as nothing but the mask
                shown.append(MASK)
                secrets.append(rest)
            return " ".join(shown), secrets
        name, start = match.group(1), match.end()
        end, value = _keyword_value(text, start)
        raw = text[start:end]
        if end < 0:  # an unterminated quote: the rest is the value
            raw, value = text[start:], text[start:]
        if shown_parameter(name):
            shown.append(f"{name}={raw}")
        else:
            shown.append(f"{name}={MASK}")
            secrets.extend([raw, value])
        if end < 0:
            return " ".join(shown), secrets
        position = end


def _keyword_value(text: str, start: int) -> tuple[int, str]:
    """``(end, value)`` of the value at ``start``; ``end`` is -1 when a quote is never closed."""
    quoted = text.startswith("'", start)
    position = start + quoted
    value = []
    while position < len(text):
        char = text[position]
        if char == "\\" and position + 1 < len(text):
            value.append(text[position + 1])
            position += 2
            continue
        if quoted and char == "'":
            return position + 1, "".join(value)
        if not quoted and char.isspace():
            break
        value.append(char)
        position += 1
    return (-1, "".join(value)) if quoted else (position, "".join(value))
