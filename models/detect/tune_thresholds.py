"""Picks the identifier's thresholds (minimum cosine, minimum lead) for cards of any design from an
`arbiter eval-cards --json` report on a *tuning* set (training families, seeds 800000 on; never the
evaluation's):

    python3 models/detect/export_eval.py --out /tmp/arbiter-tune --families train --seed 800000 --scenes 200
    arbiter eval-cards --scenes-dir /tmp/arbiter-tune --json > /tmp/tune.json
    python3 models/detect/tune_thresholds.py /tmp/tune.json

Prints, for a grid of thresholds, the share of known cards named right and wrong and of unknown cards
named, and the pair naming the most cards right with at most --max-wrong % wrong and unknown named.
"""

import argparse
import json

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--max-wrong", type=float, default=0.02, help="percent")
    args = ap.parse_args()
    with open(args.report) as f:
        d = json.load(f)["decisions"]
    unknown = np.array([x["unknown"] for x in d])
    right = np.array([x["nearest_right"] for x in d])
    cos = np.array([x["cosine"] for x in d])
    gap = np.array([x["gap"] for x in d])
    known = ~unknown
    print(f"{known.sum()} known, {unknown.sum()} unknown found cards; nearest right {right[known].mean():.4f}")
    print(f"cosine of right nearest: median {np.median(cos[known & right]):.3f}; "
          f"highest wrong {cos[known & ~right].max(initial=0):.3f}; highest unknown {cos[unknown].max(initial=0):.3f}")
    best = None
    for c in np.arange(0.40, 0.96, 0.025):
        for g in np.arange(0.0, 0.31, 0.025):
            named = (cos >= c) & (gap >= g)
            r = 100 * (named & right & known).sum() / max(known.sum(), 1)
            w = 100 * (named & ~right & known).sum() / max(known.sum(), 1)
            u = 100 * (named & unknown).sum() / max(unknown.sum(), 1)
            if w <= args.max_wrong and u <= args.max_wrong and (best is None or r > best[0]):
                best = (r, w, u, round(float(c), 3), round(float(g), 3))
    if best:
        print(f"best: min_cosine {best[3]}, min_gap {best[4]}: right {best[0]:.2f} %, wrong {best[1]:.3f} %, "
              f"unknown named {best[2]:.2f} %")


if __name__ == "__main__":
    main()
