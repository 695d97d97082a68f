"""Trains the pair verifier (vision::pairs): a small CNN that looks at a card seen on the table and one
enrolled print side by side, both cut upright at 64x88, and says whether they are the same card.

The identifier's 40x56 embedding must squeeze a whole card into 64 numbers, and siblings of one
printed design that differ only in a count or a numeral (pips, marks, a big number) end up a hair
apart. Looking at the two crops together, the verifier only has to find *where* they differ: a pip
present in one and absent in the other. It is trained on siblings (the hardest negatives: the cards of
the same design) of the procedural training families and the identifier-only count family, never on a
tuning or evaluation family:

    python3 models/detect/export_crops.py --size 64x88 --camera upright --out /tmp/pairs/designs/train --seed 200000 --scenes 1500
    python3 models/detect/export_crops.py --size 64x88 --camera upright --out /tmp/pairs/designs/val --seed 290000 --scenes 100
    python3 models/detect/export_crops.py --size 64x88 --camera upright --families counts --out /tmp/pairs/counts/train --seed 240000 --scenes 800
    python3 models/detect/export_crops.py --size 64x88 --camera upright --families counts --out /tmp/pairs/counts/val --seed 295000 --scenes 60
    python3 models/identify/train_pairs.py --data /tmp/pairs/designs --data /tmp/pairs/counts --out models/identify --steps 2000 --embedding-near 0.15

Writes card_pairs.tflite (float32, batch 1, input [1,88,64,6]: the seen crop's BGR / 255 in channels
0-2, the print's in 3-5; output [1,1], the logit of "same card"), card_pairs-agreement.json (fixed
inputs and the TFLite interpreter's outputs, checked from Rust) and card_pairs-metrics.json.
Seeded (Python, NumPy, TF; op determinism; two threads).
"""

import argparse
import json
import os
import sys
import time

import cv2
import numpy as np

import train as T  # beside this file: seeding, the capture-like augmentation and JPEG

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "detect"))
import designs as D  # noqa: E402  (the procedural designs: every card of a design, for validation)

SEED = 11
H, W = 88, 64

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import tensorflow as tf  # noqa: E402
import keras  # noqa: E402
from keras import layers  # noqa: E402


def design_of(card_id: str) -> str:
    """`family-index-k` -> `family-index`: the cards of one printed design are siblings."""
    return card_id.rsplit("-", 1)[0]


def family_of(card_or_design_id: str) -> str:
    """`family-index[-k]` -> `family`."""
    return card_or_design_id.split("-", 1)[0]


# Means over the whole image are average pools, not tf.reduce_mean: tract 0.23 runs TFLite's MEAN
# over two axes wrong (checked against the interpreter), its AVERAGE_POOL_2D right.
def image_mean(x):
    """The mean over height and width, [B,1,1,C]."""
    return tf.nn.avg_pool2d(x, ksize=[x.shape[1], x.shape[2]], strides=1, padding="VALID")


def standardised(x):
    """Each channel less its mean over its spread, so a colour cast or dimmer light is no difference."""
    centred = x - image_mean(x)
    # A product, not tf.square of a difference: the converter would fuse that into
    # SQUARED_DIFFERENCE, which tract does not run.
    var = image_mean(centred * centred)
    return centred * tf.math.rsqrt(var + 1e-3)


NEAR_PRINTS = 12


def nearest_other_designs(crops, crop_ids, faces, face_ids):
    """For each crop, the indices of the NEAR_PRINTS faces of other designs nearest it by the
    shipped identifier's embedding (card_embed.tflite, 40x56)."""
    embed_batch, eh, ew = T.score.embedder(os.path.join(os.path.dirname(os.path.abspath(__file__)), "card_embed.tflite"))

    def embed(images):
        return embed_batch([cv2.resize(im, (ew, eh), interpolation=cv2.INTER_AREA) for im in images])

    face_vecs, crop_vecs = embed(faces), embed(crops)
    face_designs = np.array([design_of(c) for c in face_ids])
    near = []
    for start in range(0, len(crops), 1024):
        cos = crop_vecs[start : start + 1024] @ face_vecs.T
        for row, cid in zip(cos, crop_ids[start : start + 1024]):
            row[face_designs == design_of(cid)] = -2.0
            near.append(np.argpartition(-row, NEAR_PRINTS)[:NEAR_PRINTS])
    return near


def build_model():
    inp = keras.Input((H, W, 6), name="seen_and_print_bgr01")
    seen = layers.Lambda(lambda t: t[..., :3])(inp)
    printed = layers.Lambda(lambda t: t[..., 3:])(inp)
    # One tower for both sides: the same mark must look the same to it on either.
    tower = keras.Sequential(
        [
            layers.Conv2D(16, 3, padding="same", use_bias=False),
            layers.BatchNormalization(),
            layers.ReLU(),
            layers.Conv2D(24, 3, strides=2, padding="same", use_bias=False),
            layers.BatchNormalization(),
            layers.ReLU(),
        ],
        name="tower",
    )
    norm = layers.Lambda(standardised)
    a, b = tower(norm(seen)), tower(norm(printed))
    diff = layers.Lambda(lambda t: tf.abs(t[0] - t[1]))([a, b])
    x = layers.Concatenate()([a, b, diff])
    x = T.conv_bn_relu(x, 32, kernel=1)
    for channels in (48, 64):
        x = layers.MaxPooling2D(2)(T.conv_bn_relu(x, channels))
    x = T.conv_bn_relu(x, 96)
    # A difference anywhere tells the cards apart (the strongest spot), the mean how alike they are.
    pooled = layers.Concatenate()(
        [layers.GlobalMaxPooling2D()(x), layers.Flatten()(layers.Lambda(image_mean)(x))]
    )
    x = layers.Dense(64, activation="relu")(pooled)
    out = layers.Dense(1, name="same_logit")(x)
    return keras.Model(inp, out, name="card_pairs")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", action="append", required=True,
                    help="a folder with train/ and val/ crops at 64x88 (models/detect/export_crops.py)")
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--weights", help="export these trained weights (card_pairs.weights.h5) without training")
    ap.add_argument("--embedding-near", type=float, default=0.0,
                    help="share of pairs whose print is a card of another design among the identifier's "
                         "nearest to the crop (card_embed.tflite), taken from the sibling share")
    ap.add_argument("--corner-jitter", type=float, default=0.04,
                    help="move the seen crop's corners independently by up to this share of its size")
    args = ap.parse_args()
    T.H, T.W = H, W  # the shared augmentation works on this crop size
    T.SEED = SEED
    T.seed_everything()
    rng = np.random.default_rng(SEED)
    gen = tf.random.Generator.from_seed(SEED)

    def load_all(part, name):
        got = [T.score.load(os.path.join(d, part), name, H, W) for d in args.data]
        return np.concatenate([g[0] for g in got]), np.concatenate([g[1] for g in got])

    faces, face_ids = load_all("train", "faces")
    train_x, train_ids = load_all("train", "crops")
    val_x, val_ids = load_all("val", "crops")
    face_of = {c: i for i, c in enumerate(face_ids)}
    crops_of = {}
    for i, c in enumerate(train_ids):
        crops_of.setdefault(c, []).append(i)
    cards = sorted(crops_of)
    siblings = {}
    for c in face_ids:
        siblings.setdefault(design_of(c), []).append(c)
    designs_of_family = {}
    for design in siblings:
        designs_of_family.setdefault(family_of(design), []).append(design)
    print(f"{len(face_ids)} cards, {len(train_x)} train crops, {len(val_x)} val crops", flush=True)

    near_other_design = nearest_other_designs(train_x, train_ids, faces, face_ids) if args.embedding_near else None
    model = build_model()
    schedule = keras.optimizers.schedules.CosineDecay(1.5e-3, args.steps, alpha=0.05)
    opt = keras.optimizers.Adam(schedule)

    @tf.function
    def step(seen, printed, y):
        seen = T.augment(seen, gen)
        printed = T.augment(printed, gen)
        with tf.GradientTape() as tape:
            logits = model(tf.concat([seen, printed], axis=3), training=True)[:, 0]
            loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(y, logits))
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    def print_of(card):
        # The enrolled print: mostly the card's face (an enrolment photo is a clean, well-lit look),
        # sometimes another capture of it.
        if rng.random() < 0.3 and card in crops_of:
            return train_x[rng.choice(crops_of[card])]
        return faces[face_of[card]]

    def batch():
        seen, printed, y = [], [], []
        for _ in range(args.batch):
            card = cards[int(rng.integers(len(cards)))]
            crop = rng.choice(crops_of[card])
            seen.append(train_x[crop])
            roll = rng.random()
            if roll < 0.5:
                other, label = card, 1.0
            elif roll < 0.5 + args.embedding_near:
                # A card of another design among the identifier's nearest to this crop: the
                # candidates the verifier is shown at run time.
                near = near_other_design[crop]
                other, label = face_ids[near[int(rng.integers(len(near)))]], 0.0
            elif roll < 0.8 and len(siblings[design_of(card)]) > 1:
                kin = [c for c in siblings[design_of(card)] if c != card]
                other, label = kin[int(rng.integers(len(kin)))], 0.0
            elif roll < 0.95 and len(designs_of_family[family_of(card)]) > 1:
                # Another design of the same family: the same count in another border or mark,
                # which the identifier's nearest prints often hold.
                kin = [d for d in designs_of_family[family_of(card)] if d != design_of(card)]
                design = kin[int(rng.integers(len(kin)))]
                other, label = siblings[design][int(rng.integers(len(siblings[design])))], 0.0
            else:
                other = face_ids[int(rng.integers(len(face_ids)))]
                label = 1.0 if other == card else 0.0
            printed.append(print_of(other))
            y.append(label)
        to_float = lambda v: np.stack(v).astype(np.float32) / 255.0  # noqa: E731
        seen = T.jpeg(T.corner_jitter(to_float(seen), rng, args.corner_jitter), rng)
        return seen, T.jpeg(to_float(printed), rng, 0.2), np.array(y, np.float32)

    t0 = time.time()
    running = []
    if args.weights:
        model.load_weights(args.weights)
        args.steps = 0
    for s in range(1, args.steps + 1):
        seen, printed, y = batch()
        running.append(float(step(tf.constant(seen), tf.constant(printed), tf.constant(y))))
        if s % 100 == 0 or s == 1:
            print(f"step {s}: loss {np.mean(running[-100:]):.4f} ({time.time() - t0:.0f} s)", flush=True)
    train_s = time.time() - t0
    if not args.weights:
        model.save_weights(os.path.join(args.out, "card_pairs.weights.h5"))

    # Validation: each val crop against the faces of every card of its design (its siblings and
    # itself), the way the scanner asks once the identifier narrowed a card to its design.
    design_faces = {}

    def faces_of_design(design):
        if design not in design_faces:
            family, index = design.rsplit("-", 1)
            d = D.design(family, int(index))
            design_faces[design] = [
                (d.card_id(k), cv2.resize(D.render(d, k), (W, H), interpolation=cv2.INTER_AREA))
                for k in range(D.CARDS_PER_DESIGN)
            ]
        return design_faces[design]

    # And against its design's faces with one card of each of up to `other_designs` other designs of
    # its family, as the identifier's nearest prints often hold.
    other_designs = 6
    val_designs = {}
    for c in val_ids:
        val_designs.setdefault(family_of(c), set()).add(design_of(c))
    right_in_family = 0
    right, leads, named_right, named_wrong = 0, [], 0, 0
    for i in range(len(val_x)):
        others = sorted(val_designs[family_of(val_ids[i])] - {design_of(val_ids[i])})[:other_designs]
        near = faces_of_design(design_of(val_ids[i])) + [faces_of_design(o)[i % D.CARDS_PER_DESIGN] for o in others]
        scores = model(
            np.stack([np.concatenate([val_x[i], f], axis=2) for _, f in near]).astype(np.float32) / 255.0,
            training=False,
        ).numpy()[:, 0]
        right_in_family += near[int(np.argmax(scores))][0] == val_ids[i]
        kin = [c for c, _ in faces_of_design(design_of(val_ids[i]))]
        pairs = np.stack([np.concatenate([val_x[i], f], axis=2) for _, f in faces_of_design(design_of(val_ids[i]))])
        scores = model(pairs.astype(np.float32) / 255.0, training=False).numpy()[:, 0]
        order = np.argsort(-scores)
        best = kin[order[0]]
        lead = scores[order[0]] - (scores[order[1]] if len(order) > 1 else -20.0)
        right += best == val_ids[i]
        leads.append(float(lead))
        if scores[order[0]] > 0 and lead > 2.0:
            named_right += best == val_ids[i]
            named_wrong += best != val_ids[i]
    metrics = {
        "seed": SEED,
        "steps": args.steps,
        "batch": args.batch,
        "corner_jitter": args.corner_jitter,
        "embedding_near": args.embedding_near,
        "train_seconds": round(train_s, 1),
        "train_crops": int(len(train_x)),
        "val_crops": int(len(val_x)),
        "val_top1_among_design": round(right / max(1, len(val_x)), 4),
        "val_median_logit_lead": round(float(np.median(leads)), 3),
        "val_top1_among_design_and_other_designs": round(right_in_family / max(1, len(val_x)), 4),
        "val_named_right_logit0_lead2": round(named_right / max(1, len(val_x)), 4),
        "val_named_wrong_logit0_lead2": round(named_wrong / max(1, len(val_x)), 4),
    }
    print(json.dumps(metrics, indent=1), flush=True)

    @tf.function(input_signature=[tf.TensorSpec([1, H, W, 6], tf.float32, name="seen_and_print_bgr01")])
    def serve(x):
        return model(x, training=False)

    path = os.path.join(args.out, "card_pairs.tflite")
    metrics["tflite_bytes"], interp = T.write_tflite(serve, path)

    # Agreement fixtures: a val crop with its own face, with a sibling's, and seeded noise.
    inp, outp = interp.get_input_details()[0], interp.get_output_details()[0]
    kin = faces_of_design(design_of(val_ids[0]))
    own = next(f for c, f in kin if c == val_ids[0])
    sibling = next(f for c, f in kin if c != val_ids[0])
    noise = np.random.default_rng(SEED).integers(0, 256, (H, W, 6), dtype=np.uint8)
    fixtures = [
        ("val crop 0 with its face", np.concatenate([val_x[0], own], axis=2)),
        ("val crop 0 with a sibling's face", np.concatenate([val_x[0], sibling], axis=2)),
        ("noise", noise),
    ]
    cases, tflite_out = [], []
    for name, pixels in fixtures:
        interp.set_tensor(inp["index"], pixels[None].astype(np.float32) / 255.0)
        interp.invoke()
        logit = float(interp.get_tensor(outp["index"])[0][0])
        tflite_out.append(logit)
        cases.append({"name": name, "bgr_u8": pixels.reshape(-1).tolist(), "logit": logit})
    keras_out = model(np.stack([p for _, p in fixtures]).astype(np.float32) / 255.0, training=False).numpy()[:, 0]
    metrics["keras_vs_tflite_max_abs"] = float(np.abs(keras_out - np.array(tflite_out)).max())
    with open(os.path.join(args.out, "card_pairs-agreement.json"), "w") as f:
        json.dump({"input_shape": [1, H, W, 6], "input_scale": "bgr_u8 / 255", "cases": cases}, f)
    with open(os.path.join(args.out, "card_pairs-metrics.json"), "w") as f:
        json.dump(metrics, f, indent=1)
    print(f"wrote {path} ({metrics['tflite_bytes']} bytes), card_pairs-agreement.json, card_pairs-metrics.json", flush=True)


if __name__ == "__main__":
    main()
