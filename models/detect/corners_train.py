"""Trains the corner refiner (card_corners.tflite) on the CPU, seeded.

The detector finds each card at a quarter of a 1280-px frame's resolution, so its corners are a few
pixels off (median about 6 % of the card's side), and a crop cut from them names the card less often.
The refiner looks at one corner at a time: a PATCH x PATCH square cut along the card's own axes
around where the detector put that corner (REACH of the card's side either way, the card's inside
towards the bottom right), and says where the corner really is in the same square. One network serves
all four corners (each is turned so that the card lies towards the bottom right), and Rust runs the
four of a card in one call (`vision::detector::corners`).

Training scenes: compose.py seeds TRAIN_SEEDS (training design families and tables only, upright
camera anywhere round the table, 1280x720 like the evaluation sets); validation seeds VAL_SEEDS.
Every wholly visible card is used; its quad is disturbed as a detector's would be (each corner, the
whole card's place, size and turn), and the network learns the true corners back.

    python3 models/detect/corners_train.py --out models/detect --scenes 2000 --steps 8000
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from multiprocessing import Pool

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compose  # noqa: E402
import designs  # noqa: E402
from train import EVAL_SEED0, conv_bn_relu, seed_all, separable  # noqa: E402

WIDTH, HEIGHT = 1280, 720
TRAIN_SEED0 = 120_000
VAL_SEED0 = 196_000
# The patch: PATCH px square, covering the card's own axes from -REACH to +REACH of its sides
# around the corner. Rust (vision::detector::corners) uses the same numbers.
PATCH = 48
REACH = 0.25
# Where a card's crop is cut for training: this share of its longest side beyond its box, enough
# for the farthest disturbed patch.
CROP_MARGIN = 0.8
# How the quad is disturbed, as shares of the card's mean side: each corner, the whole card's place,
# its size (a factor's spread) and turn (radians); no corner ends farther than MAX_SHIFT.
CORNER_SIGMA = 0.05
PLACE_SIGMA = 0.03
SIZE_SIGMA = 0.04
TURN_SIGMA = 0.035
MAX_SHIFT = 0.2


def clockwise(q: np.ndarray) -> np.ndarray:
    """The quad's corners clockwise on screen (y down)."""
    x, y = q[:, 0], q[:, 1]
    area = 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)
    return q if area > 0 else q[::-1].copy()


def corner_transform(q: np.ndarray, k: int) -> np.ndarray:
    """3x3 map from patch pixels to image pixels for corner k of a clockwise quad: the unit square
    (0,0)->q[k], (1,0)->q[k+1], (1,1)->q[k+2], (0,1)->q[k+3], its [-REACH, REACH]^2 spread over
    the patch's pixel centres."""
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    turned = np.roll(q, -k, axis=0).astype(np.float32)
    h = cv2.getPerspectiveTransform(unit, turned).astype(np.float64)
    step = 2 * REACH / PATCH
    a = np.array([[step, 0, -REACH + step / 2], [0, step, -REACH + step / 2], [0, 0, 1]])
    return h @ a


def patch(img: np.ndarray, m: np.ndarray) -> np.ndarray:
    return cv2.warpPerspective(img, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))


def normalise(p: np.ndarray) -> np.ndarray:
    """BGR / 255 less the patch's mean, over its spread (light and contrast do not matter)."""
    f = p.astype(np.float32) / 255.0
    return (f - f.mean()) / (f.std() + 0.02)


def target(q: np.ndarray, k: int, true_corner: np.ndarray) -> np.ndarray:
    """Where the true corner lies in the patch's unit square, in units of REACH (0 = no change)."""
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    h = cv2.getPerspectiveTransform(unit, np.roll(q, -k, axis=0).astype(np.float32))
    p = np.linalg.solve(h, np.array([true_corner[0], true_corner[1], 1.0]))
    return (p[:2] / p[2]) / REACH


def disturb(rng, q: np.ndarray) -> np.ndarray:
    side = float(np.mean([np.linalg.norm(q[i] - q[(i + 1) % 4]) for i in range(4)]))
    c = q.mean(axis=0)
    turn = rng.normal(0, TURN_SIGMA)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    scale = 1 + rng.normal(0, SIZE_SIGMA)
    spread = CORNER_SIGMA * (0.2 if rng.random() < 0.2 else 1.0)
    out = (q - c) @ rot.T * scale + c + rng.normal(0, PLACE_SIGMA * side, 2)
    out = out + rng.normal(0, spread * side, (4, 2))
    shift = out - q
    norm = np.linalg.norm(shift, axis=1, keepdims=True)
    limit = MAX_SHIFT * side
    return q + shift * np.minimum(1.0, limit / np.maximum(norm, 1e-9))


def card_crops(seed: int):
    """Every wholly visible card of one scene: a crop around it (zeros beyond the frame, as Rust's
    warp sees there) and its true corners in the crop, clockwise on screen."""
    sc = compose.render_scene(seed, WIDTH, HEIGHT, families=designs.TRAIN_FAMILIES,
                              tables=compose.TRAIN_TABLES)
    out = []
    for c in sc.cards:
        if not c.findable:
            continue
        q = clockwise(np.array(c.corners, np.float64))
        side = float(np.max(np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)))
        x0, y0 = np.floor(q.min(axis=0) - CROP_MARGIN * side).astype(int)
        x1, y1 = np.ceil(q.max(axis=0) + CROP_MARGIN * side).astype(int)
        crop = np.zeros((y1 - y0, x1 - x0, 3), np.uint8)
        sx0, sy0, sx1, sy1 = max(x0, 0), max(y0, 0), min(x1, WIDTH), min(y1, HEIGHT)
        if sx1 <= sx0 or sy1 <= sy0:
            continue
        crop[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] = sc.image[sy0:sy1, sx0:sx1]
        out.append((crop, q - np.array([x0, y0])))
    return out


def render(seeds, workers: int):
    with Pool(workers) as pool:
        per_scene = pool.map(card_crops, seeds, chunksize=8)
    return [c for scene in per_scene for c in scene]


def batch(rng, cards, n_cards: int):
    xs, ys = [], []
    for i in rng.integers(0, len(cards), n_cards):
        crop, q = cards[int(i)]
        d = disturb(rng, q)
        for k in range(4):
            xs.append(normalise(patch(crop, corner_transform(d, k))))
            ys.append(target(d, k, q[k]))
    return np.stack(xs), np.stack(ys).astype(np.float32)


def build_model():
    import tensorflow as tf
    L = tf.keras.layers
    inp = tf.keras.Input((PATCH, PATCH, 3))
    x = conv_bn_relu(inp, 16, 2)   # 24
    x = separable(x, 32)
    x = separable(x, 48, 2)        # 12
    x = separable(x, 48)
    x = separable(x, 64, 2)        # 6
    x = separable(x, 96, 2)        # 3
    x = L.Flatten()(x)
    x = L.Dense(64, activation="relu")(x)
    out = L.Dense(2)(x)
    return tf.keras.Model(inp, out)


def refined(model, img: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The quad with each corner moved to where the model puts it."""
    x = np.stack([normalise(patch(img, corner_transform(q, k))) for k in range(4)])
    y = model(x, training=False).numpy()
    out = []
    for k in range(4):
        u = (y[k] * REACH + REACH) / (2 * REACH / PATCH) - 0.5
        p = corner_transform(q, k) @ np.array([u[0], u[1], 1.0])
        out.append(p[:2] / p[2])
    return np.array(out)


def pixel_errors(model, cards, rng, rounds: int = 1):
    """Corner errors in pixels of disturbed validation quads, before and after `rounds` passes."""
    before, after = [], []
    for crop, q in cards:
        d = disturb(rng, q)
        before.extend(np.linalg.norm(d - q, axis=1))
        for _ in range(rounds):
            d = refined(model, crop, d)
        after.extend(np.linalg.norm(d - q, axis=1))
    return np.array(before), np.array(after)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--cache-dir", default="/tmp/corners-run")
    ap.add_argument("--scenes", type=int, default=2000)
    ap.add_argument("--val", type=int, default=100)
    ap.add_argument("--steps", type=int, default=8000)
    ap.add_argument("--batch-cards", type=int, default=32)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    seed_all(args.seed, inter_op_threads=1)
    import tensorflow as tf

    train_seeds = list(range(TRAIN_SEED0, TRAIN_SEED0 + args.scenes))
    val_seeds = list(range(VAL_SEED0, VAL_SEED0 + args.val))
    assert max(train_seeds + val_seeds) < EVAL_SEED0
    os.makedirs(args.cache_dir, exist_ok=True)
    cache = os.path.join(args.cache_dir, f"cards-{args.scenes}-{args.val}.npz")
    t0 = time.time()
    if os.path.exists(cache):
        z = np.load(cache, allow_pickle=True)
        cards, val = list(z["cards"]), list(z["val"])
    else:
        cards, val = render(train_seeds, args.workers), render(val_seeds, args.workers)
        arr = np.empty(len(cards), object)
        arr[:] = cards
        varr = np.empty(len(val), object)
        varr[:] = val
        np.savez(cache, cards=arr, val=varr)
    print(f"{len(cards)} training cards, {len(val)} validation cards ({time.time() - t0:.0f} s)", flush=True)

    model = build_model()
    sched = tf.keras.optimizers.schedules.CosineDecay(args.lr, args.steps, alpha=0.02)
    opt = tf.keras.optimizers.Adam(sched)
    huber = tf.keras.losses.Huber(delta=0.1)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = huber(y, model(x, training=True))
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    rng = np.random.default_rng(args.seed)
    t1 = time.time()
    for s in range(args.steps):
        x, y = batch(rng, cards, args.batch_cards)
        loss = step(x, y)
        if s % 250 == 0 or s == args.steps - 1:
            print(f"step {s} loss {float(loss):.5f} ({(time.time() - t1) / (s + 1):.3f} s/step)", flush=True)

    before, after = pixel_errors(model, val, np.random.default_rng(1))
    _, twice = pixel_errors(model, val, np.random.default_rng(1), rounds=2)
    report = {
        "disturbed_px": percentiles(before), "refined_px": percentiles(after),
        "refined_twice_px": percentiles(twice),
    }
    print(json.dumps(report), flush=True)

    os.makedirs(args.out, exist_ok=True)
    fixed_in = tf.keras.Input((PATCH, PATCH, 3), batch_size=4)
    fixed = tf.keras.Model(fixed_in, model(fixed_in, training=False))
    tfl = tf.lite.TFLiteConverter.from_keras_model(fixed).convert()
    path = os.path.join(args.out, "card_corners.tflite")
    with open(path, "wb") as f:
        f.write(tfl)
    write_agreement(path, val, args.out)
    metrics = {
        "train_scenes": [train_seeds[0], train_seeds[-1]], "val_scenes": [val_seeds[0], val_seeds[-1]],
        "train_cards": len(cards), "val_cards": len(val),
        "train_families": designs.TRAIN_FAMILIES, "train_tables": compose.TRAIN_TABLES,
        "steps": args.steps, "batch_cards": args.batch_cards, "lr": args.lr, "seed": args.seed,
        "seconds": round(time.time() - t0), "validation": report,
    }
    with open(os.path.join(args.out, "corners_metrics.json"), "w") as f:
        json.dump(metrics, f, indent=1)


def percentiles(e: np.ndarray) -> dict:
    if len(e) == 0:
        return {}
    return {"median": round(float(np.median(e)), 3), "p75": round(float(np.percentile(e, 75)), 3),
            "p90": round(float(np.percentile(e, 90)), 3), "mean": round(float(e.mean()), 3)}


def write_agreement(path: str, val, out_dir: str):
    """The TFLite interpreter's outputs for the four patches of one validation card, for the Rust
    agreement test: the patches' raw pixels are saved as one PNG strip."""
    import tensorflow as tf
    crop, q = val[0]
    d = disturb(np.random.default_rng(3), q)
    raw = [patch(crop, corner_transform(d, k)) for k in range(4)]
    interp = tf.lite.Interpreter(model_path=path)
    interp.allocate_tensors()
    interp.set_tensor(interp.get_input_details()[0]["index"], np.stack([normalise(p) for p in raw]))
    interp.invoke()
    y = interp.get_tensor(interp.get_output_details()[0]["index"])
    cv2.imwrite(os.path.join(out_dir, "corners-agreement.png"), np.concatenate(raw, axis=1))
    with open(os.path.join(out_dir, "corners-agreement.json"), "w") as f:
        json.dump({"input": "corners-agreement.png", "output": y.tolist()}, f, indent=1)


if __name__ == "__main__":
    main()
