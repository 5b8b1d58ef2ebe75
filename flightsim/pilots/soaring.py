"""``SoaringPilot`` (glide toward a goal, circle in the lift met) and ``CrossCountryPilot`` (the
task's turnpoints in turn).
"""
from __future__ import annotations

import math

import numpy as np

from ..runtime.handoff import ControlInputs
from .flying import Attitude, ScenarioPilot, bearing_to, clip, glide_loss_m, wrap_pi
from .thermal import ThermalPilot, Vario


class SoaringPilot(ScenarioPilot):
    """Cross-country glider flying: glide toward a goal at the speed to fly, circle in the
    thermals met on the way, leave them when they weaken or near cloud base.

    * Cruise: wings level on the course to the goal (bank toward it, at most 30 degrees),
      ``cruise_kmh`` (best glide: with no MacCready setting the pilot flies the polar's
      best glide speed and adds a little in sink).
    * Lift: the vario reading above ``take_ms`` for 2 s -> a ThermalPilot takes over (its
      entry: fly on while the lift grows, turn toward the lifted wing).
    * Leave: after a minute when the 30-s averaged climb falls under ``leave_ms`` or half the
      MacCready setting (the climbs achieved: a weak thermal is not worth the time), or within
      ``leave_below_base_m`` of the base of the cloud it circles under (the pilot sees it;
      else ``ceiling_m``, the lowest; across country 220 m, below the last 200 m where the
      lift fades).
    * Clouds (``clouds``: the cumulus the world shows, rows of north, east, base, size, key
      for a time: Weather.clouds): in cruise it flies to the next cumulus within
      ``search_m``, where the lift is: on the way to the goal (the detour by it, the way there
      and on to the goal less the way straight, under half the way to it; with the goal in
      safe gliding reach, ``in_reach``, under 300 m: only clouds on the line), the nearer and
      bigger first; none smaller than ``min_cloud_m`` (a wisp: young or dying) and none it
      would reach above where it would leave a thermal under it (the lift fades out under
      the base: across country it flew 7 km to such clouds and found nothing). From
      ``slow_m`` out it slows to ``circling_kmh``; within ``under_m`` of the cloud's middle,
      ``take_under_ms`` on the vario is enough to turn in, and it rolls straight into the
      circle there, with the wind it last circled in (turned in at the
      cloud's edge, or flown on until the lift fell off, it was 150-250 m from the core and
      the centring took two minutes). One it has flown under for a minute without meeting
      lift, or climbed under already, it leaves for the next.
    * Speed to fly: the best glide speed plus ``mc_kmh_per_ms`` for each m/s of the climbs
      it has achieved (MacCready set to the average climb; about 12 km/h per m/s for a
      standard-class glider's polar between 95 and 135 km/h).
    * The height band (``home``: the airfield, ``circuit``: a CircuitPilot to land there): a
      glider pilot always knows the height needed to get home -- the glide there at
      ``home_glide_ratio`` (a safe one, the wind along the way counted) plus ``circuit_m``
      to join the circuit. Within ``band_m`` of it the pilot turns for home (still taking a
      thermal on the way, which lifts it out of the band again, 150 m of hysteresis); near
      the field at circuit height, or after ``land_after_s`` (a local flight's end), or when
      even the safe glide cannot make the field, the CircuitPilot takes over for good: the
      runway, or a field (circuit.py). Across country (``keep_home_in_reach`` False) the
      band is the ground's instead: lower than ``field_agl_m`` above it out of a thermal, the
      CircuitPilot picks a field and lands there.
    """

    def __init__(self, goal_ne=None, cruise_kmh=95.0, take_ms=1.2, leave_ms=0.4, ceiling_m=None,
                 goal_radius_m=500.0, clouds=None, search_m=8000.0, take_under_ms=0.3, mc_kmh_per_ms=12.0,
                 home=None, circuit=None, wind_ne_ms=(0.0, 0.0), home_glide_ratio=22.0, circuit_m=200.0,
                 band_m=50.0, land_after_s=None, keep_home_in_reach=True, field_agl_m=300.0, under_m=120.0, slow_m=400.0,
                 circling_kmh=88.0, leave_below_base_m=150.0, min_cloud_m=400.0,
                 circling_bank_deg=40.0):
        super().__init__()
        self.circling_bank_deg = circling_bank_deg
        self.min_cloud_m = min_cloud_m
        self.leave_below_base_m = leave_below_base_m
        self.under_m = under_m
        self.slow_m = slow_m
        self.circling_kmh = circling_kmh
        self.home = home
        self.circuit = circuit
        self.wind = np.asarray(wind_ne_ms, dtype=np.float64)
        self.home_ratio = home_glide_ratio
        self.circuit_m = circuit_m
        self.band_m = band_m
        self.land_after_s = land_after_s
        self.keep_home_in_reach = keep_home_in_reach
        self.field_agl_m = field_agl_m
        self.homing = False
        self._t0 = None
        self.clouds = clouds
        self.search_m = search_m
        self.mc_per_ms = mc_kmh_per_ms / 3.6
        self.target = None                        # the key of the cumulus flown to
        self.target_base_m = None                 # its base, m ASL
        self.thermal_base_m = None                # the base of the cloud it circles under, when it knows it
        self._closest_m = math.inf                # how near it the glider has come
        self._under_since = 0.0                   # when it first came within 300 m of it
        self.take_under_ms = take_under_ms
        self.done_clouds: set = set()             # keys of those flown under or climbed under
        self.climbs: list = []                    # the average climb of each thermal used, m/s
        self.goal = None if goal_ne is None else np.asarray(goal_ne, dtype=np.float64)
        self.goal_radius = goal_radius_m
        self.cruise = cruise_kmh / 3.6
        self.take_ms = take_ms
        self.leave_ms = leave_ms
        self.ceiling_m = ceiling_m
        self.vario = Vario(1.0)
        self.thermal: ThermalPilot | None = None
        self._lift_since = None
        self._left_at = -1e9
        self.phase = "cruise"
        self.thermals_used = 0

    def course(self, a: Attitude) -> float:
        if self.homing:
            return bearing_to(a.position_ned_m[:2], (self.home.north_m, self.home.east_m))
        if self.goal is None:
            return a.heading
        return bearing_to(a.position_ned_m[:2], self.goal)

    def safe_glide(self, a: Attitude, to_ne) -> tuple[float, float, np.ndarray]:
        """(height lost gliding straight to a point at the safe ``home_glide_ratio``, the wind along
        the way counted; the distance there, m; the way there, north and east, m)."""
        d = np.asarray(to_ne, dtype=np.float64) - a.position_ned_m[:2]
        dist = float(np.hypot(*d))
        tail = float(np.dot(self.wind, d)) / dist if dist > 1.0 else 0.0
        return float(glide_loss_m(dist, tail, max(a.tas_ms, 20.0), self.home_ratio)), dist, d

    def home_margin(self, a: Attitude) -> tuple[float, float]:
        """(metres above the height needed to glide home and join the circuit, metres to the field)."""
        loss, dist, _ = self.safe_glide(a, (self.home.north_m, self.home.east_m))
        return a.altitude_m - self.home.elevation_m - (loss + self.circuit_m), dist

    def late(self, a: Attitude) -> bool:
        """The flight's time is up (``land_after_s`` since the first reading): home and land."""
        return self.land_after_s is not None and a.time_s - self._t0 > self.land_after_s

    def to_circuit(self, a: Attitude, src) -> ControlInputs:
        """The CircuitPilot takes over, with the same hands."""
        if self.phase != "circuit":
            self.set_phase("circuit")
            self.circuit.flyer = self.flyer
            self.circuit.base = self.base
            self.circuit.bank_ref = self.bank_ref
        return self.circuit(src)

    def __call__(self, src, dt_s=None) -> ControlInputs:
        a, dt = self.reading(src)
        if not self.valid(a):
            return self.base
        if self.phase == "circuit":
            return self.circuit(src)
        w = self.vario.update(a, dt)
        if self._t0 is None:
            self._t0 = a.time_s
        if self.home is not None and self.circuit is not None and self.height_band(a):
            return self.to_circuit(a, src)
        if self.phase == "thermal":
            c = self.thermal(src)
            self.t_prev = a.time_s
            if not self.leave_thermal(a):
                return c
        # cruise toward the goal
        if self.goal is not None and float(np.hypot(*(self.goal - a.position_ned_m[:2]))) < self.goal_radius:
            self.reached(a)
        cloud = self.cloud_ahead(a)
        top = self.target_base_m if cloud is not None and self.target_base_m is not None else self.ceiling_m
        low_enough = (top is None or a.altitude_m < top - self.leave_below_base_m - 100.0) and not self.late(a)
        # under the cumulus it flew to, any lift is the thermal's (the vario reads it less the glider's sink)
        # (flown on to the middle of the cloud, where the core is: turned in at its edge, the
        # centring takes minutes)
        to_cloud = math.inf if cloud is None else math.dist(cloud, a.position_ned_m[:2])
        near = to_cloud < self.under_m
        take = self.take_under_ms if near else self.take_ms
        if w > take and low_enough and a.time_s - self._left_at > 20.0:
            self._lift_since = a.time_s if self._lift_since is None else self._lift_since
            if a.time_s - self._lift_since > 2.0:
                self.set_phase("thermal")
                # the wind it circles in: the last thermal's circling-drift estimate, else the
                # briefing's (from nought, the estimate's 30 s lag smeared the first circles)
                wind = self.wind if self.thermal is None else self.thermal.wind.ne
                # under the middle of the cloud it is at the core already: straight into the
                # turn (flown on until the lift fell off, it was 150-200 m past it)
                self.thermal = ThermalPilot(bank_deg=self.circling_bank_deg, wind_ne=tuple(wind), entry=not near)
                self.thermal_base_m = self.target_base_m if near else None
                self.thermal.base = self.base
                self.thermal.flyer = self.flyer
                self.thermal.bank_ref = self.bank_ref
                self.thermal.vario.value = self.vario.value
                self.thermal_t = a.time_s
                self.thermals_used += 1
                return self.thermal(src)
        else:
            self._lift_since = None
        course = self.course(a) if cloud is None else bearing_to(a.position_ned_m[:2], cloud)
        err = wrap_pi(course - a.track_rad)
        bank = clip(1.2 * err, -math.radians(30.0), math.radians(30.0))
        ias = self.speed_to_fly() + (0.0 if w > -1.0 else min(-w - 1.0, 2.0) * 2.5)   # a little faster through sink
        if to_cloud < self.slow_m:
            # slowed to the circling speed for the thermal under it: turned in at the cruise speed
            # the glider zooms out of the core and the centring takes minutes
            ias = min(ias, self.circling_kmh / 3.6)
        return self.fly(a, dt, bank, ias)

    def height_band(self, a: Attitude) -> bool:
        """The height band's say (class docstring): True when the CircuitPilot is to take over
        now; on the way it sets ``homing`` (turned for home) or clears it."""
        margin, dist = self.home_margin(a)
        h_field = a.altitude_m - self.home.elevation_m
        late = self.late(a)
        short = self.keep_home_in_reach and margin < 50.0 - self.circuit_m    # even the bare glide home is short
        near_and_low = dist < 2500.0 and (late or (self.homing and h_field < self.circuit_m + 150.0))
        if short or (near_and_low and (self.phase != "thermal" or late)):
            return True
        if not self.keep_home_in_reach and not late:
            # across country the band is the ground's: low over it, a field (the circuit picks it)
            return a.agl_m < self.field_agl_m and self.phase != "thermal"
        if not self.homing and (margin < self.band_m or late):
            self.homing = True
            self.target = None
        elif self.homing and margin > self.band_m + 150.0 and not late:
            self.homing = False
        return False

    def leave_thermal(self, a: Attitude) -> bool:
        """Whether to leave the thermal now (class docstring); if so, back to the cruise with the
        climb it gave noted."""
        t_in = a.time_s - self.thermal_t
        avg = self.thermal.average_climb(30.0)
        # the base of the cloud it circles under (it sees it), else the lowest of them all
        base = self.thermal_base_m if self.thermal_base_m is not None else self.ceiling_m
        near_base = base is not None and a.altitude_m > base - self.leave_below_base_m
        # weak: under the leave rate, or (the MacCready ring set to the climbs achieved) under
        # half what the thermals have been giving
        weak = max(self.leave_ms, 0.5 * self.mc_ms())
        if not (near_base or (t_in > 60.0 and avg is not None and avg < weak)
                or (t_in > 25.0 and self.thermal.phase == "entry")):
            return False
        self.set_phase("cruise")
        self.bank_ref = a.roll
        self._left_at = a.time_s
        whole = self.thermal.average_climb(max(t_in - 20.0, 10.0))
        if whole is not None and whole > 0.0:
            self.climbs.append(whole)
        if self.target is not None:               # climbed under it: on to the next
            self.done_clouds.add(self.target)
            self.target = None
        return True

    def mc_ms(self) -> float:
        """The MacCready setting, m/s: the average of the last three climbs achieved (0 before one)."""
        return sum(self.climbs[-3:]) / len(self.climbs[-3:]) if self.climbs else 0.0

    def speed_to_fly(self) -> float:
        """The cruise airspeed, m/s: best glide, plus the MacCready ring set to the climbs achieved."""
        return self.cruise + self.mc_per_ms * min(max(self.mc_ms(), 0.0), 4.0)

    def cloud_ahead(self, a: Attitude):
        """(north, east) of the cumulus to fly to now, or None (no clouds in reach: the course).
        The one chosen is kept while it lives; come within 300 m of it without lift, it is done
        with once the glider is 400 m beyond its closest or a minute has passed."""
        if self.clouds is None:
            return None
        rows = self.clouds(a.time_s)
        pos = a.position_ned_m[:2]
        if self.target is not None:
            live = [r for r in rows if r[4] == self.target]
            if not live:
                self.target = None
            else:
                n, e = float(live[0][0]), float(live[0][1])
                self.target_base_m = float(live[0][2])
                d = math.hypot(n - pos[0], e - pos[1])
                if d < 300.0 and self._closest_m >= 300.0:
                    self._under_since = a.time_s
                self._closest_m = min(self._closest_m, d)
                if self._closest_m < 300.0 and (d > self._closest_m + 400.0 or a.time_s - self._under_since > 60.0):
                    self.done_clouds.add(self.target)
                    self.target = None
                else:
                    return (n, e)
        # the point flown to: the turnpoint (or home when homing); with it in reach (the glide there
        # arrives ``field_agl_m`` above the ground), only a cloud on the line is worth the detour
        to = self.goal if self.goal is not None else (
            np.array([self.home.north_m, self.home.east_m]) if self.homing else None)
        straight = math.inf if to is None else float(np.hypot(*(to - pos)))
        on_line = to is not None and self.in_reach(a, to)
        best, best_cost = None, math.inf
        tas = max(a.tas_ms, 20.0)
        for n, e, base, size, key in rows:
            if key in self.done_clouds or size < self.min_cloud_m:      # a wisp: young, or dying
                continue
            d = math.hypot(n - pos[0], e - pos[1])
            if d > self.search_m:
                continue
            # arriving above where it would leave the thermal, the cloud is no use now (its lift
            # fades out over the last 200 m below its base): on, and lower down the next one
            if a.altitude_m - float(glide_loss_m(d, 0.0, tas, 25.0)) > base - self.leave_below_base_m - 100.0:
                continue
            cost = d - 2.0 * size
            if to is not None:
                # the way round by the cloud against the way straight there: a cloud off to the side or
                # past the turnpoint costs what the detour costs
                detour = d + math.hypot(to[0] - n, to[1] - e) - straight
                if detour > (300.0 if on_line else max(0.5 * d, 500.0)):
                    continue
                cost = detour + 0.5 * d - 2.0 * size     # on the way, nearer, bigger (stronger)
            if cost < best_cost:
                best, best_cost = (key, float(n), float(e), float(base)), cost
        if best is None:
            return None
        self.target, self._closest_m, self.target_base_m = best[0], math.inf, best[3]
        return best[1], best[2]

    def in_reach(self, a: Attitude, to_ne) -> bool:
        """Whether a glide at the safe ``home_glide_ratio`` (the wind along the way counted) gets to a
        point ``field_agl_m`` above the highest ground on the way (the terrain as the watch sees it)."""
        loss, dist, d = self.safe_glide(a, to_ne)
        if dist < 1.0:
            return True
        arrive = a.altitude_m - loss
        watch = self.terrain_watch
        if watch is None:
            ground = self.home.elevation_m if self.home is not None else -math.inf
        else:
            f = np.linspace(0.0, 1.0, 12)
            ground = float(np.max(watch.terrain.height_at(a.position_ned_m[0] + f * d[0],
                                                          a.position_ned_m[1] + f * d[1])))
        return arrive - ground > self.field_agl_m

    def reached(self, a):
        """Goal reached: hold it (circle over it gently) unless a subclass moves on."""
        self.goal = None


class CrossCountryPilot(SoaringPilot):
    """Flies the task: each turnpoint in order (within its radius counts), then home."""

    def __init__(self, turnpoints_ne, radii_m=None, **kw):
        self.turnpoints = [np.asarray(p, dtype=np.float64) for p in turnpoints_ne]
        self.radii = list(radii_m) if radii_m is not None else [500.0] * len(self.turnpoints)
        self.leg = 0
        super().__init__(self.turnpoints[0] if self.turnpoints else None,
                         goal_radius_m=self.radii[0] if self.radii else 500.0, **kw)

    def reached(self, a):
        self.leg += 1
        if self.leg < len(self.turnpoints):
            self.goal = self.turnpoints[self.leg]
            self.goal_radius = self.radii[self.leg]
        elif self.home is None:
            self.goal = None
        else:
            # the task flown: toward home, by the clouds on the way while the glide home is short
            self.goal = np.array([self.home.north_m, self.home.east_m])
            self.goal_radius = 0.0

    def height_band(self, a: Attitude) -> bool:
        """Across country, the ground's band (SoaringPilot.height_band); the task flown and the glide
        home made (the safe glide and the circuit height), the final glide: home and land."""
        if self.leg >= len(self.turnpoints) and not self.keep_home_in_reach and self.home_margin(a)[0] > 0.0:
            self.goal = None
            self.land_after_s = 0.0
            self.keep_home_in_reach = True
        return super().height_band(a)
