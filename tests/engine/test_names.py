import pytest

from scoring.engine.names import pinyin_sort_key


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("单伟", "shan wei"),
        ("曾强", "zeng qiang"),
        ("解涛", "xie tao"),
        ("区敏", "ou min"),
        ("仇军", "qiu jun"),
        ("朴明", "piao ming"),
        ("查娟", "zha juan"),
        ("张伟", "zhang wei"),
        ("尉迟恭", "yu chi gong"),
    ],
)
def test_surnames_take_their_surname_reading(name, key):
    assert pinyin_sort_key(name) == key


def test_names_sort_by_pinyin_not_by_code_point():
    names = ["张伟", "安娜", "曾强", "单伟", "李静"]
    assert sorted(names, key=pinyin_sort_key) == ["安娜", "李静", "单伟", "曾强", "张伟"]


def test_the_standings_search_finds_a_pair_by_either_partners_initials():
    from scoring.results.search import filter_rows

    row = {
        "id": "A01",
        "name": "朱娟、解涛",
        "club": "",
        "sort_key": "zhu juan xie tao",
        "pinyin": ["zhu juan", "xie tao"],
    }
    other = {
        "id": "A02",
        "name": "王伟、李强",
        "club": "",
        "sort_key": "wang wei li qiang",
        "pinyin": ["wang wei", "li qiang"],
    }
    assert filter_rows([row, other], "zj") == [row]
    assert filter_rows([row, other], "xt") == [row]
    assert filter_rows([row, other], "xietao") == [row]
    assert filter_rows([row, other], "lq") == [other]
