"""A missile's warhead bursting near an aircraft, applied through the existing damage model
(issue 35): the sections' battle damage (what the aerodynamics lose, physics/aero.py), the
components' hits (physics/damage.apply_hit: leaks, fires, a wounded pilot, cut controls) and a jet
engine's failure, as the guns' rounds are.

No fragment pattern or lethality data was found for the AIM-9M's, AIM-120C's or AIM-7M's warheads
(docs/research/missiles_aim9m_aim120c.md: only their masses and a game's kill distance), so the
burst is reduced to its lethal radius R, with a falloff that is an assumption [E]:

* a section whose box comes within d < R of the burst loses (1 - d / R) of itself more (blast and
  fragments falling to nothing at R);
* a component box within R is struck, with the chance 1 - d / R, as by a 20 mm high-explosive
  round (the largest the damage model knows);
* a jet engine's bay within R fails with the same chance.

The caller passes the burst point in the target's body axes and a numpy Generator (a seeded world
is repeatable); the returned lines go to the debrief as the guns' hits do.
"""
from __future__ import annotations

import numpy as np

from ..physics.ballistics import set_damage
from ..physics.damage import apply_hit
from ..physics.named import AircraftView
from ..physics.named_model import AircraftData

FRAGMENT_CALIBRE_MM = 20.0
FRAGMENT_KIND = "he"
JET_BAY_LENGTH_M = 4.85          # as the guns' (world/combat.py): the F100's length and radius
JET_BAY_RADIUS_M = 0.59


def _box_distance(p, centre, axes, half) -> float:
    """Distance from point p to a box (centre, its three unit axes as rows, half sizes); 0 inside."""
    d = axes @ (np.asarray(p, float) - centre)
    out = np.maximum(np.abs(d) - half, 0.0)
    return float(np.linalg.norm(out))


def burst(model: np.ndarray, state: np.ndarray, burst_body_m, lethal_radius_m: float, rng) -> list[str]:
    """Apply a warhead bursting at ``burst_body_m`` (the target's body axes, from its datum) to the
    target's model and state; what happened, a line each."""
    data = AircraftData(model)
    events = []
    pos, chord, span = data.section_position_m, data.section_chord_m, data.section_span_m
    ca, nrm, sa = data.section_chord_axis, data.section_normal, data.section_span_axis
    damage = data.section_damage
    hit_sections = 0
    for i in range(data.n_sections):
        centre = pos[i] - 0.25 * chord[i] * ca[i]           # leading edge to trailing edge
        half = np.array([0.5 * chord[i], 0.5 * span[i], 0.06 * chord[i]])
        d = _box_distance(burst_body_m, centre, np.array([ca[i], sa[i], nrm[i]]), half)
        if d < lethal_radius_m:
            set_damage(model, i, damage[i] + (1.0 - d / lethal_radius_m))
            hit_sections += 1
    if hit_sections:
        events.append(f"warhead: {hit_sections} of {data.n_sections} sections struck")
    centres, halves = data.part_boxes
    for k in range(len(centres)):
        d = _box_distance(burst_body_m, centres[k], np.eye(3), halves[k])
        if d < lethal_radius_m and rng.random() < 1.0 - d / lethal_radius_m:
            line = apply_hit(model, state, k, FRAGMENT_CALIBRE_MM, FRAGMENT_KIND, rng)
            if line:
                events.append("warhead: " + line)
    if data.jets:
        view = AircraftView(state)
        p = np.asarray(burst_body_m, float)
        for k, noz in enumerate(data.jet_nozzles_m):
            ahead = min(max(p[0] - noz[0], 0.0), JET_BAY_LENGTH_M)
            axis = np.array([noz[0] + ahead, noz[1], noz[2]])
            d = max(float(np.linalg.norm(p - axis)) - JET_BAY_RADIUS_M, 0.0)
            if d < lethal_radius_m and view.jets_failed[k] < 0.5 and rng.random() < 1.0 - d / lethal_radius_m:
                view.set_jet_failed(k)
                events.append(f"warhead: engine {k + 1} failed")
    return events
