"""Debian's chromium, quiet and offline: how the browser tests (tests/browser_util.py) and bench/ launch it."""

CHROMIUM = "/usr/bin/chromium"
# Quiet, offline, throw-away: no first-run UI, no background fetches, sync or component updates, and no WebUI omnibox
# popups (headless chromium preloads two in every window, a renderer's CPU each). Every request for another host goes
# to a proxy at a closed local port (the discard port) and fails there: none leaves the machine, whether it names a
# host or an address. Loopback bypasses a proxy, so the local server is reached directly. Each Visit records the
# requests a page makes, and a test fails on any for another host: one mechanism, blocked and seen.
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
    "--proxy-server=http://127.0.0.1:9",
]
DESKTOP = {"width": 1280, "height": 900}

# In the page: from the click on Stop to the status saying stopped, in ms (window.__stopTook), timed where it happens.
STOP_TIMER = """([bar, stopped]) => {
  const status = bar.querySelector('[role=status]'), stop = [...bar.querySelectorAll('button')][3];
  let clicked = 0;
  stop.addEventListener('click', () => { clicked = performance.now(); }, { capture: true, once: true });
  new MutationObserver((_, obs) => {
    if (clicked && status.textContent === stopped) {
      window.__stopTook = performance.now() - clicked;
      obs.disconnect();
    }
  }).observe(status, { childList: true, characterData: true, subtree: true });
}"""
