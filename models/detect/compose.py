"""A table-scene compositor of its own, sharing no code with vision/src/scene.rs.

Lays cards of procedural designs (designs.py) on a table (procedural or photographed textures
shipped by scikit-image), photographs it with a pinhole camera placed anywhere around the table
(full yaw circle, tilt 0-55 degrees, overhead to the side), then degrades the frame like a webcam.
It returns the image and, per card, its corners in the card's own order (top-left first), the
share of it that is visible, and label maps for training the detector.

Everything is drawn from one seed (NumPy's PCG64): scene `seed` is the same on every machine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

import designs as D

TABLES = ["light", "dark", "felt", "wood", "cloth_check", "paper", "photo_brick",
          "photo_grass", "marble", "photo_gravel"]
HELD_OUT_TABLES = ["marble", "photo_gravel"]
TRAIN_TABLES = [t for t in TABLES if t not in HELD_OUT_TABLES]
LAYOUTS = ["grid", "scatter", "fan", "touching", "stacked"]

# The detector's "core": the card shrunk about its centre to this share of its width and height,
# so the cores of touching cards stay apart.
CORE = 0.64
# A card with at least this share of its area in view and uncovered must be found.
FINDABLE_VISIBLE = 0.97
FACE_PX_PER_MM = 5.0

_photos: dict[str, np.ndarray] = {}


def _photo(name: str) -> np.ndarray:
    if name not in _photos:
        import skimage.data

        _photos[name] = getattr(skimage.data, name)()
    return _photos[name]


def table_texture(rng, kind: str, w: int, h: int) -> np.ndarray:
    """A w x h BGR table surface."""
    base = np.array(D.random_colour(rng), np.float32)
    if kind == "light":
        img = np.full((h, w, 3), rng.uniform(180, 245, 3), np.float32)
    elif kind == "dark":
        img = np.full((h, w, 3), rng.uniform(10, 70, 3), np.float32)
    elif kind == "paper":
        img = np.full((h, w, 3), rng.uniform(225, 255), np.float32)
    elif kind == "felt":
        img = np.full((h, w, 3), base * 0.6, np.float32)
        img += rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    elif kind == "wood":
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        period = rng.uniform(6, 25)
        wobble = 8 * np.sin(x / rng.uniform(40, 160) + rng.uniform(0, 6))
        grain = 0.5 + 0.5 * np.sin((y + wobble + 3 * np.sin(x / 17.0)) / period * 2 * np.pi)
        light = np.array([rng.uniform(120, 210), rng.uniform(80, 150), rng.uniform(40, 100)], np.float32)
        img = light[None, None, ::-1] * (0.75 + 0.25 * grain[:, :, None])
    elif kind == "cloth_check":
        s = int(rng.integers(8, 40))
        yy, xx = np.mgrid[0:h, 0:w]
        check = ((yy // s + xx // s) % 2).astype(np.float32)[:, :, None]
        c2 = np.array(D.random_colour(rng), np.float32)
        img = base * check + c2 * (1 - check)
    elif kind == "marble":
        small = rng.normal(0, 1, (h // 16 + 2, w // 16 + 2)).astype(np.float32)
        n = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
        xx = np.arange(w, dtype=np.float32)[None, :]
        veins = np.abs(np.sin(xx / rng.uniform(30, 90) + 3 * n))
        tone = rng.uniform(170, 240)
        img = np.repeat((tone - 90 * (1 - veins) ** 6)[:, :, None], 3, axis=2)
    elif kind.startswith("photo_"):
        tex = _photo(kind[len("photo_"):]).astype(np.float32) / 255.0
        reps = (h // tex.shape[0] + 1, w // tex.shape[1] + 1)
        scale = rng.uniform(0.5, 1.5)
        tex = cv2.resize(tex, None, fx=scale, fy=scale)
        tex = np.tile(tex, (reps[0] * 2, reps[1] * 2))[:h, :w]
        img = tex[:, :, None] * (base[None, None, :] * 0.7 + 80)
    else:
        raise ValueError(f"unknown table {kind!r}")
    return np.clip(img, 0, 255).astype(np.uint8)


@dataclass
class Laid:
    design: D.Design
    card: int
    centre: tuple  # mm on the table
    angle: float   # radians, card's up direction turned from the table's +y
    sleeve: bool = False

    def corners_mm(self) -> np.ndarray:
        """TL, TR, BR, BL on the table (mm, y away from the near edge)."""
        w, h = self.design.width_mm, self.design.height_mm
        local = np.array([[-w / 2, h / 2], [w / 2, h / 2], [w / 2, -h / 2], [-w / 2, -h / 2]])
        c, s = np.cos(self.angle), np.sin(self.angle)
        rot = np.array([[c, -s], [s, c]])
        return local @ rot.T + np.array(self.centre)


@dataclass
class SceneCard:
    id: str
    design: str
    family: str
    corners: list          # image px, card's own TL, TR, BR, BL
    visible: float         # share of the card's area in view and not covered
    findable: bool


@dataclass
class Scene:
    image: np.ndarray
    cards: list[SceneCard]
    ids: np.ndarray = field(repr=False)       # per pixel: index into laid cards + 1, 0 table, -1 hand
    core: np.ndarray = field(repr=False)      # per pixel: 1 inside a visible card core
    meta: dict = field(default_factory=dict)


def _pick_designs(rng, families):
    n = int(rng.choice([1, 1, 2, 3]))
    return [D.design(str(rng.choice(families)), int(rng.integers(D.DESIGNS_PER_FAMILY))) for _ in range(n)]


def lay_out(rng, families) -> tuple[list[Laid], str]:
    decks = _pick_designs(rng, families)
    kind = str(rng.choice(LAYOUTS))
    out: list[Laid] = []

    def deck():
        return decks[int(rng.integers(len(decks)))]

    def card_of(d):
        return Laid(d, int(rng.integers(D.CARDS_PER_DESIGN)), (0, 0), 0.0, bool(rng.random() < 0.15))

    if kind in ("grid", "touching", "stacked"):
        cols, rows = int(rng.integers(2, 8)), int(rng.integers(1, 6))
        d0 = deck()
        gap = rng.uniform(0, 1.0) if kind == "touching" else rng.uniform(4, 25)
        pw, ph = max(d0.width_mm, d0.height_mm) + gap, d0.height_mm + gap
        for r in range(rows):
            for c in range(cols):
                if rng.random() < 0.2:
                    continue
                lc = card_of(deck() if kind != "touching" else d0)
                base = 0.0 if rng.random() < 0.5 else np.pi
                if rng.random() < 0.15:
                    base += np.pi / 2 * rng.choice([-1, 1])
                lc.angle = base + rng.normal(0, 0.06)
                lc.centre = (c * pw + rng.normal(0, 1.5), r * ph + rng.normal(0, 1.5))
                out.append(lc)
                if kind == "stacked" and rng.random() < 0.45:
                    # A unit on a front-line card: the lower card lies sideways.
                    lc.angle = np.pi / 2 * rng.choice([-1, 1]) + rng.normal(0, 0.05)
                    top = card_of(deck())
                    top.angle = rng.choice([0.0, np.pi]) + rng.normal(0, 0.1)
                    top.centre = (lc.centre[0] + rng.normal(0, 6), lc.centre[1] + rng.normal(0, 6))
                    out.append(top)
    elif kind == "fan":
        for _ in range(int(rng.integers(1, 4))):
            n = int(rng.integers(3, 9))
            start = (rng.uniform(0, 300), rng.uniform(0, 200))
            step = rng.uniform(0.18, 0.6)
            turn = rng.uniform(-0.12, 0.12)
            a0 = rng.uniform(0, 2 * np.pi)
            for i in range(n):
                lc = card_of(deck())
                a = a0 + turn * i
                lc.angle = a
                dx = lc.design.width_mm * step * i
                lc.centre = (start[0] + dx * np.cos(a0), start[1] + dx * np.sin(a0))
                out.append(lc)
    else:  # scatter
        for _ in range(int(rng.integers(3, 26))):
            lc = card_of(deck())
            lc.angle = rng.uniform(0, 2 * np.pi)
            lc.centre = (rng.uniform(0, 400), rng.uniform(0, 300))
            out.append(lc)
    if not out:  # every grid cell skipped: a table with one card
        out.append(card_of(deck()))
    return out, kind


def camera_homography(rng, pts_mm: np.ndarray, w: int, h: int, yaw=None, tilt=None, fill=None,
                      depth_mirrored=False):
    """Table mm (z = 0) -> image px for a camera at `yaw` around the table, `tilt` from overhead;
    the points fill `fill` of the frame (drawn when not given; over 1 runs past the edge).

    At yaw 0 the camera stands on the table's -y side, the image's up along +y, so the edge of the
    table nearest the camera is drawn largest, at the image's bottom, as a webcam sees it.
    `depth_mirrored`: the same framing with the perspective running the other way (the nearest
    edge drawn small, at the top: the camera on the far side, upside down); the shipped detector
    and identifier were trained on such scenes (train.py --camera depth-mirrored)."""
    yaw = rng.uniform(0, 2 * np.pi) if yaw is None else yaw
    tilt = np.radians(rng.uniform(0, 55)) if tilt is None else tilt
    roll = rng.normal(0, np.radians(4))
    focal = w * rng.uniform(0.6, 1.1)
    centre = pts_mm.mean(axis=0)

    def build(dist):
        # Camera looks at `centre` from direction (yaw, tilt); image x right, y down.
        away = -1.0 if depth_mirrored else 1.0
        fwd = np.array([-away * np.sin(tilt) * np.sin(yaw), away * np.sin(tilt) * np.cos(yaw),
                        -np.cos(tilt)])
        pos = np.array([centre[0], centre[1], 0.0]) - dist * fwd
        up_hint = np.array([-np.sin(yaw), np.cos(yaw), 0.0])
        right = np.cross(fwd, up_hint)
        right /= np.linalg.norm(right)
        down = np.cross(fwd, right)
        cr, sr = np.cos(roll), np.sin(roll)
        right, down = cr * right + sr * down, -sr * right + cr * down
        R = np.stack([right, down, fwd])
        t = -R @ pos
        K = np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1]])
        P = K @ np.column_stack([R[:, 0], R[:, 1], t])
        return P

    span = np.ptp(pts_mm, axis=0).max() + 60
    dist = span
    if fill is None:
        fill = rng.uniform(0.7, 1.05)  # >1: the layout runs past the frame's edge
    for _ in range(300):
        H = build(dist)
        p = apply_h(H, pts_mm)
        if np.all(np.abs(p[:, 0] - w / 2) < w / 2 * fill) and np.all(np.abs(p[:, 1] - h / 2) < h / 2 * fill):
            break
        dist *= 1.03
    shift = np.array([[1, 0, rng.normal(0, 0.05 * w)], [0, 1, rng.normal(0, 0.05 * h)], [0, 0, 1]])
    meta = {"yaw_deg": float(np.degrees(yaw) % 360), "tilt_deg": float(np.degrees(tilt))}
    return shift @ H, meta


def apply_h(H, pts):
    pts = np.asarray(pts, np.float64)
    q = np.column_stack([pts, np.ones(len(pts))]) @ H.T
    return q[:, :2] / q[:, 2:3]


_face_cache: dict = {}


def face_rgba(d: D.Design, k: int) -> np.ndarray:
    key = (d.family, d.index, k)
    if key not in _face_cache:
        if len(_face_cache) > 3000:
            _face_cache.clear()
        _face_cache[key] = D.render_rgba(d, k, FACE_PX_PER_MM)
    return _face_cache[key]


def _hand(rng, w, h, img, ids, skin=None):
    """A hand and forearm reaching in from the frame's edge."""
    skin = skin or (int(rng.uniform(60, 200)), int(rng.uniform(90, 210)), int(rng.uniform(140, 240)))
    edge = int(rng.integers(4))
    tip = np.array([rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h])
    base = {0: [tip[0], -50], 1: [w + 50, tip[1]], 2: [tip[0], h + 50], 3: [-50, tip[1]]}[edge]
    width = int(rng.uniform(0.06, 0.12) * min(w, h))
    poly = np.zeros((h, w), np.uint8)
    cv2.line(poly, tuple(int(v) for v in base), tuple(int(v) for v in tip), 255, width * 2)
    cv2.circle(poly, tuple(int(v) for v in tip), int(width * 1.3), 255, -1)
    m = poly > 0
    shade = rng.uniform(0.8, 1.1)
    img[m] = np.clip(np.array(skin) * shade, 0, 255).astype(np.uint8)
    ids[m] = -1


def render_scene(seed: int, width: int, height: int, families=None, tables=None,
                 yaw=None, tilt=None, hands=True, degrade=True, depth_mirrored=False) -> Scene:
    rng = np.random.default_rng(seed)
    families = families or D.TRAIN_FAMILIES
    tables = tables or TRAIN_TABLES
    laid, layout = lay_out(rng, families)
    corners_mm = np.concatenate([lc.corners_mm() for lc in laid])
    H, meta = camera_homography(rng, corners_mm, width, height, yaw, tilt,
                                depth_mirrored=depth_mirrored)
    table_kind = str(rng.choice(tables))
    meta.update({"seed": seed, "layout": layout, "table": table_kind})

    # The table: texture in table mm, photographed through H.
    lo = corners_mm.min(axis=0) - 400
    hi = corners_mm.max(axis=0) + 400
    tex = table_texture(rng, table_kind, int(hi[0] - lo[0]), int(hi[1] - lo[1]))
    img = photograph_table(tex, lo, H, width, height)
    ids = np.zeros((height, width), np.int32)
    core = np.zeros((height, width), np.int32)  # card index + 1 of the top-most core

    for i, lc in enumerate(laid):
        face = face_rgba(lc.design, lc.card)
        fh, fw = face.shape[:2]
        src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
        dst = apply_h(H, lc.corners_mm()).astype(np.float32)
        x0, y0 = np.floor(dst.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 2
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, width), min(y1, height)
        if x1 <= x0 or y1 <= y0:
            continue
        M = cv2.getPerspectiveTransform(src, dst - np.array([x0, y0], np.float32))
        warped = cv2.warpPerspective(face, M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                     borderValue=(0, 0, 0, 0))
        a = warped[:, :, 3:4].astype(np.float32) / 255.0
        roi = img[y0:y1, x0:x1].astype(np.float32)
        col = warped[:, :, :3].astype(np.float32)
        if lc.sleeve:
            col = col * 0.9 + 20
        img[y0:y1, x0:x1] = (col * a + roi * (1 - a)).astype(np.uint8)
        inside = a[:, :, 0] > 0.5
        ids[y0:y1, x0:x1][inside] = i + 1
        # The core: the card shrunk about its centre; this card covers the cores below it.
        cm = lc.corners_mm()
        cc = cm.mean(axis=0)
        core_q = apply_h(H, cc + (cm - cc) * CORE) - np.array([x0, y0])
        cmask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(cmask, np.round(core_q * 4).astype(np.int32), 1, cv2.LINE_8, 2)
        croi = core[y0:y1, x0:x1]
        croi[inside] = 0
        croi[cmask > 0] = i + 1

    if hands and rng.random() < 0.25:
        _hand(rng, width, height, img, ids)
        core[ids == -1] = 0

    # Which cards are findable: enough of their area visible in the frame.
    cards = []
    counts = np.bincount((ids + 1).ravel(), minlength=len(laid) + 2)
    for i, lc in enumerate(laid):
        q = apply_h(H, lc.corners_mm())
        area = abs(cv2.contourArea(q.astype(np.float32)))
        vis = float(counts[i + 2]) / max(area, 1.0)
        cards.append(SceneCard(lc.design.card_id(lc.card), lc.design.name, lc.design.family,
                               q.tolist(), min(vis, 1.0), vis >= FINDABLE_VISIBLE and area > 60))
    if degrade:
        img = _degrade(rng, img)
    return Scene(img, cards, ids, (core > 0).astype(np.uint8), meta)


def _degrade(rng, img):
    h, w = img.shape[:2]
    f = img.astype(np.float32)
    # Colour cast and uneven light.
    f *= rng.uniform(0.8, 1.15, 3)[None, None, :]
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    grad = 1 + rng.uniform(0, 0.35) * ((xx / w - 0.5) * np.cos(a) + (yy / h - 0.5) * np.sin(a))
    vign = 1 - rng.uniform(0, 0.35) * (((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) * 2)
    f *= cv2.resize(grad * vign, (w, h))[:, :, None]
    # Glare.
    for _ in range(int(rng.integers(0, 3))):
        c = (rng.uniform(0, w), rng.uniform(0, h))
        r = rng.uniform(0.03, 0.15) * w
        g = np.exp(-(((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (2 * r * r)))
        f += cv2.resize(g * rng.uniform(40, 160), (w, h))[:, :, None]
    # A hand's shadow.
    if rng.random() < 0.2:
        m = np.zeros((h, w), np.float32)
        cv2.ellipse(m, (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                    (int(rng.uniform(0.1, 0.3) * w), int(rng.uniform(0.05, 0.2) * h)),
                    rng.uniform(0, 180), 0, 360, 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), 0.03 * w)
        f *= (1 - 0.4 * m)[:, :, None]
    f = np.clip(f, 0, 255).astype(np.uint8)
    s = rng.uniform(0, 1.6)
    if s > 0.3:
        f = cv2.GaussianBlur(f, (0, 0), s)
    noise = rng.normal(0, rng.uniform(0, 7), (h // 2 + 1, w // 2 + 1, 1)).astype(np.float32)
    noise = cv2.resize(noise, (w, h), interpolation=cv2.INTER_NEAREST)[:, :, None]
    f = np.clip(f.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    q = int(rng.integers(35, 95))
    ok, enc = cv2.imencode(".jpg", f, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR)


def photograph_table(tex: np.ndarray, tex_origin_mm, H, w: int, h: int) -> np.ndarray:
    """A table texture (1 px a mm, its top-left at `tex_origin_mm`) through the camera H."""
    tex_to_mm = np.array([[1, 0, tex_origin_mm[0]], [0, 1, tex_origin_mm[1]], [0, 0, 1]], np.float64)
    return cv2.warpPerspective(tex, H @ tex_to_mm, (w, h), borderMode=cv2.BORDER_REFLECT)


def paste_card(frame: np.ndarray, lc: Laid, H) -> np.ndarray:
    """`frame` with card `lc` laid on it through the camera H (whole-frame warp, alpha blended)."""
    return paste_face(frame, face_rgba(lc.design, lc.card), lc.corners_mm(), H)


def paste_face(frame: np.ndarray, face: np.ndarray, corners_mm: np.ndarray, H) -> np.ndarray:
    """`frame` with the RGBA `face` laid at `corners_mm` (its own TL, TR, BR, BL) through H."""
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    M = cv2.getPerspectiveTransform(src, apply_h(H, corners_mm).astype(np.float32))
    h, w = frame.shape[:2]
    warped = cv2.warpPerspective(face, M, (w, h), borderValue=(0, 0, 0, 0))
    a = warped[:, :, 3:4].astype(np.float32) / 255.0
    return (warped[:, :, :3] * a + frame * (1 - a)).astype(np.uint8)
