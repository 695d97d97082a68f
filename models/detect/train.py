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


# The "inset" core: a card's visible pixels farther than this many output pixels from any pixel
# that is not the same card (the table, another card, a hand, the frame's edge). Touching and
# overlapping cards' cores are 2 x CORE_INSET apart; Rust grows a core back by the same amount.
CORE_INSET = 2.0


def inset_core(ids: np.ndarray, out_scale: float) -> np.ndarray:
    """1 where a card's visible pixel lies more than CORE_INSET output pixels inside its own region."""
    padded = np.pad(ids, 1, constant_values=-2)
    same = np.ones(ids.shape, bool)
    for dy, dx in ((0, 1), (2, 1), (1, 0), (1, 2)):
        same &= padded[dy:dy + ids.shape[0], dx:dx + ids.shape[1]] == ids
    dist = cv2.distanceTransform(same.astype(np.uint8), cv2.DIST_L2, 5)
    return ((ids > 0) & (dist > CORE_INSET / out_scale)).astype(np.float32)


def sample(seed: int, depth_mirrored: bool = True, target: str = "share", families=None):
    rng = np.random.default_rng(seed)
    cw, ch = ASPECTS[int(rng.integers(len(ASPECTS)))]
    sc = compose.render_scene(seed, cw, ch, families=families, depth_mirrored=depth_mirrored)
    img, s = letterbox(sc.image)
    if target == "inset":
        core, _ = letterbox(inset_core(sc.ids, s / 2), OUT_W, OUT_H)
    else:
        core, _ = letterbox(sc.core.astype(np.float32), OUT_W, OUT_H)
    card, _ = letterbox((sc.ids > 0).astype(np.float32), OUT_W, OUT_H)
    target = np.stack([core, card], axis=-1)
    return img, (target * 255).round().astype(np.uint8)


def make_data(seeds, depth_mirrored: bool, target: str = "share", workers=2, families=None):
    jobs = [(s, depth_mirrored, target, families) for s in seeds]
    if workers <= 1:
        out = [sample(*j) for j in jobs]
    else:
        with Pool(workers) as pool:
            out = pool.starmap(sample, jobs, chunksize=16)
    x = np.stack([o[0] for o in out])
    y = np.stack([o[1] for o in out])
    return x, y


def _render_chunk(seeds, depth_mirrored: bool, target: str, path: str, families=None):
    x, y = make_data(seeds, depth_mirrored, target, workers=1, families=families)
    np.savez(path + ".part.npz", x=x, y=y)
    os.replace(path + ".part.npz", path)


def _load_chunk(chunk):
    path, job = chunk
    if job is not None:
        job.get()
    d = np.load(path)
    return d["x"], d["y"]


def _crop(rng, xb, yb, size: int):
    """The same random square of each input and its target (targets are at half the resolution)."""
    xs, ys = [], []
    for xi, yi in zip(xb, yb):
        r = int(rng.integers(0, (IN_H - size) // 2 + 1)) * 2
        c = int(rng.integers(0, (IN_W - size) // 2 + 1)) * 2
        xs.append(xi[r:r + size, c:c + size])
        ys.append(yi[r // 2:(r + size) // 2, c // 2:(c + size) // 2])
    return np.stack(xs), np.stack(ys)


def seed_all(seed: int, inter_op_threads: int = 2) -> None:
    """Seeds Python, NumPy and TensorFlow and keeps TensorFlow to the machine's two cores."""
    import tensorflow as tf
    random.seed(seed)
    np.random.seed(seed)
    tf.random.set_seed(seed)
    tf.config.threading.set_inter_op_parallelism_threads(inter_op_threads)
    tf.config.threading.set_intra_op_parallelism_threads(2)


def conv_bn_relu(x, c, stride=1, k=3):
    from tensorflow.keras import layers as L
    x = L.Conv2D(c, k, strides=stride, padding="same", use_bias=False)(x)
    x = L.BatchNormalization()(x)
    return L.ReLU()(x)


def separable(x, c, stride=1):
    """Depthwise 3x3, then a 1x1 convolution to c channels, each with batch norm and ReLU."""
    from tensorflow.keras import layers as L
    x = L.DepthwiseConv2D(3, strides=stride, padding="same", use_bias=False)(x)
    x = L.BatchNormalization()(x)
    x = L.ReLU()(x)
    return conv_bn_relu(x, c, k=1)


# A context block's hidden width (the expansion of its 1x1 convolutions) and its depthwise dilation.
CONTEXT_WIDTH = 128
CONTEXT_DILATION = 2


def context_block(x, index: int):
    """A residual block at the coarsest level that widens the receptive field (dilated depthwise 3x3,
    1x1 out to CONTEXT_WIDTH, 1x1 back). Its last convolution starts at zero, so a model with new
    blocks computes what the model it was initialised from computed and training grows them."""
    from tensorflow.keras import layers as L
    c = x.shape[-1]
    y = L.DepthwiseConv2D(3, padding="same", dilation_rate=CONTEXT_DILATION, use_bias=False,
                          name=f"context{index}_dw")(x)
    y = L.BatchNormalization(name=f"context{index}_dw_bn")(y)
    y = L.ReLU()(y)
    y = L.Conv2D(CONTEXT_WIDTH, 1, use_bias=False, name=f"context{index}_expand")(y)
    y = L.BatchNormalization(name=f"context{index}_expand_bn")(y)
    y = L.ReLU()(y)
    y = L.Conv2D(c, 1, kernel_initializer="zeros", name=f"context{index}_project")(y)
    return L.Add()([x, y])


def build_model(h: int = IN_H, w: int = IN_W, context_blocks: int = 0):
    import tensorflow as tf
    from tensorflow.keras import layers as L
    cbr, sep = conv_bn_relu, separable

    inp = tf.keras.Input((h, w, 3), batch_size=None)
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
    for i in range(context_blocks):
        c8 = context_block(c8, i)
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


# Seam pixels: not in any core, but within SEAM_RADIUS output px of two different cards' cores (the
# gap the model must keep open between touching or overlapping cards).
SEAM_RADIUS = 4


def seam_map(core: np.ndarray) -> np.ndarray:
    """1 at the seam pixels of one core target (uint8 0..255, output resolution), else 0."""
    inside = core > 127
    n, labels = cv2.connectedComponents(inside.astype(np.uint8), connectivity=8)
    if n < 3:
        return np.zeros(core.shape, np.float32)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * SEAM_RADIUS + 1,) * 2)
    lab = labels.astype(np.float32)
    highest = cv2.dilate(lab, kernel)
    lowest = cv2.erode(np.where(inside, lab, np.float32(n)), kernel)
    return (~inside & (highest > 0) & (lowest < n) & (highest != lowest)).astype(np.float32)


# Convolutions in a model without context blocks, and in each context block.
BASE_CONVS = 25
CONTEXT_CONVS = 3


def _tflite_convs(path: str):
    import tensorflow as tf
    interp = tf.lite.Interpreter(
        model_path=path,
        experimental_op_resolver_type=tf.lite.experimental.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    interp.allocate_tensors()
    ops = [o for o in interp._get_ops_details() if o["op_name"] in ("CONV_2D", "DEPTHWISE_CONV_2D")]
    return interp, ops


def context_blocks_of(path: str) -> int:
    """How many context blocks the model in a TFLite file this script exported has."""
    _, ops = _tflite_convs(path)
    extra = len(ops) - BASE_CONVS
    if extra < 0 or extra % CONTEXT_CONVS:
        raise ValueError(f"{path}: {len(ops)} convolutions is no model this script builds")
    return extra // CONTEXT_CONVS


def load_tflite_weights(model, path: str, fresh_context_blocks: int = 0) -> None:
    """Sets `model`'s weights from a TFLite file this script exported (batch norm folded into each
    convolution): kernels from the file, each batch norm an identity plus the folded bias. Train such
    a model with its batch norms in inference mode (`--bn-inference`). The model's last
    `fresh_context_blocks` context blocks are not in the file and keep their initial weights."""
    from tensorflow.keras import layers as L

    interp, ops = _tflite_convs(path)
    convs = [l for l in model.layers if isinstance(l, (L.Conv2D, L.DepthwiseConv2D))]
    blocks = context_blocks_in(model)
    fresh = {f"context{i}" for i in range(blocks - fresh_context_blocks, blocks)}
    convs = [l for l in convs if l.name.split("_")[0] not in fresh]
    if len(ops) != len(convs):
        raise ValueError(f"{path}: {len(ops)} convolutions, the model has {len(convs)}")
    for op, layer in zip(ops, convs):
        w = interp.get_tensor(int(op["inputs"][1]))
        b = interp.get_tensor(int(op["inputs"][2]))
        # CONV_2D [out, kh, kw, in] -> [kh, kw, in, out]; DEPTHWISE [1, kh, kw, c] -> [kh, kw, c, 1].
        kernel = w.transpose(1, 2, 3, 0)
        if tuple(kernel.shape) != tuple(layer.kernel.shape):
            raise ValueError(f"{path}: kernel {kernel.shape} for {layer.name} {layer.kernel.shape}")
        if layer.use_bias:
            layer.set_weights([kernel, b])
            continue
        layer.set_weights([kernel])
        bn = model.layers[model.layers.index(layer) + 1]
        if not isinstance(bn, L.BatchNormalization):
            raise ValueError(f"{layer.name} is not followed by a batch norm")
        bn.set_weights([np.ones_like(b), b, np.zeros_like(b), np.full_like(b, 1.0 - bn.epsilon)])


def context_blocks_in(model) -> int:
    return sum(1 for l in model.layers if l.name.startswith("context") and l.name.endswith("_dw"))


def loss_fn(y, p, seam=None, seam_weight: float = 0.0):
    """BCE on both channels (x4) + soft Dice on the core; seam pixels weigh 1 + seam_weight in the
    core channel's BCE (the U-Net weight map for separating touching objects)."""
    import tensorflow as tf

    per_pixel = tf.keras.losses.binary_crossentropy(y[..., :, None], p[..., :, None])
    if seam is not None and seam_weight > 0:
        weight = tf.stack([1.0 + seam_weight * seam, tf.ones_like(seam)], axis=-1)
        per_pixel = per_pixel * weight
    bce = tf.reduce_mean(per_pixel)
    core_y, core_p = y[..., 0], p[..., 0]
    inter = tf.reduce_sum(core_y * core_p, axis=[1, 2])
    dice = 1 - (2 * inter + 1) / (tf.reduce_sum(core_y, axis=[1, 2]) + tf.reduce_sum(core_p, axis=[1, 2]) + 1)
    return bce * 4 + tf.reduce_mean(dice)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--scenes", type=int, default=4000)
    ap.add_argument("--first-scene", type=int, default=TRAIN_SEED0,
                    help="the first training scene's seed (a later run can train on scenes the "
                         "earlier ones never saw)")
    ap.add_argument("--val", type=int, default=200)
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--cache", default="/tmp/arbiter-detect-data.npz")
    ap.add_argument("--cache-dir", default="/tmp")
    ap.add_argument("--init", help="start from these weights (a .weights.h5 an earlier run saved)")
    ap.add_argument("--init-tflite", help="start from the weights of a TFLite file this script exported")
    ap.add_argument("--bn-inference", action="store_true",
                    help="train with batch norms in inference mode (needed after --init-tflite)")
    ap.add_argument("--seam-weight", type=float, default=0.0,
                    help="weigh the core channel's seam pixels (between two cards' cores) 1 + this")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--camera", choices=["depth-mirrored", "upright"], default="depth-mirrored",
                    help="the training scenes' camera (compose.camera_homography); the shipped "
                         "model was trained on upright scenes")
    ap.add_argument("--target", choices=["share", "inset"], default="share",
                    help="channel 0: the card shrunk to compose.CORE of its size (share) or its "
                         "visible pixels CORE_INSET output px inside its outline (inset)")
    ap.add_argument("--crop", type=int, default=0,
                    help="train on random crops this many input px square (0: whole inputs); "
                         "the model is convolutional, so the same weights run at full size")
    ap.add_argument("--flip", action="store_true", help="mirror half the training samples")
    ap.add_argument("--chunk", type=int, default=0,
                    help="render the training scenes in chunks of this many and train while "
                         "later chunks render: chunk k joins the pool at step k x --chunk-steps")
    ap.add_argument("--chunk-steps", type=int, default=500)
    ap.add_argument("--families", choices=["train", "train+counts"], default="train",
                    help="training scenes' design families: the training families, or those and the "
                         "identifier's count family (plain paper with marks, light or dark); validation "
                         "always uses the training families alone")
    ap.add_argument("--context-blocks", type=int, default=0,
                    help="residual blocks at the coarsest level that widen what each output pixel "
                         "sees; those beyond --init-tflite's start at zero (the model unchanged)")
    ap.add_argument("--note", default="",
                    help="kept in metrics.json (say here how a run with --steps 0 made its --init)")
    args = ap.parse_args()

    seed_all(args.seed)
    import tensorflow as tf

    t0 = time.time()
    train_seeds = list(range(args.first_scene, args.first_scene + args.scenes))
    val_seeds = list(range(VAL_SEED0, VAL_SEED0 + args.val))
    assert args.first_scene >= TRAIN_SEED0 and max(train_seeds) < VAL_SEED0 <= min(val_seeds)
    assert max(train_seeds + val_seeds) < EVAL_SEED0
    mirrored = args.camera == "depth-mirrored"
    families = designs.TRAIN_FAMILIES
    if args.families == "train+counts":
        families = families + designs.IDENTIFIER_FAMILIES
    key = f"{args.scenes}-{args.val}" + ("" if mirrored else "-upright") + \
        ("" if args.target == "share" else f"-{args.target}")
    train_key = key + ("" if args.families == "train" else "-counts") + \
        ("" if args.first_scene == TRAIN_SEED0 else f"-from{args.first_scene}")
    pool = chunks = None
    if args.chunk:
        val_path = os.path.join(args.cache_dir, f"arbiter-detect-{key}-val.npz")
        chunks = [(val_path, None)]
        if not os.path.exists(val_path):
            _render_chunk(val_seeds, mirrored, args.target, val_path)
        vx, vy = _load_chunk(chunks[0])
        pool = Pool(1)
        chunks = []
        if args.steps == 0:
            # Only exporting --init: the first chunk stands in for the training data.
            train_seeds = train_seeds[:args.chunk]
        for k in range(0, len(train_seeds), args.chunk):
            path = os.path.join(args.cache_dir, f"arbiter-detect-{train_key}-{k}.npz")
            chunks.append((path, None if os.path.exists(path) else pool.apply_async(
                _render_chunk, (train_seeds[k:k + args.chunk], mirrored, args.target, path, families))))
        x, y = _load_chunk(chunks[0])
    elif os.path.exists(args.cache) and str(np.load(args.cache)["key"]) == train_key:
        d = np.load(args.cache)
        x, y, vx, vy = d["x"], d["y"], d["vx"], d["vy"]
    else:
        x, y = make_data(train_seeds, mirrored, args.target, families=families)
        vx, vy = make_data(val_seeds, mirrored, args.target)
        np.savez(args.cache, x=x, y=y, vx=vx, vy=vy, key=train_key)
    print(f"data: {len(x)} train, {len(vx)} val scenes in {time.time() - t0:.0f} s", flush=True)

    h, w = (args.crop, args.crop) if args.crop else (IN_H, IN_W)
    model = build_model(h, w, args.context_blocks)
    if args.init:
        model.load_weights(args.init)
    if args.init_tflite:
        fresh = args.context_blocks - context_blocks_of(args.init_tflite)
        if fresh < 0:
            raise SystemExit(f"{args.init_tflite} has more context blocks than --context-blocks")
        load_tflite_weights(model, args.init_tflite, fresh)
    print(f"parameters: {model.count_params()}", flush=True)
    sched = tf.keras.optimizers.schedules.CosineDecay(args.lr, max(args.steps, 1), alpha=0.05)
    opt = tf.keras.optimizers.Adam(sched)

    @tf.function
    def step(xb, yb, seam):
        with tf.GradientTape() as tape:
            p = model(xb, training=not args.bn_inference)
            loss = loss_fn(yb, p, seam, args.seam_weight)
        g = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(g, model.trainable_variables))
        return loss

    rng = np.random.default_rng(args.seed)
    t1 = time.time()
    joined = 1
    for s in range(args.steps):
        if chunks and joined < len(chunks) and s >= joined * args.chunk_steps:
            cx, cy = _load_chunk(chunks[joined])
            x, y = np.concatenate([x, cx]), np.concatenate([y, cy])
            joined += 1
            print(f"step {s}: {len(x)} training scenes", flush=True)
        idx = rng.integers(0, len(x), args.batch)
        xb, yb = x[idx], y[idx]
        if args.crop:
            xb, yb = _crop(rng, xb, yb, args.crop)
        if args.flip:
            flip = rng.random(args.batch) < 0.5
            xb[flip], yb[flip] = xb[flip, :, ::-1], yb[flip, :, ::-1]
        seam = np.stack([seam_map(t[..., 0]) for t in yb]) if args.seam_weight > 0 else \
            np.zeros(yb.shape[:3], np.float32)
        loss = step(tf.constant(xb.astype(np.float32) / 255.0), tf.constant(yb.astype(np.float32) / 255.0),
                    tf.constant(seam))
        if s % 100 == 0 or s == args.steps - 1:
            print(f"step {s} loss {float(loss):.4f} ({(time.time() - t1) / (s + 1):.2f} s/step)", flush=True)
        if s % 1000 == 999:
            model.save_weights(os.path.join(args.cache_dir, "card_detect.weights.h5"))
    if pool is not None:
        pool.terminate()
    if args.crop:
        cropped = model
        model = build_model(context_blocks=args.context_blocks)
        model.set_weights(cropped.get_weights())

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

    os.makedirs(args.out, exist_ok=True)
    model.save_weights(os.path.join(args.out, "card_detect.weights.h5"))
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
        "train_families": families,
        "held_out_families": designs.HELD_OUT,
        "train_tables": compose.TRAIN_TABLES,
        "held_out_tables": compose.HELD_OUT_TABLES,
        "steps": args.steps, "batch": args.batch, "seed": args.seed, "lr": args.lr,
        "init": os.path.basename(args.init) if args.init else args.init_tflite,
        "seam_weight": args.seam_weight, "bn_inference": args.bn_inference,
        "context_blocks": args.context_blocks,
        "parameters": int(model.count_params()),
        "validation_core_iou": iou,
        "train_seconds": round(time.time() - t1),
        "target": args.target, "camera": args.camera, "crop": args.crop, "flip": args.flip,
        "note": args.note,
    }
    with open(os.path.join(args.out, "metrics.json"), "w") as f:
        json.dump(metrics, f, indent=1)
    print(json.dumps(metrics), flush=True)


if __name__ == "__main__":
    main()
