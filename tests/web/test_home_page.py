import re

import pytest


@pytest.mark.django_db
def test_the_home_page_says_what_the_site_is_in_chinese(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "华牌赛事计分与裁判系统" in response.text
    assert '<html lang="zh-hans">' in response.text


@pytest.mark.django_db
def test_the_home_page_is_available_in_english(client):
    response = client.get("/", headers={"accept-language": "en"})
    assert response.status_code == 200
    assert '<html lang="en">' in response.text


@pytest.mark.django_db
def test_each_language_is_named_in_itself_in_the_menu(client):
    """A reader who does not read the page's language can still find their own."""
    assert 'hreflang="en">English</a>' in client.get("/").text
    assert 'hreflang="zh-hans">简体中文</a>' in client.get("/", headers={"accept-language": "en"}).text


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_home_page_renders_in_chromium(live_server, page):
    page.goto(live_server.url + "/")
    assert page.locator("h1").inner_text() == "华牌赛事计分与裁判系统"
    assert page.title() == "华牌赛事计分与裁判系统"


@pytest.mark.django_db
def test_the_home_page_names_every_game_the_site_runs(client):
    """It said the site runs 华牌 only: it names the registry's games, in the page's language."""
    lead = re.search(r'<p class="lead">(.*?)</p>', client.get("/").content.decode(), re.S).group(1)
    assert "华牌、蚌埠斗地主、升级、跑胡子" in lead and "拱猪" not in lead
    client.get("/language/en/?next=/")
    lead = re.search(r'<p class="lead">(.*?)</p>', client.get("/").content.decode(), re.S).group(1)
    assert "Huapai, Bengbu Dou Dizhu, Shengji, Paohuzi" in lead
