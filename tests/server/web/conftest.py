"""A real browser for the pages' tests: Playwright driving Debian's chromium, or a skip saying how to get one."""

from __future__ import annotations

import contextlib
import os
import pathlib
import shutil
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
#: Where the page tests leave screenshots for people to look at (ignored by git).
SCREENSHOTS = ROOT / "screenshots"
CHROMIUM = next((p for p in (os.environ.get("QUORIDOR_CHROMIUM"), "/usr/lib/chromium/chromium",
                             shutil.which("chromium"), shutil.which("chromium-browser")) if p and os.path.exists(p)),
                None)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


#: Set (as .ci/run does) to make a missing browser fail the browser tests instead of skipping them.
REQUIRED = os.environ.get("QUORIDOR_REQUIRE_BROWSER") == "1"


def _missing(what: str) -> None:
    if REQUIRED:
        pytest.fail(f"QUORIDOR_REQUIRE_BROWSER=1 but {what}")
    pytest.skip(what)


@contextlib.asynccontextmanager
async def _playwright():
    """Playwright, or a skip naming what to install (a failure when one is required)."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        _missing("the browser tests need Playwright: pip install -e '.[test]'")
    if CHROMIUM is None:
        _missing("the browser tests need chromium: apt-get install chromium (or set QUORIDOR_CHROMIUM)")
    async with async_playwright() as playwright:
        yield playwright


@pytest.fixture
async def browser():
    """A chromium browser (async Playwright), or a skip naming what to install (a failure when one is required)."""
    profile = tempfile.mkdtemp(prefix="quoridor-chromium-")
    async with _playwright() as playwright:
        context = await playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=ARGS, headless=True, viewport={"width": 1920, "height": 1080})
        try:
            yield context
        finally:
            await context.close()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
async def phone():
    """A page on a 390x844 touch screen (a phone), in its own chromium."""
    async with _playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            context = await browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                                device_scale_factor=2)
            yield await context.new_page()
        finally:
            await browser.close()


#: The screen sizes every page is shot at: a projector and a phone.
SIZES = ((1920, 1080), (390, 844))


def http(server, path: str = "/") -> str:
    """The address of ``path`` on ``server``'s pages (127.0.0.1, its port)."""
    return f"http://127.0.0.1:{server.port}{path}"


async def screenshot(page, name: str, folder: str | pathlib.Path | None = None, *, full_page: bool = False) -> None:
    """Save the page at each of ``SIZES`` (1920x1080 and 390x844, a phone) as FOLDER/NAME-WIDTH.png (default
    screenshots/); ``full_page``: the whole page, not only the screen."""
    where = SCREENSHOTS if folder is None else pathlib.Path(folder)
    where.mkdir(exist_ok=True)
    for width, height in SIZES:
        await page.set_viewport_size({"width": width, "height": height})
        await page.wait_for_timeout(150)
        await page.screenshot(path=str(where / f"{name}-{width}.png"), full_page=full_page)
    await page.set_viewport_size({"width": 1920, "height": 1080})
