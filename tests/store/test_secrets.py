"""Issue 33, item 4: a store URL's credentials never reach a message, a log line or an HTTP body.

One masking function (:func:`fsmdial.stores.secrets.shown_url`) shows a store URL: it masks the userinfo password and
every query parameter that is not one of libpq's known harmless settings (``password=``, ``passfile``,
``sslpassword``, ``sslkey``, ``token``, ``secret``, ``key``... and any name it does not know), however the name is
spelt (case, percent-encoding); libpq's ``key=value`` form too. What the database driver says about a URL is
redacted of the URL's credentials (:func:`~fsmdial.stores.secrets.redact`) before it becomes a store error.
"""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fsmdial.errors import StoreError
from fsmdial.stores import StoreUnavailable, open_store
from fsmdial.stores.secrets import redact, shown_url, url_secrets

from .postgres_server import free_port

SECRET = "hunter2-Zq"


def shown_forms(text: str) -> list[str]:
    """How a message reaches a reader: as it is (a log line, the start line), quoted (``{location!r}``), inside a
    JSON body (an HTTP error)."""
    return [text, repr(text), json.dumps(text), json.dumps(text, ensure_ascii=False)]


def secret_forms(secret: str) -> list[str]:
    """A credential as a URL or a message may write it: itself, percent-encoded, quoted by ``repr`` or JSON."""
    forms = {secret, quote(secret, safe=""), quote(secret), repr(secret)[1:-1], json.dumps(secret)[1:-1]}
    return sorted(form for form in forms if form)


def assert_hidden(secret: str, text: str) -> None:
    for shown in shown_forms(text):
        for form in secret_forms(secret):
            assert form not in shown, f"{form!r} shows in {shown!r}"


# ------------------------------------------------------------------ the masking function


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://fsmdial:{SECRET}@db.example:5432/fsmdial",
        f"postgresql://fsmdial@db.example:5432/fsmdial?password={SECRET}",
        f"postgresql://fsmdial@db.example/fsmdial?sslmode=require&PassWord={SECRET}",
        f"postgresql://fsmdial@db.example/fsmdial?pass%77ord={SECRET}",
        f"postgresql://fsmdial@db.example/fsmdial?passfile=/home/me/{SECRET}",
        f"postgresql://fsmdial@db.example/fsmdial?sslpassword={SECRET}",
        f"postgresql://fsmdial@db.example/fsmdial?sslkey=/keys/{SECRET}.key",
        f"postgresql://fsmdial@db.example/fsmdial?token={SECRET}",
        f"postgresql://fsmdial@db.example/fsmdial?client_secret={SECRET}",
        f"postgresql://fsmdial@db.example/fsmdial?api_key={SECRET}",
        f"postgresql://fsmdial@db.example/fsmdial?no_such_setting={SECRET}",
        f"postgresql://fsmdial@db.example/fsmdial?{SECRET}",
        f"postgres://fsmdial:{quote(SECRET + '@/?#&=', safe='')}@db.example/fsmdial",
        f"postgresql://fsmdial:{SECRET}/with/slashes@db.example/fsmdial",
        f"postgresql://fsmdial:{SECRET}?and=more@db.example/fsmdial",
        f"host=db.example user=fsmdial password={SECRET} dbname=fsmdial",
        f"host=db.example password = '{SECRET} with \\' quote' dbname=fsmdial",
        f"host=db.example password='{SECRET} unterminated",
        f"sqlite://me:{SECRET}@localhost/sessions.db",
    ],
)
def test_every_credential_of_a_store_url_is_masked(url: str) -> None:
    shown = shown_url(url)
    assert_hidden(SECRET, shown)
    assert "***" in shown


def test_what_is_not_a_credential_stays_readable() -> None:
    url = f"postgresql://fsmdial:{SECRET}@db.example:5432/sessions?sslmode=require&password={SECRET}&application_name=x"
    assert shown_url(url) == (
        "postgresql://fsmdial:***@db.example:5432/sessions?sslmode=require&password=***&application_name=x"
    )
    assert shown_url("postgresql://fsmdial@db.example/sessions") == "postgresql://fsmdial@db.example/sessions"
    assert shown_url("sqlite:///sessions.db") == "sqlite:///sessions.db"
    assert shown_url("/var/lib/fsmdial/sessions.db") == "/var/lib/fsmdial/sessions.db"
    assert shown_url(f"host=db user=me password={SECRET} port=5432") == "host=db user=me password=*** port=5432"


def test_a_message_is_redacted_of_every_form_of_the_urls_credentials() -> None:
    url = f"postgresql://fsmdial:{quote(SECRET + ' é', safe='')}@db/x?sslpassword={SECRET}2"
    secrets = url_secrets(url)
    message = f"libpq: invalid token {quote(SECRET + ' é', safe='')!r} near {SECRET} é and {SECRET}2 in {url}"
    assert_hidden(SECRET, redact(message, secrets))
    assert "libpq: invalid token" in redact(message, secrets)


# ------------------------------------------------------------------ a fuzz test of the masking


NAMES = st.sampled_from(
    ["password", "PASSWORD", "pass%77ord", "sslpassword", "passfile", "sslkey", "token", "secret", "key", "apikey"]
)


@st.composite
def urls_with_a_secret(draw: st.DrawFn) -> tuple[str, str]:
    """(URL, the credential in it): in the userinfo or a query parameter, percent-encoded or (where a URL can hold
    it so) written as it is, among harmless parameters; or in libpq's ``key=value`` form."""
    secret = "Zq" + draw(st.text(min_size=4, max_size=24))
    host = draw(st.sampled_from(["127.0.0.1", "db.example", "[::1]", "h1:5432,h2:5433"]))
    harmless = draw(st.sampled_from(["", "sslmode=prefer", "application_name=load&connect_timeout=5"]))
    where = draw(st.sampled_from(["userinfo", "userinfo-raw", "query", "query-raw", "keywords"]))
    raw_ok = not any(c in secret for c in "&=#") and secret == secret.strip()
    if where.endswith("-raw") and not raw_ok:
        where = where.removesuffix("-raw")
    if where == "userinfo":
        url = f"postgresql://fsmdial:{quote(secret, safe='')}@{host}/db" + (f"?{harmless}" if harmless else "")
    elif where == "userinfo-raw":
        url = f"postgresql://fsmdial:{secret}@{host}/db" + (f"?{harmless}" if harmless else "")
    elif where.startswith("query"):
        value = secret if where == "query-raw" else quote(secret, safe="")
        params = [p for p in [harmless, f"{draw(NAMES)}={value}"] if p]
        url = f"postgresql://fsmdial@{host}/db?{'&'.join(draw(st.permutations(params)))}"
    else:
        escaped = secret.replace("\\", "\\\\").replace("'", "\\'")
        url = f"host=db user=fsmdial password='{escaped}' dbname=db"
    return url, secret


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(urls_with_a_secret())
def test_fuzz_masking_never_shows_a_credential(case: tuple[str, str]) -> None:
    url, secret = case
    assert_hidden(secret, shown_url(url))
    message = f"cannot connect to {url} (password {secret!r}, {quote(secret, safe='')})"
    assert_hidden(secret, redact(message, url_secrets(url)))


# ------------------------------------------------------------------ the stores' own messages


def test_sqlite_url_errors_show_no_credential() -> None:
    with pytest.raises(StoreError) as caught:
        open_store(f"sqlite://me:{SECRET}@elsewhere/sessions.db")
    assert_hidden(SECRET, str(caught.value))


def test_a_postgres_store_that_cannot_connect_says_so_without_its_credentials() -> None:
    pytest.importorskip("psycopg", reason="psycopg is not installed: pip install 'fsmdial[postgres]'")
    port = free_port()  # nothing listens there: the database is down
    url = f"postgresql://fsmdial:{SECRET}@127.0.0.1:{port}/db?password={SECRET}&sslpassword={SECRET}&passfile=/{SECRET}"
    with pytest.raises(StoreUnavailable) as caught:
        open_store(url, timeout=1)
    assert_hidden(SECRET, str(caught.value))
    assert f"127.0.0.1:{port}" in str(caught.value)


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://fsmdial:{SECRET}%zz@127.0.0.1:1/db",  # libpq quotes the token it cannot decode
        f"postgresql://fsmdial@[::1/db?password={SECRET}",  # libpq quotes the whole URL
        "postgresql://fsmdial@127.0.0.1:1/db?password",  # no value at all
        f"postgresql://fsmdial@127.0.0.1:1/db?pass%zzword={SECRET}",
    ],
)
def test_a_url_libpq_cannot_read_is_refused_without_its_credentials(url: str) -> None:
    pytest.importorskip("psycopg", reason="psycopg is not installed: pip install 'fsmdial[postgres]'")
    with pytest.raises(StoreError) as caught:
        open_store(url, timeout=1)
    assert not isinstance(caught.value, StoreUnavailable)  # a wrong URL is not an outage: retrying will not help
    assert_hidden(SECRET, str(caught.value))
    assert caught.value.__cause__ is None or SECRET not in str(caught.value.__cause__)
