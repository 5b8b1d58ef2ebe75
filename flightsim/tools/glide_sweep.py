"""Steady glides from Vne down to the stall: the wind tunnel's sweep for the polar and the
stall speed (flightsim.tools.tunnel, flightsim.tools.perf)."""
from __future__ import annotations

import math

import numpy as np

from ..sim import Sim


def stall_sweep(sim: Sim, vne_ms: float, base_ctrl=None, altitude_m=0.0):
    """Trim steady glides from Vne down to the stall.

    Speed continuation from Vne down while it converges, then alpha continuation past
    the last speed trim up to maximum lift (where a trim at fixed speed has no or two
    solutions). Returns (front, stall): the trims, fastest first, and the trim of the
    lowest steady speed, the 1 g stall speed (limited by maximum lift or elevator travel)."""
    trimmer = sim.trimmer(altitude_m, base_ctrl, plant_in_jacobian=False)
    trims = []
    guess = (0.0, -0.1, 0.0)
    v = vne_ms
    # a jet at idle has no steady glide at its placard speed (past M 1 its drag outweighs the
    # weight even straight down): start at the fastest speed that has one, in 5 % steps down
    while v > 3.0 and not trimmer.glide(v, guess).ok:
        v *= 0.95
    while v > 3.0:
        t = trimmer.glide(v, guess)
        if not t.ok or not t.within_travel:
            break
        trims.append(t)
        guess = (t.alpha_rad, t.gamma_rad, t.pitch_cmd)
        v -= 1.0
    if not trims:
        raise RuntimeError("no steady glide found")
    last = trims[-1]
    guess = (last.tas_ms, last.gamma_rad, last.pitch_cmd)
    # on through the whole stall region: a lift curve may have a local peak and dip before
    # its maximum (the E 603 does near 9 deg), so the lowest speed is the minimum over all
    # of it, not the first place where the speed rises again
    for alpha in np.arange(last.alpha_rad, last.alpha_rad + math.radians(20), math.radians(0.1))[1:]:
        t = trimmer.glide_at_alpha(alpha, guess)
        if not t.ok or not t.within_travel:
            break                       # no steady glide beyond here, or out of elevator travel
        trims.append(t)
        guess = (t.tas_ms, t.gamma_rad, t.pitch_cmd)
    slowest = min(range(len(trims)), key=lambda k: trims[k].tas_ms)
    return trims[:slowest + 1], trims[slowest]


def one_g_stall(front) -> tuple:
    """The 1 g stall speed from a sweep's trims (stall_sweep's ``front``): (TAS m/s, trim). A steady
    glide at angle gamma carries W cos(gamma), not the weight, so each trim's speed is corrected to
    1 g as a flight test corrects its stall to the load factor it flew at, V / sqrt(n) with n =
    cos(gamma), and the lowest is the stall. It matters where the glide is steep: a jet at idle
    glides at 25-27 deg near its stall (5-6 % on the speed), a propeller aircraft at 6-11 deg
    (0.3-1 %)."""
    best = min(front, key=lambda t: t.tas_ms / math.sqrt(math.cos(t.gamma_rad)))
    return best.tas_ms / math.sqrt(math.cos(best.gamma_rad)), best
