"""Duel tables from the second compositor (compose.py, no code shared with vision/src/scene.rs):
our printed Duel faces and back (`arbiter print --game duel --out FACES`) laid as a Duel table, with the
printed mat or without it, photographed from anywhere round the table, as `arbiter duel eval-table
--scenes-dir` reads them (manifest.json: per card its id, image corners from its own top-left,
place (陣地 or territory strip), tapped, covered; per scene the camera and the image direction
toward the near player, which the players give the panel once when there is no mat).

    arbiter print --game duel --out /tmp/duel-faces
    python3 models/detect/export_duel.py --faces /tmp/duel-faces --out /tmp/arbiter-duel \\
        --scenes 1000 [--seed 620000]

Without the mat, players do not lay cards on an exact grid: half the scenes keep the set-up
sheet's 100 mm between neighbouring 陣地 (`spacing: printed`), the other half draw the spacing
along the rows and between the rows per scene and jitter each card (`spacing: loose`).
Placements and yaw as in export_boards.py (0: behind the near player).
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compose  # noqa: E402
import export_boards as B  # noqa: E402

SLOTS = 5
PITCH_MM = 100.0
# The Duel mat's printed extent (its markers' border included) in table mm, y away from near.
MAT_BORDER_MM = 90.0
MAT_W_MM, MAT_H_MM = SLOTS * PITCH_MM, 2 * PITCH_MM
# Territory strips: depth of each side's row (outside the mat) and the spacing along it.
NEAR_STRIP_Y, FAR_STRIP_Y = -78.0, 278.0
BACK = "back"
SIDES = ("near", "far")

_faces: dict = {}


def face(faces_dir: str, card: str) -> np.ndarray:
    return B.face(faces_dir, card)


def mat_face(faces_dir: str) -> np.ndarray | None:
    """The printed mat at the compositor's resolution, or None when the folder has none."""
    if "mat" not in _faces:
        names = [f for f in os.listdir(faces_dir) if f.startswith("mat-duel") and f.endswith(".png")]
        img = cv2.imread(os.path.join(faces_dir, names[0]), cv2.IMREAD_COLOR) if names else None
        if img is not None:
            w = int((MAT_W_MM + 2 * MAT_BORDER_MM) * compose.FACE_PX_PER_MM)
            h = int((MAT_H_MM + 2 * MAT_BORDER_MM) * compose.FACE_PX_PER_MM)
            img = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
            img = np.dstack([img, np.full(img.shape[:2], 255, np.uint8)])
        _faces["mat"] = img
    return _faces["mat"]


CATALOGUE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "catalogues", "duel", "demo.toml")


def deck(faces_dir: str, catalogue: str = CATALOGUE):
    """Unit and territory ids with a face in the folder, by the catalogue's kinds: only units go
    in the 陣地 and only territories in the strips (tricks and strategies are played from the
    hand)."""
    with open(catalogue, "rb") as f:
        kinds = {c["id"]: c["kind"] for c in tomllib.load(f)["card"]}
    ids = sorted(f[:-4] for f in os.listdir(faces_dir) if f.endswith(".png"))
    units = [i for i in ids if kinds.get(i) == "unit"]
    lands = [i for i in ids if kinds.get(i) == "territory"]
    return units, lands


def lay_table(rng, faces_dir: str, spacing: str):
    """Units in the 陣地 (some tapped) and territories in each side's strip (some face down or
    tapped), each side's cards facing its player. Returns (card, centre mm, quarter turns, jitter,
    place, tapped)."""
    units, lands = deck(faces_dir)
    if spacing == "printed":
        pitch, row_gap, jitter_mm = PITCH_MM, PITCH_MM, 4.0
    else:
        pitch, row_gap, jitter_mm = rng.uniform(80, 118), rng.uniform(95, 135), 8.0
    occupancy = rng.uniform(0.3, 0.9)
    laid = []
    mid_row = PITCH_MM  # the line between the two rows of 陣地
    for s, side in enumerate(SIDES):
        sign = -1.0 if side == "near" else 1.0
        row_y = mid_row + sign * row_gap / 2
        for slot in range(SLOTS):
            if rng.random() > occupancy:
                continue
            x = PITCH_MM * SLOTS / 2 + (slot - (SLOTS - 1) / 2) * pitch
            tapped = bool(rng.random() < 0.25)
            turns = int(rng.choice([1, 3])) if tapped else 2 * s
            centre = (x + rng.uniform(-jitter_mm, jitter_mm), row_y + rng.uniform(-jitter_mm, jitter_mm))
            laid.append((str(rng.choice(units)), centre, turns, rng.uniform(-3, 3),
                         {"zone": "slot", "side": side, "slot": slot}, tapped))
        strip_y = (NEAR_STRIP_Y if side == "near" else FAR_STRIP_Y) + sign * (row_gap - PITCH_MM) / 2
        for index in range(int(rng.integers(0, 6))):
            face_down = not lands or rng.random() < 0.3
            card = BACK if face_down else str(rng.choice(lands))
            tapped = bool(rng.random() < 0.3)
            turns = int(rng.choice([1, 3])) if tapped else 2 * s
            # Counted from the mat's left seen from the near side, as the scanner's truth counts.
            along = 50.0 + index * PITCH_MM
            centre = (along + rng.uniform(-jitter_mm, jitter_mm), strip_y + rng.uniform(-jitter_mm, jitter_mm))
            laid.append((card, centre, turns, rng.uniform(-3, 3),
                         {"zone": "territory", "side": side, "index": index}, tapped))
    return laid


def near_direction(H) -> list:
    """The image direction toward the near player at the middle of the 陣地."""
    a, b = compose.apply_h(H, [[MAT_W_MM / 2, PITCH_MM], [MAT_W_MM / 2, 0.0]])
    d = b - a
    return (d / max(np.linalg.norm(d), 1e-9)).tolist()


def scene_job(args):
    seed, out, faces_dir = args
    rng = np.random.default_rng(seed)
    with_mat = bool(rng.random() < 0.5) and mat_face(faces_dir) is not None
    spacing = "printed" if with_mat or rng.random() < 0.5 else "loose"
    laid = lay_table(rng, faces_dir, spacing)
    placement = B.PLACEMENTS[int(rng.integers(len(B.PLACEMENTS)))]
    quads = [B.corners_mm(c, t, j) for _, c, t, j, _, _ in laid]
    frame_pts = np.array([[-60.0, NEAR_STRIP_Y - 50], [MAT_W_MM + 60, NEAR_STRIP_Y - 50],
                          [MAT_W_MM + 60, FAR_STRIP_Y + 50], [-60.0, FAR_STRIP_Y + 50]])
    H, yaw, tilt = B.camera(rng, np.concatenate(quads + [frame_pts]), placement)
    table = str(rng.choice(B.TABLES))
    tex = compose.table_texture(rng, table, int(MAT_W_MM + 1600), int(FAR_STRIP_Y - NEAR_STRIP_Y + 1600))
    img = compose.photograph_table(tex, (-800, NEAR_STRIP_Y - 800), H, B.WIDTH, B.HEIGHT)
    if with_mat:
        m = MAT_BORDER_MM
        corners = np.array([[-m, MAT_H_MM + m], [MAT_W_MM + m, MAT_H_MM + m],
                            [MAT_W_MM + m, -m], [-m, -m]])
        img = compose.paste_face(img, mat_face(faces_dir), corners, H)
    for (card, *_), q in zip(laid, quads):
        img = compose.paste_face(img, face(faces_dir, card), q, H)
    hand = np.zeros((B.HEIGHT, B.WIDTH), np.int32)
    with_hand = bool(rng.random() < 0.2)
    if with_hand:
        compose._hand(rng, B.WIDTH, B.HEIGHT, img, hand)
    img = compose._degrade(rng, img)
    cards = []
    for (card, _, _, _, place, tapped), q in zip(laid, quads):
        corners = compose.apply_h(H, q)
        cards.append({"id": card, "corners": corners.tolist(), "place": place, "tapped": tapped,
                      "covered": B.hidden(corners, hand)})
    name = f"scenes/{seed}.jpg"
    cv2.imwrite(os.path.join(out, name), img, [cv2.IMWRITE_JPEG_QUALITY, 95])
    return {"image": name, "seed": seed, "placement": placement, "yaw_deg": yaw, "tilt_deg": tilt,
            "table": table, "mat": with_mat, "spacing": spacing, "hand": with_hand,
            "near_direction": near_direction(H),
            "cards": cards}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--faces", required=True, help="`arbiter print --game duel --out` folder")
    ap.add_argument("--out", required=True)
    ap.add_argument("--scenes", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=620000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    jobs = [(args.seed + i, args.out, args.faces) for i in range(args.scenes)]
    head = {"compositor": "models/detect/export_duel.py (compose.py)", "width": B.WIDTH,
            "height": B.HEIGHT, "first_seed": args.seed}
    B.write_scenes(args.out, jobs, scene_job, head, chunksize=8, workers=args.workers)

if __name__ == "__main__":
    main()
