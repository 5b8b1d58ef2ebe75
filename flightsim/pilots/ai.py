"""An AI fighter pilot that flies the same flight model through the same ControlInputs
(stick and pedal force requests, throttle, trigger) as the player.

It reads what a pilot has -- its own attitude, rates, airspeed, angle of attack, load
factor, height above the ground, vertical speed -- plus where the enemy is and how he is
moving (what the pilot sees through the canopy). No knowledge of the model's internals:
what it achieves is what the flight model allows (seed 002: "the AI should have all of
the same capabilities and limitations as the player").

How it flies (the lift-vector pursuit of air-combat manoeuvring):

* Aim point: the enemy ahead of where he is by the bullets' time of flight (lead
  pursuit) once within twice the gun range, and a little behind him (lag) when far off
  his tail, raised by the bullets' drop.
* Where the lift has to point: the acceleration that turns the velocity onto the aim
  point -- a turn rate that follows the line of sight's own rate plus one proportional
  to the angle still between them -- less gravity. The AI rolls the lift vector (body
  -z) onto it and pulls the load factor it asks for (a PI loop on the load factor with
  pitch-rate damping), limited to ``max_g``, to what the wing gives at this airspeed
  with a margin (n = 0.75 (V/Vs)^2: a slow fighter that pulls hard only sheds speed),
  and by the angle of attack short of the buffet; turns are flown level, not spiralling.
* Near the target it steers the bullets' line of departure (the aircraft's velocity
  plus the muzzle velocity along the bore), not its velocity, onto the aim point; fine
  aim across the nose with the rudder, the ball otherwise centred, yaw rate damped.
* Throttle: full, war emergency power when far behind; off the power when overshooting
  close in at high closure.
* A fly-by-wire aircraft's stick asks for a load factor (``g_command``): the AI puts it where the
  load factor it wants is, and the aircraft's law flies the surfaces.
* Ground: below ``floor_m`` above the terrain, or heading there within a few seconds, or
  a hill ahead (the path of the next seconds within half ``floor_m`` of the ground:
  ``ahead_clearance_m``, from terrain_watch), everything else waits: wings to the horizon and
  pull out.
* Trigger: enemy within gun range and the lead point within the gun cone (its angle off
  the boresight smaller than the enemy's size at that range plus the dispersion).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..physics.named import AircraftView
from ..physics.quat import cross3
from ..runtime.handoff import ControlInputs


def _norm(x) -> float:
    """A 3-vector's length: numpy's norm (sqrt of x.dot(x)) without its checks, the same bits."""
    return math.sqrt(x.dot(x))


G0 = 9.80665
_G_VEC = np.array([0.0, 0.0, G0])          # gravity, NED (never written: a_lift is a new array)
_COS_10DEG = math.cos(math.radians(10.0))
DROP_STORES_M = 4000.0      # the AI drops its tanks and bombs with the enemy this close


def clip(x, lo=-1.0, hi=1.0):
    return lo if x < lo else hi if x > hi else x


@dataclass
class AirData:
    """What the AI's own instruments and eyes give it (from a Sim's state and diag)."""
    position_ned_m: np.ndarray
    velocity_ned_ms: np.ndarray
    R: np.ndarray                 # body -> NED
    p: float
    q: float
    r: float
    ias_ms: float
    tas_ms: float
    alpha_rad: float
    beta_rad: float
    nz_g: float
    agl_m: float
    on_ground: bool
    stalled_sections: int = 0     # buffet: lifting sections past their stall
    ahead_clearance_m: float = math.inf   # least height over the terrain along the path (terrain_watch)

    @classmethod
    def from_sim(cls, state, diag, ground_m=None):
        """From a state and the diag of its last step; ``ground_m``: the terrain height under
        the aircraft (the pilot's view of the ground) when the diag has not been filled yet."""
        v = AircraftView(state, diag)
        reads = v.pilot_reads()
        if ground_m is not None:
            reads = reads[:11] + (v.altitude_m - float(ground_m),) + reads[12:]
        return cls(*reads)


def air_data_from_snapshot(snap) -> AirData:
    """A pilot's AirData from the game's snapshot (the player's instruments and eyes)."""
    from ..physics.quat import dcm_from_quat
    R = np.zeros((3, 3))
    dcm_from_quat(np.asarray(snap.quat_wxyz, dtype=np.float64), R)
    p, q, r = (float(x) for x in snap.omega_body_rads)
    return AirData(np.array(snap.position_ned_m, dtype=float), np.array(snap.velocity_ned_ms, dtype=float), R, p, q, r,
                   snap.ias_ms, snap.tas_ms, snap.alpha_rad, snap.beta_rad, snap.nz_g, snap.height_agl_m,
                   bool(snap.on_ground), int(snap.stalled_sections))


class FighterAI:
    """Pursuit and gunnery through ControlInputs. Call with the AI's own AirData and the
    enemy's position and velocity (NED); returns the ControlInputs for the next tick.

    ``base``: the controls it starts from (trim tabs, propeller lever, gear up ...).
    ``bullet_speed_ms``: mean speed of its bullets over the gun range (time of flight).
    ``stall_alpha_rad``, ``stall_speed_ms``: the aircraft's stall angle of attack and 1 g
    stall speed (IAS), as a pilot knows his aircraft's buffet margin."""

    def __init__(self, base: ControlInputs | None = None, max_g=6.0, gun_range_m=600.0, floor_m=300.0,
                 bullet_speed_ms=800.0, stall_alpha_rad=math.radians(16.0), stall_speed_ms=50.0, target_size_m=10.0,
                 dispersion_rad=0.004, fire=True, dt=0.02, g_command=None):
        self.base = base or ControlInputs(throttle=1.0, gear_up=1.0)
        self.max_g = max_g
        self.gun_range_m = gun_range_m
        self.floor_m = floor_m
        self.bullet_speed_ms = bullet_speed_ms
        # buffet margin: 5 degrees below the wing's stall (the slipstream and the pitch rate
        # take some sections closer to it than the aircraft's angle of attack shows)
        self.alpha_max = stall_alpha_rad - math.radians(5.0)
        self._alpha_prev = None
        self.stall_speed_ms = stall_speed_ms
        self.target_size_m = target_size_m
        self.dispersion_rad = dispersion_rad
        self.may_fire = fire
        self.k_turn = 1.2               # turn-rate demand per radian of angle off, 1/s
        self.max_turn_rate = 0.6        # rad/s: cap on the turn-rate demand (the load-factor limits bind first)
        self.k_beta = 0.5               # rudder per radian of sideslip (ball in the middle)
        self.k_yaw_rate = 1.0           # rudder per rad/s of yaw rate (damping: no Dutch roll)
        self.k_aim_yaw = 2.0            # rudder per radian of aim error across the nose (fine aim)
        self.boresight = np.array([1.0, 0.0, 0.0])   # the guns' line, body axes
        self.muzzle_velocity_ms = bullet_speed_ms / 0.9
        self.k_nz = 0.03                # stick per g of load-factor error
        self.k_roll = 1.8               # stick per radian of bank error (lift vector onto the demand)
        self.k_p = 0.35                 # stick per rad/s of roll rate (damping)
        self.k_nz_i = 0.15              # stick per g s (the pull that holds a load factor)
        self.k_q = 0.3                  # stick per rad/s of pitch rate (damping)
        self.dt = dt
        # a fly-by-wire aircraft (physics/fcs.py): the stick asks for a load factor, (g_max, g_min) at
        # its stops; the AI then puts the stick where the load factor it wants is, as a pilot does
        self.g_command = g_command
        self.pitch_i = 0.0          # the pull integrator (stick force that holds the asked load factor)
        self.mode = "pursuit"
        self.firing = False
        self.aim_off_rad = math.pi
        self.disengage = False      # damaged: break off, away from the enemy and down, for home

    # ------------------------------------------------------------------ geometry
    def aim_point(self, me: AirData, tgt_pos, tgt_vel):
        rel = np.asarray(tgt_pos) - me.position_ned_m
        dist = _norm(rel)
        tof = dist / (self.bullet_speed_ms + max(me.tas_ms, 0.0) * 0.5)
        if dist < 2.0 * self.gun_range_m:
            # lead pursuit: where he will be when the bullets get there, raised by their drop
            aim = np.asarray(tgt_pos) + np.asarray(tgt_vel) * tof
            aim[2] -= 0.5 * G0 * tof * tof
        else:
            # far: pure pursuit, a little lag (behind him: closing without overshooting)
            aim = np.asarray(tgt_pos) - np.asarray(tgt_vel) * 0.5
        return aim, dist, tof

    # ------------------------------------------------------------------ the pilot
    def __call__(self, me: AirData, tgt_pos, tgt_vel) -> ControlInputs:
        """The controls for this tick: where to put the lift (the ground first, else the aim
        point), the roll and pull that put it there, the rudder, the throttle and the trigger."""
        if self.disengage:
            tgt_pos, tgt_vel = self._escape_point(me, tgt_pos)
        aim, dist, tof = self.aim_point(me, tgt_pos, tgt_vel)
        v = me.velocity_ned_ms
        speed = max(_norm(v), 1.0)
        u_v = v / speed
        los = aim - me.position_ned_m
        u_los = los / max(_norm(los), 1e-6)
        u_aim = u_los                                      # the true line to the aim point
        shot = v + self.muzzle_velocity_ms * (me.R @ self.boresight)
        u_shot = shot / _norm(shot)        # where the bullets leave for
        # energy: below corner speed the load factor the wing can give falls with the square
        # of the airspeed (n = (V / Vs)^2); the AI keeps a quarter of it in hand (the buffet:
        # pulled hard the model's wing stalls early, with a pitch-up)
        g_avail = min(self.max_g, max(1.5, 0.75 * (me.ias_ms / self.stall_speed_ms) ** 2))
        # --- ground: pull out first
        sink = max(0.0, float(v[2]))
        floor_breach = me.agl_m < self.floor_m or me.agl_m - 5.0 * sink < self.floor_m or \
            me.ahead_clearance_m < 0.5 * self.floor_m
        if floor_breach:
            self.mode = "pull up"
            # lift straight up (away from the ground), as hard as the wing allows
            lift_dir = np.array([0.0, 0.0, -1.0]) - u_v * (-u_v[2])
            n = _norm(lift_dir)
            lift_dir = lift_dir / n if n > 1e-3 else -me.R[:, 2]
            nz_cmd = self.max_g
        else:
            self.mode = "pursuit"
            lift_dir, nz_cmd = self._pursuit_lift(me, v, u_v, los, u_los, u_shot, tgt_vel, g_avail)
        nz_cmd = min(nz_cmd, g_avail)
        roll, pitch = self._roll_and_pull(me, lift_dir, nz_cmd, floor_breach)
        yaw = self._rudder(me, u_aim, u_shot)
        throttle, wep = self._throttle(me, v, tgt_pos, tgt_vel, dist)
        # --- trigger
        cone = math.atan2(0.5 * self.target_size_m, max(dist, 1.0)) + self.dispersion_rad
        self.firing = bool(self.may_fire and self.mode == "pursuit" and dist < self.gun_range_m
                           and self.aim_off_rad < cone and not self.disengage)
        if self.disengage and self.mode == "pursuit":
            self.mode = "disengage"
        # stores: drop tanks and bombs go once the enemy is near (to fight clean), or to run
        clean = 1.0 if (dist < DROP_STORES_M or self.disengage) else 0.0
        return self.base.replace(pitch=pitch, roll=roll, yaw=yaw, throttle=throttle, wep=wep,
                                 fire=1.0 if self.firing else 0.0, drop_tanks=clean, drop_bombs=clean)

    @staticmethod
    def _escape_point(me: AirData, tgt_pos):
        """A point 5 km away from the enemy and 600 m lower: pure pursuit of it is the escape."""
        away = me.position_ned_m - np.asarray(tgt_pos, dtype=float)
        away[2] = 0.0
        n = _norm(away)
        away = away / n if n > 1.0 else me.R[:, 0] * np.array([1.0, 1.0, 0.0])
        return me.position_ned_m + 5000.0 * away + np.array([0.0, 0.0, 600.0]), np.zeros(3)

    def _pursuit_lift(self, me: AirData, v, u_v, los, u_los, u_shot, tgt_vel, g_avail):
        """(the lift's direction, the load factor) that turn the velocity onto the aim point: the
        velocity's turn rate follows the line of sight's own rate (so a steady lead is held
        without an angle error, proportional navigation) plus a rate proportional to the angle
        still between them (pursuit), limited to what the airframe sustains. The guns are fixed
        to the airframe, which flies at an angle of attack and sideslip to its velocity, and the
        bullets leave with the aircraft's velocity added to the muzzle velocity: near the
        target, the velocity is steered so that the bullets' line of departure (not the
        velocity) comes onto the aim point."""
        if float(u_los @ u_v) > _COS_10DEG:
            u_los = u_los + (u_v - u_shot)
            u_los /= _norm(u_los)
        rel_v = np.asarray(tgt_vel) - v
        w_los = cross3(los, rel_v) / max(float(los @ los), 1.0)
        e = cross3(u_v, u_los)                          # rotation that takes u_v onto u_los
        ang = math.atan2(_norm(e), float(u_los @ u_v))
        n_e = _norm(e)
        w_cmd = w_los + (e / n_e * self.k_turn * ang if n_e > 1e-9 else 0.0)
        w_cmd -= u_v * float(w_cmd @ u_v)              # turning the velocity, not rolling about it
        w_mag = _norm(w_cmd)
        if w_mag > self.max_turn_rate:
            w_cmd *= self.max_turn_rate / w_mag
        a_turn = cross3(w_cmd, v)
        # no more turn than the available load factor gives while still holding up the
        # weight: a hard turn is flown level (or climbing), not spiralling down
        a_max = math.sqrt(max(g_avail * g_avail - 1.0, 0.25)) * G0
        a_n = _norm(a_turn)
        if a_n > a_max:
            a_turn *= a_max / a_n
        a_lift = a_turn - _G_VEC
        a_lift -= u_v * float(a_lift @ u_v)            # lift acts across the flight path
        n = _norm(a_lift)
        lift_dir = a_lift / n if n > 1e-6 else -me.R[:, 2]
        return lift_dir, n / G0

    def _roll_and_pull(self, me: AirData, lift_dir, nz_cmd, floor_breach):
        """(roll, pitch): the lift vector (body -z) rolled onto ``lift_dir``, the asked load factor
        held with the stick (PI on nz, rate damping), kept off the stall."""
        lb = me.R.T @ lift_dir                             # in body axes
        roll_err = math.atan2(lb[1], -lb[2])
        # unload while the lift points the wrong way: pull only as the roll comes round
        pull_share = max(math.cos(roll_err), 0.0)
        nz_target = 1.0 + (nz_cmd - 1.0) * pull_share if nz_cmd > 1.0 else nz_cmd * pull_share
        if not floor_breach and abs(roll_err) > math.radians(100.0):
            nz_target = min(nz_target, 0.5)
        roll = clip(self.k_roll * roll_err - self.k_p * me.p)
        # stall margin: past the buffet angle ease off in proportion (a pilot feels the buffet
        # and relaxes the pull), more if sections are already stalled
        rate = 0.0 if self._alpha_prev is None else (me.alpha_rad - self._alpha_prev) / self.dt
        self._alpha_prev = me.alpha_rad
        alpha_ahead = me.alpha_rad + 0.25 * max(rate, 0.0)       # where it is going in a quarter second
        if alpha_ahead > self.alpha_max:
            nz_target = min(nz_target, me.nz_g - 0.5 * (alpha_ahead - self.alpha_max) / math.radians(1.0))
        if me.stalled_sections > 0 and not me.on_ground:
            nz_target = min(nz_target, me.nz_g - 1.0)
        err = nz_target - me.nz_g
        if self.g_command is not None:
            g_hi, g_lo = self.g_command
            pitch = clip((nz_target - 1.0) / (g_hi - 1.0) if nz_target >= 1.0 else (nz_target - 1.0) / (1.0 - g_lo))
        else:
            self.pitch_i = clip(self.pitch_i + self.k_nz_i * err * self.dt, -0.6, 0.8)
            pitch = clip(self.pitch_i + self.k_nz * err - self.k_q * me.q)
        return roll, pitch

    def _rudder(self, me: AirData, u_aim, u_shot) -> float:
        """Fine aim near the boresight, else the ball in the middle."""
        aim_b = me.R.T @ u_aim
        self.aim_off_rad = math.acos(clip(float(u_aim @ u_shot)))     # off the bullets' line
        yaw = self.k_beta * me.beta_rad - self.k_yaw_rate * me.r    # + beta: the air from the right: right rudder
        if self.mode == "pursuit" and self.aim_off_rad < math.radians(4.0):
            yaw += self.k_aim_yaw * math.atan2(aim_b[1], aim_b[0])
        return clip(yaw)

    @staticmethod
    def _throttle(me: AirData, v, tgt_pos, tgt_vel, dist):
        """(throttle, WEP): WEP far out, back to close without overshooting when closing fast."""
        throttle, wep = 1.0, 0.0
        closing = -float((np.asarray(tgt_vel) - v) @ (np.asarray(tgt_pos) - me.position_ned_m)) / max(dist, 1.0)
        if dist > 1000.0:
            wep = 1.0
        elif dist < 400.0 and closing > 25.0:
            throttle = 0.3
        return throttle, wep

    def reset(self):
        self.disengage = False
        self.pitch_i = 0.0
        self._alpha_prev = None
        self.mode = "pursuit"
        self.firing = False
