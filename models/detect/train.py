"""Trains the design-agnostic card detector (card_detect.tflite) on the CPU, seeded.

Input: [1, IN_H, IN_W, 3] float32, BGR / 255, the frame resized (aspect kept) into the top-left of
the input and the rest zero. Output: [1, IN_H/2, IN_W/2, 2] float32 in 0..1:
  channel 0 "core": inside a visible card shrunk about its centre to CORE (compose.py) of its size,
  channel 1 "card": inside any visible card.
Rust (vision::card_detect) turns cores into card quads.

    python3 models/detect/train.py --out models/detect [--scenes 4000] [--steps 3000]

Training scenes: compose.py seeds TRAIN_SEEDS, training design families and tables only; seeds
EVAL_SEEDS and later are never trained on.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from multiprocessing import Pool

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compose  # noqa: E402
import designs  # noqa: E402

IN_W, IN_H = 448, 336
OUT_W, OUT_H = IN_W // 2, IN_H // 2
TRAIN_SEED0 = 100_000
VAL_SEED0 = 190_000
# Evaluation scenes (export_eval.py) start here; training refuses them.
EVAL_SEED0 = 500_000
ASPECTS = [(896, 504), (896, 672), (896, 597), (896, 560)]


def letterbox(img: np.ndarray, w=IN_W, h=IN_H, interp=cv2.INTER_AREA) -> tuple[np.ndarray, float]:
    s = min(w / img.shape[1], h / img.shape[0])
    nw, nh = max(1, round(img.shape[1] * s)), max(1, round(img.shape[0] * s))
    small = cv2.resize(img, (nw, nh), interpolation=interp)
    out = np.zeros((h, w) + img.shape[2:], img.dtype)
    out[:nh, :nw] = small
    return out, s


def sample(seed: int, depth_mirrored: bool = True):
    rng = np.random.default_rng(seed)
    cw, ch = ASPECTS[int(rng.integers(len(ASPECTS)))]
    sc = compose.render_scene(seed, cw, ch, depth_mirrored=depth_mirrored)
    img, _ = letterbox(sc.image)
    core, _ = letterbox(sc.core.astype(np.float32), OUT_W, OUT_H)
    card, _ = letterbox((sc.ids > 0).astype(np.float32), OUT_W, OUT_H)
    target = np.stack([core, card], axis=-1)
    return img, (target * 255).round().astype(np.uint8)


def make_data(seeds, depth_mirrored: bool, workers=2):
    with Pool(workers) as pool:
        out = pool.starmap(sample, [(s, depth_mirrored) for s in seeds], chunksize=16)
    x = np.stack([o[0] for o in out])
    y = np.stack([o[1] for o in out])
    return x, y


def build_model():
    import tensorflow as tf
    from tensorflow.keras import layers as L

    def cbr(x, c, stride=1, k=3):
        x = L.Conv2D(c, k, strides=stride, padding="same", use_bias=False)(x)
        x = L.BatchNormalization()(x)
        return L.ReLU()(x)

    def sep(x, c, stride=1):
        x = L.DepthwiseConv2D(3, strides=stride, padding="same", use_bias=False)(x)
        x = L.BatchNormalization()(x)
        x = L.ReLU()(x)
        return cbr(x, c, k=1)

    inp = tf.keras.Input((IN_H, IN_W, 3), batch_size=None)
    def up(x, like):
        # Nearest resize (RESIZE_NEAREST_NEIGHBOR in TFLite; UpSampling2D becomes TILE, which tract
        # does not run).
        return L.Resizing(like.shape[1], like.shape[2], interpolation="nearest")(x)

    c1 = cbr(inp, 16, stride=2)            # 1/2
    c2 = sep(c1, 16)                       # 1/2
    c3 = sep(c2, 32, stride=2)             # 1/4
    c4 = sep(c3, 32)
    c5 = sep(c4, 64, stride=2)             # 1/8
    c6 = sep(c5, 64)
    c7 = sep(c6, 96, stride=2)             # 1/16
    c8 = sep(c7, 96)
    u = up(c8, c6)
    u = cbr(L.Concatenate()([u, c6]), 48, k=1)
    u = sep(u, 48)
    u = up(u, c4)
    u = cbr(L.Concatenate()([u, c4]), 32, k=1)
    u = sep(u, 32)
    u = up(u, c2)
    u = cbr(L.Concatenate()([u, c2]), 16, k=1)
    u = sep(u, 16)
    out = L.Conv2D(2, 1, activation="sigmoid")(u)
    return tf.keras.Model(inp, out)


def loss_fn(y, p):
    import tensorflow as tf

    bce = tf.reduce_mean(tf.keras.losses.binary_crossentropy(y[..., :, None], p[..., :, None]))
    core_y, core_p = y[..., 0], p[..., 0]
    inter = tf.reduce_sum(core_y * core_p, axis=[1, 2])
    dice = 1 - (2 * inter + 1) / (tf.reduce_sum(core_y, axis=[1, 2]) + tf.reduce_sum(core_p, axis=[1, 2]) + 1)
    return bce * 4 + tf.reduce_mean(dice)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--scenes", type=int, default=4000)
    ap.add_argument("--val", type=int, default=200)
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--cache", default="/tmp/arbiter-detect-data.npz")
    ap.add_argument("--cache-dir", default="/tmp")
    ap.add_argument("--init", help="start from these weights (a .weights.h5 an earlier run saved)")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--camera", choices=["depth-mirrored", "upright"], default="depth-mirrored",
                    help="the training scenes' camera (compose.camera_homography); the shipped "
                         "model was trained on depth-mirrored scenes")
    args = ap.parse_args()

    random.seed(args.seed)
    np.random.seed(args.seed)
    import tensorflow as tf

    tf.random.set_seed(args.seed)
    tf.config.threading.set_inter_op_parallelism_threads(2)
    tf.config.threading.set_intra_op_parallelism_threads(2)

    t0 = time.time()
    train_seeds = list(range(TRAIN_SEED0, TRAIN_SEED0 + args.scenes))
    val_seeds = list(range(VAL_SEED0, VAL_SEED0 + args.val))
    assert max(train_seeds + val_seeds) < EVAL_SEED0
    mirrored = args.camera == "depth-mirrored"
    key = f"{args.scenes}-{args.val}" + ("" if mirrored else "-upright")
    if os.path.exists(args.cache) and str(np.load(args.cache)["key"]) == key:
        d = np.load(args.cache)
        x, y, vx, vy = d["x"], d["y"], d["vx"], d["vy"]
    else:
        x, y = make_data(train_seeds, mirrored)
        vx, vy = make_data(val_seeds, mirrored)
        np.savez(args.cache, x=x, y=y, vx=vx, vy=vy, key=key)
    print(f"data: {len(x)} train, {len(vx)} val scenes in {time.time() - t0:.0f} s", flush=True)

    model = build_model()
    if args.init:
        model.load_weights(args.init)
    print(f"parameters: {model.count_params()}", flush=True)
    sched = tf.keras.optimizers.schedules.CosineDecay(args.lr, args.steps, alpha=0.05)
    opt = tf.keras.optimizers.Adam(sched)

    @tf.function
    def step(xb, yb):
        with tf.GradientTape() as tape:
            p = model(xb, training=True)
            loss = loss_fn(yb, p)
        g = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(g, model.trainable_variables))
        return loss

    rng = np.random.default_rng(args.seed)
    t1 = time.time()
    for s in range(args.steps):
        idx = rng.integers(0, len(x), args.batch)
        xb = x[idx].astype(np.float32) / 255.0
        yb = y[idx].astype(np.float32) / 255.0
        loss = step(tf.constant(xb), tf.constant(yb))
        if s % 100 == 0 or s == args.steps - 1:
            print(f"step {s} loss {float(loss):.4f} ({(time.time() - t1) / (s + 1):.2f} s/step)", flush=True)

    # Validation: pixel IoU of the core channel.
    inter = union = 0.0
    for i in range(0, len(vx), 16):
        p = model(vx[i:i + 16].astype(np.float32) / 255.0, training=False).numpy()
        t = vy[i:i + 16].astype(np.float32) / 255.0
        pc, tc = p[..., 0] > 0.5, t[..., 0] > 0.5
        inter += float((pc & tc).sum())
        union += float((pc | tc).sum())
    iou = inter / max(union, 1)
    print(f"validation core IoU {iou:.4f}", flush=True)

    model.save_weights(os.path.join(args.cache_dir, "card_detect.weights.h5"))
    # Export with a fixed batch of one, float32.
    fixed_in = tf.keras.Input((IN_H, IN_W, 3), batch_size=1)
    fixed = tf.keras.Model(fixed_in, model(fixed_in, training=False))
    conv = tf.lite.TFLiteConverter.from_keras_model(fixed)
    tfl = conv.convert()
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "card_detect.tflite")
    with open(path, "wb") as f:
        f.write(tfl)

    # Agreement data for the Rust test: one validation scene and one seeded noise image.
    interp = tf.lite.Interpreter(model_path=path)
    interp.allocate_tensors()
    agree = []
    noise = np.random.default_rng(1).integers(0, 256, (IN_H, IN_W, 3)).astype(np.uint8)
    for name, img in [("val0", vx[0]), ("noise", noise)]:
        interp.set_tensor(interp.get_input_details()[0]["index"], img[None].astype(np.float32) / 255.0)
        interp.invoke()
        o = interp.get_tensor(interp.get_output_details()[0]["index"])[0]
        cv2.imwrite(os.path.join(args.out, f"agreement-{name}.png"), img)
        pts = [(7, 11), (OUT_H // 2, OUT_W // 2), (OUT_H - 3, OUT_W - 5), (40, 100)]
        agree.append({"input": f"agreement-{name}.png", "mean": [float(o[..., c].mean()) for c in range(2)],
                      "samples": [[r, c, float(o[r, c, 0]), float(o[r, c, 1])] for r, c in pts]})
    with open(os.path.join(args.out, "agreement.json"), "w") as f:
        json.dump(agree, f, indent=1)
    metrics = {
        "train_scenes": [train_seeds[0], train_seeds[-1]],
        "val_scenes": [val_seeds[0], val_seeds[-1]],
        "train_families": designs.TRAIN_FAMILIES,
        "held_out_families": designs.HELD_OUT,
        "train_tables": compose.TRAIN_TABLES,
        "held_out_tables": compose.HELD_OUT_TABLES,
        "steps": args.steps, "batch": args.batch, "seed": args.seed, "lr": args.lr,
        "init": os.path.basename(args.init) if args.init else None,
        "parameters": int(model.count_params()),
        "validation_core_iou": iou,
        "train_seconds": round(time.time() - t1),
    }
    with open(os.path.join(args.out, "metrics.json"), "w") as f:
        json.dump(metrics, f, indent=1)
    print(json.dumps(metrics), flush=True)


if __name__ == "__main__":
    main()
