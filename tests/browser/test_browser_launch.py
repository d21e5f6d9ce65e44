"""The browser the tests drive (tests/conftest.py, launch_chromium): Playwright's own disabled
features kept, the address bar's hidden drop-downs off. Chromium reads only the last
`--disable-features`, so a list of ours alone would have dropped Playwright's."""

import pytest

from tests.conftest import FEATURES_OFF, launched_switch

pytestmark = pytest.mark.browser


def test_the_browser_keeps_playwrights_disabled_features_and_drops_the_hidden_drop_downs(browser):
    disabled = launched_switch("disable-features").split(",")
    # Two of Playwright's (chromiumSwitches.ts): paint holding would delay what its waits see.
    assert {"PaintHolding", "ThirdPartyStoragePartitioning"} <= set(disabled)
    assert set(FEATURES_OFF) <= set(disabled)
    context = browser.new_context()
    context.new_page().goto("data:text/html,<p>hi</p>")
    session = browser.new_browser_cdp_session()
    targets = session.send("Target.getTargets", {"filter": [{}]})["targetInfos"]
    session.detach()
    context.close()
    assert [t["url"] for t in targets if t["type"] == "browser_ui"] == []
    assert any(t["type"] == "page" for t in targets)
