"""Writes an evaluation set from compose.py (the compositor that shares no code with scene.rs):
held-out design families on every table (held-out tables included), cameras anywhere around the
table, 1280x720 JPEG frames, plus one enrolment photo per card, as `arbiter eval-cards` reads it.

    python3 models/detect/export_eval.py --out /tmp/arbiter-eval-cards --scenes 1000 [--seed 500000]

Seeds from 500000 on are never trained on (train.py refuses them). The default families are the
held-out ones; `--families train` gives the training families (for a seen-versus-unseen check) and
`--families tuning` the families kept for choosing thresholds (designs.TUNING_FAMILIES: siblings that
differ only in a count), never trained on and never held out.
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
import designs as D  # noqa: E402
from train import EVAL_SEED0  # noqa: E402

WIDTH, HEIGHT = 1280, 720
ENROL_W, ENROL_H = 640, 480
# Every UNKNOWN_EVERY-th card (sorted by id) is not enrolled: naming it is a wrong name.
UNKNOWN_EVERY = 10


def scene_job(args):
    seed, out, families, tables, mirrored = args
    sc = compose.render_scene(seed, WIDTH, HEIGHT, families=families, tables=tables,
                              depth_mirrored=mirrored)
    name = f"scenes/{seed}.jpg"
    cv2.imwrite(os.path.join(out, name), sc.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    return {"image": name, **sc.meta,
            "cards": [{"id": c.id, "design": c.design, "family": c.family,
                       "corners": c.corners, "visible": round(c.visible, 4), "findable": c.findable}
                      for c in sc.cards]}


def enrol_photo(card_id: str, seed: int) -> np.ndarray:
    """One card lying upright on a plain table, photographed from above as a player would."""
    family, index, k = card_id.rsplit("-", 2)
    d = D.design(family, int(index))
    rng = np.random.default_rng(seed)
    laid = [compose.Laid(d, int(k), (0.0, 0.0), float(rng.normal(0, 0.03)))]
    img = compose.table_texture(rng, str(rng.choice(["light", "dark", "wood", "felt"])), 900, 900)
    corners = laid[0].corners_mm()
    H, _ = compose.camera_homography(rng, corners * 2.2, ENROL_W, ENROL_H, yaw=0.0,
                                     tilt=np.radians(rng.uniform(0, 15)))
    frame = compose.photograph_table(img, (-450, -450), H, ENROL_W, ENROL_H)
    frame = compose.paste_card(frame, laid[0], H)
    frame = cv2.GaussianBlur(frame, (0, 0), 0.6)
    return frame


def block_photo(card_ids: list, cols: int, seed: int) -> np.ndarray:
    """A block of cards laid upright in reading order, photographed from above (enroll-deck)."""
    rng = np.random.default_rng(seed)
    laid = []
    for i, card_id in enumerate(card_ids):
        family, index, k = card_id.rsplit("-", 2)
        d = D.design(family, int(index))
        r, c = divmod(i, cols)
        # Table y grows away from the camera's bottom edge: the first row lies farthest.
        centre = (c * (d.width_mm + rng.uniform(8, 14)), -r * (d.height_mm + rng.uniform(8, 14)))
        laid.append(compose.Laid(d, int(k), centre, float(rng.normal(0, 0.03))))
    corners = np.concatenate([lc.corners_mm() for lc in laid])
    H, _ = compose.camera_homography(rng, corners, WIDTH, HEIGHT, yaw=0.0, tilt=np.radians(rng.uniform(0, 12)))
    lo, hi = corners.min(axis=0) - 300, corners.max(axis=0) + 300
    tex = compose.table_texture(rng, str(rng.choice(["light", "dark", "wood", "felt"])),
                                int(hi[0] - lo[0]), int(hi[1] - lo[1]))
    frame = compose.photograph_table(tex, lo, H, WIDTH, HEIGHT)
    for lc in laid:
        frame = compose.paste_card(frame, lc, H)
    return cv2.GaussianBlur(frame, (0, 0), 0.7)


def enrol_job(args):
    card_id, seed, out, quality = args
    name = f"enrol/{card_id}.jpg"
    cv2.imwrite(os.path.join(out, name), enrol_photo(card_id, seed), [cv2.IMWRITE_JPEG_QUALITY, quality])
    return {"id": card_id, "image": name}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--scenes", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=EVAL_SEED0)
    ap.add_argument("--families", choices=["held-out", "train", "tuning"], default="held-out")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--camera", choices=["upright", "depth-mirrored"], default="upright",
                    help="depth-mirrored: the training scenes' camera (compose.camera_homography)")
    ap.add_argument("--enrol-quality", type=int, default=90, help="JPEG quality of the enrolment photos")
    ap.add_argument("--blocks", type=int, default=0,
                    help="also write this many 3x3 block photos of one design for enroll-deck")
    ap.add_argument("--block-family", help="the blocks' design family (default: the first evaluated)")
    args = ap.parse_args()
    if args.seed < EVAL_SEED0:
        sys.exit(f"seeds below {EVAL_SEED0} are training seeds; evaluate on {EVAL_SEED0} or later")
    # A tuning set (training or tuning families) keeps to the training tables too: nothing held out
    # is tuned on.
    families = {"held-out": D.HELD_OUT, "train": D.TRAIN_FAMILIES, "tuning": D.TUNING_FAMILIES}[args.families]
    tables = compose.TABLES if args.families == "held-out" else compose.TRAIN_TABLES
    os.makedirs(os.path.join(args.out, "scenes"), exist_ok=True)
    os.makedirs(os.path.join(args.out, "enrol"), exist_ok=True)
    seeds = range(args.seed, args.seed + args.scenes)
    with Pool(args.workers) as pool:
        mirrored = args.camera == "depth-mirrored"
        scenes = pool.map(scene_job, [(s, args.out, families, tables, mirrored) for s in seeds],
                          chunksize=8)
        # Every card of every design in play is enrolled (a player enrols the decks they own), but
        # for the unknown ones.
        designs_in_play = sorted({c["design"] for s in scenes for c in s["cards"]})
        cards = sorted(f"{d}-{k:02d}" for d in designs_in_play for k in range(D.CARDS_PER_DESIGN))
        unknown = cards[::UNKNOWN_EVERY]
        known = [c for i, c in enumerate(cards) if i % UNKNOWN_EVERY != 0]
        enrol = pool.map(enrol_job, [(c, D.stable_seed("enrol", c) % (2**32), args.out, args.enrol_quality) for c in known],
                         chunksize=16)
    manifest = {
        "compositor": "models/detect/compose.py",
        "seeds": [args.seed, args.seed + args.scenes - 1],
        "families": families,
        "tables": tables,
        "held_out_tables": compose.HELD_OUT_TABLES,
        "scenes": scenes,
        "enrol": enrol,
        "not_enrolled": unknown,
    }
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f)
    if args.blocks:
        os.makedirs(os.path.join(args.out, "blocks"), exist_ok=True)
        deck = D.design(args.block_family or families[0], 7)
        ids = [deck.card_id(k) for k in range(min(D.CARDS_PER_DESIGN, 9 * args.blocks))]
        for b in range(args.blocks):
            chunk = ids[9 * b:9 * b + 9]
            if chunk:
                cv2.imwrite(os.path.join(args.out, "blocks", f"block-{b + 1}.jpg"),
                            block_photo(chunk, 3, args.seed + b), [cv2.IMWRITE_JPEG_QUALITY, 90])
        # The same cards again, shuffled into a 4-wide block under another camera: what a scan
        # after enrolment should name, in reading order.
        shuffled = [ids[int(i)] for i in np.random.default_rng(args.seed).permutation(len(ids))]
        cv2.imwrite(os.path.join(args.out, "blocks", "check.jpg"),
                    block_photo(shuffled, 4, args.seed + 100), [cv2.IMWRITE_JPEG_QUALITY, 90])
        with open(os.path.join(args.out, "blocks", "check-ids.txt"), "w") as f:
            f.write("\n".join(shuffled) + "\n")
        with open(os.path.join(args.out, "blocks", "ids.txt"), "w") as f:
            f.write(f"# {deck.name}: the cards in laying order\n" + "\n".join(ids) + "\n")
    n = sum(len(s["cards"]) for s in scenes)
    print(f"{len(scenes)} scenes, {n} cards, {len(enrol)} enrolled, {len(unknown)} left unknown -> {args.out}")


if __name__ == "__main__":
    main()
