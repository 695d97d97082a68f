"""Scores identifier model files on validation crops the way train.py reports them, so that a shipped
model and a new one are compared on the same crops (training families and our renderer only: never
an evaluation set).

    python3 models/identify/score.py --data /tmp/arbiter-crops --data /tmp/crops-designs \
        models/identify/card_embed.tflite /tmp/new/card_embed.tflite

For each model: top-1 of every validation crop against every catalogue face, and the share named
right and wrong when the nearest face must lead the runner-up by the identifier's minimum gap.
"""

import argparse
import csv
import json
import os

import numpy as np

# The learned identifier's default minimum lead over the runner-up (vision::identifier).
NAMING_GAP = 0.1


def card_ids(directory, name):
    """The card id of each row of a crops or faces file."""
    with open(os.path.join(directory, f"{name}.csv"), newline="") as f:
        return [r["card"] for r in csv.DictReader(f)]


def load(directory, name, h, w):
    """A crops or faces file of h×w BGR crops and the card id of each."""
    rows = card_ids(directory, name)
    pixels = np.fromfile(os.path.join(directory, f"{name}.u8"), np.uint8)
    if pixels.size != len(rows) * h * w * 3:
        raise SystemExit(f"{directory}/{name}.u8: {pixels.size} bytes for {len(rows)} rows of {w}x{h}x3")
    return pixels.reshape(len(rows), h, w, 3), np.array(rows)


def embedder(path):
    import tensorflow as tf

    interp = tf.lite.Interpreter(model_path=path)
    interp.allocate_tensors()
    inp, out = interp.get_input_details()[0], interp.get_output_details()[0]
    h, w = int(inp["shape"][1]), int(inp["shape"][2])

    def embed(batch):
        e = []
        for x in batch:
            interp.set_tensor(inp["index"], x[None].astype(np.float32) / 255.0)
            interp.invoke()
            e.append(interp.get_tensor(out["index"])[0])
        e = np.array(e)
        return e / np.linalg.norm(e, axis=1, keepdims=True)

    return embed, h, w


def score(model, dirs):
    embed, h, w = embedder(model)
    faces, face_ids, result = [], [], {}
    for d in dirs:
        f, i = load(os.path.join(d, "train"), "faces", h, w)
        faces.append(f)
        face_ids.append(i)
    faces, face_ids = np.concatenate(faces), np.concatenate(face_ids)
    refs = embed(faces)
    for d in dirs:
        x, ids = load(os.path.join(d, "val"), "crops", h, w)
        sims = embed(x) @ refs.T
        top2 = np.sort(sims, axis=1)[:, -2:]
        margin = top2[:, 1] - top2[:, 0]
        right = face_ids[np.argmax(sims, axis=1)] == ids
        result[os.path.basename(os.path.normpath(d))] = {
            "crops": int(len(ids)),
            "top1": round(float(right.mean()), 4),
            "named_right": round(float((right & (margin >= NAMING_GAP)).mean()), 4),
            "named_wrong": round(float((~right & (margin >= NAMING_GAP)).mean()), 4),
            "median_margin": round(float(np.median(margin)), 4),
        }
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", action="append", required=True, help="a folder with train/faces and val/crops")
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    for m in args.models:
        print(m, json.dumps(score(m, args.data), indent=1), flush=True)


if __name__ == "__main__":
    main()
