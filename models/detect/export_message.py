"""风声 tables from the second compositor (compose.py, no code shared with vision/src/scene.rs):
our printed 风声 faces and seat cards (`arbiter print --game message --out FACES`) laid round an oval
table, 3-9 seats, each seat's received intelligence in a row in front of its player (facing that
player, some rows fanned so the cards overlap) and the seat's printed seat card beyond the row,
photographed from anywhere round the table, as `arbiter message eval --scenes-dir` reads them
(manifest.json: per card its face id, seat, image corners from its own top-left, overlapped and
covered; per scene the camera and the table).

    arbiter print --game message --out /tmp/message-faces
    python3 models/detect/export_message.py --faces /tmp/message-faces --out /tmp/arbiter-message \\
        --scenes 300 [--seed 660000]

Faces are drawn uniformly from the face files (not by the deck's copies). Seats are numbered in
passing order, counter-clockwise seen from above, seat 1 on the table's -y side; the camera stands
anywhere (placements as in export_boards.py, relative to the table's long axis).
"""

from __future__ import annotations

import argparse
import os
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compose  # noqa: E402
import export_boards as B  # noqa: E402

WIDTH, HEIGHT = 1920, 1080
CARD_W_MM, CARD_H_MM = B.CARD_W_MM, B.CARD_H_MM
# Arc of table edge each player takes (mm), and the smallest table's mean radius.
ARC_PER_SEAT_MM, MIN_RADIUS_MM = 300.0, 230.0
# The share of a seat's arc its row may take, the gap of a row laid side by side, a fan's pitch.
ROW_SHARE, SIDE_GAP_MM, FAN_PITCH = 0.8, 6.0, 0.72
# The seat card lies this far beyond the middle of its row, toward the player.
SEAT_CARD_OUT_MM = 100.0
# Share of a card under a later one that counts as overlapped.
OVERLAP_SHARE = 0.01


def face_ids(faces_dir: str) -> list[str]:
    """The intelligence faces in the folder (not the sheets or the seat cards)."""
    ids = sorted(f[:-4] for f in os.listdir(faces_dir) if f.endswith(".png"))
    return [i for i in ids if not i.startswith(("seat", "deck-sheet"))]


def oval(seats: int) -> tuple[float, float]:
    """Radii (mm) of the line the rows lie on: wider than deep."""
    mean = max(seats * ARC_PER_SEAT_MM / (2 * np.pi), MIN_RADIUS_MM)
    return mean * 1.3, mean / 1.3


def card_corners(centre, up) -> np.ndarray:
    """TL, TR, BR, BL (mm) of a card centred at `centre` whose top points along `up`."""
    up = np.asarray(up, np.float64) / np.linalg.norm(up)
    right = np.array([up[1], -up[0]])
    hw, hh = CARD_W_MM / 2, CARD_H_MM / 2
    c = np.asarray(centre, np.float64)
    return np.array([c - hw * right + hh * up, c + hw * right + hh * up,
                     c + hw * right - hh * up, c - hw * right - hh * up])


def lay_table(rng, ids: list[str], seats: int):
    """Each seat's row (its cards facing the player: their tops toward the table's middle) and
    seat card. Returns (cards, seat_cards): cards as (face, seat, corners mm, fanned row), laid in
    this order (a later card lies on an earlier one); seat cards as (seat, corners mm)."""
    a, b = oval(seats)
    most = 5 if seats <= 6 else 4
    arc = 2 * np.pi * np.sqrt((a * a + b * b) / 2) / seats
    cards, seat_cards = [], []
    for seat in range(seats):
        theta = -np.pi / 2 + seat * 2 * np.pi / seats
        at = np.array([a * np.cos(theta), b * np.sin(theta)])
        up = -at / np.linalg.norm(at)
        right = np.array([up[1], -up[0]])
        n = int(rng.integers(0, most + 1))
        fanned = bool(rng.random() < 0.3)
        room = (arc * ROW_SHARE - CARD_W_MM) / max(n - 1, 1)
        pitch = min(room, CARD_W_MM * FAN_PITCH) if fanned else min(room, CARD_W_MM + SIDE_GAP_MM)
        for k in range(n):
            off = (k - (n - 1) / 2) * pitch
            turn = np.radians(rng.uniform(-6, 6))
            c, s = np.cos(turn), np.sin(turn)
            card_up = np.array([c * up[0] - s * up[1], s * up[0] + c * up[1]])
            centre = at + off * right + rng.uniform(-4, 4, 2)
            cards.append((str(rng.choice(ids)), seat, card_corners(centre, card_up), fanned))
        seat_cards.append((seat, card_corners(at - SEAT_CARD_OUT_MM * up, up)))
    return cards, seat_cards


def overlapped(cards) -> list[bool]:
    """Whether a later card of the same seat covers part of each card (mm outlines)."""
    out = []
    for i, (_, seat, q, _) in enumerate(cards):
        area = cv2.contourArea(q.astype(np.float32))
        hit = False
        for _, s2, q2, _ in cards[i + 1:]:
            if s2 != seat:
                continue
            inter, _ = cv2.intersectConvexConvex(q.astype(np.float32), q2.astype(np.float32))
            hit |= inter > OVERLAP_SHARE * area
        out.append(bool(hit))
    return out


def seat_face(faces_dir: str, seat: int) -> np.ndarray:
    return B.face(faces_dir, f"seat-{seat + 1}")


def scene_job(args):
    seed, out, faces_dir = args
    rng = np.random.default_rng(seed)
    seats = int(rng.integers(3, 10))
    cards, seat_cards = lay_table(rng, face_ids(faces_dir), seats)
    placement = B.PLACEMENTS[int(rng.integers(len(B.PLACEMENTS)))]
    a, b = oval(seats)
    rim = SEAT_CARD_OUT_MM + CARD_H_MM
    # Framed on what lies on the table: the rows and the seat cards.
    laid_pts = np.concatenate([q for *_, q, _ in cards] + [q for _, q in seat_cards])
    H, yaw, tilt = B.camera(rng, laid_pts, placement, size=(WIDTH, HEIGHT))
    table = str(rng.choice(B.TABLES))
    half_w, half_h = a + rim + 800, b + rim + 800
    tex = compose.table_texture(rng, table, int(2 * half_w), int(2 * half_h))
    img = compose.photograph_table(tex, (-half_w, -half_h), H, WIDTH, HEIGHT)
    for seat, q in seat_cards:
        img = compose.paste_face(img, seat_face(faces_dir, seat), q, H)
    for card, _, q, _ in cards:
        img = compose.paste_face(img, B.face(faces_dir, card), q, H)
    hand = np.zeros((HEIGHT, WIDTH), np.int32)
    with_hand = bool(rng.random() < 0.2)
    if with_hand:
        compose._hand(rng, WIDTH, HEIGHT, img, hand)
    img = compose._degrade(rng, img)
    truth = []
    for (card, seat, q, fanned), over in zip(cards, overlapped(cards)):
        corners = compose.apply_h(H, q)
        truth.append({"id": card, "seat": seat, "corners": corners.tolist(), "fanned": fanned,
                      "overlapped": over, "covered": B.hidden(corners, hand, (WIDTH, HEIGHT))})
    name = f"scenes/{seed}.jpg"
    cv2.imwrite(os.path.join(out, name), img, [cv2.IMWRITE_JPEG_QUALITY, 95])
    return {"image": name, "seed": seed, "seats": seats, "placement": placement, "yaw_deg": yaw,
            "tilt_deg": tilt, "table": table, "hand": with_hand,
            "seat_cards": [{"seat": s, "corners": compose.apply_h(H, q).tolist()} for s, q in seat_cards],
            "cards": truth}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--faces", required=True, help="`arbiter print --game message --out` folder")
    ap.add_argument("--out", required=True)
    ap.add_argument("--scenes", type=int, default=300)
    ap.add_argument("--seed", type=int, default=660000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    jobs = [(args.seed + i, args.out, args.faces) for i in range(args.scenes)]
    head = {"compositor": "models/detect/export_message.py (compose.py)", "width": WIDTH,
            "height": HEIGHT, "first_seed": args.seed}
    B.write_scenes(args.out, jobs, scene_job, head, chunksize=4, workers=args.workers)

if __name__ == "__main__":
    main()
