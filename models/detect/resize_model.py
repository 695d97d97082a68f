"""Exports a detector TFLite file (one train.py wrote) at another input size: the model is fully
convolutional, so the same weights run on a larger or smaller frame.

    python3 models/detect/resize_model.py models/detect/card_detect.tflite 640 480 /tmp/card_detect_640.tflite

The Rust detector reads the input size from the file. Sides must be multiples of 16.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("source")
    ap.add_argument("width", type=int)
    ap.add_argument("height", type=int)
    ap.add_argument("out")
    args = ap.parse_args()
    if args.width % 16 or args.height % 16:
        sys.exit(f"{args.width}x{args.height}: sides must be multiples of 16")
    import tensorflow as tf

    train.seed_all(7)
    model = train.build_model(args.height, args.width, train.context_blocks_of(args.source))
    train.load_tflite_weights(model, args.source)
    fixed_in = tf.keras.Input((args.height, args.width, 3), batch_size=1)
    fixed = tf.keras.Model(fixed_in, model(fixed_in, training=False))
    with open(args.out, "wb") as f:
        f.write(tf.lite.TFLiteConverter.from_keras_model(fixed).convert())
    print(f"{args.source} -> {args.out} ({args.width}x{args.height})")


if __name__ == "__main__":
    main()
