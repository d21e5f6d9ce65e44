"""The entry page's form fields ⇄ deal JSON. Plain data; no scoring here."""

from scoring.rules import EXPOSABLE, POINT_CARDS, SEATS, card_label

PENALTY_REASONS = [
    ("late_exposure", "亮牌超时"),
    ("early_play", "亮出的牌过早打出"),
    ("revoke", "藏牌"),
    ("wrong_card_count", "牌数错误"),
    ("slow_play", "出牌迟缓"),
    ("conduct", "不当行为"),
    ("other", "其他"),
]


def _int(value):
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def deal_from_form(data):
    """A deal JSON from the entry form (a QueryDict or a dict of strings).

    Unassigned cards are simply left out, so the engine reports them as
    missing by name; a penalty that is not a whole number is passed on as
    text so the engine names it.
    """
    captured = {seat: [] for seat in SEATS}
    for card in POINT_CARDS:
        seat = data.get(f"card-{card}", "")
        if seat in captured:
            captured[seat].append(card)
    holders = {card: data[f"holder-{card}"] for card in EXPOSABLE if data.get(f"holder-{card}") in SEATS}
    exposed = {card: data[f"exposed-{card}"] for card in EXPOSABLE if data.get(f"exposed-{card}") in ("shown", "first")}
    penalties = {}
    for seat in SEATS:
        raw = (data.get(f"penalty-{seat}") or "").strip()
        if raw:
            number = _int(raw)
            penalties[seat] = -abs(number) if number is not None else raw
    deal = {"captured": captured, "holders": holders, "exposed": exposed, "penalties": penalties}
    if any((data.get(f"adjusted-{seat}") or "").strip() for seat in SEATS):
        deal["adjusted"] = {seat: _int(data.get(f"adjusted-{seat}")) for seat in SEATS}
        deal["adjusted_reason"] = (data.get("adjusted_reason") or "").strip()
    return deal


def form_from_deal(deal):
    """Initial form values for a stored deal (or {} for a new one)."""
    if deal is None:
        return {}
    values = {}
    for seat, cards in deal.captured.items():
        for card in cards:
            values[f"card-{card}"] = seat
    for card, seat in deal.holders.items():
        values[f"holder-{card}"] = seat
    for card, kind in deal.exposed.items():
        values[f"exposed-{card}"] = kind
    for seat, points in deal.penalties.items():
        values[f"penalty-{seat}"] = str(-points)
    if deal.adjusted:
        for seat, points in deal.adjusted.items():
            values[f"adjusted-{seat}"] = str(points)
        values["adjusted_reason"] = deal.adjusted_reason
    return values


def card_rows(values):
    """The 16 card rows of the entry grid, in the order a referee counts them."""
    return [{"code": card, "label": card_label(card), "seat": values.get(f"card-{card}", "")} for card in POINT_CARDS]


def exposable_rows(values):
    names = {"SQ": "猪", "DJ": "羊", "C10": "变压器", "HA": "红桃A"}
    return [
        {
            "code": card,
            "label": card_label(card),
            "name": names[card],
            "holder": values.get(f"holder-{card}", ""),
            "exposed": values.get(f"exposed-{card}", ""),
        }
        for card in EXPOSABLE
    ]
