"""Review for a team (issue 31, items 1 and 4), in Streamlit's AppTest: with logins configured in
the server's secrets the annotator is the logged-in user (`st.user`, set by AppTest.user), the
name field is gone and each verdict records the provider's subject; task owners see every
judgement, the agreement and the exports, annotators their own only, never another's name,
subject or note; without logins the page says it is in single-user mode. The real login
through an OpenID Connect provider is tested in Chromium (tests/e2e/test_review_team_e2e.py)."""

import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.extras import needs_team  # noqa: E402

pytestmark = needs_team  # logins need the team extra (the minimum-version run has the app extra only)

from lens_app import identity  # noqa: E402
from lens_app import review_tasks as rt  # noqa: E402
from lens_app.review_store import Account, ReviewStore  # noqa: E402
from tests.app.test_review_integrity import (CORPUS, counts, create_task, db, judge, table_of,  # noqa: E402,F401
                                             texts)

ISSUER = "https://id.example.org"
AUTH = {"redirect_uri": "https://review.example.org/oauth2callback", "cookie_secret": "not-a-real-secret-0123456789",
        "client_id": "rouge-lens", "client_secret": "not-a-real-client-secret",
        "server_metadata_url": "https://id.example.org/.well-known/openid-configuration"}
ROLES = {"task_owners": ["s-olga"]}
USERS = {
    "alice": {"sub": "s-alice", "name": "Alice Annotator", "email": "alice@example.org"},
    "bob": {"sub": "s-bob", "name": "Bob Builder", "email": "bob@example.org"},
    "olga": {"sub": "s-olga", "name": "Olga Owner", "email": "olga@example.org"},
    "carol": {"sub": "s-carol", "name": "Carol", "email": "carol@example.org"},
}


def key_of(who: str) -> str:
    return Account(ISSUER, USERS[who]["sub"]).key


def team_page(who: str | None, page: str = "review.py", corpus=CORPUS, roles=ROLES, auth=AUTH) -> AppTest:
    """The page as `who` logged in (None: nobody logged in) on a server with logins."""
    at = AppTest.from_file(str(ROOT / "pages" / page), default_timeout=120)
    if corpus is not None:
        at.session_state["corpus_data"] = corpus
    at.secrets["auth"] = auth
    if roles is not None:
        at.secrets["review"] = roles
    at.user = {"is_logged_in": False} if who is None else {"is_logged_in": True, "iss": ISSUER, "provider": "default",
                                                           **USERS[who]}
    at.run()
    assert not at.exception, at.exception
    return at


def shown_text(at: AppTest) -> str:
    return "\n".join(texts(at) + [str(dict(at.query_params))])


def test_without_a_login_the_page_asks_for_one_and_shows_nothing_stored(db):
    ReviewStore(db).save(CORPUS.fingerprint(), "k", "doc00", key_of("alice"), "4", "alice's note",
                         account=Account(ISSUER, "s-alice", "Alice Annotator"), corpus_data=CORPUS)
    at = team_page(None, corpus=None)
    assert [b.label for b in at.button] == ["Log in"]
    assert not at.text_input and not at.get("file_uploader") and not at.dataframe
    assert "Annotators on this server log in" in shown_text(at) and "Alice" not in shown_text(at)
    named = team_page(None, auth={**{k: AUTH[k] for k in ("redirect_uri", "cookie_secret")},
                                  "google": {k: AUTH[k] for k in identity.PROVIDER_KEYS},
                                  "okta": {k: AUTH[k] for k in identity.PROVIDER_KEYS}})
    assert [b.label for b in named.button] == ["Log in with google", "Log in with okta"]


def test_the_logged_in_user_is_the_annotator_and_each_verdict_records_the_subject(db):
    at = AppTest.from_file(str(ROOT / "pages" / "review.py"), default_timeout=120)
    at.session_state["corpus_data"] = CORPUS
    at.secrets["auth"] = AUTH
    at.user = {"is_logged_in": True, "iss": ISSUER, **USERS["alice"]}
    at.query_params["annotator"] = "bob"  # a single-user link naming someone else: ignored and dropped
    at.run()
    assert not at.exception
    assert not any(t.key == identity.NAME_KEY for t in at.text_input)  # no name field
    assert "annotator" not in at.query_params
    assert ("Logged in as **Alice Annotator** (alice@example.org) · annotator: you see your own judgements · your "
            "subject at your identity provider: s-alice") in shown_text(at)
    judge(at, 3, note="fine")
    (row,) = ReviewStore(db).all()
    assert (row.annotator, row.issuer, row.subject, row.verdict, row.note) == (key_of("alice"), ISSUER, "s-alice",
                                                                                "4", "fine")
    assert ReviewStore(db).accounts() == {key_of("alice"): Account(ISSUER, "s-alice", "Alice Annotator",
                                                                   "alice@example.org")}
    assert counts(db) == {"judgements": 1, "corpora": 1, "annotators": 1}
    table = table_of(at, "annotator", "verdict")
    assert list(table["annotator"]) == ["Alice Annotator"] and list(table["subject"]) == ["s-alice"]
    assert not any(s in str(dict(at.query_params)) for s in ("alice", "s-alice", ISSUER))  # no identity in the URL


def test_annotators_see_their_own_only_and_task_owners_everything(db):
    alice, bob = team_page("alice"), team_page("bob")
    judge(alice, 3, note="alice's private note")
    for position in range(3):  # bob judges every pair: in single-user mode this would show him alice's
        if position:
            bob.button(key="review_next").click().run()
        judge(bob, 1, note=f"bob's note {position}")
    alice.run()
    for at, me, other in ((alice, "alice", "bob"), (bob, "bob", "alice")):
        table = table_of(at, "annotator", "verdict")
        assert set(table["annotator"]) == {USERS[me]["name"]}
        assert set(table["subject"]) == {USERS[me]["sub"]}
        shown = shown_text(at)
        for leaked in (USERS[other]["name"], USERS[other]["sub"], USERS[other]["email"], f"{other}'s"):
            assert leaked not in shown, (me, leaked)
        assert table_of(at, "annotator_a", "agreed") is None
        assert "only its task owners see the other annotators' judgements" in shown
    assert "(1 judgement(s) of others on this corpus)" in shown_text(bob)
    bob.session_state["review_progress_open"] = True
    bob.run()
    assert list(table_of(bob, "annotator", "judged")["annotator"]) == ["Bob Builder"]

    olga = team_page("olga")
    olga.session_state["review_progress_open"] = True
    olga.run()
    table = table_of(olga, "annotator", "verdict")
    assert sorted(zip(table["annotator"], table["subject"], table["pair_id"])) == [
        ("Alice Annotator", "s-alice", "doc00"), ("Bob Builder", "s-bob", "doc00"), ("Bob Builder", "s-bob", "doc01"),
        ("Bob Builder", "s-bob", "doc02")]
    assert "alice's private note" in set(table["note"])
    agreement = table_of(olga, "annotator_a", "agreed")
    assert agreement[["annotator_a", "annotator_b", "items", "agreed"]].values.tolist() == [
        ["Alice Annotator", "Bob Builder", 1, 0]]
    progress = table_of(olga, "annotator", "judged")
    assert sorted(zip(progress["annotator"], progress["judged"])) == [("Alice Annotator", 1), ("Bob Builder", 3)]
    assert "As a task owner you see every annotator's verdicts" in shown_text(olga)
    # the database listing without a corpus: the same rule
    listing = team_page("alice", corpus=None)
    assert set(table_of(listing, "annotator", "verdict")["annotator"]) == {"Alice Annotator"}
    assert "3 of them, other annotators', are shown to task owners only." in shown_text(listing)
    assert "Bob" not in shown_text(listing)


def test_only_task_owners_set_tasks_and_options(db):
    alice = team_page("alice")
    alice.session_state["review_task_editor_open"] = True
    alice.session_state["review_task_options_open"] = True
    alice.run()
    assert "Only task owners create and change tasks on this server" in shown_text(alice)
    assert not any(b.key == "review_edit_save" for b in alice.button)
    assert alice.toggle(key="review_opt_highlights|Overall quality").disabled
    assert not any(t.key == "review_opt_visible|Overall quality" for t in alice.toggle)  # no early reveal with logins

    olga = team_page("olga")
    create_task(olga, "Fluency", "Does it read well?")
    assert ReviewStore(db).task_options()["Fluency"] == rt.TaskOptions(owner=key_of("olga"))
    olga.session_state["review_task_options_open"] = True
    olga.run()
    assert "Owner: you: only you change these options." in shown_text(olga)
    olga.toggle(key="review_opt_highlights|Fluency").set_value(True).run()
    assert ReviewStore(db).task_options()["Fluency"].rouge_highlights

    alice = team_page("alice")
    alice.selectbox(key="review_task").set_value("Fluency").run()
    alice.session_state["review_task_options_open"] = True
    alice.run()
    assert "Owner: a task owner: only they change these options." in shown_text(alice)
    assert "Olga" not in shown_text(alice) and "s-olga" not in shown_text(alice)


def test_the_annotators_list_and_verified_emails_decide_roles(db):
    roles = {"task_owners": ["email:Olga@Example.org"], "annotators": ["s-alice"]}
    carol = team_page("carol", roles=roles)
    assert "Your account is not among this server's annotators" in shown_text(carol)
    assert not any(b.key.startswith("verdict_") for b in carol.button if b.key)
    assert [b.label for b in carol.button] == ["Log out"]
    assert counts(db)["judgements"] == 0
    alice = team_page("alice", roles=roles)
    assert any(b.key == "verdict_0" for b in alice.button)
    # an e-mail counts only when the provider says it is verified
    olga = team_page("olga", roles=roles)
    assert "Your account is not among this server's annotators" in shown_text(olga)
    user = {"is_logged_in": True, "iss": ISSUER, **USERS["olga"], "email_verified": True}
    assert identity.role_of(identity.team_config({"auth": AUTH, "review": roles}), identity.account_of(user),
                            user) == rt.OWNER


def test_a_misconfigured_or_incomplete_login_setup_never_falls_back_to_single_user(db, monkeypatch):
    ReviewStore(db).save(CORPUS.fingerprint(), "k", "doc00", "alice", "4", corpus_data=CORPUS)
    broken = {k: v for k, v in AUTH.items() if k != "cookie_secret"}
    at = team_page("alice", auth=broken, corpus=None)
    assert "This server is set up for logins, but `[auth]` in `.streamlit/secrets.toml` lacks `cookie_secret`" in \
        shown_text(at)
    assert not at.text_input and not at.dataframe and "not-a-real" not in shown_text(at)
    monkeypatch.setattr(identity, "LOGIN_PACKAGES", ("authlib", "no_such_login_package"))
    at = team_page("alice", corpus=None)
    assert "no_such_login_package (the login packages) are not installed: pip install 'rouge-lens[team]'" in \
        shown_text(at)
    assert not at.text_input and not at.dataframe


def test_without_logins_the_page_says_it_is_single_user(db):
    at = AppTest.from_file(str(ROOT / "pages" / "review.py"), default_timeout=120)
    at.session_state["corpus_data"] = CORPUS
    at.run()
    assert at.text_input(key=identity.NAME_KEY).label == "Annotator name"
    assert any(c.value.startswith("Single-user mode: this server has no logins, so an annotator is the name typed here")
               for c in at.caption)


def test_which_rouge_agrees_uses_what_the_role_allows(db):
    store = ReviewStore(db)
    key = rt.task_key(rt.DEFAULT_TASKS[0], [CORPUS.system_names[0]])
    other = rt.task_key(rt.DEFAULT_TASKS[0], [CORPUS.system_names[1]])
    for who, verdicts in (("alice", "45"), ("bob", "21")):
        account = Account(ISSUER, USERS[who]["sub"], USERS[who]["name"])
        for pair, (k, v) in enumerate(zip((key, other), verdicts)):
            store.save(CORPUS.fingerprint(), k, CORPUS.ids[pair], account.key, v, account=account, corpus_data=CORPUS)
    alice = team_page("alice", page="meta.py")
    assert alice.multiselect(key="meta_annotators_Overall quality").options == ["Alice Annotator"]
    assert "Bob" not in shown_text(alice)
    olga = team_page("olga", page="meta.py")
    assert olga.multiselect(key="meta_annotators_Overall quality").options == ["Alice Annotator", "Bob Builder"]
    nobody = team_page(None, page="meta.py")
    assert [b.label for b in nobody.button] == ["Log in"] and not nobody.multiselect


def test_team_config_and_display_names():
    assert not identity.team_config({}).team and not identity.team_config({"review": ROLES}).team
    config = identity.team_config({"auth": AUTH, "review": {"task_owners": "s-olga"}})
    assert config.providers == ("default",) and config.task_owners == {"s-olga"} and config.annotators is None
    assert identity.team_config({"auth": {"redirect_uri": "x", "cookie_secret": "y"}}).problem == (
        "`[auth]` in `.streamlit/secrets.toml` lacks `client_id`, `client_secret`, `server_metadata_url`")
    assert identity.team_config({"auth": {**AUTH, "okta": {"client_id": "a"}}}).problem == (
        "`[auth]` in `.streamlit/secrets.toml` lacks `okta.client_secret`, `okta.server_metadata_url`")
    assert identity.account_of({"is_logged_in": False, "sub": "x"}) is None
    assert identity.account_of({"is_logged_in": True}) is None
    twins = {Account(ISSUER, s, "Sam").key: Account(ISSUER, s, "Sam") for s in ("s1", "s2")}
    twins[Account(ISSUER, "s3", "", "kim@example.org").key] = Account(ISSUER, "s3", "", "kim@example.org")
    assert sorted(identity.display_names(list(twins) + ["typed name"], twins).values()) == [
        "Sam (s1)", "Sam (s2)", "kim@example.org", "typed name"]
    with pytest.raises(ValueError):
        rt.visible_judgements("x", [], {}, [], role="admin")


def readme_team_secrets() -> dict:
    """The example .streamlit/secrets.toml of the README's *Review for a team*."""
    import re

    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Review for a team"):]
    block = re.search(r"```toml\n(.*?)```", section, re.S).group(1)
    return tomllib.loads("\n".join(line[3:] if line.startswith("   ") else line for line in block.splitlines()))


def test_the_readme_example_configuration_works(db):
    from lens_app.review_store import location_of

    example = readme_team_secrets()
    config = identity.team_config(example)
    assert config.providers == ("default",) and not config.problem
    assert location_of(example["judgements_db"], "secrets").kind == "postgresql"
    lead = {"is_logged_in": True, "iss": "https://accounts.google.com", "sub": "1234", "name": "Lea Lead",
            "email": "lead@example.org", "email_verified": True}
    at = AppTest.from_file(str(ROOT / "pages" / "review.py"), default_timeout=120)
    at.session_state["corpus_data"] = CORPUS
    for section, values in example.items():
        if section != "judgements_db":  # ROUGE_LENS_DB (the test's database) wins over it anyway
            at.secrets[section] = values
    at.user = lead
    at.run()
    assert not at.exception
    assert "Logged in as **Lea Lead** (lead@example.org) · task owner" in shown_text(at)
    judge(at, 2)
    assert ReviewStore(db).all()[0].subject == "1234"
