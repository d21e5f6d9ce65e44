"""Fill locale/en/LC_MESSAGES/django.po from the table below (run after makemessages).

Kept in the repository so that a new string gets its English in the same
commit; `python locale/translate_en.py && python manage.py compilemessages -l en`.
"""

import re
from pathlib import Path

EN = {
    "双人赛": "Pairs",
    "团体赛": "Teams",
    "个人赛": "Individual",
    "计副制": "Board count",
    "局制": "Games",
    "代号": "Slug",
    "名称": "Name",
    "开始日期": "Start date",
    "结束日期": "End date",
    "地点": "Venue",
    "规则": "Rules",
    "局分": "Game threshold",
    "类型": "Kind",
    "赛制": "Match format",
    "每场副数/局数": "Boards or games per match",
    "胜场分": "Points for a win",
    "平场分": "Points for a draw",
    "负场分": "Points for a loss",
    "破同分顺序": "Tie-break order",
    "双人独立录入": "Blind double entry",
    "更正期（分钟）": "Correction period (minutes)",
    "赛事": "Events",
    "编号": "No.",
    "姓名": "Name",
    "拼音排序": "Pinyin sort key",
    "单位/地区": "Club / region",
    "会员号": "Federation ID",
    "选手": "Players",
    "参赛队/对": "Entrants",
    "未开始": "Scheduled",
    "进行中": "In play",
    "临时公布": "Provisional",
    "正式成绩": "Official",
    "轮次": "Rounds",
    "状态": "Status",
    "节数": "Sessions",
    "轮": "Round",
    "桌号": "Table no.",
    "桌": "Table",
    "草稿": "Draft",
    "已确认": "Confirmed",
    "副号": "Board",
    "顺序": "Order",
    "副": "Board",
    "组织者": "Organiser",
    "裁判": "Referee",
    "录入": "Entered",
    "修改": "Changed",
    "确认": "Confirmed",
    "调整分": "Adjusted score",
    "裁决": "Ruling",
    "独立录入": "Blind entry",
    "成绩记录": "Result history",
    "亮牌超时": "Late exposure",
    "亮出的牌过早打出": "Exposed card played too early",
    "藏牌": "Revoke",
    "牌数错误": "Wrong card count",
    "出牌迟缓": "Slow play",
    "不当行为": "Conduct",
    "声称争议": "Disputed claim",
    "其他": "Other",
    "罚分": "Penalties",
    "待裁决": "Open",
    "申诉成立": "Upheld",
    "申诉驳回": "Dismissed",
    "申诉人": "Appellant",
    "裁决期限": "Deadline",
    "申诉内容": "Statement",
    "名次": "Rank",
    "单位": "Club",
    "场分": "Match points",
    "得分差": "Score diff.",
    "总得分": "Total score",
    "场次": "Played",
    "与上一名": "Against the row above",
    "副数": "Deals",
    "华牌赛事计分与裁判系统": "Huapai scoring and refereeing",
    "华牌赛事计分": "Huapai scoring",
    "裁判台": "Referee desk",
    "退出": "Log out",
    "裁判登录": "Referee login",
    "%(t)s 号桌 第 %(b)s 副": "Table %(t)s, board %(b)s",
    "第 %(n)s 轮": "Round %(n)s",
    "%(t)s 号桌 · 第 %(b)s 副": "Table %(t)s · board %(b)s",
    "未录入": "Not entered",
    "双人独立录入：你看不到另一名裁判的录入": "Blind double entry: you cannot see the other referee's entry",
    "现存结果": "Stored result",
    "载入现存结果": "Load the stored result",
    "下面仍是你的录入；核对后可在现存版本基础上重新保存。": "Below is still your entry; check it, then save again on top of the stored version.",
    "两名裁判的录入不一致：": "The two referees' entries differ:",
    "项目": "Item",
    "各裁判录入": "Entries",
    "得分牌": "Point cards",
    "键盘：选中一行后按 N E S W（或 1–4）分给该座位并跳到下一张": "Keyboard: on a row press N E S W (or 1–4) to give the card to that seat and move on",
    "亮牌与持牌人": "Exposures and holders",
    "持牌人": "Holder",
    "亮牌": "Exposure",
    "未亮": "Not exposed",
    "明": "Shown (明)",
    "首明": "First (首明)",
    "罚分（扣分，填正数）": "Penalties (points deducted, enter positive)",
    "调整分（裁判长）": "Adjusted score (chief arbiter)",
    "调整理由": "Reason for the adjustment",
    "更改理由（正式成绩必填）": "Reason for the change (required for official results)",
    "得分": "Scores",
    "保存": "Save",
    "保存并录下一副": "Save and enter the next board",
    "确认这一副（第二名裁判）": "Confirm this board (second referee)",
    "记录违例与裁决": "Record an irregularity and ruling",
    "座位": "Seat",
    "记录": "Record",
    "修改记录": "History",
    "导入参赛者": "Import entrants",
    "从 Excel 导入参赛者": "Import entrants from Excel",
    "导入": "Import",
    "结果": "Result",
    "行": "Row",
    "原因": "Reason",
    "录入与核对": "Enter and check",
    "尚未编排。": "Not paired yet.",
    "编排下一轮": "Pair the next round",
    "编排": "Pair",
    "你还没有被指派到任何赛事。": "You have no role in any event yet.",
    "待确认": "To confirm",
    "录入不一致": "Entries differ",
    "局（累计）": "Games (running)",
    "公布前检查": "Before publishing",
    "没有阻止公布的问题。": "Nothing stops publication.",
    "临时公布本轮": "Publish provisionally",
    "转为正式成绩": "Make official",
    "登录": "Log in",
    "裁判与组织者登录": "Referee and organiser login",
    "登录失败次数过多，请 15 分钟后再试。": "Too many failed logins; try again in 15 minutes.",
    "用户名或密码不正确。": "Wrong username or password.",
    "用户名": "Username",
    "密码": "Password",
    "排名": "Standings",
    "更正记录": "Corrections",
    "第 %(n)s 轮 第 %(b)s 副": "Round %(n)s board %(b)s",
    "第 %(n)s 轮 · 第 %(b)s 副 牌例对照": "Round %(n)s · board %(b)s traveller",
    "罚": "Pen.",
    "公布后的更正": "Corrections after publication",
    "时间": "Time",
    "更正前": "Before",
    "更正后": "After",
    "理由": "Reason",
    "公布后没有更正。": "No corrections since publication.",
    "第 %(n)s 轮 · %(t)s 号桌": "Round %(n)s · table %(t)s",
    "对手": "Opponents",
    "本方": "Us",
    "对方": "Them",
    "第%(n)s局": "Game %(n)s",
    "未完": "unfinished",
    "局": "Game",
    "备注": "Notes",
    "还没有公布的比赛。": "No published matches yet.",
    "每场 %(n)s 局": "%(n)s games a match",
    "每场 %(n)s 副": "%(n)s boards a match",
    "第 %(n)s 轮后排名": "Standings after round %(n)s",
    "还没有赛事。": "No events yet.",
    "牌例对照": "Travellers",
    "轮空": "Byes",
    "（第 %(n)s 轮后）": "(after round %(n)s)",
    "含临时成绩：更正期内可能变动": "Includes provisional results: they may change during the correction period",
    "还没有公布的轮次。": "No round has been published yet.",
    "姓名、编号或单位": "Name, number or club",
    "筛选": "Filter",
    "全部已公布轮次": "All published rounds",
    "第 %(n)s 轮后": "After round %(n)s",
    "查看": "Show",
    "赛事名称": "Event",
    "规则集": "Rule set",
}
PLURALS = {
    "已导入 %(n)s 行": ("Imported %(n)s row", "Imported %(n)s rows"),
    "还有 %(n)s 副未确认": ("%(n)s board still unconfirmed", "%(n)s boards still unconfirmed"),
    "已公布 %(n)s 轮": ("%(n)s round published", "%(n)s rounds published"),
}
LONG = {
    "本站运行华牌": "This site runs Huapai (competitive Chinese Hearts) events: referees enter each deal's point cards, "
    "exposures and penalties; the site scores every deal, game, match and round by the Huapai competition rules, "
    "publishes standings and pairs the next round. Players check standings and their own results without logging in.",
    "你打开页面后": "Since you opened this page, %(who)s changed this board to version %(v)s. Your entry was not saved "
    "and did not overwrite theirs.",
    "第一行为表头": "First row: headers — 编号 (number), 姓名1, 姓名2 (teams up to 姓名6, plus 队名; individual events "
    "use 姓名), 单位 (club), 会员号 (federation ID).",
}

path = Path(__file__).resolve().parent / "en" / "LC_MESSAGES" / "django.po"
blocks = path.read_text(encoding="utf-8").split("\n\n")
missing = []
for index, block in enumerate(blocks):
    msgid = "".join(
        re.findall(r'"((?:[^"\\]|\\.)*)"', block.split("msgid_plural")[0].split("msgstr")[0].split("msgid", 1)[-1])
    )
    if not msgid:
        continue
    if "msgid_plural" in block:
        if msgid in PLURALS:
            one, many = PLURALS[msgid]
            block = re.sub(r'msgstr\[0\] ".*"', f'msgstr[0] "{one}"', block)
            block = re.sub(r'msgstr\[1\] ".*"', f'msgstr[1] "{many}"', block)
        else:
            missing.append(msgid)
    else:
        english = EN.get(msgid) or next((v for k, v in LONG.items() if msgid.startswith(k)), None)
        if english is None:
            missing.append(msgid)
        else:
            head = block.split("\nmsgstr")[0]
            block = head + "\nmsgstr " + '"' + english.replace('"', '\\"') + '"'
    block = block.replace("#, fuzzy\n", "")
    blocks[index] = block
path.write_text("\n\n".join(blocks) + ("\n" if not blocks[-1].endswith("\n") else ""), encoding="utf-8")
print("untranslated:", missing)
