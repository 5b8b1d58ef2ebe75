"""What crosses between threads: control inputs in, immutable state snapshots out.

    input layer ──ControlInputs──► ControlMailbox ──(read once per tick)──► physics thread
    physics thread ──Snapshot──► SnapshotBuffer (prev, curr) ──► renderer / instruments

Everything here is numpy + stdlib. A Snapshot is a frozen dataclass whose arrays are
read-only copies, so the render thread can hold one as long as it likes while the physics
thread moves on. The physics thread publishes each tick's arrays copied (PublishedState); the
Snapshot is made from those copies when first read, so a tick no one reads costs no Snapshot.
The buffer swaps one tuple reference (atomic in CPython), so a reader always sees a
consistent (prev, curr) pair without taking a lock.

``interpolate(prev, curr, alpha)`` gives the state between two snapshots: positions
lerped, attitude slerped on the shortest arc; ``render_alpha`` maps a wall-clock time to
that fraction (the renderer draws at ``now - DT``, one tick in the past, so it always
has two snapshots around the moment it draws).
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field, fields, replace

import numpy as np

from ..physics.named import CONTROL_INDEX, CONTROL_RANGE, N_CONTROLS, SURFACES, AircraftView
from ..physics.named_model import AircraftData

DT = 0.02
JET_IDLE_RPM_PCT = 65.0        # a turbofan's core speed at ground idle, % (the gauge's reading; assumed)


def read_only(a) -> np.ndarray:
    """A float64 copy no one can write (what a published snapshot or frame holds)."""
    out = np.array(a, dtype=np.float64, copy=True)
    out.setflags(write=False)
    return out



# ---------------------------------------------------------------------------- controls
# the controls' names, places and ranges: physics.named.CONTROLS
CONTROL_INDEX = dict(CONTROL_INDEX)
CONTROL_RANGE = dict(CONTROL_RANGE)


@dataclass(frozen=True)
class ControlInputs:
    """Pilot commands, the same for the player, a script or an AI (physics.named.CONTROLS)."""
    pitch: float = 0.0        # -1..1, + nose up (stick back)
    roll: float = 0.0         # -1..1, + roll right
    yaw: float = 0.0          # -1..1, + nose right
    airbrake: float = 0.0     # 0..1
    flap: float = 0.0         # -1..1
    brake_left: float = 0.0   # 0..1
    brake_right: float = 0.0  # 0..1
    throttle: float = 0.0     # 0..1
    pitch_trim: float = 0.0   # -1..1
    gear_up: float = 0.0      # 0 down, 1 up
    prop_rpm: float = 1.0     # 0..1 governor setting, minimum .. maximum rpm
    wep: float = 0.0          # 1: war emergency power (through the throttle gate)
    blower: float = 0.0       # 0 automatic supercharger gear, 1 held in low gear
    feather: float = 0.0      # 1: feather the propeller (where it can)
    cutoff: float = 0.0       # 1: mixture idle cut-off (engine stops)
    starter: float = 0.0      # 1: starter engaged
    roll_trim: float = 0.0    # -1..1 aileron trim (+ right wing down)
    yaw_trim: float = 0.0     # -1..1 rudder trim (+ nose right)
    fire: float = 0.0         # 1: guns firing (trigger held)
    drop_tanks: float = 0.0   # 1: release the drop tanks
    drop_bombs: float = 0.0   # 1: release the bombs
    fcs_direct: float = 0.0   # 1: the flight-control law off (fly-by-wire aircraft): the stick moves the surfaces
    mixture_lean: float = 0.0  # 0 full rich .. 1 idle cut-off: a carburetted engine's mixture lever
    carb_heat: float = 0.0    # 0 cold .. 1 full carburettor heat
    launch: float = 0.0       # 1: launch the selected missile (the button's press)
    weapon_select: float = 0.0  # 1: next weapon (the button's press)
    lock: float = 0.0         # 1: lock the target ahead / break the lock (the button's press)
    flare: float = 0.0        # 1: drop a flare (the button's press)
    chaff: float = 0.0        # 1: drop a chaff bundle (the button's press)

    def to_array(self, out: np.ndarray | None = None, refused: list | None = None) -> np.ndarray:
        """The controls as the kernels take them, each clamped to its range. A value that is not
        a number (NaN, None, a string: a broken device, AI or script) never reaches the array:
        ``out`` keeps what it held (the last good value; a fresh array the default) and the
        control's name is appended to ``refused``."""
        fresh = out is None
        out = np.zeros(N_CONTROLS) if fresh else out
        values = [0.0] * N_CONTROLS
        held = self.__dict__
        for name, i, lo, hi, default in _CONTROL_FIELDS:
            v = held[name]
            if type(v) is float and v == v:        # the usual case: min(max(v, lo), hi) in line
                values[i] = lo if v < lo else (hi if v > hi else v)
                continue
            try:
                v = float(v)
            except (TypeError, ValueError):
                v = math.nan
            if v != v:
                if refused is not None:
                    refused.append(name)
                v = default if fresh or out[i] != out[i] else float(out[i])
            else:
                v = min(max(v, lo), hi)
            values[i] = v
        out[:] = values
        return out

    @classmethod
    def from_array(cls, a) -> ControlInputs:
        return cls(**{name: float(a[i]) for name, i in CONTROL_INDEX.items()})

    def replace(self, **kw) -> ControlInputs:
        """A copy with the named controls changed (dataclasses.replace's result, made without its
        per-call field walk: an AI builds one each tick)."""
        held = self.__dict__
        for name in kw:
            if name not in held:
                return replace(self, **kw)           # (its TypeError names the unknown field)
        new = object.__new__(type(self))
        new.__dict__.update(held)
        new.__dict__.update(kw)
        return new


# each control's (name, place, lowest, highest, default), in the dataclass's order (to_array)
_CONTROL_FIELDS = tuple((f.name, CONTROL_INDEX[f.name], *CONTROL_RANGE[f.name], f.default) for f in fields(ControlInputs))


class ControlMailbox:
    """Latest ControlInputs wins; the physics thread reads once per tick.

    Commands (reset, ...) queue up and are each delivered once, in order."""

    def __init__(self, initial: ControlInputs | None = None):
        self._inputs = initial or ControlInputs()
        self._commands: list = []
        self._lock = threading.Lock()
        self.writes = 0

    def post(self, inputs: ControlInputs) -> None:
        self._inputs = inputs      # one reference store: atomic
        self.writes += 1

    def read(self) -> ControlInputs:
        return self._inputs

    def command(self, cmd, *args) -> None:
        with self._lock:
            self._commands.append((cmd, args))

    def take_commands(self) -> list:
        if not self._commands:
            return []
        with self._lock:
            out, self._commands = self._commands, []
        return out


# ---------------------------------------------------------------------------- snapshots
@dataclass(frozen=True)
class Snapshot:
    tick: int
    time_s: float
    wall_s: float                  # monotonic time this state belongs to (scheduled tick time)
    epoch: int                     # bumped on reset / teleport: never interpolate across epochs
    position_ned_m: np.ndarray     # (3,)
    quat_wxyz: np.ndarray          # (4,) q_ned_from_body
    velocity_ned_ms: np.ndarray    # (3,) over the ground
    velocity_body_ms: np.ndarray   # (3,)
    omega_body_rads: np.ndarray    # (3,)
    alpha_rad: float = 0.0
    beta_rad: float = 0.0
    tas_ms: float = 0.0
    ias_ms: float = 0.0
    altitude_m: float = 0.0
    height_agl_m: float = 0.0
    nz_g: float = 1.0
    on_ground: int = 0
    stalled_sections: int = 0
    airbrake: float = 0.0          # 0..1 where the airbrakes are (they take time to move)
    gear_up: float = 0.0           # 0 down .. 1 up, where the gear is
    # control surfaces and actuators where they are, normalised: pitch, roll, yaw (-1..1
    # of travel; the stick is a force request), flap, airbrake, gear (layout SURF_*)
    surfaces: np.ndarray = field(default_factory=lambda: read_only(np.zeros(6)))
    deflections_rad: np.ndarray = field(default_factory=lambda: read_only(np.zeros(0)))  # per section
    slat_positions: np.ndarray = field(default_factory=lambda: read_only(np.zeros(0)))   # per section, 0 closed .. 1 open
    controls: ControlInputs = field(default_factory=ControlInputs)
    strike_index: int = -1
    strike_speed_ms: float = 0.0
    paused: bool = False
    time_scale: int = 1            # physics steps per 20 ms tick: 1, or 2 / 4 under time acceleration
    # air data and accelerometers for the instruments (flightsim.instruments)
    mach: float = 0.0
    nx_g: float = 0.0              # specific force along body x / g (forward)
    ny_g: float = 0.0              # specific force along body y / g (right): the slip ball
    rho_kgm3: float = 1.225
    # the powerplant (zeros for a glider): for the engine gauges and the engine sound
    engine_rpm: float = 0.0
    manifold_pressure_pa: float = 0.0
    engine_load: float = 0.0       # brake power / rated power
    thrust_n: float = 0.0
    fuel_kg: float = 0.0
    fuel_flow_kgs: float = 0.0
    coolant_k: float = 0.0
    oil_k: float = 0.0
    blower_gear: int = 0           # supercharger: 0 low, 1 high
    # a carburetted engine's gauges (physics/carburettor.py; 0 without a carburettor)
    carb_temp_k: float = 0.0       # carburettor air temperature at the throttle
    egt_k: float = 0.0             # exhaust gas temperature (the mixture indicator)
    carb_ice: float = 0.0          # share of the carburettor's bore the ice blocks, 0..1
    suction_inhg: float = 0.0      # the engine-driven vacuum pump's suction for the gyros (0: none)
    fuel_left_kg: float = 0.0      # fuel in the left and right wing tanks (0 without wing tanks)
    fuel_right_kg: float = 0.0
    # systems damage and stores (physics/damage.py, physics/stores.py; None / empty without them)
    oil_pressure_pa: float = 0.0
    damage: dict | None = None     # physics.damage.damage_summary: coolant and oil left, engine health, fires ...
    smoke: tuple = ()              # what it trails: (kind, body point, strength) (physics.damage.smoke_points)
    stores_on: np.ndarray = field(default_factory=lambda: read_only(np.zeros(0)))    # per store: its share on (AircraftData)
    section_damage: np.ndarray = field(default_factory=lambda: read_only(np.zeros(0)))   # per section, 0 intact .. 1 shot away
    # jets and the flight-control law (physics/jet.py, physics/fcs.py; zeros without them)
    jets: int = 0                  # jet engines installed
    jets_running: int = 0
    jet_spool: float = 0.0         # mean spool of the running engines, 0 idle .. 1 military
    jet_rpm_pct: float = 0.0       # the core-speed gauge's reading (JET_IDLE_RPM_PCT at idle, 100 at military; 0 stopped)
    afterburner: float = 0.0       # mean afterburner, 0 off .. 1 full
    g_demand: float = 0.0          # the load factor the law asks for
    g_limit: float = 0.0           # the positive limit in force (0: no law)
    fcs_direct: bool = False       # the law switched off
    ps_ms: float = 0.0             # specific excess power: the energy height gained per second, m/s
    mass_kg: float = 0.0
    corner_ias_ms: float = 0.0     # the corner speed estimate at this weight (AircraftData.corner_speed_eas_ms)

    @property
    def vertical_speed_ms(self) -> float:
        return -float(self.velocity_ned_ms[2])

    def surface(self, name: str) -> float:
        """Where a surface or actuator was (pitch, roll, yaw, flap, airbrake, gear): physics.named.SURFACES."""
        return float(self.surfaces[SURFACES[name]])

    @property
    def euler_rad(self):
        return euler_from_quat(self.quat_wxyz)


def dcm(q) -> np.ndarray:
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def euler_from_quat(q):
    w, x, y, z = (float(v) for v in q)
    roll = math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
    pitch = math.asin(min(max(2 * (w * y - z * x), -1.0), 1.0))
    yaw = math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
    return roll, pitch, yaw


def make_snapshot(state, ctrl, diag, model, wall_s=0.0, epoch=0, paused=False, dt=DT, time_scale=1) -> Snapshot:
    a = AircraftView(state, diag, dt)
    data = AircraftData(model)
    v_body = a.velocity_body_ms
    rho = a.air_density_kgm3
    return Snapshot(
        tick=a.tick, time_s=a.time_s, wall_s=float(wall_s), epoch=int(epoch),
        position_ned_m=read_only(a.position_ned_m), quat_wxyz=read_only(a.quat_wxyz),
        velocity_ned_ms=read_only(a.body_to_ned() @ v_body), velocity_body_ms=read_only(v_body),
        omega_body_rads=read_only(a.body_rates_rads),
        alpha_rad=a.alpha_rad, beta_rad=a.beta_rad, tas_ms=a.tas_ms,
        ias_ms=a.ias_ms, altitude_m=a.altitude_m,
        height_agl_m=a.height_agl_m, nz_g=a.nz_g,
        on_ground=a.gear_on_ground, stalled_sections=a.stalled_sections,
        airbrake=a.surface("airbrake"), gear_up=a.surface("gear"),
        surfaces=read_only(a.surface_positions),
        deflections_rad=read_only(data.section_deflections_rad(state)),
        slat_positions=read_only(data.section_slat_positions(state)),
        section_damage=read_only(data.section_damage),
        controls=ControlInputs.from_array(ctrl),
        strike_index=a.strike_contact, strike_speed_ms=a.strike_speed_ms,
        paused=bool(paused), time_scale=int(time_scale),
        mach=a.mach, nx_g=a.nx_g, ny_g=a.ny_g,
        rho_kgm3=rho if rho > 0 else 1.225,
        engine_rpm=a.engine_rpm, manifold_pressure_pa=a.manifold_pressure_pa,
        engine_load=a.engine_load, thrust_n=a.thrust_n,
        fuel_kg=a.fuel_kg, fuel_flow_kgs=a.fuel_flow_kgs,
        coolant_k=a.coolant_k, oil_k=a.oil_k, blower_gear=a.supercharger_gear,
        jets=data.jets, jets_running=int(a.jets_running), jet_spool=a.jet_spool, afterburner=a.afterburner,
        jet_rpm_pct=JET_IDLE_RPM_PCT + (100.0 - JET_IDLE_RPM_PCT) * a.jet_spool if a.jets_running else 0.0,
        g_demand=a.g_demand, g_limit=a.g_limit if data.fly_by_wire else 0.0,
        fcs_direct=bool(ctrl[CONTROL_INDEX["fcs_direct"]] > 0.5) and data.fly_by_wire,
        ps_ms=a.specific_excess_power_ms, mass_kg=a.mass_kg, corner_ias_ms=data.corner_speed_eas_ms(a.mass_kg),
        stores_on=read_only(data.stores_on(state)),
        **_damage_fields(state, diag, model), **_carburettor_fields(state, a, data),
    )


SUCTION_INHG = 5.0             # the vacuum regulator's setting (Cessna 172P POH: green arc 4.5-5.4 inHg)
SUCTION_FULL_RPM = 1500.0      # the engine-driven pump reaches it above about this rpm (assumed)


def _carburettor_fields(state, a: AircraftView, data: AircraftData) -> dict:
    """A carburetted light aircraft's gauges: carburettor air and exhaust gas temperatures, the
    carburettor's ice, the gyros' suction and the fuel in each wing tank."""
    if not data.carburettor:
        return {}
    rpm = a.engine_rpm
    fuel = data.tank_fuel_kg(state)
    sides = data.tank_sides()
    return {"carb_temp_k": a.carburettor_temp_k, "egt_k": a.exhaust_gas_temp_k,
            "carb_ice": min(a.carburettor_ice_kg / data.carburettor_ice_block_kg, 1.0),
            "suction_inhg": SUCTION_INHG * min(max(rpm, 0.0) / SUCTION_FULL_RPM, 1.0),
            "fuel_left_kg": float(fuel[sides < 0].sum()), "fuel_right_kg": float(fuel[sides > 0].sum())}


def _damage_fields(state, diag, model) -> dict:
    data = AircraftData(model)
    if not data.has_systems_damage:
        return {}
    from ..physics.damage import damage_summary, smoke_points
    return {"oil_pressure_pa": AircraftView(state, diag).oil_pressure_pa, "damage": damage_summary(model, state, diag),
            "smoke": smoke_points(model, state, diag)}


class PublishedState:
    """One tick as the physics thread left it: copies of its state, controls and diagnostics and
    of the model (whose damage columns combat writes), with the tick's wall time and flags. The
    Snapshot is made from these copies when a reader first asks for it (``snapshot``), in the
    reader's thread: the physics thread pays for four array copies a tick (about 5 us), not for
    a Snapshot no one reads (124 us: a replay's or a test's fast ticks, time acceleration). Made
    from copies, it holds the same numbers as one made at the tick."""

    __slots__ = ("_args", "epoch", "tick", "_snap")

    def __init__(self, state, ctrl, diag, model, wall_s, epoch, paused, dt, time_scale):
        self._args = (state.copy(), ctrl.copy(), diag.copy(), model.copy(), wall_s, epoch, paused, dt, time_scale)
        self.epoch = int(epoch)
        self.tick = AircraftView(self._args[0]).tick
        self._snap: Snapshot | None = None

    def snapshot(self) -> Snapshot:
        snap = self._snap
        if snap is None:       # (two readers at once may both make it: the same numbers)
            state, ctrl, diag, model, wall_s, epoch, paused, dt, time_scale = self._args
            snap = self._snap = make_snapshot(state, ctrl, diag, model, wall_s, epoch, paused=paused, dt=dt,
                                              time_scale=time_scale)
        return snap


def _as_snapshot(item: Snapshot | PublishedState | None) -> Snapshot | None:
    return item.snapshot() if isinstance(item, PublishedState) else item


class SnapshotBuffer:
    """The last two snapshots (prev, curr) and the tick; one writer, any readers. The writer
    publishes a Snapshot or a PublishedState (made into its Snapshot when first read)."""

    def __init__(self):
        self._pair: tuple[Snapshot | PublishedState | None, Snapshot | PublishedState | None] = (None, None)
        self.published = 0
        self._event = threading.Condition()

    def publish(self, snap: Snapshot | PublishedState) -> None:
        prev = self._pair[1]
        if prev is not None and prev.epoch != snap.epoch:
            prev = None
        self._pair = (prev if prev is not None else snap, snap)   # atomic reference swap
        self.published += 1
        with self._event:
            self._event.notify_all()

    def read(self) -> tuple[Snapshot | None, Snapshot | None]:
        prev, curr = self._pair
        return _as_snapshot(prev), _as_snapshot(curr)

    @property
    def tick(self) -> int:
        c = self._pair[1]
        return -1 if c is None else c.tick

    def wait_for(self, tick: int, timeout: float = 5.0) -> bool:
        """Block until a snapshot with tick >= tick is published (tests, start-up)."""
        with self._event:
            return self._event.wait_for(lambda: self.tick >= tick, timeout)


# ---------------------------------------------------------------------------- interpolation
@dataclass(frozen=True)
class Pose:
    """An interpolated state to draw: everything the renderer needs, nothing it must not see."""
    position_ned_m: np.ndarray
    quat_wxyz: np.ndarray
    velocity_ned_ms: np.ndarray
    deflections_rad: np.ndarray
    airbrake: float
    gear_up: float
    snapshot: Snapshot            # the newer of the two (for instruments / HUD)
    alpha: float = 1.0
    slat_positions: np.ndarray = field(default_factory=lambda: np.zeros(0))   # per section, 0 closed .. 1 open


def slerp(q0, q1, t: float) -> np.ndarray:
    q0 = np.asarray(q0, dtype=np.float64)
    q1 = np.asarray(q1, dtype=np.float64)
    d = float(np.dot(q0, q1))
    if d < 0.0:            # shortest arc: q and -q are the same rotation
        q1 = -q1
        d = -d
    if d > 0.9995:
        q = q0 + t * (q1 - q0)
    else:
        th = math.acos(min(d, 1.0))
        s = math.sin(th)
        q = (math.sin((1 - t) * th) / s) * q0 + (math.sin(t * th) / s) * q1
    return q / np.linalg.norm(q)


def render_alpha(prev: Snapshot, curr: Snapshot, t_render_s: float) -> float:
    """Fraction between prev and curr at wall time t_render_s, clamped to [0, 1]."""
    span = curr.wall_s - prev.wall_s
    if span <= 0.0 or prev.epoch != curr.epoch:
        return 1.0
    return min(max((t_render_s - prev.wall_s) / span, 0.0), 1.0)


def _lerp_per_section(prev: np.ndarray, curr: np.ndarray, a: float) -> np.ndarray:
    """A per-section array between two snapshots (the newer one's when their sizes differ)."""
    return (1.0 - a) * prev + a * curr if prev.shape == curr.shape else curr


def interpolate(prev: Snapshot, curr: Snapshot, alpha: float) -> Pose:
    if prev is None or prev.epoch != curr.epoch or prev is curr:
        prev, alpha = curr, 1.0
    a = float(alpha)
    b = 1.0 - a
    return Pose(
        position_ned_m=b * prev.position_ned_m + a * curr.position_ned_m,
        quat_wxyz=slerp(prev.quat_wxyz, curr.quat_wxyz, a),
        velocity_ned_ms=b * prev.velocity_ned_ms + a * curr.velocity_ned_ms,
        deflections_rad=_lerp_per_section(prev.deflections_rad, curr.deflections_rad, a),
        airbrake=b * prev.airbrake + a * curr.airbrake,
        gear_up=b * prev.gear_up + a * curr.gear_up,
        snapshot=curr, alpha=a,
        slat_positions=_lerp_per_section(prev.slat_positions, curr.slat_positions, a),
    )


def pose_at(buffer: SnapshotBuffer, t_render_s: float) -> Pose | None:
    prev, curr = buffer.read()
    if curr is None:
        return None
    if prev is None:
        prev = curr
    return interpolate(prev, curr, render_alpha(prev, curr, t_render_s))
