"""Identifier training crops of the procedural designs (training families only), in the format
models/identify/train.py reads (faces.csv/.u8 and crops.csv/.u8: 40x56 BGR, card id per row).

    python3 models/detect/export_crops.py --out /tmp/arbiter-crops-designs/train --seed 200000 --scenes 3000
    python3 models/detect/export_crops.py --out /tmp/arbiter-crops-designs/val --seed 290000 --scenes 200
    python3 models/detect/export_crops.py --families counts --out /tmp/arbiter-crops-counts/train --seed 240000 --scenes 1200

`--families counts` draws the identifier-only families (designs.IDENTIFIER_FAMILIES: siblings that
differ only in a count), never the detector's.

Crops are cut from compose.py scenes at the truth corners with the same supersampled warp as
vision::embed::warp_crop. Seeds below 300000 only: 500000 on are the evaluation's.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from functools import partial
from multiprocessing import Pool

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compose  # noqa: E402
import designs as D  # noqa: E402

W, H = 40, 56
SUPERSAMPLE = 4


def warp_crop(image: np.ndarray, corners, size=(W, H)) -> np.ndarray:
    w, h = size
    big_w, big_h = w * SUPERSAMPLE, h * SUPERSAMPLE
    src = np.array(corners, np.float32)
    dst = np.array([[0, 0], [big_w, 0], [big_w, big_h], [0, big_h]], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    big = cv2.warpPerspective(image, m, (big_w, big_h), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)


FAMILY_SETS = {"train": D.TRAIN_FAMILIES, "counts": D.IDENTIFIER_FAMILIES}


def scene_crops(seed, depth_mirrored=True, families="train", size=(W, H)):
    # The shipped identifier was trained on depth-mirrored scenes (compose.camera_homography);
    # `--camera upright` draws them with the camera a webcam is.
    sc = compose.render_scene(seed, 1280, 720, families=FAMILY_SETS[families], tables=compose.TRAIN_TABLES,
                              depth_mirrored=depth_mirrored)
    return [(c.id, warp_crop(sc.image, c.corners, size)) for c in sc.cards if c.findable]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--scenes", type=int, default=3000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--camera", choices=["depth-mirrored", "upright"], default="depth-mirrored",
                    help="how the scenes are drawn (depth-mirrored reproduces the shipped model's crops)")
    ap.add_argument("--families", choices=sorted(FAMILY_SETS), default="train",
                    help="the detector's training families, or the identifier-only count families")
    ap.add_argument("--size", default=f"{W}x{H}", help="crop width x height (the identifier's input)")
    args = ap.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    if args.seed + args.scenes > 300_000:
        sys.exit("crop seeds stay below 300000 (the evaluation's seeds start at 500000)")
    os.makedirs(args.out, exist_ok=True)
    with Pool(args.workers) as pool:
        per_scene = pool.map(partial(scene_crops, depth_mirrored=args.camera == "depth-mirrored",
                                     families=args.families, size=size),
                             range(args.seed, args.seed + args.scenes), chunksize=8)
    crops = [c for s in per_scene for c in s]
    ids = sorted({i for i, _ in crops})
    faces = []
    for card_id in ids:
        family, index, k = card_id.rsplit("-", 2)
        face = D.render(D.design(family, int(index)), int(k))
        faces.append(cv2.resize(face, size, interpolation=cv2.INTER_AREA))
    for name, rows, pixels in [("crops", [i for i, _ in crops], [p for _, p in crops]), ("faces", ids, faces)]:
        with open(os.path.join(args.out, f"{name}.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["card"])
            w.writerows([r] for r in rows)
        np.stack(pixels).astype(np.uint8).tofile(os.path.join(args.out, f"{name}.u8"))
    print(f"{len(crops)} crops of {len(ids)} cards from {args.scenes} scenes -> {args.out}")


if __name__ == "__main__":
    main()
