"""``CircuitPilot``: home to a runway (or a field) and round a circuit planned with the wind,
to a landing in the first third (the LandingPilot flies the final).

How a glider pilot flies it, and how this one does:

* **Which way to land:** into wind. The runway's heading, or its reciprocal when the wind
  along it is a tailwind; the circuit on the side the glider is on (right-hand or
  left-hand circuit), unless the other side's downwind leg lies over ground lower by more
  than ``clearance_m``.
* **Energy, not fixed heights:** every decision compares the height the glider has with
  the height the rest of the circuit needs: each leg's length over the ground times the
  planned sink per metre, ``1 / glide_ratio`` in still air, stretched or shortened by the
  wind along that leg (its ground speed), plus a margin for the turns. ``glide_ratio``
  (12 for the Astir: its full airbrakes give about 1:10.5 in the model) is a part-airbrake
  glide: the brakes take off a surplus, the clean glide (about 1:30; planned at
  ``clean_glide_ratio``, 28) stretches a shortfall.
* **Join:** to the initial point, abeam the upwind end of the runway, ``offset_m`` out on
  the circuit's side, the airbrakes out on the way for a large surplus. Still too high
  there: circles off the surplus (turning away from the runway, airbrakes out from 60 m
  over). Too low for it: joins the downwind leg further down, where the height it will
  have is what the circuit from there needs; too low for any circuit but within a clean
  glide of the runway, over the ground on the way as well: straight in.
* **Downwind:** the leg ``offset_m`` beside the runway, tracked against the drift, at the
  height the rest of the circuit needs and never under its own hills plus one and a half
  ``clearance_m`` (the airbrakes take off a surplus here, where there is room); the base
  turn where it was planned (``min_final_m`` of final, brought in where the terrain under
  base and final would come within ``clearance_m`` of the planned glide), or early when low.
* **Base:** across toward the centreline, airbrakes for a surplus; the turn onto final
  leads the centreline by the turn's radius.
* **Final:** the LandingPilot (airbrakes on the glide path, round-out, hold-off).
* **Out of range:** when even a straight-in clean glide cannot reach the runway,
  ``fields`` (the world's flat, treeless, dry ground: world/fields.FieldFinder) offers the
  field within reach with the most height to spare, laid out into wind, and the same
  circuit is flown to it (smaller: ``field_offset_m``); with no field at all, the ground
  straight ahead.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from ..runtime.handoff import ControlInputs
from .flying import ScenarioPilot, clip, glide_loss_m, runway_frame, wrap_pi
from .landing import LandingPilot
from .terrain_watch import TerrainWatch


def into_wind(airfield, wind_ne_ms):
    """The runway as it will be landed on: the airfield itself, or the same strip the other
    way round when the wind along it is a tailwind."""
    f, _ = airfield.axes()
    if f[0] * wind_ne_ms[0] + f[1] * wind_ne_ms[1] > 0.0:            # the wind blows along the heading
        return dataclasses.replace(airfield, heading_deg=(airfield.heading_deg + 180.0) % 360.0)
    return airfield


def line_track(pos_ne, point_ne, direction_rad, gain_per_m=1.0 / 250.0, limit_rad=0.6) -> float:
    """The track to fly to hold a line through a point in a direction: the direction, turned
    toward the line by the cross-track error (up to ``limit_rad``: back onto it from afar)."""
    d = np.array([math.cos(direction_rad), math.sin(direction_rad)])
    right = np.array([-d[1], d[0]])
    off = float(np.dot(np.asarray(pos_ne) - np.asarray(point_ne), right))      # metres right of the line
    return direction_rad - clip(gain_per_m * off, -limit_rad, limit_rad)


class CircuitPilot(ScenarioPilot):
    """Home to the field and round a circuit planned from the height in hand (module docstring)."""

    def __init__(self, airfield, wind_ne_ms=(0.0, 0.0), side=None, offset_m=450.0, aim_from_threshold_m=100.0,
                 ias_kmh=95.0, glide_ratio=12.0, clean_glide_ratio=28.0, min_final_m=900.0, fields=None,
                 field_offset_m=300.0, terrain=None, clearance_m=20.0):
        super().__init__()
        self.wind = np.asarray(wind_ne_ms, dtype=np.float64)
        self.home = airfield
        self.side = side
        self.offset = offset_m
        self.aim_in = aim_from_threshold_m
        self.ias = ias_kmh / 3.6
        self.ratio = glide_ratio
        self.clean_ratio = clean_glide_ratio
        self.min_final = min_final_m
        self.fields = fields
        self.field_offset = field_offset_m
        self.field = None                  # the field chosen when the runway is out of reach
        self.terrain = terrain
        self.clearance = clearance_m
        self.turn_along = None             # where the base turn is planned (the terrain's say in it)
        self.floor_m = 0.0                 # the downwind leg's least height above the field (its hills)
        # on the way to the circuit it minds the hills ahead; in the circuit it flies the plan
        self.join_watch = None if terrain is None else TerrainWatch(terrain, seconds=25.0, clearance_m=40.0)
        self.phase = None
        self.base_along = None
        self._set_runway(airfield)

    # ------------------------------------------------------------------ the plan
    def _set_runway(self, airfield):
        self.af = into_wind(airfield, self.wind)
        f, r = self.af.axes()
        self.w_along = float(np.dot(self.wind, f))          # + a tailwind on final (never, by into_wind)
        self.w_right = float(np.dot(self.wind, r))
        L2 = self.af.length_m / 2
        self.aim = -L2 + min(self.aim_in, self.af.length_m / 3.0)
        self.landing = LandingPilot(self.af, self.aim, headwind_ms=-self.w_along, ias_kmh=self.ias * 3.6)
        self.landing.flyer = self.flyer                     # the same hands: no jump in the trim
        self.phase = None
        self.turn_along = None

    def choose_side(self, right) -> int:
        """The circuit's side: the one the glider is on, unless the other's downwind leg lies
        over ground lower by more than the clearance (a field under a hillside)."""
        here = 1 if right >= 0.0 else -1
        if self.terrain is None:
            return here
        return -here if self.downwind_floor(-here) < self.downwind_floor(here) - self.clearance else here

    def downwind_floor(self, side) -> float:
        """The least height above the field for the downwind leg on a side: its hills, cleared
        by one and a half ``clearance_m`` (0 with no terrain known)."""
        if self.terrain is None:
            return 0.0
        xs = np.arange(self.aim - self.min_final, self.af.length_m / 2 + 1.0, 50.0)
        pts = np.array([self.af.to_world(x, side * self.offset) for x in xs])
        ground = self.terrain.height_at(pts[:, 0], pts[:, 1]) - self.af.elevation_m
        return float(np.max(ground)) + 1.5 * self.clearance

    def plan_turn(self, tas_ms=26.0) -> float:
        """Where the base turn is planned (along the runway): ``min_final_m`` of final, brought
        in where the terrain under base and final would come closer than ``clearance_m`` to
        the planned glide (the hills round a field in a bowl)."""
        want = self.aim - self.min_final
        if self.terrain is None:
            return want
        elev = self.af.elevation_m
        s = self.side
        ok = self.aim - 300.0                               # the shortest final there is
        for turn in np.arange(self.aim - 300.0, want - 1.0, -50.0):
            xs = np.arange(turn, self.aim, 50.0)
            planned = np.array([self.need_on_final(x, tas_ms) for x in xs])
            pts = [self.af.to_world(x, 0.0) for x in xs]
            rs = np.arange(0.0, self.offset + 1.0, 75.0)
            planned = np.concatenate([planned, [self.need_on_final(turn, tas_ms) + self.loss(r, 0.0, -s, tas_ms)
                                                for r in rs]])
            pts += [self.af.to_world(turn, s * r) for r in rs]
            ground = self.terrain.height_at(np.array([p[0] for p in pts]), np.array([p[1] for p in pts])) - elev
            if np.any((planned - ground < self.clearance) & (ground > 1.0)):      # (over the field itself: the landing)
                return ok
            ok = turn
        return ok

    def loss(self, length_m, dir_along, dir_right, tas_ms, ratio=None) -> float:
        """Height lost flying ``length_m`` over the ground in a direction (runway axes) at the
        planned glide (or ``ratio``): the air's glide stretched or shortened by the wind along it."""
        return glide_loss_m(length_m, self.w_along * dir_along + self.w_right * dir_right, tas_ms,
                            ratio or self.ratio)

    def loss_to(self, pos_ne, to_ne, tas_ms, ratio=None) -> float:
        """Height lost gliding straight from one world point to another (``loss``)."""
        d = np.asarray(to_ne, dtype=np.float64) - pos_ne
        dist = float(np.hypot(*d))
        if dist < 1.0:
            return 0.0
        f, r = self.af.axes()
        return self.loss(dist, float(np.dot(d, f)) / dist, float(np.dot(d, r)) / dist, tas_ms, ratio)

    def need_from_downwind(self, along, tas_ms, turns_m=10.0) -> float:
        """Height the circuit needs from a point of the downwind leg: base across, then final
        from there to where the landing's glide path meets the ground (two turns' extra sink
        in ``turns_m``)."""
        return self.loss(self.offset, 0.0, -self.side, tas_ms) + self.need_on_final(along, tas_ms) + turns_m

    def need_on_final(self, along, tas_ms) -> float:
        """Height the final needs from a point on it: the planned glide to where the landing's
        path meets the ground (``float_m`` short of the aim: the round-out and hold-off carry
        it on)."""
        return self.loss(max(self.landing.aim - self.landing.float_m - along, 0.0), 1.0, 0.0, tas_ms)

    def _plan(self):
        self.turn_along = self.plan_turn()
        self.floor_m = self.downwind_floor(self.side)

    def need_on_downwind(self, along, tas_ms) -> float:
        """Height the whole circuit needs from a point of the downwind leg, flown clean to its
        planned base turn (``min_final_m`` of final) when it is not there yet."""
        turn = self.turn_along
        return max(self.floor_m, self.loss(max(along - turn, 0.0), -1.0, 0.0, tas_ms, self.clean_ratio)
                + self.need_from_downwind(min(along, turn), tas_ms))

    def point(self, along, right):
        return np.array(self.af.to_world(along, right))

    # ------------------------------------------------------------------ flying it
    def __call__(self, src, dt_s=None) -> ControlInputs:
        a, dt = self.reading(src)
        if not self.valid(a):
            return self.base
        self._src = src
        if self.phase == "final":
            return self._final()
        along, right = runway_frame(self.af, a.position_ned_m[0], a.position_ned_m[1])
        h = a.altitude_m - self.af.elevation_m
        v = max(a.tas_ms, 20.0)
        if self.side is None:
            self.side = self.choose_side(right)
        if self.phase is None:
            self._plan()
            self.phase = self._first_phase(a, along, right, h, v)
            if self.phase == "downwind":
                self._plan()                                    # (the side may have changed)
            if self.phase == "final":
                return self._final()
        self.terrain_watch = self.join_watch if self.phase == "join" else None
        if self.phase == "join":
            return self._join(a, dt, along, right, h, v)
        if self.phase == "downwind":
            return self._downwind(a, dt, along, right, h, v)
        return self._base(a, dt, along, right, h, v)

    def _final(self, airbrake=None) -> ControlInputs:
        if self.phase != "final":
            self.set_phase("final")
            self.landing.bank_ref = self.bank_ref
            if airbrake is not None:
                self.landing.airbrake = self.landing.i_brake = airbrake
        self.landing.base = self.base
        return self.landing(self._src)

    def _first_phase(self, a, along, right, h, v) -> str:
        """Where the circuit begins from here: on final already, the downwind leg already, or a join."""
        L2 = self.af.length_m / 2
        heading_off = wrap_pi(a.track_rad - self.af.heading_rad)
        to_aim = self.aim - along
        if abs(heading_off) < math.radians(30.0) and 300.0 < to_aim < 2500.0 and abs(right) < 0.1 * to_aim + 60.0 \
                and h < self.loss(to_aim, 1.0, 0.0, v, ratio=9.0) and h > self.loss(to_aim, 1.0, 0.0, v, ratio=20.0):
            return "final"                          # lined up, and the airbrakes can hold the path from here
        if abs(wrap_pi(heading_off - math.pi)) < math.radians(40.0) and abs(right) > 200.0 \
                and along > self.turn_along and h < self.need_on_downwind(min(along, L2), v) + 60.0:
            self.side = 1 if right > 0 else -1
            return "downwind"
        return "join"

    def _reachable(self, pos, h, v) -> bool:
        """Within a clean glide (``clean_glide_ratio``, the wind counted) of the aim point, with
        30 m to spare over the field and over the ground on the way: the runway can still be
        made straight in."""
        aim = self.point(self.aim, 0.0)
        loss = self.loss_to(pos, aim, v, self.clean_ratio)
        if h <= 30.0 + loss:
            return False
        if self.terrain is None:
            return True
        # and the hills on the way stay under the glide
        k = np.linspace(0.0, 1.0, 25)[1:-1]
        pts = pos[None, :] + k[:, None] * (aim - pos)[None, :]
        glide = h - k * loss
        ground = self.terrain.height_at(pts[:, 0], pts[:, 1]) - self.af.elevation_m
        return bool(np.all(glide > ground + 30.0))

    def _join(self, a, dt, along, right, h, v):
        s, L2 = self.side, self.af.length_m / 2
        pos = a.position_ned_m[:2]
        join_along = L2                                    # the initial point: abeam the upwind end
        target = self.point(join_along, s * self.offset)
        surplus = h - self.loss_to(pos, target, v, self.clean_ratio) - self.need_on_downwind(join_along, v)
        if surplus < 0.0:
            # short of the initial point: join the downwind leg where the height will be what it needs
            for join_along in np.arange(L2 - 100.0, self.turn_along + 1.0, -100.0):
                target = self.point(join_along, s * self.offset)
                surplus = h - self.loss_to(pos, target, v, self.clean_ratio) - self.need_on_downwind(join_along, v)
                if surplus >= 0.0:
                    break
            else:
                if not self._reachable(pos, h, v):
                    return self._to_field(a, h, v)
                # no height for a circuit: straight in, gliding clean to a short final
                if self.aim - 1300.0 < along < self.aim - 400.0 and abs(right) < 0.25 * (self.aim - along):
                    return self._final(airbrake=0.0)
                target = self.point(self.aim - 1000.0, 0.0)
                if float(np.hypot(*(target - pos))) < 250.0:
                    return self._final(airbrake=0.0)
                err = wrap_pi(math.atan2(target[1] - pos[1], target[0] - pos[0]) - a.track_rad)
                return self.fly(a, dt, clip(1.2 * err, -0.5, 0.5), self.ias)
        dist = float(np.hypot(*(target - pos)))
        if surplus > 25.0 and dist < 300.0:
            # circle off the surplus beside the join, turning away from the runway; the airbrakes
            # out while there is a lot of it
            brake = clip((surplus - 60.0) / 120.0, 0.0, 1.0)
            return self.fly(a, dt, s * math.radians(30.0), 90.0 / 3.6, airbrake=brake)
        if dist < 250.0:
            self.set_phase("downwind")
            return self._downwind(a, dt, along, right, h, v)
        # on the way there: the airbrakes out for a large surplus (circling it off takes minutes)
        brake = clip((surplus - 100.0) / 150.0, 0.0, 1.0) if dist < 1500.0 else 0.0
        err = wrap_pi(math.atan2(target[1] - pos[1], target[0] - pos[0]) - a.track_rad)
        return self.fly(a, dt, clip(1.2 * err, -0.5, 0.5), self.ias, airbrake=brake)

    def _downwind(self, a, dt, along, right, h, v):
        s = self.side
        pos = a.position_ned_m[:2]
        want = line_track(pos, self.point(0.0, s * self.offset), self.af.heading_rad + math.pi)
        need = self.need_from_downwind(along, v)
        # the turn leads the base leg by its radius (a turn at 25 degrees of bank)
        past = along <= self.turn_along + v * v / (9.80665 * math.tan(math.radians(25.0)))
        if past or h < need - 30.0:
            self.base_along = min(along, self.turn_along)
            self.set_phase("base")
            return self._base(a, dt, along, right, h, v)
        # above the circuit's height: the airbrakes take it off here, where there is room, rather
        # than a long downwind leg taking the glider far from the field
        brake = clip((h - self.need_on_downwind(along, v) - 10.0) / 40.0, 0.0, 1.0)
        err = wrap_pi(want - a.track_rad)
        return self.fly(a, dt, clip(1.2 * err, -0.45, 0.45), self.ias, airbrake=brake)

    def _base(self, a, dt, along, right, h, v):
        s = self.side
        pos = a.position_ned_m[:2]
        want = line_track(pos, self.point(self.base_along, 0.0), self.af.heading_rad - s * math.pi / 2)
        # the plan's glide across: the airbrakes take off what the clean glide leaves
        need = self.loss(abs(right), 0.0, -s, v) + self.need_on_final(along, v) + 5.0
        brake = clip((h - need) / 15.0, 0.0, 1.0)
        radius = v * v / (9.80665 * math.tan(math.radians(20.0)))     # the LandingPilot banks 20 degrees
        if abs(right) < radius or s * right < 0.0:
            return self._final(airbrake=brake)
        err = wrap_pi(want - a.track_rad)
        return self.fly(a, dt, clip(1.2 * err, -0.5, 0.5), self.ias, airbrake=brake)

    def _to_field(self, a, h, v):
        """The runway is out of reach: a field within reach, into wind, and the circuit to it."""
        if self.field is not None:
            return self._final(airbrake=0.0)                   # the field out of reach too: as far as it goes
        pos = a.position_ned_m[:2]
        reach = max(a.agl_m - 100.0, 0.0) * self.clean_ratio * 0.7
        field = None if self.fields is None else self.fields(pos, a.altitude_m, self.wind, reach)
        if field is None:
            # no field anywhere near: the ground straight ahead, into wind as far as it goes
            ahead = pos + 600.0 * np.array([math.cos(a.track_rad), math.sin(a.track_rad)])
            hdg = math.atan2(-self.wind[1], -self.wind[0]) if float(np.hypot(*self.wind)) > 2.0 else a.track_rad
            field = dataclasses.replace(self.home, north_m=float(ahead[0]), east_m=float(ahead[1]),
                                        elevation_m=float(self.terrain.height_at(*ahead)) if self.terrain else
                                        self.home.elevation_m, heading_deg=math.degrees(hdg) % 360.0, length_m=400.0)
        self.field = field
        self.offset = self.field_offset
        self.min_final = 400.0
        self.side = None
        self._set_runway(field)
        return self(self._src)
