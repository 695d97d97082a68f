"""Procedural card designs that we did not draw for any of the games.

A *family* is a style of printed card (white-bordered, full-art, playing-card pips, ...). A *design*
is one deck's print of that style: border colour and width, corner radius, aspect ratio, layout of
the art, text and stat boxes. A *card* of a design shares all of that and differs in its art, title
and numbers, as the cards of one published deck do. Everything is drawn from a seed: design
`(family, index)` and card `k` render the same pixels on every machine.

Whole families are held out of detector training (`HELD_OUT`) and used only for evaluation.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import cv2
import numpy as np

# Printed card sizes in mm (width, height) that published games use.
ASPECTS = [(63.0, 88.0), (57.0, 87.0), (59.0, 86.0), (70.0, 120.0)]
DESIGNS_PER_FAMILY = 60
CARDS_PER_DESIGN = 12

FAMILIES = [
    "white_border",
    "black_border",
    "colour_border",
    "full_art",
    "frameless_flat",
    "stat_boxes",
    "double_frame",
    "playing_pips",
    "gradient_frame",
    "tarot_tall",
    "count_marks",
    "dot_counts",
]
# Families never shown to the detector in training: the evaluation's unseen designs.
HELD_OUT = ["playing_pips", "gradient_frame", "tarot_tall"]
# Families never trained on either, kept for choosing thresholds: cards of one design that differ
# only in how many marks they carry (the hardest look-alikes), so that a rule that tells such
# siblings apart is chosen without looking at the held-out playing-card pips.
TUNING_FAMILIES = ["count_marks"]
# Families not in the detector's default training scenes, never in a tuning set or an evaluation:
# siblings that differ only in how many marks they carry, laid out unlike the tuning count marks and
# the held-out pips, so that the embedding learns that a count tells cards apart. The shipped
# detector saw them too (`train.py --families train+counts`): plain paper with a few marks.
IDENTIFIER_FAMILIES = ["dot_counts"]
TRAIN_FAMILIES = [f for f in FAMILIES
                  if f not in HELD_OUT and f not in TUNING_FAMILIES and f not in IDENTIFIER_FAMILIES]


def stable_seed(*parts) -> int:
    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "little")


@dataclass
class Design:
    family: str
    index: int
    width_mm: float
    height_mm: float
    radius_mm: float
    params: dict

    @property
    def name(self) -> str:
        return f"{self.family}-{self.index:03d}"

    def card_id(self, k: int) -> str:
        return f"{self.name}-{k:02d}"


def all_designs(families=FAMILIES) -> list[Design]:
    return [design(f, i) for f in families for i in range(DESIGNS_PER_FAMILY)]


def random_colour(rng, lo=0, hi=255):
    return tuple(int(v) for v in rng.integers(lo, hi + 1, size=3))


def design(family: str, index: int) -> Design:
    if family not in FAMILIES:
        raise ValueError(f"unknown design family {family!r}")
    rng = np.random.default_rng(stable_seed("design", family, index))
    w, h = ASPECTS[int(rng.integers(len(ASPECTS)))]
    if family == "tarot_tall":
        w, h = 70.0, 120.0
    radius = float(rng.choice([0.0, 1.0, 2.0, 3.0, 3.5, 4.0]))
    p = {
        "paper": random_colour(rng, 200, 255),
        "ink": random_colour(rng, 0, 70),
        "accent": random_colour(rng),
        "accent2": random_colour(rng),
        "border_mm": float(rng.uniform(2.0, 5.0)),
        "title_top": bool(rng.random() < 0.7),
        "art_frac": float(rng.uniform(0.38, 0.55)),
        "text_lines": int(rng.integers(2, 6)),
        "font": int(rng.choice([0, 1, 2, 3, 4, 6, 7])),
        "stat_boxes": int(rng.integers(0, 3)),
        "cost_circle": bool(rng.random() < 0.5),
    }
    if family == "white_border":
        p["border"] = tuple(int(v) for v in rng.integers(235, 256, size=3))
    elif family == "black_border":
        p["border"] = tuple(int(v) for v in rng.integers(0, 35, size=3))
    elif family == "colour_border":
        p["border"] = random_colour(rng, 20, 235)
        p["border_mm"] = float(rng.uniform(3.0, 7.0))
    elif family == "double_frame":
        p["border"] = random_colour(rng, 0, 255)
        p["inner_line"] = random_colour(rng)
    elif family == "gradient_frame":
        p["border"] = random_colour(rng)
        p["border2"] = random_colour(rng)
        p["border_mm"] = float(rng.uniform(3.0, 6.0))
    elif family == "tarot_tall":
        p["border"] = random_colour(rng, 150, 255)
        p["inner_line"] = random_colour(rng, 0, 120)
    elif family == "playing_pips":
        p["border"] = (255, 255, 255)
        p["paper"] = tuple(int(v) for v in rng.integers(240, 256, size=3))
        p["suits"] = [random_colour(rng, 0, 200) for _ in range(2)]
    elif family == "count_marks":
        p["border"] = random_colour(rng, 20, 235)
        p["mark"] = random_colour(rng, 0, 180)
        p["mark_shape"] = int(rng.integers(4))
        p["title"] = _word(rng)
    elif family == "dot_counts":
        dark = bool(rng.random() < 0.3)
        p["paper"] = random_colour(rng, 0, 70) if dark else random_colour(rng, 170, 255)
        p["mark"] = random_colour(rng, 150, 255) if dark else random_colour(rng, 0, 150)
        p["border"] = random_colour(rng) if rng.random() < 0.6 else p["paper"]
        p["mark_shape"] = int(rng.integers(6))
        p["mark_frac"] = float(rng.uniform(0.05, 0.1))
        p["arrangement"] = str(rng.choice(["rows", "ring", "lattice", "tally"]))
        p["per_row"] = int(rng.integers(2, 5))
        p["lattice"] = rng.uniform(0.15, 0.85, size=(12, 2)).round(3).tolist()
        p["numeral"] = str(rng.choice(["none", "corner", "both_corners", "big"]))
        p["title"] = _word(rng) if rng.random() < 0.5 else ""
    return Design(family, index, w, h, radius, p)


# ---------------------------------------------------------------- drawing helpers


def _art(rng, w: int, h: int) -> np.ndarray:
    """A procedural picture: gradient sky, shapes, stripes or noise blobs."""
    top = np.array(random_colour(rng), np.float32)
    bottom = np.array(random_colour(rng), np.float32)
    t = np.linspace(0.0, 1.0, h, dtype=np.float32)[:, None, None]
    img = (top * (1 - t) + bottom * t).repeat(w, axis=1).astype(np.uint8)
    img = np.ascontiguousarray(img)
    style = int(rng.integers(4))
    if style == 0:  # landscape: mountains and a sun
        for _ in range(int(rng.integers(1, 4))):
            pts = [(0, h)]
            for x in np.linspace(0, w, int(rng.integers(3, 8))):
                pts.append((int(x), int(rng.uniform(0.3, 0.9) * h)))
            pts.append((w, h))
            cv2.fillPoly(img, [np.array(pts, np.int32)], random_colour(rng))
        cv2.circle(img, (int(rng.uniform(0, w)), int(rng.uniform(0, h / 2))),
                   int(rng.uniform(0.05, 0.2) * w), random_colour(rng, 150), -1, cv2.LINE_AA)
    elif style == 1:  # shapes
        for _ in range(int(rng.integers(3, 12))):
            c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
            r = int(rng.uniform(0.05, 0.35) * min(w, h)) + 1
            if rng.random() < 0.5:
                cv2.circle(img, c, r, random_colour(rng), -1, cv2.LINE_AA)
            else:
                pts = np.array([(c[0] + r * np.cos(a), c[1] + r * np.sin(a))
                                for a in np.sort(rng.uniform(0, 2 * np.pi, 5))], np.int32)
                cv2.fillPoly(img, [pts], random_colour(rng), cv2.LINE_AA)
    elif style == 2:  # stripes / rays
        for _ in range(int(rng.integers(4, 14))):
            a = rng.uniform(0, np.pi)
            x0, y0 = rng.uniform(0, w), rng.uniform(0, h)
            d = 2 * (w + h)
            p1 = (int(x0 - d * np.cos(a)), int(y0 - d * np.sin(a)))
            p2 = (int(x0 + d * np.cos(a)), int(y0 + d * np.sin(a)))
            cv2.line(img, p1, p2, random_colour(rng), int(rng.uniform(1, 0.12 * w)) + 1, cv2.LINE_AA)
    else:  # soft noise blobs
        small = rng.integers(0, 255, size=(int(rng.integers(3, 8)), int(rng.integers(3, 8)), 3))
        blob = cv2.resize(small.astype(np.uint8), (w, h), interpolation=cv2.INTER_CUBIC)
        img = cv2.addWeighted(img, 0.4, blob, 0.6, 0)
    return img


def _text(img, rng, text: str, org, scale, colour, font, thick=1):
    cv2.putText(img, text, org, font, scale, colour, thick, cv2.LINE_AA)


def _word(rng, n_lo=3, n_hi=9) -> str:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    n = int(rng.integers(n_lo, n_hi + 1))
    return "".join(letters[int(i)] for i in rng.integers(0, 26, size=n)).capitalize()


def _text_block(img, rng, x0, y0, x1, y1, lines, ink, font):
    """Rules text: lines of small words, the way a printed text box looks from a metre away."""
    if x1 - x0 < 10 or y1 - y0 < 10:
        return
    step = (y1 - y0) / (lines + 0.5)
    scale = max(0.25, step / 40.0)
    for i in range(lines):
        y = int(y0 + step * (i + 1))
        x = x0 + 2
        while x < x1 - 20:
            word = _word(rng, 2, 7).lower()
            (tw, _), _ = cv2.getTextSize(word, font, scale, 1)
            if x + tw > x1 - 2:
                break
            _text(img, rng, word, (x, y), scale, ink, font)
            x += tw + int(6 * scale) + 2


def _stat_box(img, x, y, size, fill, ink, value, font):
    cv2.rectangle(img, (x, y), (x + size, y + size), fill, -1)
    cv2.rectangle(img, (x, y), (x + size, y + size), ink, max(1, size // 14))
    s = size / 30.0
    (tw, th), _ = cv2.getTextSize(value, font, s, 2)
    _text(img, None, value, (x + (size - tw) // 2, y + (size + th) // 2), s, ink, font, 2)


def _pip(img, c, r, colour, kind):
    x, y = c
    if kind == 0:
        cv2.circle(img, (x, y), r, colour, -1, cv2.LINE_AA)
    elif kind == 1:
        pts = np.array([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
    elif kind == 2:
        pts = np.array([(x, y - r), (x + r, y + r), (x - r, y + r)], np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
    else:
        cv2.circle(img, (x - r // 2, y), r // 2 + 1, colour, -1, cv2.LINE_AA)
        cv2.circle(img, (x + r // 2, y), r // 2 + 1, colour, -1, cv2.LINE_AA)
        cv2.circle(img, (x, y - r // 2), r // 2 + 1, colour, -1, cv2.LINE_AA)


def _mark(img, c, r, colour, shape):
    """One counted mark: a square, a five-pointed star, a ring or an upright bar."""
    x, y = c
    if shape == 0:
        cv2.rectangle(img, (x - r, y - r), (x + r, y + r), colour, -1, cv2.LINE_AA)
    elif shape == 1:
        a = np.arange(10) * np.pi / 5 - np.pi / 2
        rad = np.where(np.arange(10) % 2 == 0, r, 0.45 * r)
        pts = np.stack([x + rad * np.cos(a), y + rad * np.sin(a)], 1).astype(np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
    elif shape == 2:
        cv2.circle(img, (x, y), r, colour, max(2, r // 3), cv2.LINE_AA)
    else:
        cv2.rectangle(img, (x - r // 3, y - r), (x + r // 3, y + r), colour, -1, cv2.LINE_AA)


def _paper_in_border(img, p, px_per_mm: float) -> int:
    """Fills the face with the border colour and the paper inside it; the border's width in px."""
    h, w = img.shape[:2]
    b = int(round(p["border_mm"] * px_per_mm))
    img[:] = p["border"]
    cv2.rectangle(img, (b, b), (w - 1 - b, h - 1 - b), p["paper"], -1)
    return b


def _count_marks(img, d: Design, k: int, px_per_mm: float) -> np.ndarray:
    """Card `k` carries k + 1 marks and that numeral; everything else is the design's."""
    p = d.params
    h, w = img.shape[:2]
    b = _paper_in_border(img, p, px_per_mm)
    font = p["font"]
    _text(img, None, p["title"], (b + 4, b + int(0.08 * h)), h / 500.0, p["ink"], font, 1)
    count = k + 1
    _text(img, None, str(count), (b + 4, h - b - int(0.03 * h)), h / 300.0, p["mark"], font, 2)
    cols = 1 if count <= 3 else 2 if count <= 8 else 3
    rows = int(np.ceil(count / cols))
    r = max(3, int(min(0.07 * w, 0.5 * 0.6 * h / (rows + 1))))
    for n in range(count):
        c, row = n % cols, n // cols
        x = int(w * (0.5 if cols == 1 else 0.28 + 0.44 * c / (cols - 1)))
        y = int(h * (0.2 + 0.6 * (row + 0.5) / rows))
        _mark(img, (x, y), r, p["mark"], p["mark_shape"])
    return img


def _count_positions(p, count, w, h):
    """Where the design puts `count` marks, in pixels of a w×h face."""
    arrangement = p["arrangement"]
    if arrangement == "ring":
        if count == 1:
            return [(w // 2, h // 2)]
        rad = 0.3 * min(w, h)
        a = np.arange(count) * 2 * np.pi / count - np.pi / 2
        return [(int(w / 2 + rad * np.cos(t)), int(h / 2 + rad * np.sin(t))) for t in a]
    if arrangement == "lattice":
        return [(int(x * w), int(y * h)) for x, y in p["lattice"][:count]]
    if arrangement == "tally":
        # Upright strokes in groups of five, each group crossed, rows of two groups.
        out = []
        for n in range(count):
            group, stroke = divmod(n, 5)
            gx = 0.2 + 0.38 * (group % 2)
            gy = 0.35 + 0.3 * (group // 2)
            out.append((int(w * (gx + 0.06 * stroke)), int(h * gy)))
        return out
    per = p["per_row"]
    rows = int(np.ceil(count / per))
    out = []
    for n in range(count):
        row, c = divmod(n, per)
        in_row = min(per, count - row * per)
        x = w * (0.5 + (c - (in_row - 1) / 2) * 0.8 / per)
        y = h * (0.5 + (row - (rows - 1) / 2) * 0.6 / max(rows, 3))
        out.append((int(x), int(y)))
    return out


def _dot_counts(img, d: Design, k: int, px_per_mm: float) -> np.ndarray:
    """Card `k` carries k + 1 marks laid out the design's way; the numeral is printed or not. With
    `both_corners` the lower right corner carries a copy of the face's middle band turned half
    round, so the count shows twice."""
    p = d.params
    h, w = img.shape[:2]
    b = _paper_in_border(img, p, px_per_mm)
    font = p["font"]
    count = k + 1
    if p["title"]:
        _text(img, None, p["title"], (b + 4, h - b - int(0.04 * h)), h / 520.0, p["mark"], font, 1)
    r = int(p["mark_frac"] * w)
    if p["arrangement"] == "rows":  # marks of one card never touch
        r = min(r, int(0.4 * 0.6 * h / max(int(np.ceil(count / p["per_row"])), 3)))
    elif p["arrangement"] == "ring" and count > 1:
        r = min(r, int(0.4 * 0.6 * np.pi * min(w, h) / count))
    r = max(3, r)
    for x, y in _count_positions(p, count, w, h):
        if p["arrangement"] == "tally":
            cv2.line(img, (x, y - r), (x, y + r), p["mark"], max(2, r // 3), cv2.LINE_AA)
        elif p["mark_shape"] < 4:
            _mark(img, (x, y), r, p["mark"], p["mark_shape"])
        else:
            _pip(img, (x, y), r, p["mark"], p["mark_shape"] - 4)
    if p["arrangement"] == "tally":
        for group in range(count // 5):
            x0, y0 = _count_positions(p, 5 * group + 1, w, h)[-1]
            cv2.line(img, (x0 - r // 2, y0 + r), (x0 + int(0.3 * w), y0 - r), p["mark"], max(2, r // 3), cv2.LINE_AA)
    label = str(count)
    if p["numeral"] == "big":
        s = h / 160.0
        (tw, th), _ = cv2.getTextSize(label, font, s, 3)
        _text(img, None, label, (w - b - tw - 4, b + th + 6), s, p["mark"], font, 3)
    elif p["numeral"] in ("corner", "both_corners"):
        _text(img, None, label, (b + 4, b + int(0.09 * h)), h / 380.0, p["mark"], font, 2)
        if p["numeral"] == "both_corners":
            top = img[: h // 2].copy()
            corner = cv2.rotate(top, cv2.ROTATE_180)[: int(0.15 * h), w - int(0.3 * w):]
            img[h - int(0.15 * h):, w - int(0.3 * w):] = corner
    return img


def card_alpha(d: Design, px_per_mm: float) -> np.ndarray:
    """The card's outline with its rounded corners, 255 inside."""
    w, h = int(round(d.width_mm * px_per_mm)), int(round(d.height_mm * px_per_mm))
    a = np.zeros((h, w), np.uint8)
    r = int(round(d.radius_mm * px_per_mm))
    if r <= 0:
        a[:] = 255
        return a
    cv2.rectangle(a, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(a, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in [(r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)]:
        cv2.circle(a, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return a


def render(d: Design, k: int, px_per_mm: float = 5.0) -> np.ndarray:
    """Card `k` of design `d` as a BGR image, upright (its top edge first)."""
    rng = np.random.default_rng(stable_seed("card", d.family, d.index, k))
    p = d.params
    w, h = int(round(d.width_mm * px_per_mm)), int(round(d.height_mm * px_per_mm))
    img = np.zeros((h, w, 3), np.uint8)
    font = p["font"]
    b = int(round(p["border_mm"] * px_per_mm))
    fam = d.family

    if fam == "full_art":
        img[:] = _art(rng, w, h)
        # Translucent panels for the title and the rules text.
        panel = img.copy()
        cv2.rectangle(panel, (int(0.05 * w), int(0.03 * h)), (int(0.95 * w), int(0.12 * h)), p["paper"], -1)
        cv2.rectangle(panel, (int(0.05 * w), int(0.66 * h)), (int(0.95 * w), int(0.95 * h)), p["paper"], -1)
        img[:] = cv2.addWeighted(img, 0.35, panel, 0.65, 0)
        _text(img, rng, _word(rng), (int(0.08 * w), int(0.10 * h)), h / 400.0, p["ink"], font, 2)
        _text_block(img, rng, int(0.07 * w), int(0.67 * h), int(0.93 * w), int(0.94 * h),
                    p["text_lines"], p["ink"], font)
        return img

    if fam == "frameless_flat":
        img[:] = random_colour(rng, 30, 230) if rng.random() < 0.5 else p["accent"]
        big = str(int(rng.integers(0, 20)))
        s = h / 90.0
        (tw, th), _ = cv2.getTextSize(big, font, s, 4)
        _text(img, rng, big, ((w - tw) // 2, (h + th) // 2), s, p["paper"], font, 4)
        _text(img, rng, _word(rng), (int(0.08 * w), int(0.12 * h)), h / 450.0, p["paper"], font, 1)
        _text_block(img, rng, int(0.08 * w), int(0.72 * h), int(0.92 * w), int(0.95 * h),
                    max(1, p["text_lines"] - 2), p["paper"], font)
        return img

    if fam == "playing_pips":
        img[:] = p["paper"]
        rank = k % 10 + 1
        suit = int(rng.integers(4)) if k >= 10 else k % 4
        colour = p["suits"][suit % 2]
        label = "A" if rank == 1 else str(rank)
        s = h / 420.0
        _text(img, rng, label, (int(0.05 * w), int(0.11 * h)), s, colour, font, 2)
        _pip(img, (int(0.1 * w), int(0.16 * h)), max(2, int(0.035 * w)), colour, suit)
        rot = cv2.rotate(img, cv2.ROTATE_180)
        img[h // 2:] = rot[h // 2:]
        cols = 1 if rank <= 3 else 2 if rank <= 8 else 3
        per = int(np.ceil(rank / cols))
        n = 0
        for c in range(cols):
            for r_ in range(per):
                if n >= rank:
                    break
                x = int(w * (0.5 if cols == 1 else 0.3 + 0.4 * c / max(1, cols - 1)))
                y = int(h * (0.25 + 0.5 * (r_ + 0.5) / per))
                _pip(img, (x, y), max(3, int(0.07 * w)), colour, suit)
                n += 1
        return img

    if fam == "count_marks":
        return _count_marks(img, d, k, px_per_mm)

    if fam == "dot_counts":
        return _dot_counts(img, d, k, px_per_mm)

    # Framed families: a border, an inner panel with title, art, text and stats.
    border = p.get("border", p["paper"])
    img[:] = border
    if fam == "gradient_frame":
        t = np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
        g = np.array(p["border"], np.float32) * (1 - t) + np.array(p["border2"], np.float32) * t
        img[:] = g.repeat(w, axis=1).astype(np.uint8)
    inner = (b, b, w - b, h - b)
    x0, y0, x1, y1 = inner
    cv2.rectangle(img, (x0, y0), (x1 - 1, y1 - 1), p["paper"], -1)
    if "inner_line" in p:
        t = max(1, int(0.6 * px_per_mm))
        cv2.rectangle(img, (x0 + t, y0 + t), (x1 - 1 - t, y1 - 1 - t), p["inner_line"], t)
        x0, y0, x1, y1 = x0 + 3 * t, y0 + 3 * t, x1 - 3 * t, y1 - 3 * t
    ih = y1 - y0
    title_h = int(0.09 * ih)
    art_h = int(p["art_frac"] * ih)
    if p["title_top"]:
        ty, ay = y0, y0 + title_h + 2
    else:
        ay, ty = y0, y0 + art_h + 2
    cv2.rectangle(img, (x0, ty), (x1 - 1, ty + title_h), p["accent"], -1)
    _text(img, rng, _word(rng), (x0 + 4, ty + int(0.75 * title_h)), title_h / 32.0, p["ink"], font, 1)
    art = _art(rng, x1 - x0 - 4, art_h)
    img[ay:ay + art_h, x0 + 2:x1 - 2] = art
    text_top = max(ty + title_h, ay + art_h) + 4
    stat = int(0.17 * (x1 - x0))
    _text_block(img, rng, x0 + 2, text_top, x1 - 2, y1 - (stat if p["stat_boxes"] else 4),
                p["text_lines"], p["ink"], font)
    boxes = p["stat_boxes"] + (1 if fam == "stat_boxes" else 0)
    for i in range(boxes):
        x = x0 + 2 if i == 0 else x1 - 2 - stat
        _stat_box(img, x, y1 - stat - 2, stat, p["accent2"], p["ink"], str(int(rng.integers(0, 13))), font)
    if p["cost_circle"] or fam == "stat_boxes":
        r = int(0.07 * (x1 - x0))
        c = (x1 - r - 3, ty + title_h // 2)
        cv2.circle(img, c, r, p["accent2"], -1, cv2.LINE_AA)
        _text(img, rng, str(int(rng.integers(0, 10))), (c[0] - r // 2, c[1] + r // 2), r / 16.0, p["ink"], font, 2)
    return img


def render_rgba(d: Design, k: int, px_per_mm: float = 5.0) -> np.ndarray:
    """BGRA: the face and its outline (rounded corners are transparent)."""
    face = render(d, k, px_per_mm)
    return np.dstack([face, card_alpha(d, px_per_mm)])
