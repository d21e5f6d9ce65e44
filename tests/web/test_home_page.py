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
