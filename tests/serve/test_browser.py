"""`fsmdial serve` in a real headless Chromium (Debian's chromium + chromium-driver, driven by Selenium).

Nothing is downloaded at run time: the browser and its driver must be installed
(``apt-get install chromium chromium-driver``; ``.ci/run`` does it in CI), else
these tests are skipped with a message saying so. The server is uvicorn on
127.0.0.1 in a thread; every wait is bounded.

Screenshots of the key states are written to ``$FSMDIAL_SCREENSHOTS`` when it
is set (``FSMDIAL_SCREENSHOTS=docs`` refreshes the ones in the README), else to
the test's temporary directory.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import orjson
import pytest

pytest.importorskip("starlette", reason="fsmdial serve needs the serve extra: pip install 'fsmdial[serve]'")
pytest.importorskip("uvicorn", reason="fsmdial serve needs the serve extra: pip install 'fsmdial[serve]'")
pytest.importorskip("selenium", reason="the browser tests need selenium (dev extra)")

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

from fsmdial.serve.app import create_app  # noqa: E402
from fsmdial.serve.sessions import Playground  # noqa: E402
from fsmdial.stores import SQLiteStore  # noqa: E402
from tests.reliability_support import AskedTextVerbatim  # noqa: E402
from tests.serve_support import BOOKING, RESTAURANT, TestUnderstander, live_server  # noqa: E402

WAIT = 20.0
"""Longest any step may take (seconds)."""
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,1000",
)


def _installed() -> tuple[str, str]:
    browser = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        missing = " and ".join(n for n, p in (("chromium", browser), ("chromedriver", driver)) if p is None)
        pytest.skip(
            f"browser tests skipped: {missing} not found on PATH (Debian: apt-get install chromium chromium-driver)"
        )
    return browser, driver


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    binary, driver_path = _installed()
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must never fetch a browser or driver
    profile = tempfile.mkdtemp(prefix="fsmdial-chromium-")
    options = webdriver.ChromeOptions()
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.binary_location = binary
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(options=options, service=Service(driver_path))
    except WebDriverException as exc:
        shutil.rmtree(profile, ignore_errors=True)
        pytest.skip(f"browser tests skipped: chromium did not start ({exc.msg})")
    driver.set_page_load_timeout(WAIT)
    driver.set_script_timeout(WAIT)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = os.environ.get("FSMDIAL_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path
    path.mkdir(parents=True, exist_ok=True)
    return path


def serve(tmp_path: Path, clock: Any, flows: list[Any] | None = None, understander: Any = None):
    playground = Playground(
        flows or [RESTAURANT], SQLiteStore(tmp_path / "sessions.db"), understander=understander, clock=clock
    )
    return live_server(create_app(playground))


# ------------------------------------------------------------------ reading and driving the page


def wait_for(condition: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.05)


def events(driver) -> int:
    return int(driver.execute_script("return document.body.dataset.events || '0'"))


def idle(driver) -> bool:
    return not driver.execute_script("return document.body.classList.contains('busy')")


def open_page(driver, url: str) -> None:
    driver.get(url)
    wait_for(lambda: events(driver) > 0 and idle(driver) and diagram_drawn(driver), "the page to show a session")


def diagram_drawn(driver) -> bool:
    return bool(driver.execute_script("return document.querySelector('#diagram svg, #diagram p') !== null"))


def say(driver, text: str) -> None:
    before = events(driver)
    box = driver.find_element(By.ID, "chat-input")
    box.clear()
    box.send_keys(text)
    driver.find_element(By.ID, "send").click()
    wait_for(lambda: idle(driver) and (events(driver) > before or error_shown(driver)), f"the answer to {text!r}")


def click(driver, button: str) -> None:
    before = events(driver)
    driver.find_element(By.ID, button).click()
    wait_for(lambda: idle(driver) and (events(driver) != before or error_shown(driver)), f"{button} to finish")


def error_shown(driver) -> bool:
    return driver.find_element(By.ID, "error").is_displayed()


def messages(driver, who: str) -> list[str]:
    return driver.execute_script(
        f"return [...document.querySelectorAll('#chat-log .msg.{who}')].map(m => m.textContent)"
    )


def highlighted(driver) -> dict[str, str]:
    """node id -> current/entered, read from the drawn SVG (and checked against the class Mermaid gave it)."""
    found = driver.execute_script(
        "return [...document.querySelectorAll('#diagram g[data-highlight]')]"
        ".map(g => [g.dataset.node, g.dataset.highlight, g.getAttribute('class')])"
    )
    for node, kind, classes in found:
        assert kind in classes.split(), f"state {node!r} is marked {kind} but drawn with classes {classes!r}"
    return {node: kind for node, kind, _ in found}


def slots(driver) -> dict[str, tuple[str, str, str]]:
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#slots tbody tr[data-slot]')]"
        ".map(r => [r.dataset.slot, ...[...r.cells].slice(1).map(c => c.textContent)])"
    )
    return {name: (value, turn, corrected) for name, value, turn, corrected in rows}


def session_in_url(driver) -> str:
    return parse_qs(urlparse(driver.current_url).query)["session"][0]


def no_script_ran(driver) -> None:
    assert driver.execute_script("return window.pwned === undefined"), "injected script ran"
    injected = driver.execute_script(
        "return document.querySelectorAll('main script, main img, main b, #error b').length"
    )
    assert injected == 0, "markup from the conversation or the flow became elements"


# ------------------------------------------------------------------ tests


def test_book_a_table_correct_the_time_and_watch_the_diagram(browser, tmp_path, clock, shots):
    with serve(tmp_path, clock) as url:
        browser.get_log("browser")  # (reading empties it)
        open_page(browser, url + "/")
        assert messages(browser, "bot") == ["Sure! What name should the booking be under?"]
        assert highlighted(browser) == {"ask_booking": "current"}

        for text in BOOKING:
            say(browser, text)
        assert (
            messages(browser, "bot")[-1]
            == "A table for 4 on Monday 23 November at 7 pm, under the name Alex. Shall I book it?"
        )
        assert highlighted(browser) == {"confirm_booking": "current"}
        assert slots(browser)["time"] == ("19:00", "4", "")
        assert slots(browser)["seating"] == ("—", "", "")

        say(browser, "actually make it 8pm")
        assert messages(browser, "bot")[-2:] == [
            "OK, I changed the time to 8 pm.",
            "A table for 4 on Monday 23 November at 8 pm, under the name Alex. Shall I book it?",
        ]
        assert highlighted(browser) == {"confirm_booking": "current", "ask_booking": "entered"}
        assert slots(browser)["time"] == ("20:00", "5", "corrected")
        assert slots(browser)["name"] == ("Alex", "1", "")
        browser.save_screenshot(str(shots / "serve-correction.png"))

        say(browser, "yes")
        assert messages(browser, "bot")[-2:] == ["Your table is booked. Your reference is example.", "Enjoy your meal!"]
        assert highlighted(browser) == {"goodbye": "current", "book_table": "entered", "booked": "entered"}
        calls = browser.execute_script(
            "return [...document.querySelectorAll('#tool-calls tbody tr[data-tool]')]"
            ".map(r => [...r.cells].map(c => c.textContent))"
        )
        assert len(calls) == 1 and calls[0][:3] == ["6", "book_table", "success"]
        assert orjson.loads(calls[0][3]) == {"name": "Alex", "party_size": 4, "date": "2026-11-23", "time": "20:00"}
        assert orjson.loads(calls[0][4]) == {"booked": True, "reference": "example"}
        assert browser.find_element(By.ID, "ended").is_displayed()
        # the last turn's trace is open: its path, nodes and the condition that led to the booking
        trace = browser.find_element(By.CSS_SELECTOR, "#traces details[open]")
        assert trace.get_attribute("data-turn") == "6"
        assert "path rules · 0 model calls" in trace.find_element(By.TAG_NAME, "summary").text
        assert "when_1_confirm_booking_to_book_table" in trace.text
        browser.save_screenshot(str(shots / "serve-booked.png"))
        browser.execute_script("document.querySelector('#traces details[open]').scrollIntoView()")
        browser.save_screenshot(str(shots / "serve-trace.png"))

        href = browser.find_element(By.ID, "download").get_attribute("href")
        download = browser.execute_async_script("fetch(arguments[0]).then(r => r.json()).then(arguments[1])", href)
        assert download["format"] == "fsmdial.serve.session" and len(download["events"]) == 7
        no_script_ran(browser)
        # nothing failed on the page: no script error, no request refused, no Content Security Policy violation
        assert [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"] == []


def test_reload_restores_the_session_and_undo_goes_back(browser, tmp_path, clock):
    with serve(tmp_path, clock) as url:
        open_page(browser, url + "/")
        for text in [*BOOKING, "actually make it 8pm"]:
            say(browser, text)
        session = session_in_url(browser)
        chat, table, marks = messages(browser, "bot"), slots(browser), highlighted(browser)

        browser.refresh()
        open_page(browser, browser.current_url)
        assert session_in_url(browser) == session
        assert messages(browser, "bot") == chat and slots(browser) == table and highlighted(browser) == marks
        assert messages(browser, "user") == [*BOOKING, "actually make it 8pm"]

        click(browser, "undo")
        assert messages(browser, "user") == BOOKING
        assert slots(browser)["time"] == ("19:00", "4", "")
        assert highlighted(browser) == {"confirm_booking": "current"}
        browser.refresh()
        open_page(browser, browser.current_url)
        assert slots(browser)["time"] == ("19:00", "4", "")  # the undo was stored, not only shown


def test_markup_in_what_the_user_says_is_shown_as_text(browser, tmp_path, clock, shots):
    name = "<script>window.pwned=true</script>"
    other = '<img src=x onerror="window.pwned=true"><b>bold</b>'
    # markup is no person's name to the rules (issue 20): an understander taking the asked text as typed stores it
    with serve(tmp_path, clock, understander=AskedTextVerbatim()) as url:
        open_page(browser, url + "/")
        say(browser, name)
        say(browser, other)
        for text in BOOKING[1:]:
            say(browser, text)
        assert messages(browser, "user")[:2] == [name, other]
        assert slots(browser)["name"][0] == name
        assert (
            messages(browser, "bot")[-1]
            == f"A table for 4 on Monday 23 November at 7 pm, under the name {name}. Shall I book it?"
        )
        trace_text = browser.find_element(By.ID, "traces").get_attribute("textContent")
        assert name in trace_text
        browser.save_screenshot(str(shots / "serve-markup.png"))
        no_script_ran(browser)


def test_flow_text_is_escaped_in_the_diagram(browser, tmp_path, clock):
    data = orjson.loads(RESTAURANT.read_bytes())
    evil = '<img src=x onerror="window.pwned=3">"q" #60; <b>x</b>'
    data["name"] = "<b>evil</b> flow"
    data["nodes"][0]["id"] = evil
    for edge in data["edges"]:
        for end in ("source", "target"):
            if edge[end] == "ask_booking":
                edge[end] = evil
    path = tmp_path / "evil.json"
    path.write_bytes(orjson.dumps(data))
    with serve(tmp_path, clock, flows=[path]) as url:
        open_page(browser, url + "/")
        assert highlighted(browser) == {evil: "current"}
        label = browser.execute_script(
            "return document.querySelector('#diagram g[data-highlight=current]').textContent"
        )
        assert label.strip() == evil
        assert browser.find_element(By.ID, "flow-name").text == "<b>evil</b> flow"
        assert browser.find_element(By.ID, "node-name").text == evil
        no_script_ran(browser)
        assert browser.execute_script("return document.querySelectorAll('#diagram img, #diagram script').length") == 0


def test_a_slow_turn_shows_progress_and_a_failing_one_an_error(browser, tmp_path, clock, shots):
    understander = TestUnderstander(delay=1.5)
    with serve(tmp_path, clock, understander=understander) as url:
        open_page(browser, url + "/")
        before = events(browser)
        box = browser.find_element(By.ID, "chat-input")
        box.send_keys("Alex")
        browser.find_element(By.ID, "send").click()
        progress = browser.find_element(By.ID, "progress")
        wait_for(progress.is_displayed, "the progress line", timeout=1.4)
        assert "understanding" in progress.text
        assert not browser.find_element(By.ID, "send").is_enabled()
        pending = browser.find_elements(By.CSS_SELECTOR, "#chat-log .msg.user.pending")
        assert [m.text for m in pending] == ["Alex"]  # what was said shows at once, marked pending
        browser.save_screenshot(str(shots / "serve-progress.png"))
        wait_for(lambda: events(browser) > before and idle(browser), "the slow answer")
        assert not progress.is_displayed()
        assert messages(browser, "bot")[-1] == "For how many people?"

        chat = messages(browser, "bot")
        say(browser, "boom")
        assert error_shown(browser)
        assert browser.find_element(By.ID, "error-type").text == "UnderstandingError:"
        message = browser.find_element(By.ID, "error-message").text
        assert "the model fell over" in message and "Traceback" not in message
        assert messages(browser, "bot") == chat and messages(browser, "user") == ["Alex"]
        assert browser.find_element(By.ID, "chat-input").get_attribute("value") == "boom"  # kept to try again
        browser.save_screenshot(str(shots / "serve-error.png"))
        browser.refresh()
        open_page(browser, browser.current_url)
        assert messages(browser, "user") == ["Alex"]  # the failed turn left nothing behind


def test_each_tab_is_its_own_session(browser, tmp_path, clock):
    with serve(tmp_path, clock) as url:
        open_page(browser, url + "/")
        first = session_in_url(browser)
        say(browser, "Alex")
        original = browser.current_window_handle
        browser.switch_to.new_window("tab")
        try:
            open_page(browser, url + "/")
            assert session_in_url(browser) != first
            say(browser, "Sam")
            assert slots(browser)["name"][0] == "Sam"
        finally:
            browser.close()
            browser.switch_to.window(original)
        browser.refresh()
        open_page(browser, browser.current_url)
        assert session_in_url(browser) == first and slots(browser)["name"][0] == "Alex"
        click(browser, "new-session")
        assert session_in_url(browser) not in (first,) and messages(browser, "user") == []


def test_several_flows_talk_as_one_assistant_and_the_diagram_follows_the_active_flow(browser, tmp_path, clock):
    from tests.serve_support import RIDE

    with serve(tmp_path, clock, flows=[RESTAURANT, RIDE]) as url:
        open_page(browser, url + "/")
        options = browser.execute_script(
            "return [...document.querySelectorAll('#flow-select option')].map(o => o.textContent)"
        )
        assert options == ["all flows (assistant)", "restaurant_booking", "ride_change"]
        assert "No flow is active yet" in browser.find_element(By.ID, "diagram").text
        say(browser, "I'd like to book a table")
        assert browser.find_element(By.ID, "flow-name").text == "restaurant_booking"
        assert highlighted(browser) == {"ask_booking": "current"}
        assert list(slots(browser)) == ["name", "party_size", "date", "time", "seating"]

        browser.execute_script("document.getElementById('flow-select').value = 'ride_change'")
        click(browser, "new-session")
        assert browser.find_element(By.ID, "flow-name").text == "ride_change"
        assert highlighted(browser) == {"ask_details": "current"}


def test_the_trace_shows_what_a_model_call_cost(browser, tmp_path, clock):
    costs = {"backend": "llguidance", "evaluated_tokens": 37, "output_tokens": 9}
    with serve(tmp_path, clock, understander=TestUnderstander(costs=costs)) as url:
        open_page(browser, url + "/")
        say(browser, "Alex")
        trace = browser.find_element(By.CSS_SELECTOR, "#traces details[open]")
        assert "path model · 1 model call · 37 tokens evaluated" in trace.find_element(By.TAG_NAME, "summary").text
        assert '"evaluated_tokens": 37' in trace.text and '"output_tokens": 9' in trace.text


# ------------------------------------------------------------------ a large flow's diagram


def chain_flow(groups: int = 9) -> dict[str, Any]:
    """A 30-node flow as teams write them: per step a question, a check by a tool and a retry on failure,
    then a confirmation, the committing action and the end."""
    nodes: list[dict[str, Any]] = []
    edges: list[dict[str, Any]] = []
    for step in range(groups):
        ask, check, retry = f"ask_detail_{step}", f"check_detail_{step}", f"retry_detail_{step}"
        nodes += [
            {"id": ask, "type": "request", "slots": [{"name": f"detail_{step}", "type": "text"}]},
            {"id": check, "type": "external_action", "tool": f"check_{step}"},
            {"id": retry, "type": "inform", "message": "That did not work, once more please."},
        ]
        following = f"ask_detail_{step + 1}" if step + 1 < groups else "confirm_everything"
        edges += [
            {"source": ask, "target": check},
            {"source": check, "target": following, "when": {"status": "success"}},
            {"source": check, "target": retry, "when": {"status": "failure"}},
            {"source": retry, "target": ask, "reset_slots": True},
        ]
    nodes += [
        {"id": "confirm_everything", "type": "inform_and_confirm", "message": "All set.", "question": "Go ahead?"},
        {"id": "commit_everything", "type": "external_action", "tool": "commit", "commits": True},
        {"id": "all_done", "type": "end", "message": "Done."},
    ]
    edges += [
        {"source": "confirm_everything", "target": "commit_everything", "when": {"answer": "yes"}},
        {"source": "commit_everything", "target": "all_done"},
    ]
    return {"name": "thirty_nodes", "nodes": nodes, "edges": edges}


DIAGRAM_GEOMETRY = """
const svg = document.querySelector('#diagram svg');
const box = svg.getBoundingClientRect();
const scale = box.width / svg.viewBox.baseVal.width;  // drawn pixels per SVG unit: the zoom, whatever sets it
const nodes = [...svg.querySelectorAll('g.node[data-node]')].map((g) => {
  const label = g.querySelector('.nodeLabel, text');
  const shape = g.querySelector('rect, path, polygon').getBoundingClientRect();
  return {id: g.dataset.node, font: parseFloat(getComputedStyle(label).fontSize) * scale,
          box: [shape.left, shape.top, shape.right, shape.bottom]};
});
const pane = document.getElementById('diagram').getBoundingClientRect();
return {scale, nodes, pane: [pane.left, pane.top, pane.right, pane.bottom]};
"""


def overlapping(nodes: list[dict[str, Any]]) -> list[tuple[str, str]]:
    found = []
    for index, one in enumerate(nodes):
        for other in nodes[index + 1 :]:
            (a0, b0, a1, b1), (c0, d0, c1, d1) = one["box"], other["box"]
            if min(a1, c1) - max(a0, c0) > 0.5 and min(b1, d1) - max(b0, d0) > 0.5:
                found.append((one["id"], other["id"]))
    return found


def test_a_30_node_diagram_is_readable_and_zooms_and_pans(browser, tmp_path, clock, shots):
    browser.set_window_size(1400, 1000)
    path = tmp_path / "thirty.json"
    path.write_bytes(orjson.dumps(chain_flow()))
    with serve(tmp_path, clock, flows=[path]) as url:
        browser.get_log("browser")
        open_page(browser, url + "/")
        assert browser.execute_script("return window.innerWidth") == 1400
        geometry = browser.execute_script(DIAGRAM_GEOMETRY)
        assert len(geometry["nodes"]) == 30
        assert min(node["font"] for node in geometry["nodes"]) >= 11, "node labels are too small to read"
        assert overlapping(geometry["nodes"]) == []
        current = next(node for node in geometry["nodes"] if node["id"] == "ask_detail_0")
        left, top, right, bottom = geometry["pane"]  # the current node is in view
        assert left <= current["box"][0] and current["box"][2] <= right
        assert top <= current["box"][1] and current["box"][3] <= bottom
        browser.save_screenshot(str(shots / "serve-large-flow.png"))

        # zoom: the buttons, the keyboard and the wheel change the drawn scale; the labels grow with it
        click_only = "document.getElementById(arguments[0]).click()"
        browser.execute_script(click_only, "diagram-zoom-in")
        bigger = browser.execute_script(DIAGRAM_GEOMETRY)
        assert bigger["scale"] > geometry["scale"] * 1.1
        assert min(n["font"] for n in bigger["nodes"]) > min(n["font"] for n in geometry["nodes"])
        browser.execute_script(click_only, "diagram-zoom-out")
        browser.execute_script(click_only, "diagram-zoom-out")
        assert browser.execute_script(DIAGRAM_GEOMETRY)["scale"] < geometry["scale"]
        browser.execute_script(click_only, "diagram-fit")
        fitted = browser.execute_script(DIAGRAM_GEOMETRY)
        svg_box = browser.execute_script("return document.querySelector('#diagram svg').getBoundingClientRect()")
        assert svg_box["width"] <= fitted["pane"][2] - fitted["pane"][0] + 1  # the whole flow in view
        assert svg_box["height"] <= fitted["pane"][3] - fitted["pane"][1] + 1
        browser.execute_script(click_only, "diagram-reset")
        assert abs(browser.execute_script(DIAGRAM_GEOMETRY)["scale"] - geometry["scale"]) < 0.01

        pane = browser.find_element(By.ID, "diagram")
        pane.click()
        pane.send_keys("+")
        assert browser.execute_script(DIAGRAM_GEOMETRY)["scale"] > geometry["scale"] * 1.1
        pane.send_keys("0")
        before = browser.execute_script(DIAGRAM_GEOMETRY)
        pane.send_keys(Keys.ARROW_DOWN)  # pans: the drawing moves up, the scale stays
        after = browser.execute_script(DIAGRAM_GEOMETRY)
        assert after["scale"] == before["scale"] and after["nodes"][0]["box"][1] < before["nodes"][0]["box"][1]

        browser.execute_script(
            "const pane = document.getElementById('diagram'); const r = pane.getBoundingClientRect();"
            "pane.dispatchEvent(new WheelEvent('wheel', {deltaY: -300, clientX: r.left + 50, clientY: r.top + 50,"
            " bubbles: true, cancelable: true}));"
        )
        assert browser.execute_script(DIAGRAM_GEOMETRY)["scale"] > before["scale"] * 1.1

        before = browser.execute_script(DIAGRAM_GEOMETRY)
        ActionChains(browser).move_to_element(pane).click_and_hold().move_by_offset(-120, -80).release().perform()
        dragged = browser.execute_script(DIAGRAM_GEOMETRY)
        assert dragged["scale"] == before["scale"]
        assert abs(dragged["nodes"][0]["box"][0] - before["nodes"][0]["box"][0] + 120) < 2
        assert abs(dragged["nodes"][0]["box"][1] - before["nodes"][0]["box"][1] + 80) < 2
        assert [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"] == []


def test_the_diagram_follows_the_current_node_and_keeps_the_zoom(browser, tmp_path, clock, shots):
    browser.set_window_size(1400, 1000)
    path = tmp_path / "thirty.json"
    path.write_bytes(orjson.dumps(chain_flow()))
    with serve(tmp_path, clock, flows=[path]) as url:
        open_page(browser, url + "/")
        browser.execute_script("document.getElementById('diagram-zoom-in').click()")
        zoomed = browser.execute_script(DIAGRAM_GEOMETRY)["scale"]
        say(browser, "first detail")  # the stand-in tools succeed: on to the next question
        for _ in range(5):
            say(browser, "one more detail")
        geometry = browser.execute_script(DIAGRAM_GEOMETRY)
        assert abs(geometry["scale"] - zoomed) < 0.01
        current = next(node for node in geometry["nodes"] if node["id"] == highlighted_current(browser))
        left, top, right, bottom = geometry["pane"]
        assert left <= current["box"][0] and current["box"][2] <= right
        assert top <= current["box"][1] and current["box"][3] <= bottom
        browser.save_screenshot(str(shots / "serve-large-flow-later.png"))


def highlighted_current(driver) -> str:
    return next(node for node, kind in highlighted(driver).items() if kind == "current")
