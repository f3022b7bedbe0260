"""The hand-in page (``/submit``) with C++ bots and programs of their own, in a real browser: the two MyPlayer files
picked at once (or their folder) are shown with the entry the server will take, zipped and sent as quoridor-submit
sends them, and the server's answer is shown: accepted, or the compile error's one line with its file and line.

The frames the page sends are read off its websocket; the end-to-end test needs bubblewrap and g++ (skipped, or
failed when required, as the other sandbox and C++ tests).
"""

from __future__ import annotations

import base64
import io
import json
import stat
import zipfile

from tests.client.cpp.conftest import HANDOUT_BOT, gpp  # noqa: F401 - gpp: the fixture (g++, or skipped)
from tests.server.web.conftest import http

KEY = "k3y-ana#7"
SOURCES = HANDOUT_BOT / "QuoridorClient"



def cpp_files(source: str | None = None) -> list[dict]:
    """The handout bot's MyPlayer.cpp (or ``source`` in its place) and MyPlayer.h, as the file picker gives them."""
    cpp = source if source is not None else (SOURCES / "MyPlayer.cpp").read_text()
    return [{"name": "MyPlayer.cpp", "mimeType": "text/x-c++src", "buffer": cpp.encode()},
            {"name": "MyPlayer.h", "mimeType": "text/x-c++hdr", "buffer": (SOURCES / "MyPlayer.h").read_bytes()}]


async def open_page(browser, server):
    """The hand-in page, the key typed, the submit frames it sends collected in the list it returns."""
    page = await browser.new_page()
    sent: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(payload))))
    await page.goto(http(server, "/submit"))
    await page.locator("#key").fill(KEY)
    return page, sent


def archive_of(sent: list[dict]) -> tuple[dict[str, int], str | None]:
    """The last hand-in's files (name: mode) and entry, joined from its submit frames."""
    parts = [frame for frame in sent if frame.get("type") == "submit"]
    last = parts[-parts[-1]["parts"]:]
    data = base64.b64decode("".join(frame["zip"] for frame in last))
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {i.filename: stat.S_IMODE(i.external_attr >> 16) for i in archive.infolist()}, last[0]["entry"]


async def wait_report(page, count: str) -> tuple[str, str]:
    """Wait until the versions list holds ``count`` rows; the report's state and text."""
    await page.wait_for_function(f"() => document.getElementById('versions').dataset.count === '{count}'",
                                 timeout=120_000)
    report = page.locator("#report")
    return await report.get_attribute("data-state"), await report.inner_text()


async def test_the_two_myplayer_files_are_shown_with_their_entry_and_accepted_and_a_compile_error_is_one_line(
        browser, make_server, sandbox, gpp):  # noqa: F811 - the gpp fixture
    server = await make_server(players=0)
    page, sent = await open_page(browser, server)
    await page.locator("#files").set_input_files(cpp_files())
    assert await page.locator("#chosen").inner_text() == "MyPlayer.cpp, MyPlayer.h"
    assert await page.locator("#plan").inner_text() == ("a C++ bot (the server builds it with g++) · "
                                                        "entry MyPlayer.cpp (found as the server finds it)")
    await page.locator("#entry").fill("MyPlayer.cpp:MyPlayer")
    assert (await page.locator("#plan").inner_text()).endswith("· entry MyPlayer.cpp:MyPlayer")
    await page.locator("#send").click()
    state, text = await wait_report(page, "1")
    assert state == "accepted", text
    assert text.startswith("accepted: version ") and "(MyPlayer.cpp:MyPlayer)" in text
    assert archive_of(sent) == ({"MyPlayer.cpp": 0o644, "MyPlayer.h": 0o644}, "MyPlayer.cpp:MyPlayer")

    lines = (SOURCES / "MyPlayer.cpp").read_text().splitlines()
    at = lines.index("    block.normalization();")
    lines[at] = "    undeclared = 1;"
    await page.locator("#entry").fill("")
    await page.locator("#files").set_input_files(cpp_files("\n".join(lines) + "\n"))
    await page.locator("#send").click()
    state, text = await wait_report(page, "2")
    assert state == "refused", text
    assert f"MyPlayer.cpp:{at + 1}: 'undeclared' was not declared in this scope" in text
    assert "\n" not in text
    newest = (await server.submissions.store.versions(KEY))[0]
    assert (newest.entry, newest.files, newest.accepted) == ("MyPlayer.cpp", 2, False)


async def test_a_folder_a_program_and_a_lone_header_are_shown_and_sent_as_quoridor_submit_sends_them(
        browser, make_server, tmp_path):
    server = await make_server(players=0)
    page, sent = await open_page(browser, server)
    await page.locator("#folder").set_input_files(str(HANDOUT_BOT))
    assert await page.locator("#chosen").inner_text() == "QuoridorClient/MyPlayer.cpp, QuoridorClient/MyPlayer.h"
    assert (await page.locator("#plan").inner_text()).endswith("entry QuoridorClient/MyPlayer.cpp (found as the "
                                                                "server finds it)")

    program = {"name": "mybot", "mimeType": "application/octet-stream", "buffer": b"#!/bin/sh\nexec ./walk\n"}
    await page.locator("#files").set_input_files([program])
    assert await page.locator("#plan").inner_text() == ("a program of its own (a Linux executable or a script "
                                                        "starting with #!) · entry mybot")
    await page.locator("#send").click()
    await page.wait_for_function("() => !document.getElementById('report').hidden", timeout=60_000)
    assert archive_of(sent) == ({"mybot": 0o755}, "mybot")         # kept a program, named the entry

    await page.locator("#files").set_input_files(cpp_files()[1:])
    assert await page.locator("#plan").inner_text() == "MyPlayer.h is a header: choose its .cpp file with it"
    frames = len(sent)
    await page.locator("#send").click()
    await page.wait_for_function("() => document.getElementById('report').textContent.includes('header')",
                                 timeout=5000)
    assert await page.locator("#report").inner_text() == ("MyPlayer.h is a header: choose its .cpp file with it "
                                                           "(MyPlayer.cpp and MyPlayer.h)")
    assert len(sent) == frames                                       # nothing sent
