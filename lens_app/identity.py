"""Who is judging: the logged-in account (team mode) or the name typed on the page (single-user
mode), and the role the server's configuration gives them.

Team mode is on when the server's `.streamlit/secrets.toml` configures Streamlit's login
(`st.login`, OpenID Connect) in an `[auth]` section: `redirect_uri`, `cookie_secret`, and a
provider (`client_id`, `client_secret`, `server_metadata_url` in `[auth]` itself, or in named
sections such as `[auth.google]`). Then the annotator is the logged-in user (`st.user`): their
judgements are recorded under their account (lens_app.review_store.Account: the provider's
issuer and subject) and the name field disappears. Roles come from the same file:

    [review]
    task_owners = ["<subject>", "email:lead@example.org"]  # see every judgement, agreement, export; set tasks
    annotators = ["<subject>", ...]  # optional: only these (and task owners) may judge; absent: anyone who logs in

An entry is a subject as the provider gives it (the Review page shows each user theirs), or
`email:` and an address, which counts only when the provider says the address is verified.

Without an `[auth]` section (single-user mode) the page keeps the name field: anyone can type
any name, as the page says. A server whose `[auth]` section is incomplete, or that lacks the
packages logins need, says so and shows no judgements: it never falls back to single-user mode.

The pure parts (`team_config`, `role_of`, `account_of`, `display_names`) take plain mappings;
the functions at the end draw the login, the account line and the name field.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from typing import Iterable, Mapping

from . import review_tasks as rt
from .review_store import Account

AUTH_SECTION = "auth"
ROLES_SECTION = "review"
OWNERS_KEY = "task_owners"
ANNOTATORS_KEY = "annotators"
EMAIL_PREFIX = "email:"
SHARED_AUTH_KEYS = ("redirect_uri", "cookie_secret")
PROVIDER_KEYS = ("client_id", "client_secret", "server_metadata_url")
LOGIN_PACKAGES = ("authlib", "httpx")  # what Streamlit's st.login imports (streamlit[auth])
TEAM_EXTRA = "pip install 'rouge-lens[team]'"
NAME_KEY = "review_annotator"  # the single-user name field
NAME_PARAM = "annotator"  # single-user mode keeps the typed name in the URL (a reload keeps it)


@dataclass(frozen=True)
class TeamConfig:
    """What the server's secrets say about logins and roles."""

    providers: tuple[str, ...] = ()  # st.login's provider names ("default" for one in [auth]); () = single-user
    task_owners: frozenset[str] = frozenset()
    annotators: frozenset[str] | None = None  # None: anyone who logs in may annotate
    problem: str = ""  # why logins are configured but cannot work (Markdown without secret values)

    @property
    def team(self) -> bool:
        """Whether this server has logins (configured, even if misconfigured)."""
        return bool(self.providers or self.problem)


def _entries(section: Mapping, key: str) -> list[str] | None:
    value = section.get(key)
    if value is None:
        return None
    if isinstance(value, str):
        value = [value]
    return [str(v).strip() for v in value if str(v).strip()]


def team_config(secrets: Mapping | None) -> TeamConfig:
    """Read `[auth]` and `[review]` of the server's secrets (a plain mapping)."""
    auth = (secrets or {}).get(AUTH_SECTION)
    if not auth:
        return TeamConfig()
    if not isinstance(auth, Mapping):
        return TeamConfig(problem="`[auth]` in `.streamlit/secrets.toml` must be a table")
    missing = [k for k in SHARED_AUTH_KEYS if not auth.get(k)]
    named = {name: section for name, section in auth.items() if isinstance(section, Mapping)}
    providers: list[str] = []
    if any(auth.get(k) for k in PROVIDER_KEYS):
        missing += [k for k in PROVIDER_KEYS if not auth.get(k)]
        providers.append("default")
    for name, section in named.items():
        if name == "client_kwargs":
            continue
        missing += [f"{name}.{k}" for k in PROVIDER_KEYS if not section.get(k)]
        providers.append(name)
    if not providers:
        missing += list(PROVIDER_KEYS)
    if missing:
        return TeamConfig(problem="`[auth]` in `.streamlit/secrets.toml` lacks " + ", ".join(f"`{k}`" for k in missing))
    roles = (secrets or {}).get(ROLES_SECTION) or {}
    owners = _entries(roles, OWNERS_KEY) or []
    annotators = _entries(roles, ANNOTATORS_KEY)
    return TeamConfig(tuple(providers), frozenset(owners), None if annotators is None else frozenset(annotators))


def account_of(user: Mapping) -> Account | None:
    """The account of a logged-in user (`st.user` as a mapping); None when not logged in or
    the provider gave no subject."""
    if not user.get("is_logged_in") or not str(user.get("sub") or "").strip():
        return None
    name = user.get("name") or user.get("preferred_username") or ""
    return Account(str(user.get("iss") or user.get("provider") or ""), str(user["sub"]).strip(), str(name),
                   str(user.get("email") or ""))


def _matches(entry: str, account: Account, user: Mapping) -> bool:
    if entry.lower().startswith(EMAIL_PREFIX):
        wanted = entry[len(EMAIL_PREFIX):].strip().lower()
        return bool(wanted) and account.email.lower() == wanted and user.get("email_verified") is True
    return entry == account.subject


def role_of(config: TeamConfig, account: Account, user: Mapping) -> str | None:
    """The account's role: rt.OWNER, rt.ANNOTATOR, or None when the server's annotators list
    leaves it out."""
    if any(_matches(e, account, user) for e in config.task_owners):
        return rt.OWNER
    if config.annotators is None or any(_matches(e, account, user) for e in config.annotators):
        return rt.ANNOTATOR
    return None


def label_of(account: Account) -> str:
    return account.name or account.email or account.subject


def display_names(keys: Iterable[str], accounts: Mapping[str, Account]) -> dict[str, str]:
    """{annotator key: the name shown}: an account's name (else e-mail, else subject), with its
    subject added where two accounts would read alike; a typed name (single-user mode) as is."""
    keys = sorted(set(keys))
    base = {k: label_of(accounts[k]) if k in accounts else k for k in keys}
    counts: dict[str, int] = {}
    for label in base.values():
        counts[label] = counts.get(label, 0) + 1
    return {k: (f"{base[k]} ({accounts[k].subject})" if counts[base[k]] > 1 and k in accounts else base[k])
            for k in keys}


@dataclass(frozen=True)
class Viewer:
    """Who the page serves: `key` is what the judgements database records for them ('' for
    nobody yet), `label` what the page calls them, `role` one of review_tasks.ROLES."""

    key: str
    label: str
    role: str = rt.SINGLE_USER
    account: Account | None = None

    @property
    def team(self) -> bool:
        return self.role != rt.SINGLE_USER

    @property
    def owner(self) -> bool:
        return self.role == rt.OWNER


# --- Streamlit ------------------------------------------------------------------------------------------

def server_secrets() -> dict:
    import streamlit as st

    return st.secrets.to_dict() if st.secrets.load_if_toml_exists() else {}


def _login_packages_missing() -> list[str]:
    return [p for p in LOGIN_PACKAGES if importlib.util.find_spec(p) is None]


def logged_in_viewer(config: TeamConfig) -> Viewer:
    """Team mode: the logged-in viewer with the account line (and a way to log out); else the
    login buttons, and the page stops. A misconfigured server says what is wrong and stops."""
    import streamlit as st

    from .markup import md

    if config.problem:
        st.error(f"This server is set up for logins, but {config.problem}. Whoever runs it completes the configuration "
                 "(see the README, *Privacy and server settings*); until then no judgements are shown or saved.")
        st.stop()
    missing = _login_packages_missing()
    if missing:
        st.error(f"This server is set up for logins, but {', '.join(missing)} (the login packages) are not installed: "
                 f"{TEAM_EXTRA}. Until then no judgements are shown or saved.")
        st.stop()
    user = st.user.to_dict()
    account = account_of(user)
    if account is None:
        st.info("Annotators on this server log in: your verdicts are recorded under your account, and you see what "
                "your role allows (task owners see everyone's judgements; annotators their own). After the login you "
                "come back to the app's first page: open Review again from the menu.", icon=":material/login:")
        for provider in config.providers:
            label = "Log in" if provider == "default" else f"Log in with {provider}"
            st.button(label, key=f"login_{provider}", type="primary", on_click=st.login,
                      args=(() if provider == "default" else (provider,)))
        st.stop()
    role = role_of(config, account, user)
    viewer = Viewer(account.key, label_of(account), role or rt.ANNOTATOR, account)
    c1, c2 = st.columns([5, 1], vertical_alignment="center")
    said = {rt.OWNER: "task owner: you see every annotator's judgements, the agreement and the exports, and set the "
                      "tasks", rt.ANNOTATOR: "annotator: you see your own judgements"}
    c1.caption(f"Logged in as **{md(viewer.label)}**" + (f" ({md(account.email)})" if account.email and
                                                          account.email != viewer.label else "")
               + f" · {said[viewer.role]} · your subject at your identity provider: {md(account.subject)}")
    c2.button("Log out", key="logout", on_click=st.logout)
    if role is None:
        st.warning("Your account is not among this server's annotators. A task owner can add it: they need your subject "
                   "(above).")
        st.stop()
    return viewer


def review_viewer() -> Viewer:
    """The Review page's annotator: logged in (team mode), or the name typed in the field
    (single-user mode, said on the page), kept in the URL so that a reload keeps it."""
    import streamlit as st

    config = team_config(server_secrets())
    if config.team:
        if NAME_PARAM in st.query_params:  # a link of single-user mode names nobody here
            del st.query_params[NAME_PARAM]
        return logged_in_viewer(config)
    if NAME_KEY not in st.session_state:
        st.session_state[NAME_KEY] = st.query_params.get(NAME_PARAM, "")
    name = st.text_input("Annotator name", key=NAME_KEY).strip()
    st.query_params[NAME_PARAM] = name
    st.caption("Single-user mode: this server has no logins, so an annotator is the name typed here and anyone can type "
               "any name. A team logs in instead (see the README, *Privacy and server settings*).")
    return Viewer(name, name)


def analysis_viewer() -> Viewer:
    """Who reads the judgements on an analysis page: with logins, the logged-in viewer (login
    buttons otherwise); without, everyone (single-user mode: every annotator's judgements)."""
    config = team_config(server_secrets())
    if config.team:
        return logged_in_viewer(config)
    return Viewer("", "")
