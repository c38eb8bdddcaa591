"""The real services of team mode for tests: a PostgreSQL server and an OpenID Connect provider.

`.ci/services.sh start DIR` starts both (CI does, through .ci/run) and writes the variables
below; tests that need one skip, naming the reason, when it is not there, except under
ROUGE_LENS_TEST_SERVICES_REQUIRED=1 (set by .ci/run), where a missing service fails them.

Fixtures (import them into a test module): `postgres_url`, a fresh database of its own per
test, dropped afterwards; `oidc_provider`, the provider's base URL.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import urllib.request
from typing import Iterator

import pytest

POSTGRES_VAR = "ROUGE_LENS_TEST_POSTGRES"  # a URL of a role that may create databases
OIDC_VAR = "ROUGE_LENS_TEST_OIDC"  # the provider's base URL (oidc-provider-mock)
REQUIRED_VAR = "ROUGE_LENS_TEST_SERVICES_REQUIRED"
HOW = "start it with `.ci/services.sh start DIR` and `. DIR/env` (CI does)"


def missing(what: str) -> None:
    """Skip (locally) or fail (in CI) a test whose service is not there."""
    message = f"{what} is not available: {HOW}"
    if os.environ.get(REQUIRED_VAR) == "1":
        pytest.fail(f"{message}; {REQUIRED_VAR}=1 makes this a failure")
    pytest.skip(message)


def postgres_admin_url() -> str:
    url = os.environ.get(POSTGRES_VAR, "")
    if not url:
        missing(f"PostgreSQL ({POSTGRES_VAR})")
    try:
        import psycopg
    except ImportError:
        missing("psycopg (the team extra)")
    try:
        with psycopg.connect(url, connect_timeout=5):
            pass
    except psycopg.OperationalError as exc:
        missing(f"PostgreSQL at {POSTGRES_VAR} ({type(exc).__name__})")
    return url


@contextlib.contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """A new, empty database; its URL (postgresql://); dropped afterwards."""
    admin = postgres_admin_url()  # first: it skips (or fails, where required) without psycopg or a server
    import psycopg
    import sqlalchemy as sa

    name = f"rl_test_{secrets.token_hex(6)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = sa.engine.make_url(admin).set(database=name).render_as_string(hide_password=False)
    try:
        yield url
    finally:
        from lens_app import review_store

        for key in [k for k in review_store._ENGINES if sa.engine.make_url(k).database == name]:
            review_store._ENGINES.pop(key).dispose()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def postgres_url() -> Iterator[str]:
    with fresh_postgres_database() as url:
        yield url


def oidc_provider_url() -> str:
    url = os.environ.get(OIDC_VAR, "")
    if not url:
        missing(f"the OpenID Connect provider ({OIDC_VAR})")
    try:
        with urllib.request.urlopen(f"{url}/.well-known/openid-configuration", timeout=5) as response:
            json.load(response)
    except OSError as exc:
        missing(f"the OpenID Connect provider at {OIDC_VAR} ({type(exc).__name__})")
    return url


@pytest.fixture
def oidc_provider() -> str:
    return oidc_provider_url()


def register_client(provider: str, redirect_uris: list[str]) -> dict:
    """A client registered at the provider (RFC 7591) for exactly these redirect URIs:
    {"client_id", "client_secret", ...}."""
    request = urllib.request.Request(f"{provider}/oauth2/clients", method="POST",
                                     data=json.dumps({"redirect_uris": redirect_uris}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def set_user(provider: str, subject: str, claims: dict) -> None:
    """The claims the provider gives `subject` (name, email, ...)."""
    request = urllib.request.Request(f"{provider}/users/{subject}", method="PUT", data=json.dumps(claims).encode(),
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=10).close()
