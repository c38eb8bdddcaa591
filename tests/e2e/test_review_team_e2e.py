"""Review for a team with the real parts (issue 31, items 1-4): two app servers on different ports
share one PostgreSQL database and log users in through an OpenID Connect provider
(oidc-provider-mock); in Chromium, two annotators and a task owner log in on either server,
judge, and each sees what their role allows: the annotators their own verdicts (page and
export), the task owner everyone's with the agreement; a verdict saved through one server is
there on the other. (Behind a load balancer the servers share one address, so one login serves
them all; here each has its own, and a login counts for its own origin only.) No identity, path or
secret appears in a URL, a page or an export that is not the user's own, and the login sends
the browser back only to the configured address, whatever host the request claims.

Needs the services of .ci/services.sh (tests/services.py): skipped locally without them,
failed in CI."""

import csv
import http.client
import io
import re
import secrets
import urllib.parse
from pathlib import Path

import pytest
from playwright.sync_api import expect

from lens_app.devserver import free_port, running_app, wait_idle
from rouge_core.corpora import corpus_io
from tests.annotated_corpus import corpus_csv
from tests.e2e.conftest import ARTIFACTS
from tests.services import oidc_provider, postgres_url, register_client, set_user  # noqa: F401  (fixtures)

pytestmark = pytest.mark.e2e

USERS = {"alice": ("Alice Annotator", "alice@example.org"), "bob": ("Bob Builder", "bob@example.org"),
         "olga": ("Olga Owner", "olga@example.org")}
SUBJECTS = {who: f"{who}-subject-31" for who in USERS}  # distinctive: a plain "bob" hides in "combobox"


def secrets_file(directory: Path, port: int, client: dict, provider: str, cookie_secret: str) -> Path:
    """A server's .streamlit/secrets.toml: logins through `provider`, olga the task owner."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "secrets.toml"
    path.write_text(f"""[auth]
redirect_uri = "http://127.0.0.1:{port}/oauth2callback"
cookie_secret = "{cookie_secret}"
client_id = "{client['client_id']}"
client_secret = "{client['client_secret']}"
server_metadata_url = "{provider}/.well-known/openid-configuration"

[review]
task_owners = ["{SUBJECTS['olga']}"]
""", encoding="utf-8")
    return path


@pytest.fixture
def team_servers(tmp_path, oidc_provider, postgres_url):  # noqa: F811
    """Two app servers sharing `postgres_url`, logging in through `oidc_provider`: their base
    URLs, and what the test checks never leaks (the secrets and the database's password)."""
    ports = [free_port(), free_port()]
    client = register_client(oidc_provider, [f"http://127.0.0.1:{p}/oauth2callback" for p in ports])
    for who, (name, email) in USERS.items():
        set_user(oidc_provider, SUBJECTS[who], {"name": name, "email": email})
    cookie_secret = secrets.token_urlsafe(32)  # shared: a session cookie of one server is valid on the other
    from contextlib import ExitStack

    with ExitStack() as stack:
        urls = []
        for i, port in enumerate(ports):
            path = secrets_file(tmp_path / f"server{i}", port, client, oidc_provider, cookie_secret)
            urls.append(stack.enter_context(running_app(
                ARTIFACTS / f"streamlit-team-{port}.log", port=port,
                env={"ROUGE_LENS_DB": postgres_url, "STREAMLIT_SECRETS_FILES": str(path)})))
        password = urllib.parse.urlsplit(postgres_url).password
        yield {"urls": urls, "provider": oidc_provider, "client": client,
               "never_shown": [cookie_secret, client["client_secret"], password, postgres_url, str(tmp_path)]}


def log_in(page, base: str, provider: str, who: str) -> None:
    """Log in on the server at `base` as `who` through the provider's form; end on Review."""
    page.goto(f"{base}/review")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{provider}/oauth2/authorize?**")
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(page.url).query)
    assert query["redirect_uri"] == [f"{base}/oauth2callback"]  # back to this server, as configured
    page.fill("input[name=sub]", SUBJECTS[who])
    page.get_by_role("button", name="Authorize").click()
    page.wait_for_url(re.compile(re.escape(base) + r"/(\?.*)?$"))  # Streamlit returns to the app's first page
    page.goto(f"{base}/review")
    page.get_by_text(f"Logged in as {USERS[who][0]}").wait_for()
    wait_idle(page)


def press(page, key: str) -> None:
    page.locator("[data-testid='stMain'] h1").first.click()
    page.keyboard.press(key)


def judge(page, pair: str, key: str, verdict: str) -> None:
    page.get_by_text(f"id {pair}").first.wait_for()
    wait_idle(page)
    press(page, key)
    page.get_by_text(f"Saved pair {pair}: {verdict}").wait_for()
    wait_idle(page)


def exported(page, tmp_path, name: str) -> tuple[str, list[dict]]:
    with page.expect_download() as download:
        page.get_by_role("button", name="Judgements (CSV)").click()
    path = tmp_path / name
    download.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("pair_id,"))
    return text, list(csv.DictReader(io.StringIO("\n".join(lines[start:]))))


def assert_nothing_of(others: list[str], page, export_text: str = "") -> None:
    """Neither the page (its text and HTML), its URL nor the export holds any of `others`."""
    html, url = page.content(), page.url
    for secret in others:
        if secret:
            where = html.find(secret)
            assert secret not in html and secret not in url and secret not in export_text, (secret, html[max(0, where - 60):where + 40])


def test_two_servers_one_database_each_role_sees_what_it_may(team_servers, chromium_browser, tmp_path, artifacts_dir):
    url_a, url_b = team_servers["urls"]
    provider = team_servers["provider"]
    text = corpus_csv(systems=2, documents=3, seed=31)
    corpus_file = tmp_path / "team.csv"
    corpus_file.write_text(text, encoding="utf-8")
    fingerprint = corpus_io.build_corpus(corpus_io.read_csv(text.encode(), "team.csv")).fingerprint()
    contexts = [chromium_browser.new_context(viewport={"width": 1400, "height": 2200}) for _ in range(3)]
    alice, bob, olga = (c.new_page() for c in contexts)
    for page in (alice, bob, olga):
        page.set_default_timeout(60_000)
    never = team_servers["never_shown"]
    identities = {who: [SUBJECTS[who], *USERS[who]] for who in USERS}
    try:
        # --- alice, annotator, on server A: loads the corpus, judges pair 1 with a note -------------------------
        log_in(alice, url_a, provider, "alice")
        expect(alice.get_by_role("textbox", name="Annotator name")).to_have_count(0)  # no name field
        alice.locator("[data-testid='stFileUploader'] input[type='file']").first.set_input_files(str(corpus_file))
        alice.get_by_text("Parsed 3 pairs").wait_for()
        judge(alice, "doc00", "4", "4")
        note = alice.get_by_label("Note")
        note.fill("alice's private note")
        note.press("Control+Enter")
        alice.get_by_text("Saved pair doc00: 4").wait_for()
        wait_idle(alice)
        assert f"corpus={fingerprint}" in alice.url and "annotator" not in alice.url
        link_path = alice.url[len(url_a):]

        # --- bob, annotator, on server B: the same corpus from the shared database; judges every pair -----------
        log_in(bob, url_b, provider, "bob")
        bob.goto(url_b + link_path)
        bob.get_by_text("Pair 1 of 3: id doc00").wait_for()
        for pair, next_key in (("doc00", "j"), ("doc01", "j"), ("doc02", None)):
            judge(bob, pair, "2", "2")
            if next_key:
                press(bob, next_key)
        export_text, rows = exported(bob, tmp_path, "bob.csv")
        assert sorted((r["annotator"], r["subject"], r["pair_id"], r["verdict"]) for r in rows) == [
            ("Bob Builder", SUBJECTS["bob"], f"doc0{i}", "2") for i in range(3)]
        expect(bob.get_by_text("only its task owners see the other annotators' judgements", exact=False)).to_be_visible()
        assert_nothing_of(identities["alice"] + identities["olga"][1:] + ["alice's private note"] + never, bob,
                          export_text)
        bob.screenshot(path=str(artifacts_dir / "review-team-annotator.png"), full_page=True)

        # --- olga, task owner, on server B: everyone's verdicts, the agreement, the export ----------------------
        log_in(olga, url_b, provider, "olga")
        olga.goto(url_b + link_path)
        olga.get_by_text("Pair 1 of 3: id doc00").wait_for()
        wait_idle(olga)
        expect(olga.get_by_text("As a task owner you see every annotator's verdicts", exact=False)).to_be_visible()
        expect(olga.get_by_text("Agreement between annotators")).to_be_visible()
        export_text, rows = exported(olga, tmp_path, "olga.csv")
        assert sorted((r["annotator"], r["subject"], r["pair_id"], r["verdict"], r["note"]) for r in rows) == [
            ("Alice Annotator", SUBJECTS["alice"], "doc00", "4", "alice's private note")] + [
            ("Bob Builder", SUBJECTS["bob"], f"doc0{i}", "2", "") for i in range(3)]
        assert_nothing_of(never, olga, export_text)
        olga.screenshot(path=str(artifacts_dir / "review-team-owner.png"), full_page=True)

        # --- alice again on A: her own only; then on B, still logged in (one cookie secret) --------------------
        alice.reload()
        alice.get_by_text("Pair 1 of 3: id doc00").wait_for()
        wait_idle(alice)
        export_text, rows = exported(alice, tmp_path, "alice.csv")
        assert [(r["annotator"], r["pair_id"], r["note"]) for r in rows] == [("Alice Annotator", "doc00",
                                                                               "alice's private note")]
        assert_nothing_of(identities["bob"] + identities["olga"][1:] + never, alice, export_text)
        # On server B (another origin) her login on A does not count: Streamlit binds a login to the origin of
        # its redirect_uri. Logged in there too, she finds her verdict from A in the shared database.
        alice.goto(url_b + link_path)
        alice.get_by_role("button", name="Log in").wait_for()
        expect(alice.get_by_text("Pair 1 of 3")).to_have_count(0)
        log_in(alice, url_b, provider, "alice")
        alice.goto(url_b + link_path)
        alice.get_by_text("Pair 1 of 3: id doc00").wait_for()
        wait_idle(alice)
        expect(alice.get_by_text("Last saved", exact=False)).to_contain_text("by Alice Annotator")
        expect(alice.get_by_label("Note")).to_have_value("alice's private note")
        for page in (alice, bob, olga):
            assert not any(s in page.url for who in USERS for s in identities[who]), page.url
    finally:
        for context in contexts:
            context.close()


def get(url: str, headers: dict | None = None) -> http.client.HTTPResponse:
    """One GET without following redirects."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""), headers=headers or {})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def test_the_login_redirects_only_to_the_configured_address(team_servers, chromium_browser, artifacts_dir):
    url_a, _ = team_servers["urls"]
    provider, client = team_servers["provider"], team_servers["client"]
    context = chromium_browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(f"{url_a}/review")
        page.get_by_text("Annotators on this server log in").wait_for()
        wait_idle(page)
        expect(page.get_by_role("textbox", name="Annotator name")).to_have_count(0)
        expect(page.locator("[data-testid='stFileUploader']")).to_have_count(0)  # nothing before the login
        page.screenshot(path=str(artifacts_dir / "review-team-login.png"))
        with page.expect_request(lambda r: "/auth/login?provider=" in r.url) as login:
            page.get_by_role("button", name="Log in").click()
        login_url = login.value.url
        page.wait_for_url(f"{provider}/**")
        # The same login request claiming another host (Host, X-Forwarded-*): the provider is still asked to send
        # the browser back to the configured address only.
        response = get(login_url, {"Host": "evil.example:8443", "X-Forwarded-Host": "evil.example",
                                   "X-Forwarded-Proto": "https", "Referer": "https://evil.example/"})
        assert response.status in (302, 303, 307)
        location = response.getheader("Location")
        assert location.startswith(f"{provider}/oauth2/authorize?")
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)
        assert query["redirect_uri"] == [f"{url_a}/oauth2callback"] and query["client_id"] == [client["client_id"]]
        assert "evil" not in location
        # The provider sends a code only to the redirect URIs registered for the client.
        refused = get(f"{provider}/oauth2/authorize?" + urllib.parse.urlencode({
            "client_id": client["client_id"], "response_type": "code", "scope": "openid",
            "redirect_uri": "https://evil.example/oauth2callback"}))
        assert refused.status == 400
        # A callback the server did not start (a forged state) logs nobody in and goes back to the app itself.
        forged = get(f"{url_a}/oauth2callback?code=stolen&state=forged")
        assert forged.status in (302, 303, 307) and forged.getheader("Location") == "/"
        assert not any(c.startswith("_streamlit_user=") for c in forged.headers.get_all("Set-Cookie") or [])
    finally:
        context.close()
