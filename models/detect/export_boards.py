"""Blitz boards from the second compositor (compose.py, no code shared with vision/src/scene.rs):
our printed faces (`arbiter print --game blitz --out FACES`) laid as a Blitz position on a 7-row
grid without the mat, photographed from anywhere round the table, as `arbiter eval-vision
--scenes-dir` reads them (manifest.json: per card its id, image corners from its own top-left,
cell, orientation on the table and whether it is hidden).

    arbiter print --game blitz --out /tmp/blitz-faces
    python3 models/detect/export_boards.py --faces /tmp/blitz-faces --out /tmp/arbiter-boards \\
        --scenes 1000 [--seed 600000] [--cols 4]

Yaw is recorded as the scanner's scenes record it: 0 with the camera behind the Allied player,
90 from the grid's right-hand side (seen from the Allied side), 180 behind the Axis player.
Placements as in the scanner's own `--camera any`: overhead, side, end or anywhere.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from multiprocessing import Pool

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compose  # noqa: E402

WIDTH, HEIGHT = 1280, 720
PITCH_MM = 100.0
CARD_W_MM, CARD_H_MM = 63.0, 88.0
ROWS, FRONT_ROW = 7, 3
ALLIED, AXIS = ("us", "uk"), ("ss", "wh")
PLACEMENTS = ["overhead", "side", "end", "free"]
TABLES = [t for t in compose.TABLES]

_faces: dict = {}


def face(faces_dir: str, card: str) -> np.ndarray:
    """The printed face, at the compositor's resolution, opaque (square-cornered print)."""
    if card not in _faces:
        img = cv2.imread(os.path.join(faces_dir, f"{card}.png"), cv2.IMREAD_COLOR)
        if img is None:
            raise SystemExit(f"{faces_dir}/{card}.png: missing or unreadable")
        size = (int(CARD_W_MM * compose.FACE_PX_PER_MM), int(CARD_H_MM * compose.FACE_PX_PER_MM))
        img = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
        _faces[card] = np.dstack([img, np.full(img.shape[:2], 255, np.uint8)])
    return _faces[card]


def deck(faces_dir: str):
    """Card ids by role, from the face files: front-N, and <faction>-<u|r|f|s>NN."""
    ids = sorted(f[:-4] for f in os.listdir(faces_dir)
                 if f.endswith(".png") and not f.startswith(("sheet", "mat")))
    fronts = [i for i in ids if i.startswith("front-")]
    board = lambda sides: [i for i in ids if i[:2] in sides and i[3] in "urf"]  # noqa: E731
    units = lambda sides: [i for i in ids if i[:2] in sides and i[3] == "u"]  # noqa: E731
    return fronts, board(ALLIED), board(AXIS), set(units(ALLIED) + units(AXIS))


def corners_mm(centre, quarter_turns: int, jitter_deg: float) -> np.ndarray:
    """TL, TR, BR, BL (mm) of a card centred at `centre`, turned clockwise seen from above."""
    a = -np.radians(90.0 * quarter_turns + jitter_deg)
    local = np.array([[-CARD_W_MM / 2, CARD_H_MM / 2], [CARD_W_MM / 2, CARD_H_MM / 2],
                      [CARD_W_MM / 2, -CARD_H_MM / 2], [-CARD_W_MM / 2, -CARD_H_MM / 2]])
    c, s = np.cos(a), np.sin(a)
    return local @ np.array([[c, -s], [s, c]]).T + np.asarray(centre)


ORIENTATION = {0: "upright", 1: "tapped_right", 2: "inverted", 3: "tapped_left"}


def lay_board(rng, faces_dir: str, cols: int, spacing: str = "printed"):
    """A legal-looking position: front line sideways on row 3, Allied cards upright on rows 0-2,
    Axis cards upside down on rows 4-6, some units tapped, some lying on a front-line card.
    `spacing`: "printed", the mat's 100 mm with ±4 mm slack; "loose", laid by hand without the mat
    at 95–125 mm between columns and 95–130 mm between rows (drawn per scene), ±8 mm slack."""
    fronts, allied, axis, units = deck(faces_dir)
    if spacing == "loose":
        along, between, slack = rng.uniform(95, 125), rng.uniform(95, 130), 8.0
    else:
        along, between, slack = PITCH_MM, PITCH_MM, 4.0
    pools = [list(rng.permutation(allied)), list(rng.permutation(axis))]
    fronts = list(rng.permutation(fronts))
    occupancy = rng.uniform(0.6, 1.0)
    laid = []  # (card, centre, turns, jitter, cell, under)

    def centre(col, row, offset=0.0):
        return ((col + 0.5) * along + rng.uniform(-slack, slack) + offset,
                (row + 0.5) * between + rng.uniform(-slack, slack) - offset)

    def take(side, unit_only=False):
        pool = pools[side]
        for k, card in enumerate(pool):
            if not unit_only or card in units:
                return pool.pop(k)
        return None

    for col in range(cols):
        laid.append((fronts[col % len(fronts)], centre(col, FRONT_ROW), int(rng.choice([1, 3])),
                     rng.uniform(-2.5, 2.5), (col, FRONT_ROW), None))
        if rng.random() < 0.3:
            side = int(rng.integers(2))
            unit = take(side, True)
            if unit:
                under = len(laid) - 1
                laid.append((unit, centre(col, FRONT_ROW, 6.0), 2 * side, rng.uniform(-3, 3),
                             (col, FRONT_ROW), under))
    for row in [r for r in range(ROWS) if r != FRONT_ROW]:
        side = 0 if row < FRONT_ROW else 1
        for col in range(cols):
            if rng.random() > occupancy:
                continue
            card = take(side)
            if card is None:
                continue
            turns = 2 * side
            if card in units and rng.random() < 0.2:
                turns = int(rng.choice([1, 3]))
            laid.append((card, centre(col, row), turns, rng.uniform(-3, 3), (col, row), None))
    return laid


def camera(rng, pts, placement: str, depth_mirrored=False, size=(WIDTH, HEIGHT)):
    """Yaw (scanner's convention, degrees) and tilt for a placement, and the camera (see
    compose.camera_homography for `depth_mirrored`) for a frame of `size` (w, h)."""
    either = lambda a: a + (180.0 if rng.random() < 0.5 else 0.0)  # noqa: E731
    if placement == "overhead":
        yaw, tilt = either(90.0) + rng.uniform(-15, 15), rng.uniform(0, 12)
    elif placement == "side":
        yaw, tilt = either(90.0) + rng.uniform(-25, 25), rng.uniform(15, 55)
    elif placement == "end":
        yaw, tilt = either(0.0) + rng.uniform(-25, 25), rng.uniform(15, 55)
    else:
        yaw, tilt = rng.uniform(0, 360), rng.uniform(0, 55)
    yaw %= 360.0
    # A depth-mirrored camera stands on the far side seeing the table as the near one would.
    turn = 180.0 if depth_mirrored else 0.0
    H, _ = compose.camera_homography(rng, pts, size[0], size[1], yaw=np.radians(yaw + turn),
                                     tilt=np.radians(tilt), fill=rng.uniform(0.75, 0.95),
                                     depth_mirrored=depth_mirrored)
    return H, yaw, tilt


def hidden(corners, hand, size=(WIDTH, HEIGHT)) -> bool:
    """Whether a card at image `corners` lies partly under the hand (`hand` == -1) or out of the
    frame of `size` (w, h)."""
    w, h = size
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 1)
    area = max(int(mask.sum()), 1)
    in_view = np.all((corners >= 0) & (corners < [w, h]))
    under_hand = int((hand[mask > 0] == -1).sum()) / area
    return bool(under_hand > 0.002 or not in_view)


def write_scenes(out: str, jobs, job, head: dict, chunksize: int, workers: int):
    """Draws every job's scene with `job` in `workers` processes, then writes out/manifest.json:
    `head`'s fields and the scenes."""
    os.makedirs(os.path.join(out, "scenes"), exist_ok=True)
    with Pool(workers) as pool:
        scenes = pool.map(job, jobs, chunksize=chunksize)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump({**head, "scenes": scenes}, f)
    print(f"wrote {len(scenes)} scenes to {out}")


def scene_job(args):
    seed, out, faces_dir, cols, mirrored, spacing = args
    rng = np.random.default_rng(seed)
    laid = lay_board(rng, faces_dir, cols, spacing)
    placement = PLACEMENTS[int(rng.integers(len(PLACEMENTS)))]
    quads = [corners_mm(c, t, j) for _, c, t, j, _, _ in laid]
    H, yaw, tilt = camera(rng, np.concatenate(quads), placement, mirrored)
    table = str(rng.choice(TABLES))
    grid_w, grid_h = cols * PITCH_MM, ROWS * PITCH_MM
    tex = compose.table_texture(rng, table, int(grid_w + 1200), int(grid_h + 1200))
    img = compose.photograph_table(tex, (-600, -600), H, WIDTH, HEIGHT)
    for (card, *_), q in zip(laid, quads):
        img = compose.paste_face(img, face(faces_dir, card), q, H)
    hand = np.zeros((HEIGHT, WIDTH), np.int32)
    if rng.random() < 0.2:
        compose._hand(rng, WIDTH, HEIGHT, img, hand)
    img = compose._degrade(rng, img)
    cards = []
    for i, ((card, _, turns, _, cell, under), q) in enumerate(zip(laid, quads)):
        corners = compose.apply_h(H, q)
        lies_under = any(u == i for *_, u in laid)
        cards.append({"id": card, "corners": corners.tolist(), "cell": list(cell),
                      "orientation": ORIENTATION[turns],
                      "covered": bool(lies_under or hidden(corners, hand))})
    name = f"scenes/{seed}.jpg"
    cv2.imwrite(os.path.join(out, name), img, [cv2.IMWRITE_JPEG_QUALITY, 95])
    return {"image": name, "seed": seed, "placement": placement, "yaw_deg": yaw,
            "tilt_deg": tilt, "table": table, "cols": cols, "spacing": spacing, "cards": cards}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--faces", required=True, help="`arbiter print --game blitz --out` folder")
    ap.add_argument("--out", required=True)
    ap.add_argument("--scenes", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=600000)
    ap.add_argument("--cols", type=int, choices=[4, 5], default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--camera", choices=["upright", "depth-mirrored"], default="upright",
                    help="depth-mirrored: the perspective runs the other way (compose.camera_homography)")
    ap.add_argument("--spacing", choices=["printed", "loose"], default="printed",
                    help="loose: laid by hand without the mat, at a spacing drawn per scene")
    args = ap.parse_args()
    mirrored = args.camera == "depth-mirrored"
    jobs = [(args.seed + i, args.out, args.faces, args.cols, mirrored, args.spacing)
            for i in range(args.scenes)]
    head = {"compositor": "models/detect/export_boards.py (compose.py)", "camera": args.camera,
            "width": WIDTH, "height": HEIGHT, "first_seed": args.seed}
    write_scenes(args.out, jobs, scene_job, head, chunksize=8, workers=args.workers)

if __name__ == "__main__":
    main()
