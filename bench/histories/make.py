#!/usr/bin/env python3
"""Generates the 8-transaction benchmark histories (deterministic).

Each history is valid native JSON: 8 transactions over 3 keys in 3 sessions,
reads taken from a random earlier snapshot so that some levels allow and
others deny them. Run from this folder: ./make.py
"""
import json
import random


def make(seed, unique=True, txns=8, keys=("x", "y", "z"), sessions=3):
    rng = random.Random(seed)
    written = {k: [0] for k in keys}  # values written so far, per key
    counter = 0
    out = [[] for _ in range(sessions)]
    for i in range(1, txns + 1):
        ops = []
        for k in rng.sample(keys, rng.randint(1, len(keys))):
            if rng.random() < 0.7:
                ops.append(["r", k, rng.choice(written[k][-3:])])
        for k in rng.sample(keys, rng.randint(0, 2)):
            counter += 1
            v = counter if unique else rng.randint(1, 2)
            ops.append(["w", k, v])
            written[k].append(v)
        if not ops:
            ops.append(["r", keys[0], written[keys[0]][-1]])
        out[rng.randrange(sessions)].append({"id": f"T{i}", "ops": ops})
    return {"format": "isosynth-history", "version": 1,
            "sessions": [s for s in out if s]}


for seed in range(1, 5):
    with open(f"random8-{seed}.json", "w") as f:
        json.dump(make(seed), f, indent=1)
with open("random8-dup.json", "w") as f:
    json.dump(make(11, unique=False), f, indent=1)
