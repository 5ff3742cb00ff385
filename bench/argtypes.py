"""Argument types shared by the benchmark generators (bench/*/generate.py)."""
import argparse


def parse_ops(text):
    """'8' or '8-16' -> (lo, hi)."""
    if "-" in text:
        lo, hi = (int(x) for x in text.split("-", 1))
    else:
        lo = hi = int(text)
    if lo < 1 or hi < lo:
        raise argparse.ArgumentTypeError(f"--ops {text}: expected N or LO-HI with 1 <= LO <= HI")
    return lo, hi


def fraction(text):
    x = float(text)
    if not 0.0 <= x <= 1.0:
        raise argparse.ArgumentTypeError(f"{text}: expected a number in [0, 1]")
    return x


def positive(text):
    """A positive integer, also written as 1e6."""
    n = int(float(text))
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text}: expected a positive integer")
    return n
