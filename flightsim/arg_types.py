"""Number types for the tools' command lines: a value that is not finite or lies outside the range
the tool can fly is refused by argparse in one line naming the option, its unit and the range
(``--altitude-m nan`` used to trim nothing and print zeros, ``--mass-kg nan`` to fall back silently
to the aircraft's own mass)."""
from __future__ import annotations

import argparse
import math


def _ranged(convert, kind: str, lo, hi, unit: str):
    """An argparse ``type``: ``convert(text)`` (a finite value) within [lo, hi] (in ``unit``)."""
    def parse(text: str):
        try:
            x = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {kind}") from None
        if not math.isfinite(x) or not lo <= x <= hi:
            raise argparse.ArgumentTypeError(f"{text} is outside {lo:g} to {hi:g} {unit}")
        return x
    return parse


def number_in(lo: float, hi: float, unit: str):
    """An argparse ``type``: a finite float within [lo, hi] (in ``unit``)."""
    return _ranged(float, "a number", lo, hi, unit)


def integer_in(lo: int, hi: int, unit: str):
    """An argparse ``type``: a whole number within [lo, hi] (in ``unit``)."""
    return _ranged(int, "a whole number", lo, hi, unit)


ALTITUDE_M = number_in(-500.0, 25000.0, "m")       # the ISA the tunnel flies in, below the Dead Sea to 25 km
MASS_KG = number_in(1.0, 1.0e6, "kg")              # the aircraft's loader then holds it to its own range
SECONDS = number_in(0.0, 86400.0, "s")             # a headless flight or a measurement: up to a day
WINDOW_PX = integer_in(64, 16384, "pixels")        # a window or offscreen image side (GL's largest texture)
FRAMES = integer_in(1, 1_000_000, "frames")


def list_of(item):
    """An argparse ``type``: comma-separated values, each of type ``item`` (at least one)."""
    def parse(text: str):
        parts = [p.strip() for p in text.split(",")]
        if not any(parts):
            raise argparse.ArgumentTypeError(f"{text!r} holds no value")
        return [item(p) for p in parts]
    return parse


ALTITUDES_M = list_of(ALTITUDE_M)                  # "0,3000,6000": the tunnel's curves at those altitudes
BLADE_ANGLES_DEG = list_of(number_in(0.0, 80.0, "deg"))   # "25,35,45": a propeller map's blade angles at 0.75 R
