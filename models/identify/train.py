"""Trains the learned card identifier (issue 8): a small CNN mapping an upright 40x56 BGR card crop to a
64-d embedding; a card is identified by the nearest enrolled clean-face embedding (cosine).

Data comes from the repo's own renderer (`vision/examples/export_crops.rs`), never from seeds 1-1000 or
5000-6499 (the evaluation and tuning sets). One command, seeded, reproducible:

    cargo run --release -p vision --example export_crops -- 20000 20799 /tmp/arbiter-crops/train
    cargo run --release -p vision --example export_crops -- 21000 21099 /tmp/arbiter-crops/val
    python3 models/identify/train.py --data /tmp/arbiter-crops --out models/identify

Every 8th catalogue card (sorted by id) is held out of training entirely, so the validation report
measures enrolment of never-seen cards honestly. Writes card_embed.tflite (float32, batch 1, input
[1,56,40,3] BGR scaled to [0,1], output the raw 64-d embedding: L2-normalise it before comparing),
agreement.json (fixed inputs and the TFLite interpreter's outputs, checked by vision/tests/embed.rs) and
metrics.json.

The sibling model (vision::siblings) is the same network at twice the crop size, trained on the
procedural designs and the count families only (models/identify/README.md has the commands):

    python3 models/identify/train.py --data /tmp/arbiter-crops-designs-hi --data /tmp/arbiter-crops-counts-hi \
        --size 80x112 --name card_siblings --out models/identify --steps 2000
"""

import argparse
import json
import os
import random
import time

import numpy as np

import score  # beside this file: the crop loader and the naming gap
from score import NAMING_GAP

SEED = 8
H, W = 56, 40
EMBED_DIM = 64
HOLD_OUT_EVERY = 8

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import tensorflow as tf  # noqa: E402  (after the log level is set)
import keras  # noqa: E402
from keras import layers  # noqa: E402


def seed_everything():
    # Two cores are shared with other work on this machine (set before any TF op runs).
    tf.config.threading.set_intra_op_parallelism_threads(2)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    random.seed(SEED)
    np.random.seed(SEED)
    tf.random.set_seed(SEED)
    keras.utils.set_random_seed(SEED)
    tf.config.experimental.enable_op_determinism()


def load(directory, name):
    return score.load(directory, name, H, W)


def conv_bn_relu(x, channels, kernel=3):
    """A convolution without bias, batch norm and ReLU: the block both trainers build with."""
    x = layers.Conv2D(channels, kernel, padding="same", use_bias=False)(x)
    x = layers.BatchNormalization()(x)
    return layers.ReLU()(x)


def build_model():
    inp = keras.Input((H, W, 3), name="crop_bgr01")
    x = inp
    # Three conv blocks halve the crop to 7x5; a fourth keeps the layout, and the flatten keeps *where*
    # things are printed (look-alike cards differ in layout more than in colour statistics).
    # A larger crop (`--size`) is first pooled by a block of its own, so the flatten stays 7x5.
    blocks = (16, 24, 48, 96) if H > 56 else (24, 48, 96)
    for channels in blocks:
        x = layers.MaxPooling2D(2)(conv_bn_relu(x, channels))
    x = layers.Flatten()(conv_bn_relu(x, 64))
    out = layers.Dense(EMBED_DIM, name="embedding")(x)
    return keras.Model(inp, out, name="card_embed")


def gaussian_kernel(sigma, size=7):
    r = np.arange(size) - size // 2
    g = np.exp(-(r**2) / (2 * sigma**2))
    k = np.outer(g, g)
    return k / k.sum()


def depthwise(kernel):
    k = np.asarray(kernel, np.float32)[:, :, None, None]
    return np.repeat(k, 3, axis=2)  # a numpy constant: no TF op may run before the thread settings


BLURS = [
    depthwise(gaussian_kernel(0.8)),
    depthwise(gaussian_kernel(1.4)),
    depthwise(np.pad(np.full((1, 5), 0.2), ((3, 3), (1, 1)))),  # horizontal motion
    depthwise(np.pad(np.full((5, 1), 0.2), ((1, 1), (3, 3)))),  # vertical motion
]


def augment(x, gen):
    """Capture-like degradation of a [B,H,W,3] batch in [0,1]: quad jitter, light, glare, blur, cover,
    low resolution, noise. JPEG is applied outside the graph (per image)."""
    b = tf.shape(x)[0]
    u = lambda lo, hi, shape=None: gen.uniform(shape if shape is not None else [b], lo, hi)  # noqa: E731
    # Detector corners are a pixel or two off: small shift, scale and shear.
    s = u(0.95, 1.05)
    t = tf.stack(
        [s, u(-0.03, 0.03), u(-1.5, 1.5), u(-0.03, 0.03), s * u(0.97, 1.03), u(-1.5, 1.5), u(-4e-4, 4e-4), u(-4e-4, 4e-4)],
        axis=1,
    )
    x = tf.raw_ops.ImageProjectiveTransformV3(
        images=x, transforms=t, output_shape=[H, W], fill_value=0.0, interpolation="BILINEAR", fill_mode="NEAREST"
    )
    # Blur: none or one of the kernels, chosen per image.
    choice = gen.uniform([b], 0, len(BLURS) + 2, dtype=tf.int32)  # two "none" slots
    blurred = [tf.nn.depthwise_conv2d(x, k, [1, 1, 1, 1], "SAME") for k in BLURS]
    for i, bx in enumerate(blurred):
        x = tf.where(tf.reshape(choice == i, [-1, 1, 1, 1]), bx, x)
    # Low resolution (a far card): down to half and back, for a third of the batch.
    small = tf.image.resize(tf.image.resize(x, [H // 2, W // 2], "area"), [H, W], "bilinear")
    x = tf.where(tf.reshape(u(0, 1) < 0.33, [-1, 1, 1, 1]), small, x)
    # Light: gain, per-channel white balance, offset, and a linear gradient.
    gain = tf.reshape(u(0.6, 1.25), [-1, 1, 1, 1]) * gen.uniform([b, 1, 1, 3], 0.9, 1.1)
    yy = tf.reshape(tf.linspace(-1.0, 1.0, H), [1, H, 1, 1])
    xx = tf.reshape(tf.linspace(-1.0, 1.0, W), [1, 1, W, 1])
    grad = 1.0 + tf.reshape(u(-0.2, 0.2), [-1, 1, 1, 1]) * yy + tf.reshape(u(-0.2, 0.2), [-1, 1, 1, 1]) * xx
    x = x * gain * grad + tf.reshape(u(-0.08, 0.08), [-1, 1, 1, 1])
    # Glare: a bright blob blended toward white, for 40 % of the batch.
    cy = tf.reshape(u(0, H), [-1, 1, 1, 1])
    cx = tf.reshape(u(0, W), [-1, 1, 1, 1])
    r = tf.reshape(u(4, 14), [-1, 1, 1, 1])
    py = tf.reshape(tf.range(H, dtype=tf.float32), [1, H, 1, 1])
    px = tf.reshape(tf.range(W, dtype=tf.float32), [1, 1, W, 1])
    blob = tf.exp(-((py - cy) ** 2 + (px - cx) ** 2) / (2 * r**2))
    strength = tf.reshape(u(0.4, 0.95) * tf.cast(u(0, 1) < 0.4, tf.float32), [-1, 1, 1, 1])
    x = x + (1.0 - x) * blob * strength
    # Cover (a hand or a card on top): a flat rectangle over up to a third of the crop, 20 % of the batch.
    y0 = tf.reshape(u(-20, H), [-1, 1, 1, 1])
    x0 = tf.reshape(u(-20, W), [-1, 1, 1, 1])
    hh = tf.reshape(u(8, 22), [-1, 1, 1, 1])
    ww = tf.reshape(u(8, 22), [-1, 1, 1, 1])
    inside = (py >= y0) & (py < y0 + hh) & (px >= x0) & (px < x0 + ww)
    cover_on = tf.reshape(u(0, 1) < 0.2, [-1, 1, 1, 1])
    colour = gen.uniform([b, 1, 1, 3], 0.1, 0.8)
    x = tf.where(inside & cover_on, colour, x)
    # Sensor noise.
    x = x + gen.normal(tf.shape(x)) * tf.reshape(u(0.0, 0.04), [-1, 1, 1, 1])
    return tf.clip_by_value(x, 0.0, 1.0)


def jpeg(x, rng, fraction=0.4):
    """JPEG re-compression at a random quality for a fraction of the batch (numpy in, numpy out)."""
    x = x.copy()
    for i in np.nonzero(rng.random(len(x)) < fraction)[0]:
        q = int(rng.integers(25, 90))
        x[i] = tf.image.adjust_jpeg_quality(x[i], q).numpy()
    return x


def corner_jitter(x, rng, most):
    """Each crop warped as if its quad's four corners had each been found up to `most` of the crop's
    size off, independently (a detector's corners are off one by one, not by a shared shift); a
    random share of that for each crop. numpy in [B,H,W,3] float, numpy out."""
    import cv2

    if most <= 0:
        return x
    out = np.empty_like(x)
    square = np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float32)
    for i in range(len(x)):
        amount = most * rng.random()
        moved = square + rng.uniform(-amount, amount, (4, 2)).astype(np.float32) * np.array([W, H], np.float32)
        m = cv2.getPerspectiveTransform(square, moved)
        out[i] = cv2.warpPerspective(x[i], m, (W, H), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                     borderMode=cv2.BORDER_REPLICATE)
    return out


def look_alikes(faces, k=3):
    """Each face's k nearest faces by coarse pixels: the hard negatives a batch is built around."""
    coarse = tf.image.resize(faces.astype(np.float32) / 255.0, [14, 10], "area").numpy().reshape(len(faces), -1)
    sq = (coarse**2).sum(1)
    d = sq[:, None] + sq[None, :] - 2.0 * coarse @ coarse.T
    np.fill_diagonal(d, np.inf)
    return np.argsort(d, axis=1)[:, :k]


def embed_all(model, x, batch=512):
    out = [model(x[i : i + batch].astype(np.float32) / 255.0, training=False).numpy() for i in range(0, len(x), batch)]
    e = np.concatenate(out)
    return e / np.linalg.norm(e, axis=1, keepdims=True)


def write_tflite(serve, path):
    """Freezes `serve` (a tf.function with its input signature) into a float32 TFLite file at `path`;
    returns its size in bytes and the TFLite interpreter loaded from it (for agreement fixtures)."""
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

    frozen = convert_variables_to_constants_v2(serve.get_concrete_function())
    tflite = tf.lite.TFLiteConverter.from_concrete_functions([frozen]).convert()
    with open(path, "wb") as f:
        f.write(tflite)
    interp = tf.lite.Interpreter(model_path=path)
    interp.allocate_tensors()
    return len(tflite), interp


def main():
    global H, W
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", action="append",
                    help="a folder with train/ and val/ crops; give it again to train on several "
                         "(our renderer's and models/detect/export_crops.py's)")
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--classes-per-batch", type=int, default=32)
    ap.add_argument("--per-class", type=int, default=4)
    ap.add_argument("--corner-jitter", type=float, default=0.0,
                    help="move each crop's corners independently by up to this share of its size "
                         "(the detector's corner error; 0: the global jitter only)")
    ap.add_argument("--margin", type=float, default=0.2,
                    help="CosFace margin on the true class (wider pushes look-alike cards apart)")
    ap.add_argument("--name", default="card_embed",
                    help="the files' stem: NAME.tflite, NAME-agreement.json and NAME-metrics.json "
                         "(card_embed keeps agreement.json and metrics.json)")
    ap.add_argument("--size", default=f"{W}x{H}",
                    help="crop width x height: 40x56 (the shipped identifier) or twice that")
    args = ap.parse_args()
    W, H = (int(v) for v in args.size.split("x"))
    seed_everything()
    rng = np.random.default_rng(SEED)
    gen = tf.random.Generator.from_seed(SEED)

    dirs = args.data or ["/tmp/arbiter-crops"]

    def load_all(part, name):
        got = [load(os.path.join(d, part), name) for d in dirs]
        return np.concatenate([g[0] for g in got]), np.concatenate([g[1] for g in got])

    faces, face_ids = load_all("train", "faces")
    train_x, train_ids = load_all("train", "crops")
    val_x, val_ids = load_all("val", "crops")
    # Which --data folder each validation crop came from, to report each source apart.
    val_source = np.concatenate([[os.path.basename(os.path.normpath(d))] * len(score.card_ids(os.path.join(d, "val"), "crops"))
                                 for d in dirs])
    order = np.argsort(face_ids)
    faces, face_ids = faces[order], face_ids[order]
    held_out = set(face_ids[HOLD_OUT_EVERY - 1 :: HOLD_OUT_EVERY])
    seen = np.array([c not in held_out for c in face_ids])
    classes = face_ids[seen]  # training classes
    class_of = {c: i for i, c in enumerate(classes)}
    crops_of = [[] for _ in classes]
    for i, c in enumerate(train_ids):
        if c in class_of:
            crops_of[class_of[c]].append(i)
    crops_of = [np.array(v) for v in crops_of]
    train_faces = faces[seen]
    neighbours = look_alikes(train_faces)
    print(
        f"{len(face_ids)} cards ({len(classes)} trained, {len(held_out)} held out), "
        f"{sum(len(v) for v in crops_of)} train crops, {len(val_x)} val crops",
        flush=True,
    )

    model = build_model()
    # CosFace head: class prototypes on the sphere, margin on the true class.
    prototypes = tf.Variable(tf.random.normal([len(classes), EMBED_DIM], seed=SEED), name="prototypes")
    schedule = keras.optimizers.schedules.CosineDecay(2e-3, args.steps, alpha=0.05)
    opt = keras.optimizers.Adam(schedule)
    scale, margin, triplet_margin = 16.0, args.margin, 0.2

    @tf.function
    def step(x, y):
        x = augment(x, gen)
        with tf.GradientTape() as tape:
            e = tf.math.l2_normalize(model(x, training=True), axis=1)
            p = tf.math.l2_normalize(prototypes, axis=1)
            cos = tf.matmul(e, p, transpose_b=True)
            logits = scale * (cos - margin * tf.one_hot(y, len(classes)))
            ce = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
            # Batch-hard triplet: the farthest positive against the closest negative, which the batch
            # construction makes a look-alike card.
            sim = tf.matmul(e, e, transpose_b=True)
            same = tf.equal(y[:, None], y[None, :])
            hardest_pos = tf.reduce_min(tf.where(same, sim, 2.0), axis=1)
            hardest_neg = tf.reduce_max(tf.where(same, -2.0, sim), axis=1)
            tri = tf.reduce_mean(tf.nn.relu(hardest_neg - hardest_pos + triplet_margin))
            loss = ce + tri
        variables = model.trainable_variables + [prototypes]
        opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return ce, tri

    def batch():
        picked = []
        while len(picked) < args.classes_per_batch:
            a = int(rng.integers(len(classes)))
            for c in [a, *neighbours[a]]:
                if c not in picked and len(picked) < args.classes_per_batch:
                    picked.append(c)
        xs, ys = [], []
        for c in picked:
            # One clean face (augmented) and the rest scene crops: the model must bring a capture next
            # to the face it will be enrolled with.
            xs.append(train_faces[c])
            if len(crops_of[c]) == 0:  # a card no scene showed: augmented copies of its face only
                xs += [train_faces[c]] * (args.per_class - 1)
            else:
                for i in rng.choice(crops_of[c], args.per_class - 1, replace=len(crops_of[c]) < args.per_class - 1):
                    xs.append(train_x[i])
            ys += [c] * args.per_class
        x = np.stack(xs).astype(np.float32) / 255.0
        return x, np.array(ys, np.int32)

    t0 = time.time()
    for s in range(1, args.steps + 1):
        x, y = batch()
        x = jpeg(corner_jitter(x, rng, args.corner_jitter), rng)
        ce, tri = step(tf.constant(x), tf.constant(y))
        if s % 100 == 0 or s == 1:
            print(f"step {s}: softmax {float(ce):.3f} triplet {float(tri):.3f} ({time.time() - t0:.0f} s)", flush=True)
    train_s = time.time() - t0

    # Enrolment: every catalogue face, held-out cards included, embedded once; a crop is the nearest.
    refs = embed_all(model, faces)
    queries = embed_all(model, val_x)
    sims = queries @ refs.T
    predicted = face_ids[np.argmax(sims, axis=1)]
    correct = predicted == val_ids
    unseen = np.array([c in held_out for c in val_ids])
    top2 = np.sort(sims, axis=1)[:, -2:]
    margin = top2[:, 1] - top2[:, 0]
    confusions = {}
    for p, t in zip(predicted[~correct], val_ids[~correct]):
        confusions[f"{t} -> {p}"] = confusions.get(f"{t} -> {p}", 0) + 1
    metrics = {
        "seed": SEED,
        "steps": args.steps,
        "margin": args.margin,
        "corner_jitter": args.corner_jitter,
        "train_seconds": round(train_s, 1),
        "train_crops": int(sum(len(v) for v in crops_of)),
        "val_crops": int(len(val_x)),
        "val_top1_all": round(float(correct.mean()), 4),
        "val_top1_seen_cards": round(float(correct[~unseen].mean()), 4),
        "val_top1_held_out_cards": round(float(correct[unseen].mean()), 4),
        "val_crops_held_out_cards": int(unseen.sum()),
        "median_margin_top1_top2": round(float(np.median(margin)), 4),
        # What the run-time thresholds would name: the nearest face leading the runner-up by the
        # identifier's minimum gap.
        f"val_named_right_gap_{NAMING_GAP}": round(float((correct & (margin >= NAMING_GAP)).mean()), 4),
        f"val_named_wrong_gap_{NAMING_GAP}": round(float((~correct & (margin >= NAMING_GAP)).mean()), 4),
        "val_named_right_by_source": {
            source: round(float((correct & (margin >= NAMING_GAP))[val_source == source].mean()), 4)
            for source in sorted(set(val_source))
        },
        "held_out_cards": sorted(held_out),
        "confusions": dict(sorted(confusions.items(), key=lambda kv: -kv[1])),
    }
    print(json.dumps({k: v for k, v in metrics.items() if k != "held_out_cards"}, indent=1), flush=True)

    # Export: float32, batch 1, so tract runs it exactly.
    @tf.function(input_signature=[tf.TensorSpec([1, H, W, 3], tf.float32, name="crop_bgr01")])
    def serve(x):
        return model(x, training=False)

    # Freeze the weights into constants first, so the converter folds batch-norm into the convolutions
    # and the file carries its weights (not resource variables tract cannot read).
    tflite_path = os.path.join(args.out, f"{args.name}.tflite")
    prefix = "" if args.name == "card_embed" else f"{args.name}-"
    metrics["tflite_bytes"], interp = write_tflite(serve, tflite_path)

    # Agreement fixtures: two val crops, one clean face, one seeded noise image, through the interpreter.
    inp, outp = interp.get_input_details()[0], interp.get_output_details()[0]
    noise = np.random.default_rng(SEED).integers(0, 256, (H, W, 3), dtype=np.uint8)
    fixtures = [("val crop 0", val_x[0]), ("val crop 1", val_x[1]), ("face " + face_ids[0], faces[0]), ("noise", noise)]
    cases = []
    interp_refs = []
    for name, pixels in fixtures:
        interp.set_tensor(inp["index"], pixels[None].astype(np.float32) / 255.0)
        interp.invoke()
        raw = interp.get_tensor(outp["index"])[0].astype(np.float64)
        interp_refs.append(raw)
        cases.append(
            {"name": name, "bgr_u8": pixels.reshape(-1).tolist(), "raw": raw.tolist(), "embedding": (raw / np.linalg.norm(raw)).tolist()}
        )
    keras_raw = model(np.stack([p for _, p in fixtures]).astype(np.float32) / 255.0, training=False).numpy()
    metrics["keras_vs_tflite_max_abs"] = float(np.abs(keras_raw - np.array(interp_refs)).max())
    with open(os.path.join(args.out, f"{prefix}agreement.json"), "w") as f:
        json.dump({"input_shape": [1, H, W, 3], "input_scale": "bgr_u8 / 255", "cases": cases}, f)
    with open(os.path.join(args.out, f"{prefix}metrics.json"), "w") as f:
        json.dump(metrics, f, indent=1, ensure_ascii=False)
    print(f"wrote {tflite_path} ({metrics['tflite_bytes']} bytes), {prefix}agreement.json, {prefix}metrics.json", flush=True)


if __name__ == "__main__":
    main()
