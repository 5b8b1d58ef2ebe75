"""The flying instructor of a first solo (issue 34): which leg of the circuit the aircraft is on,
what to do on it, and the debrief's scores. Pure, from snapshots (like the instruments) and the
airfield's data; the text mode and the window show ``instruction``, the debrief ``scores``.

Legs, from where the aircraft is and where it points (a left-hand circuit, the runway's frame):

    take-off    on the ground before flying        full power, straight on the centreline, rotate
    climb-out   airborne, on the runway heading    climb at the climb speed; turn at 500 ft
    crosswind   heading 90 deg left of the runway  climb to circuit height, level off
    downwind    heading opposite the runway        the downwind checks; abeam: carb heat, power back, flaps 10
    base        heading 90 deg right of it         flaps 20, the approach speed plus 5 kt
    final       on the runway heading, short of    flaps 30, the approach speed, the centreline
                the threshold, descending
    flare       final, under 10 m                  power off, hold the nose off
    landed      down again                         the debrief

Scores (``scores``): the airspeed on final (mean and spread against the approach speed), the
distance from the centreline at touchdown, and the touchdown's rate of descent; each marked
out of 100 (full marks within 5 kt, 5 m and 1 m/s; none at 15 kt, 25 m and 3 m/s) and the mean.
"""
from __future__ import annotations

import math

KT = 1.852          # km/h per knot

INSTRUCTIONS = {
    "take-off": "Full power. Keep straight on the centreline with the rudder; rotate at {rotate:.0f} KIAS.",
    "climb-out": "Climb straight ahead at {climb:.0f} KIAS. At 500 ft turn left onto the crosswind leg.",
    "crosswind": "Crosswind: climb to {circuit:.0f} ft and level off; turn left downwind.",
    "downwind": "Downwind checks: brakes, fuel on both, mixture rich, harness. Abeam the threshold: carb heat on, "
                "power back, flaps 10.",
    "base": "Base: flaps 20, {base:.0f} KIAS. Turn final to line up with the runway.",
    "final": "Final: flaps 30, {approach:.0f} KIAS, on the centreline, aim at the threshold.",
    "flare": "Flare: power off, hold the nose up gently as she settles.",
    "landed": "Landed. Brakes, flaps up, carb heat off. Well done.",
}


def for_world(world):
    """The Instructor a World's scenario asks for ([instructor]), with its aircraft's take-off
    speeds (rotate_kmh, climb_kmh), or None."""
    cfg = world.scenario.instructor
    if cfg is None:
        return None
    a = world.compiled.spec.aircraft
    return Instructor(world.terrain.airfield, rotate_kmh=a.get("rotate_kmh") or 102.0,
                      climb_kmh=a.get("climb_kmh") or 137.0, approach_kmh=cfg["approach_ias_kmh"],
                      circuit_height_m=cfg["circuit_height_m"])


def _wrap_deg(a: float) -> float:
    return (a + 180.0) % 360.0 - 180.0


class Instructor:
    def __init__(self, airfield, rotate_kmh=102.0, climb_kmh=137.0, approach_kmh=120.0, circuit_height_m=305.0):
        self.af = airfield
        self.speeds = dict(rotate=rotate_kmh / KT, climb=climb_kmh / KT, approach=approach_kmh / KT,
                           base=approach_kmh / KT + 5.0, circuit=circuit_height_m / 0.3048)
        self.approach_kmh = approach_kmh
        self.leg = "take-off"
        self.legs_seen = ["take-off"]
        self.final_ias_kmh: list[float] = []
        self.touchdown = None          # (sink m/s, metres right of the centreline)
        self._flown = False
        self._sink_ms = 0.0            # the last rate of descent in the air

    def update(self, snap) -> str:
        """The leg the aircraft is on now, and what to do there."""
        _, right = self.af.from_world(float(snap.position_ned_m[0]), float(snap.position_ned_m[1]))
        agl = float(snap.height_agl_m)
        hdg = math.degrees(snap.euler_rad[2])
        rel = _wrap_deg(hdg - self.af.heading_deg)
        on_ground = bool(snap.on_ground)
        leg = self.leg
        if not on_ground and agl > 5.0:
            self._flown = True
        if not on_ground:
            self._sink_ms = max(-float(snap.velocity_ned_ms[2]), 0.0)
        if on_ground and self._flown:
            if leg != "landed" and self.touchdown is None:
                # the rate of descent just before the wheels met the ground (on it, the gear has taken it)
                self.touchdown = (self._sink_ms, right)
            leg = "landed"
        elif not self._flown:
            leg = "take-off"
        elif leg in ("take-off", "climb-out") and abs(rel) < 45.0:
            leg = "climb-out"
        elif abs(rel + 90.0) < 45.0 and leg in ("climb-out", "crosswind"):
            leg = "crosswind"
        elif abs(abs(rel) - 180.0) < 45.0 and leg in ("crosswind", "downwind", "climb-out"):
            leg = "downwind"
        elif abs(rel - 90.0) < 45.0 and leg in ("downwind", "base"):
            leg = "base"
        elif abs(rel) < 45.0 and leg in ("base", "final", "flare"):
            leg = "flare" if agl < 10.0 else "final"
        if leg != self.leg:
            self.leg = leg
            self.legs_seen.append(leg)
        if leg == "final":
            self.final_ias_kmh.append(float(snap.ias_ms) * 3.6)
        return self.instruction

    def judged(self, touchdown) -> None:
        """The flight log's touchdown (world/flight_log.py): its rate of descent is the game's
        judgement, measured every step; the instructor's own reading is only as often as it is asked."""
        if touchdown is not None and self.touchdown is not None:
            self.touchdown = (float(touchdown.sink_ms), self.touchdown[1])

    @property
    def instruction(self) -> str:
        return INSTRUCTIONS[self.leg].format(**self.speeds)

    def scores(self) -> dict:
        """The debrief's figures and marks (None where that part was not flown)."""
        out: dict = {"legs": list(self.legs_seen)}
        ias = self.final_ias_kmh
        if ias:
            mean = sum(ias) / len(ias)
            spread = math.sqrt(sum((v - mean) ** 2 for v in ias) / len(ias))
            off_kt = abs(mean - self.approach_kmh) / KT + spread / KT
            out.update(final_ias_kt=mean / KT, final_ias_spread_kt=spread / KT, speed_mark=_mark(off_kt, 5.0, 15.0))
        if self.touchdown is not None:
            sink, right = self.touchdown
            out.update(touchdown_sink_ms=sink, centreline_m=right, centreline_mark=_mark(abs(right), 5.0, 25.0),
                       touchdown_mark=_mark(sink, 1.0, 3.0))
        marks = [out[k] for k in ("speed_mark", "centreline_mark", "touchdown_mark") if k in out]
        out["mark"] = sum(marks) / len(marks) if marks else None
        return out

    def debrief_lines(self) -> list[str]:
        s = self.scores()
        lines = ["FIRST SOLO: " + " > ".join(s["legs"])]
        if "final_ias_kt" in s:
            lines.append(f"speed on final   {s['final_ias_kt']:.0f} KIAS (+/- {s['final_ias_spread_kt']:.0f}) for "
                         f"{self.approach_kmh / KT:.0f}: {s['speed_mark']:.0f}/100")
        if "centreline_m" in s:
            side = "right" if s["centreline_m"] > 0 else "left"
            lines.append(f"centreline       {abs(s['centreline_m']):.0f} m {side} at touchdown: "
                         f"{s['centreline_mark']:.0f}/100")
            lines.append(f"touchdown        {s['touchdown_sink_ms']:.1f} m/s: {s['touchdown_mark']:.0f}/100")
        if s["mark"] is not None:
            lines.append(f"overall          {s['mark']:.0f}/100")
        return lines


def _mark(error: float, full: float, none: float) -> float:
    """100 within ``full``, falling linearly to 0 at ``none``."""
    if error <= full:
        return 100.0
    return max(0.0, 100.0 * (none - error) / (none - full))
