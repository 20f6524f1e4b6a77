"""The dashboard at ``/`` in a real headless browser: Debian's Chromium driven by Selenium,
against the real app under uvicorn on a free loopback port.

The page must show what the API reports (and what the learn answers imply, counted here
independently), draw one curve point per point of ``GET /models/{name}/curve``, follow new
learning within a few refreshes, fit a phone's width without sideways scrolling, log no
browser error (a Content-Security-Policy violation would be one), and work behind a token the
user pastes into it. Screenshots at 1280×800 and 390×844 go to the test's tmp folder, and
also to ``$OLC_SCREENSHOT_DIR`` when that is set.
"""
import base64
import json
import os
import re
import shutil
import struct
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
import numpy as np
import pytest

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)):
    pytest.skip(f"the dashboard's browser test needs Chromium and ChromeDriver ({CHROMIUM}, "
                f"{CHROMEDRIVER}: Debian's chromium and chromium-driver packages; .ci/run "
                "installs them)", allow_module_level=True)

import uvicorn  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service as DriverService  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from _serve_process import free_port  # noqa: E402
from olc.serve import create_app  # noqa: E402

D = 5
WAIT = 30  # seconds for the page to catch up (it refreshes every 3 s)
API_TIMEOUT = 180  # a learner's first learn compiles it when the numba cache is cold
DESKTOP, PHONE = (1280, 800), (390, 844)
TOKEN = "dashboard-test-token-0123456789"


# -- the server and the browser ------------------------------------------------------------
@contextmanager
def running(app):
    """``app`` under a real uvicorn server in a thread; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           access_log=False, lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@pytest.fixture(scope="module")
def browser():
    profile = tempfile.mkdtemp(prefix="olc-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 "--lang=en-US", f"--window-size={DESKTOP[0]},{DESKTOP[1]}",
                 f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=DriverService(CHROMEDRIVER))
    driver.set_page_load_timeout(WAIT)
    driver.set_script_timeout(WAIT)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def viewport(driver, size, mobile=False):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": mobile})


def screenshot(driver, folder, name, full_page=False):
    """The viewport (or the whole page) as a PNG in ``folder`` and ``$OLC_SCREENSHOT_DIR``."""
    params = {"format": "png"}
    if full_page:
        width, height = driver.execute_script(
            "return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        params.update(captureBeyondViewport=True,
                      clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
    data = base64.b64decode(driver.execute_cdp_cmd("Page.captureScreenshot", params)["data"])
    path = Path(folder) / f"{name}.png"
    path.write_bytes(data)
    extra = os.environ.get("OLC_SCREENSHOT_DIR")
    if extra:
        Path(extra).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, Path(extra) / path.name)
    return path


def png_size(path):
    header = Path(path).read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", header[16:24])


def browser_errors(driver):
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


#: What the page shows, read in one script run (the page redraws every few seconds).
READ_PAGE = """
return Array.from(document.querySelectorAll('#cards .card')).map(card => {
  const fields = {};
  card.querySelectorAll('[data-field]').forEach(el => { fields[el.dataset.field] = el.textContent; });
  const line = card.querySelector('svg polyline');
  const svg = card.querySelector('svg');
  return {
    name: card.dataset.model,
    heading: card.querySelector('h3').textContent,
    learner: card.querySelector('.learner').textContent,
    lastNLabel: card.querySelector('.last-n-label').textContent,
    fields,
    points: line ? line.getAttribute('points').trim().split(/\\s+/).map(p => p.split(',').map(Number)) : [],
    label: svg.getAttribute('aria-label'),
    svgWidth: svg.getBoundingClientRect().width,
    viewBox: (svg.getAttribute('viewBox') || '').split(' ').map(Number),
    caption: card.querySelector('.caption').textContent,
  };
});
"""


def read_page(driver):
    return {card["name"]: card for card in driver.execute_script(READ_PAGE)}


def number(text):
    return int(text.replace(",", ""))


def percent(value):
    return f"{100 * value:.1f}%"


def wait_for(driver, condition, what):
    try:
        return WebDriverWait(driver, WAIT, poll_frequency=0.2).until(lambda d: condition())
    except Exception as error:  # TimeoutException: say what the page showed
        raise AssertionError(f"the page never showed {what}; it shows "
                             f"{json.dumps(read_page(driver), indent=1)[:3000]}") from error


# -- the API side --------------------------------------------------------------------------
class Traffic:
    """Learns through the API and counts, from the answers alone, rows and mistakes."""

    def __init__(self, api, seed):
        self.api = api
        self.rng = np.random.default_rng(seed)
        self.w = self.rng.normal(size=D)
        self.rows, self.mistakes = {}, {}

    def create(self, name, learner, params):
        response = self.api.post("/models", json={"name": name, "learner": learner,
                                                  "params": params, "n_features": D})
        assert response.status_code == 201, response.text
        self.rows[name], self.mistakes[name] = 0, 0

    def batch(self, n):
        X = self.rng.normal(size=(n, D))
        y = np.where(X @ self.w + 0.5 * self.rng.normal(size=n) >= 0, 1, -1)
        y[:2] = [1, -1]
        return X, y

    def learn(self, name, n):
        X, y = self.batch(n)
        response = self.api.post(f"/models/{name}/learn",
                                 json={"rows": X.tolist(), "labels": y.tolist()})
        assert response.status_code == 200, response.text
        self.rows[name] += n
        self.mistakes[name] += int((np.asarray(response.json()["predictions"]) != y).sum())

    def predict_then_feedback(self, name, n):
        X, y = self.batch(n)
        response = self.api.post(f"/models/{name}/predict", json={"rows": X.tolist()})
        assert response.status_code == 200, response.text
        served = response.json()["predictions"]
        events = [{"event_id": p["event_id"], "label": int(label)} for p, label in zip(served, y)]
        response = self.api.post(f"/models/{name}/feedback", json={"events": events})
        assert response.status_code == 200, response.text
        self.rows[name] += n
        self.mistakes[name] += sum(p["prediction"] != label for p, label in zip(served, y))


def assert_page_matches_api(page, api, traffic):
    summaries = {m["name"]: m for m in api.get("/models").json()["models"]}
    assert sorted(page) == sorted(summaries) == sorted(traffic.rows)
    for name, summary in summaries.items():
        card, fields = page[name], page[name]["fields"]
        assert card["heading"] == name and card["learner"] == summary["learner"]
        # what the answers imply, counted independently of the server's summary ...
        assert summary["rows_seen"] == traffic.rows[name]
        assert summary["mistakes"] == traffic.mistakes[name]
        # ... is what the API reports and what the page shows
        assert number(fields["rows_seen"]) == summary["rows_seen"]
        assert number(fields["mistakes"]) == summary["mistakes"]
        assert number(fields["updates"]) == summary["updates"]
        assert number(fields["events_logged"]) == summary["events_logged"]
        snapshot = summary["last_snapshot_event"]
        assert fields["last_snapshot_event"] == ("none" if snapshot is None else f"{snapshot:,}")
        last_n = summary["error_last_n"]
        assert fields["error_last_n"] == percent(last_n["error"])
        assert card["lastNLabel"] == f"Error, last {last_n['n']:,}"
        # the curve: one point per point the API gives, left to right, ending at the
        # whole history's error (mistakes / rows)
        curve = api.get(f"/models/{name}/curve", params={"points": 200}).json()
        assert len(card["points"]) == len(curve["rows"]) == len(curve["error"]) > 0
        xs = [x for x, _ in card["points"]]
        assert xs == sorted(xs) and len(set(xs)) == len(xs)
        ys = [y for _, y in card["points"]]  # SVG y grows downwards: higher error, smaller y
        order = np.argsort(curve["error"], kind="stable")
        assert all(ys[i] >= ys[j] - 0.11 for i, j in zip(order[:-1], order[1:]))
        assert curve["rows"][-1] == summary["events_logged"]
        whole = traffic.mistakes[name] / traffic.rows[name]
        assert card["label"] == (f"{name}: progressive error {percent(whole)} after "
                                 f"{traffic.rows[name]:,} rows")


def assert_axis_fits_the_settled_curve(card, api, name):
    """From 200 rows on, the error axis fits the curve after its first 2 % of rows (≥ 10): those
    points lie inside the plot; earlier ones may be cut off at the top, and then the caption
    says so."""
    curve = api.get(f"/models/{name}/curve", params={"points": 200}).json()
    assert curve["rows"][-1] >= 200
    _, _, width, height = card["viewBox"]
    top, bottom = 12, height - 34  # the chart's margins (dashboard.js CHART_MARGIN)
    settled = max(10, 0.02 * curve["rows"][-1])
    ys = [y for (_, y), r in zip(card["points"], curve["rows"])]
    assert all(top - 0.05 <= y <= bottom + 0.05
               for y, r in zip(ys, curve["rows"]) if r >= settled)
    assert all(y <= bottom + 0.05 for y in ys)
    assert ("are cut off" in card["caption"]) == any(y < top - 0.05 for y in ys)
    # the axis is not needlessly tall: the settled curve reaches above its lower half
    assert min(y for y, r in zip(ys, curve["rows"]) if r >= settled) < (top + bottom) / 2


# -- the tests -----------------------------------------------------------------------------
def test_dashboard_shows_each_models_counts_and_live_curve(tmp_path, browser):
    app = create_app(tmp_path / "store", snapshot_every=50)
    with running(app) as url, httpx.Client(base_url=url, timeout=API_TIMEOUT) as api:
        traffic = Traffic(api, seed=7)
        traffic.create("alpha", "perceptron", {})
        traffic.create("beta", "pa-i", {"C": 0.5})
        for _ in range(3):
            traffic.learn("alpha", 20)
            traffic.learn("beta", 70)
        traffic.predict_then_feedback("beta", 5)

        viewport(browser, DESKTOP)
        browser.get(url + "/")
        wait_for(browser, lambda: {n: number(c["fields"]["rows_seen"] or "0")
                                   for n, c in read_page(browser).items()} == traffic.rows,
                 f"the rows {traffic.rows}")
        assert_page_matches_api(read_page(browser), api, traffic)
        assert len(read_page(browser)["alpha"]["points"]) == 60  # ≤ 200 rows: every row
        assert_axis_fits_the_settled_curve(read_page(browser)["beta"], api, "beta")
        desktop = screenshot(browser, tmp_path, "dashboard-desktop")

        # more learning: the page follows within a few refreshes, curve included
        traffic.learn("alpha", 40)
        traffic.predict_then_feedback("alpha", 3)
        wait_for(browser, lambda: number(read_page(browser)["alpha"]["fields"]["rows_seen"])
                 == 103 and len(read_page(browser)["alpha"]["points"]) == 103,
                 "alpha's 103 rows and curve points")
        assert_page_matches_api(read_page(browser), api, traffic)

        # a phone: one column, nothing wider than the screen
        viewport(browser, PHONE, mobile=True)
        browser.refresh()
        wait_for(browser, lambda: {n: number(c["fields"]["rows_seen"] or "0")
                                   for n, c in read_page(browser).items()} == traffic.rows,
                 f"the rows {traffic.rows} at phone width")
        assert_page_matches_api(read_page(browser), api, traffic)
        assert browser.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
        assert all(0 < c["svgWidth"] <= PHONE[0] for c in read_page(browser).values())
        phone = screenshot(browser, tmp_path, "dashboard-phone")
        screenshot(browser, tmp_path, "dashboard-phone-full", full_page=True)

        # deleted models leave the page; with none left it says how to create one
        assert api.delete("/models/beta").status_code == 204
        wait_for(browser, lambda: sorted(read_page(browser)) == ["alpha"], "only alpha")
        assert not browser.find_element(By.ID, "empty").is_displayed()
        assert api.delete("/models/alpha").status_code == 204
        wait_for(browser, lambda: read_page(browser) == {}
                 and browser.find_element(By.ID, "empty").is_displayed(), "no models")
        assert browser_errors(browser) == []
    assert png_size(desktop) == DESKTOP
    assert png_size(phone) == PHONE


def test_dashboard_labels_a_regressors_curve_as_its_mean_squared_error(tmp_path, browser):
    """A regressor's card shows the library's progressive metric for regressors (the mean
    squared error of the served predictions), not mistakes and an error rate."""
    app = create_app(tmp_path / "store")
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, D))
    y = X @ np.linspace(-1.0, 2.0, D) + 0.3
    with running(app) as url, httpx.Client(base_url=url, timeout=API_TIMEOUT) as api:
        assert api.post("/models", json={"name": "gamma", "learner": "pa-i-regression",
                                         "params": {}}).status_code == 201
        answer = api.post("/models/gamma/learn", json={"rows": X.tolist(), "labels": y.tolist()})
        assert answer.status_code == 200, answer.text
        r = y - np.array(answer.json()["predictions"])  # the served predictions' residuals
        viewport(browser, DESKTOP)
        browser.get(url + "/")
        wait_for(browser, lambda: (read_page(browser).get("gamma", {}).get("fields", {})
                                   .get("rows_seen")) == "60", "gamma's 60 rows")
        card = read_page(browser)["gamma"]
        total_label = browser.execute_script(
            "return document.querySelector('#cards .card .total-label').textContent")
        assert total_label == "Mean squared error"
        assert card["lastNLabel"] == "MSE, last 60"
        mse = float(np.dot(r, r)) / 60
        prefix, suffix = "gamma: progressive mean squared error ", " after 60 rows"
        assert card["label"].startswith(prefix) and card["label"].endswith(suffix)
        shown = float(card["label"][len(prefix):-len(suffix)].replace(",", ""))
        assert shown == pytest.approx(mse, rel=1e-3)  # 4 significant digits
        for field in ("mistakes", "error_last_n"):
            assert float(card["fields"][field].replace(",", "")) == pytest.approx(mse, rel=1e-3)
        assert card["caption"].startswith("Progressive mean squared error over 60 rows")
        assert len(card["points"]) == 60
        assert browser_errors(browser) == []


def test_dashboard_served_without_data_and_with_security_headers(tmp_path):
    app = create_app(tmp_path / "store")
    with running(app) as url:
        page = httpx.get(url + "/", timeout=30)
        script = httpx.get(url + "/static/dashboard.js", timeout=30)
        style = httpx.get(url + "/static/dashboard.css", timeout=30)
    assert page.status_code == script.status_code == style.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    assert '<script src="/static/dashboard.js"' in page.text
    assert "javascript" in script.headers["content-type"]
    assert style.headers["content-type"].startswith("text/css")
    # no CDN, no other host: the only URL in the page and its script is the SVG namespace
    urls = set(re.findall(r"https?://[^\s\"'`)]+", page.text + script.text + style.text))
    assert urls <= {"http://www.w3.org/2000/svg"}, urls


def test_dashboard_behind_a_token_works_with_the_pasted_token(tmp_path, browser):
    app = create_app(tmp_path / "store", token=TOKEN)
    headers = {"Authorization": f"Bearer {TOKEN}"}
    with running(app) as url, httpx.Client(base_url=url, timeout=API_TIMEOUT,
                                           headers=headers) as api:
        traffic = Traffic(api, seed=8)
        traffic.create("gamma", "perceptron", {})
        traffic.learn("gamma", 30)
        assert httpx.get(url + "/models", timeout=30).status_code == 401
        # the page holds no data: it loads without the token (and then asks for it)
        assert httpx.get(url + "/", timeout=30).status_code == 200

        viewport(browser, DESKTOP)
        browser.get(url + "/")
        status = browser.find_element(By.ID, "status")
        wait_for(browser, lambda: "needs a token" in status.text, "that a token is needed")
        assert browser.find_element(By.ID, "auth").get_attribute("open") is not None
        assert read_page(browser) == {}

        browser.find_element(By.ID, "token").send_keys(TOKEN)
        browser.find_element(By.CSS_SELECTOR, "#token-form button[type=submit]").click()
        wait_for(browser, lambda: read_page(browser).get("gamma", {}).get("fields", {})
                 .get("rows_seen") == "30", "gamma's 30 rows after the token was given")
        assert_page_matches_api(read_page(browser), api, traffic)
        # kept for this tab only: not in a cookie or localStorage, and not shown back
        assert browser.execute_script("return sessionStorage.getItem('olc-serve-token')") == TOKEN
        assert browser.execute_script("return document.cookie + localStorage.length") == "0"
        assert browser.find_element(By.ID, "token").get_attribute("value") == ""
        browser.refresh()  # the same tab keeps it
        wait_for(browser, lambda: "gamma" in read_page(browser), "gamma after a reload")

        auth = browser.find_element(By.ID, "auth")
        if auth.get_attribute("open") is None:
            auth.find_element(By.TAG_NAME, "summary").click()
        browser.find_element(By.ID, "forget").click()
        wait_for(browser, lambda: "needs a token" in browser.find_element(By.ID, "status").text,
                 "that a token is needed after Forget")
        assert read_page(browser) == {}  # nothing shown without the token
        assert browser.execute_script("return sessionStorage.getItem('olc-serve-token')") is None
        assert browser_errors(browser) == [] or all(
            "401" in e["message"] for e in browser_errors(browser))
