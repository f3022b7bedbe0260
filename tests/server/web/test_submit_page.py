"""The hand-in page (``/submit``) in a real browser: a bot zipped in the page and sent as a submitter with the frames
quoridor-submit sends, validated in the real sandbox; the report and the key's versions shown; the key kept nowhere.

These need chromium and bubblewrap (skipped, or failed when required, as the other browser and sandbox tests).
"""

from __future__ import annotations

from websockets.datastructures import Headers
from websockets.http11 import Request

from server.web.http import answer_http
from shared.protocol import SUBMISSION_CEILING_BYTES, SUBMIT_PART_CHARS
from shared.web import STATIC
from tests.server.sandbox.conftest import walker

from .conftest import http, screenshot

KEY = "k3y-ana#7"
BROKEN = "from client.player import Player\n\nclass Broken(Player)\n    pass\n"
HELPER = "from shared.quoridor import Step\n\ndef walk(player):\n    return Step(player.shortest_path()[1])\n"
WITH_HELPER = ("from client.player import Player\nfrom helper import walk\n\n"
               "class Walker(Player):\n    def next_step(self, change):\n        return walk(self)\n")
NO_CLASS = "from client.player import Player\n\nSPEED = 3\n"



def py(name: str, source: str) -> dict:
    return {"name": name, "mimeType": "text/x-python", "buffer": source.encode()}


def test_the_page_is_served_with_the_same_policy():
    response = answer_http(Request("/submit", Headers({"Host": "127.0.0.1:1"})))
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("text/html")
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe" not in policy and "form-action 'none'" in policy
    assert b'<script type="module" src="/static/submit.js">' in response.body and b"<script>" not in response.body


def test_the_page_keeps_the_protocols_limits():
    script = (STATIC / "submit.js").read_text(encoding="utf-8")
    assert f"const MAX_BYTES = {SUBMISSION_CEILING_BYTES // 1024} * 1024;" in script
    assert f"const PART_CHARS = {SUBMIT_PART_CHARS // 1024} * 1024;" in script
    assert "localStorage" not in script and "sessionStorage" not in script and "location.search" not in script


async def hand_in(page, *files: dict, entry: str = "") -> tuple[str, str]:
    """Choose ``files``, press Hand in and wait for the report: its state (accepted, refused) and its text."""
    await page.locator("#entry").fill(entry)
    await page.locator("#files").set_input_files(list(files))
    before = await page.locator("#versions").get_attribute("data-count")
    await page.locator("#send").click()
    await page.wait_for_function(
        "before => !document.getElementById('report').hidden && document.getElementById('versions').dataset.count "
        "!== before", arg=before, timeout=90_000)
    report = page.locator("#report")
    return await report.get_attribute("data-state"), await report.inner_text()


async def versions(page) -> list[tuple[str, str]]:
    """The versions table: (version, result) per row, as shown."""
    return await page.evaluate("""() => [...document.querySelectorAll('#versions tbody tr')].map(
        row => [row.dataset.version, row.querySelector('.result').textContent])""")


async def test_a_bot_handed_in_from_the_page_is_validated_and_a_broken_one_refused(browser, make_server, sandbox,
                                                                                     tmp_path):
    server = await make_server(players=0)
    page = await browser.new_page()
    problems: list[str] = []
    # a CSP refusal or a script error shows on the console; a missing file (the favicon included) as a response
    page.on("console", lambda message: problems.append(message.text)
            if message.type == "error" and not message.text.startswith("Failed to load resource") else None)
    page.on("response", lambda response: problems.append(f"{response.status} {response.url}")
            if response.status >= 400 else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    await page.goto(http(server, "/submit"))
    assert await page.locator("header.nav a.active").inner_text() == "Hand in"
    await page.locator("#key").fill(KEY)

    state, text = await hand_in(page, py("walker.py", walker()))
    assert state == "accepted", text
    assert text.startswith("accepted: version ") and "(walker.py)" in text
    [(accepted, result)] = await versions(page)
    assert result == "accepted" and accepted in text

    state, text = await hand_in(page, py("broken.py", BROKEN))
    assert state == "refused", text
    assert text.startswith("refused (syntax_error): ") and "broken.py" in text and "3" in text
    assert [result.split(":")[0] for _, result in await versions(page)] == ["syntax_error", "accepted"]   # newest first

    state, text = await hand_in(page, py("empty.py", NO_CLASS))
    assert state == "refused" and text.startswith("refused (no_player): ") and "define one subclass of Player" in text
    assert "random" not in text.split("]")[0].split("(no_player)")[1]

    state, text = await hand_in(page, py("bot.py", WITH_HELPER), py("helper.py", HELPER), entry="bot.py:Walker")
    assert state == "accepted" and "(bot.py:Walker)" in text, text
    await screenshot(page, "page-submit-reports")   # the form after three hand-ins

    # A folder: its modules with paths inside it, without caches and hidden files (as quoridor-submit packs one).
    folder = tmp_path / "mybot"
    (folder / "lib").mkdir(parents=True)
    (folder / "main.py").write_text(WITH_HELPER.replace("from helper", "from lib.helper"))
    (folder / "lib" / "__init__.py").write_text("")
    (folder / "lib" / "helper.py").write_text(HELPER)
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "main.cpython-313.pyc").write_bytes(b"\0junk")
    (folder / ".notes").write_text("private")
    await page.locator("#entry").fill("main.py")
    await page.locator("#folder").set_input_files(str(folder))
    assert await page.locator("#chosen").inner_text() == "lib/__init__.py, lib/helper.py, main.py"
    await page.locator("#send").click()
    await page.wait_for_function("() => document.getElementById('versions').dataset.count === '5'", timeout=90_000)
    assert (await page.locator("#report").inner_text()).startswith("accepted: version ")
    newest = (await server.submissions.store.versions(KEY))[0]
    assert (newest.entry, newest.files, newest.accepted) == ("main.py", 3, True)

    # The same key's versions from a fresh page, which remembers nothing of the key.
    assert KEY not in page.url and await page.evaluate("() => localStorage.length + sessionStorage.length") == 0
    await page.goto(http(server, "/submit"))
    assert await page.locator("#key").input_value() == ""
    await page.locator("#key").fill(KEY)
    await page.locator("#list").click()
    await page.wait_for_function("() => document.getElementById('versions').dataset.count === '5'", timeout=10_000)
    assert [result.split(":")[0] for _, result in await versions(page)] == [
        "accepted", "accepted", "no_player", "syntax_error", "accepted"]
    assert [v.version for v in (await server.submissions.store.versions(KEY))] == [v for v, _ in await versions(page)]
    assert not problems, problems


async def test_a_bot_the_page_cannot_hand_in_is_said_in_one_line_before_anything_is_sent(browser, make_server):
    server = await make_server(players=0)
    page = await browser.new_page()
    await page.goto(http(server, "/submit"))
    await page.locator("#key").fill(KEY)
    await page.locator("#files").set_input_files([{"name": "notes.txt", "mimeType": "text/plain", "buffer": b"hi"}])
    await page.locator("#send").click()
    await page.wait_for_function("() => document.getElementById('report').dataset.state === 'refused'",
                                 timeout=5000)
    assert await page.locator("#report").inner_text() == "notes.txt is not a .py file, a C++ file, a program or a .zip"
    big = {"name": "big.zip", "mimeType": "application/zip", "buffer": b"\0" * (SUBMISSION_CEILING_BYTES + 1)}
    await page.locator("#files").set_input_files([big])
    await page.locator("#send").click()
    await page.wait_for_function("() => document.getElementById('report').textContent.includes('no server')",
                                 timeout=5000)
    assert "4,194,305 byte archive; no server takes more than 4,194,304 bytes zipped" in \
        await page.locator("#report").inner_text()
    assert (await server.submissions.store.versions(KEY)) == []


async def test_a_key_off_the_roster_is_told_why_in_the_report(browser, make_server):
    server = await make_server(players=0, roster={"k-bo": "Bo"})
    page = await browser.new_page()
    await page.goto(http(server, "/submit"))
    await page.locator("#key").fill("k-nobody")
    await page.locator("#files").set_input_files([py("walker.py", walker())])
    await page.locator("#send").click()
    await page.wait_for_function("() => document.getElementById('report').dataset.state === 'refused'",
                                 timeout=10_000)
    text = await page.locator("#report").inner_text()
    assert text.startswith("the server refused the key: ") and text.endswith("(unknown_key)")
    assert (await server.submissions.store.versions("k-nobody")) == []
