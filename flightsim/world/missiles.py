"""Missiles, locks and countermeasures in the world's air combat (issue 35).

``MissileWar`` lives in the physics thread, inside ``Combat.tick`` (flightsim/world/combat.py), and
runs once per step for every armed fighter (the player and the AI opponent) from what each one's
controls press: the weapon buttons of the control vector (``launch``, ``weapon_select``, ``lock``,
``flare``, ``chaff``: physics/named_controls.py), acted on at the press (the rising edge), so a
player, the AI and a replay press them alike and a recording replays the missiles bit for bit.

Per fighter (``Armament``, world/armament.py): the missiles it carries (the scenario's loadout, each a data file:
flightsim/weapons/data.py), the selected weapon, its radar's lock, its infrared seeker's tone, its
flares and chaff.

* **radar lock** (an aircraft with a [radar]): the lock button starts a single-target track on the
  enemy if the radar sees it (flightsim/weapons/radar.py: scan, range against its cross-section and
  aspect, the clutter notch); the track is firm after ``LOCK_ACQUIRE_S`` and is lost when the radar
  has not seen the target for ``LOCK_COAST_S``, or when chaff draws it off; pressed again, the lock
  is broken;
* **infrared seeker** (an infrared missile selected): the seeker looks along the radar's line of
  sight when the radar holds a lock (within its gimbal limit), else along the boresight (within its
  field of view), and growls (a lock) while the target lies within its lock range on the target's
  infrared value (flightsim/weapons/infrared.py: aspect, afterburner); a flare can draw it off;
* **launch**: a radar missile needs the radar's lock, an infrared one its seeker's tone; the missile
  leaves from under the aircraft with its velocity (physics/missile.py ``launch``) and flies each
  step (``missile_step``) against what guides it: an infrared missile its own seeker, a radar
  missile the launcher's datalink (the target while the launcher holds its lock, else where the
  last update said it would be) until it is within its own seeker's ``active_range``, then itself;
  a semi-active missile the launcher's lock to the end. A radar seeker loses a target that beams
  into the clutter notch as the launcher's radar does;
* **countermeasures**: flares and chaff are bodies with their own motion (world/decoys.py): ejected from
  the aircraft, slowed by their drag, a flare burning for ``FLARE_BURN_S``, a chaff cloud falling
  slowly and fading. At release each one has a chance to decoy an infrared (flare) or radar
  (chaff) seeker tracking its dispenser: the missile then guides on the decoy and passes the
  aircraft by;
* **fuze**: when the missile's kernel ends its flight by detonating, every aircraft whose closest
  approach over the step lies within the warhead's lethal radius takes the burst through the
  damage model (flightsim/weapons/warhead.py), and the combat counts it shot down (the lethal
  radius is the distance within which the warhead kills: ``bursts``);
* **the ground** (the world's terrain, where there is one): a line of sight under a hill hides the
  target from the radar ("behind the ground"), the seeker's tone and a missile's own seeker; a
  missile whose path over a step passes under the ground hits it, a decoy on the ground is gone;
* **events**: lock, lock lost, launch, countermeasure, decoyed, hit and miss, with the time and who
  (``events``), read by the headless telemetry and the debrief.

Nothing here reaches into the renderer: ``Combat._publish`` copies what the HUD and the renderer
need (the missiles, the decoys, the player's lock, the launch zone) into its immutable frame.
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from ..physics import missile as M
from ..physics.atmosphere import isa
from ..runtime.handoff import read_only
from ..weapons import dlz as launch_zone
from ..weapons import infrared, radar
from ..weapons.warhead import burst
from . import decoys
from .armament import BUTTON_SLOTS, BUTTONS, GUN, Armament, Flight, Side, WeaponsView, release_round, seeker_kind

LOCK_ACQUIRE_S = 1.0        # from the lock press to a firm single-target track [E]
LOCK_COAST_S = 1.5          # a track survives this long without a detection (memory) [E]
LAUNCH_DROP_M = 1.5         # the rail or ejector below the centre of gravity [E]
MAX_FLIGHTS = 32
MAX_EVENTS = 400
DLZ_TICKS = 50              # the launch zone is flown again every so many steps (1 s)
WARN_IR_M = 3000.0          # an infrared missile (no emission to warn of) is seen, by its smoke, this near [E]


def _closest(m0, m1, t0, t1) -> tuple[float, np.ndarray]:
    """Closest approach of a missile moving m0 -> m1 and a body moving t0 -> t1 over the same step,
    both straight: (distance, the missile's point then)."""
    r0 = m0 - t0
    dr = (m1 - t1) - r0
    den = float(dr @ dr)
    s = 0.0 if den <= 1e-12 else min(max(-float(r0 @ dr) / den, 0.0), 1.0)
    return float(np.linalg.norm(r0 + s * dr)), m0 + s * (m1 - m0)


class MissileWar:
    """See the module docstring. ``armaments``: ident -> Armament; ``rng``: the combat's seeded
    generator (decoy chances and the warhead's), so a scenario plays the same way twice;
    ``terrain`` (world/terrain.py), where there is one: the ground the missiles and decoys fly into
    and that hides what lies behind it from the radars and seekers."""

    def __init__(self, armaments: dict, rng, sun_ned=None, terrain=None):
        self.arms = armaments
        self.rng = rng
        self.sun_ned = None if sun_ned is None else np.asarray(sun_ned, dtype=float)   # toward the sun, above the horizon
        self.terrain = terrain
        self.flights: list[Flight] = []
        self.decoys: list = []           # decoys.Decoy
        self.events: list = []           # (t_s, who, event, detail)
        self.event_count = 0
        self.bursts: list = []           # (ident hit, lines, weapon name) of this step, for the combat's score
        # (ident, burst point in its body axes from the datum, weapon id, lethal radius m) on a side
        # with no state here: another player's aircraft, whose own World applies the burst (net_combat.py)
        self.remote_bursts: list = []
        self.detonations: list = []      # (point NED, "burst" / "ground") of this step's warheads, for the flashes
        self._serial = 0

    def reset(self, armaments: dict, rng) -> None:
        self.__init__(armaments, rng, self.sun_ned, self.terrain)

    def _clear(self, frm, to) -> bool:
        """Is the line of sight from ``frm`` to ``to`` above the ground (no terrain: always)?"""
        return self.terrain is None or self.terrain.line_clear(frm, to)

    def _in_sun(self, frm, to) -> bool:
        """Does an infrared seeker at ``frm`` looking at ``to`` have the sun in view (decoys.SUN_CONE_DEG)?"""
        if self.sun_ned is None or self.sun_ned[2] >= 0.0:
            return False
        u = np.asarray(to, float) - np.asarray(frm, float)
        n = float(np.linalg.norm(u))
        return n > 0.0 and float(u @ self.sun_ned) / n > math.cos(math.radians(decoys.SUN_CONE_DEG))

    # ------------------------------------------------------------------ helpers
    def _event(self, t, who, event, detail):
        self.events.append((round(float(t), 2), who, event, detail))
        self.event_count += 1
        if len(self.events) > MAX_EVENTS:
            del self.events[:len(self.events) - MAX_EVENTS]

    @staticmethod
    def _name(side: Side) -> str:
        return "the player" if side.who == "player" else "the bandit"

    # ------------------------------------------------------------------ the step
    def step(self, sides: dict, controls: dict, t_s: float, dt: float) -> None:
        """One step: each fighter's presses (``controls``: ident -> its control array), its lock and
        seeker, the missiles and decoys flown ``dt``, the fuzes."""
        self.bursts = []
        self.remote_bursts = []
        self.detonations = []
        for ident, arm in self.arms.items():
            me = sides.get(ident)
            if me is None:
                continue
            enemy = next((s for k, s in sides.items() if k != ident), None)
            ctrl = controls.get(ident)
            now = np.asarray(ctrl)[BUTTON_SLOTS] > 0.5 if ctrl is not None and me.alive else np.zeros(len(BUTTONS), bool)
            press = dict(zip(BUTTONS, now & ~(arm.pressed > 0.5)))
            arm.pressed = now.astype(float)
            if press["weapon_select"]:
                sel = arm.selection
                arm.selected = sel[(sel.index(arm.selected) + 1) % len(sel)] if arm.selected in sel else sel[0]
            self._radar(arm, me, enemy, press["lock"], t_s)
            self._seeker(arm, me, enemy, t_s)
            if press["flare"]:
                self._dispense(arm, me, "flare", t_s, sides)
            if press["chaff"]:
                self._dispense(arm, me, "chaff", t_s, sides)
            if press["launch"]:
                self._launch(arm, me, enemy, t_s)
            # the launch zone once a second, its three ranges on three steps, the two sides half a
            # second apart (about 5 ms a step at most, not 17 ms in one)
            if enemy is not None:
                phase = (int(round(t_s / dt)) - DLZ_TICKS // 2 * ident) % DLZ_TICKS
                if phase < 3:
                    self._zone(arm, me, enemy, phase)
        self.decoys = decoys.fly(self.decoys, dt, t_s, self.terrain)
        for f in self.flights:
            self._fly(f, sides, t_s, dt)
        self.flights = [f for f in self.flights if f.status == M.ST_FLYING]

    # ------------------------------------------------------------------ sensors
    def _radar(self, arm: Armament, me: Side, enemy: Side | None, pressed: bool, t: float) -> None:
        if me.radar is None:
            return
        if pressed:
            if arm.lock_state:
                self._drop_lock(arm, me, t, "broken by the pilot")
                return
            if enemy is not None and enemy.alive and self._sees(me, enemy):
                arm.lock, arm.lock_state, arm.lock_t0, arm.seen_t = enemy.ident, "acquiring", t, t
            return
        if not arm.lock_state:
            return
        if enemy is None or enemy.ident != arm.lock or not enemy.alive:
            self._drop_lock(arm, me, t, "target gone")
            return
        if self._sees(me, enemy, track=True):
            arm.seen_t = t
        elif t - arm.seen_t > LOCK_COAST_S:
            c = self._contact(me, enemy, track=True)
            self._drop_lock(arm, me, t, c.reason)
            return
        if arm.lock_state == "acquiring" and t - arm.lock_t0 >= LOCK_ACQUIRE_S:
            arm.lock_state = "locked"
            c = self._contact(me, enemy)
            self._event(t, me.who, "lock", f"radar lock on {self._name(enemy)}, {c.range_m / 1000.0:.1f} km, "
                                           f"closing {c.closing_ms:.0f} m/s")

    def _drop_lock(self, arm, me, t, why):
        if arm.lock_state == "locked":
            self._event(t, me.who, "lock lost", why)
        arm.lock, arm.lock_state = None, ""

    def _contact(self, me: Side, enemy: Side, track: bool = False):
        c = radar.look(me.radar, me.pos, me.R, me.vel, enemy.pos, enemy.R, enemy.vel, enemy.signature, track)
        if c.seen and not self._clear(me.pos, enemy.pos):
            return replace(c, seen=False, reason="behind the ground")
        return c

    def _sees(self, me: Side, enemy: Side, track: bool = False) -> bool:
        return self._contact(me, enemy, track).seen

    def _seeker(self, arm: Armament, me: Side, enemy: Side | None, t: float) -> None:
        """The selected infrared missile's seeker: a tone while it has the enemy."""
        m = arm.missile()
        tone = False
        if m is not None and seeker_kind(m) == "infrared" and enemy is not None and enemy.alive and me.alive:
            rel = enemy.pos - me.pos
            rng = float(np.linalg.norm(rel))
            look = me.R.T @ (rel / max(rng, 1e-6))
            off = math.degrees(math.acos(max(-1.0, min(1.0, float(look[0])))))
            limit = m.seeker["gimbal_limit_deg"] if arm.locked and arm.lock == enemy.ident \
                else 0.5 * m.seeker["field_of_view_deg"]
            tone = off <= limit and rng <= self._ir_lock_range(m, me.pos, enemy) and \
                not self._in_sun(me.pos, enemy.pos) and self._clear(me.pos, enemy.pos)
        if tone and not arm.tone:
            self._event(t, me.who, "lock", f"{m.missile['name']} seeker tone on {self._name(enemy)}, "
                                           f"{float(np.linalg.norm(enemy.pos - me.pos)) / 1000.0:.1f} km")
        arm.tone = tone

    @staticmethod
    def _ir_lock_range(missile, seeker_pos, target: Side) -> float:
        if target.signature is None:
            return 0.0
        los_body = target.R.T @ (target.pos - seeker_pos)
        value = infrared.ir_value(target.signature, los_body, afterburner=target.afterburner > 0.05)
        r = infrared.lock_range_m(missile.seeker, value)
        return r if r > 0.0 else missile.seeker["active_range_m"] or 0.0

    # ------------------------------------------------------------------ launch
    def _launch(self, arm: Armament, me: Side, enemy: Side | None, t: float) -> None:
        m = arm.missile()
        if m is None or arm.loadout.get(arm.selected, 0) <= 0 or enemy is None or len(self.flights) >= MAX_FLIGHTS:
            return
        kind = seeker_kind(m)
        if kind == "infrared" and not arm.tone:
            return
        if kind != "infrared" and not (arm.locked and arm.lock == enemy.ident):
            return
        arm.loadout[arm.selected] -= 1
        release_round(me.model, me.state, me.store_weapons, arm.selected)    # its mass and drag leave the launcher
        pos = me.pos + me.R @ np.array([0.0, 0.0, LAUNCH_DROP_M])
        ms = np.zeros(M.N_MS)
        M.launch(ms, m.model, pos, me.vel.astype(np.float64), enemy.pos.astype(np.float64))
        self._serial += 1
        f = Flight(self._serial, m, ms, me.ident, enemy.ident, t, memory=(enemy.pos.copy(), enemy.vel.copy(), t))
        self.flights.append(f)
        sound = isa(-float(me.pos[2]))[3]
        rng = float(np.linalg.norm(enemy.pos - me.pos))
        self._event(t, me.who, "launch", f"{m.missile['name']} at {self._name(enemy)}, {rng / 1000.0:.1f} km, "
                                         f"launcher M {float(np.linalg.norm(me.vel)) / sound:.2f}, "
                                         f"{arm.loadout[arm.selected]} left")
        if arm.loadout[arm.selected] == 0:
            sel = arm.selection
            arm.selected = sel[1] if len(sel) > 1 else GUN

    def _zone(self, arm: Armament, me: Side, enemy: Side, phase: int) -> None:
        """The launch zone of the selected missile on the enemy for the geometry of phase 0: its
        Rmax then, its no-escape range the step after, its Rmin and the published zone the next."""
        m = arm.missile()
        if m is None or not enemy.alive:
            arm.zone, arm.zone_work = None, None
            return
        if phase == 0:
            geo = launch_zone.geometry(me.pos, me.vel, enemy.pos, enemy.vel)
            arm.zone_work = (m, geo, launch_zone.rmax_m(m, geo))
            return
        if arm.zone_work is None or arm.zone_work[0] is not m:
            return
        m, geo, rmax = arm.zone_work[:3]
        if phase == 1:
            arm.zone_work = (m, geo, rmax, launch_zone.rne_m(m, geo, rmax))
            return
        if len(arm.zone_work) < 4:
            return
        rne = arm.zone_work[3]
        rmin = launch_zone.rmin_m(m, geo, rmax)
        rmax, rne, rmin = (launch_zone.slant(geo, r) for r in (rmax, rne, rmin))
        if seeker_kind(m) == "infrared":
            lock = self._ir_lock_range(m, me.pos, enemy)
            rmax, rne = min(rmax, lock), min(rne, lock)
        arm.zone = (rmax, rne, rmin, float(np.linalg.norm(enemy.pos - me.pos)))
        arm.zone_work = None

    # ------------------------------------------------------------------ countermeasures
    def _dispense(self, arm: Armament, me: Side, kind: str, t: float, sides: dict) -> None:
        left = arm.flares if kind == "flare" else arm.chaff
        if left <= 0 or t - arm.dispensed_t[kind] < decoys.DISPENSE_GAP_S or not me.alive:
            return
        arm.dispensed_t[kind] = t
        if kind == "flare":
            arm.flares -= 1
        else:
            arm.chaff -= 1
        self._serial += 1
        d = decoys.eject(kind, me.ident, me.pos, me.vel, me.R, t, self._serial)
        self.decoys.append(d)
        self._event(t, me.who, "countermeasure", f"{kind}, {left - 1} left")
        self._decoy_chances(d, me, t, sides)

    def _decoy_chances(self, d, me: Side, t: float, sides: dict) -> None:
        """A fresh decoy may draw off each seeker tracking its dispenser: a missile's, or (chaff) an
        enemy radar's lock."""
        tail = me.R[:, 0]
        for f in self.flights:
            if f.target != me.ident or f.decoy is not None or f.ms[M.MS_TRACKING] < 0.5:
                continue
            kind = seeker_kind(f.weapon)
            if (d.kind == "flare") != (kind == "infrared") or (kind != "infrared" and not f.active):
                continue
            mpos = f.ms[M.MS_POS:M.MS_POS + 3]
            u = (me.pos - mpos) / max(float(np.linalg.norm(me.pos - mpos)), 1e-6)
            # the missile's angle off the target's tail: 0 from dead astern, 180 head-on
            off_tail = math.degrees(math.acos(max(-1.0, min(1.0, float(u @ tail)))))
            p = decoys.decoy_chance(d.kind, off_tail, me.pos, me.vel, me.afterburner, mpos,
                                    f.weapon.seeker["countermeasure_k"], _notch_gate(sides, f))
            if self.rng.random() < p:
                f.decoy = d
                self._event(t, "player" if f.shooter == 0 else "opponent", "decoyed",
                            f"{f.weapon.missile['name']} #{f.serial} follows a {d.kind}")
        if d.kind != "chaff":
            return
        for ident, arm in self.arms.items():
            if arm.lock == me.ident and arm.lock_state and ident in sides:
                radar_side = sides[ident]
                p = decoys.decoy_chance("chaff", 90.0, me.pos, me.vel, me.afterburner, radar_side.pos, decoys.RADAR_K,
                                        radar_side.radar["notch_gate_ms"] if radar_side.radar else 0.0)
                if self.rng.random() < p:
                    self._drop_lock(arm, radar_side, t, "chaff")

    # ------------------------------------------------------------------ the missiles
    def _guide_on(self, f: Flight, sides: dict, t: float):
        """(position, velocity) the missile steers for this step, or None: no guidance left."""
        target = sides.get(f.target)
        if f.decoy is not None:
            # a burnt-out flare or a faded chaff cloud leaves the seeker with nothing to track
            return (f.decoy.pos, f.decoy.vel) if t - f.decoy.t0 <= f.decoy.life_s() else None
        if target is None:
            return None
        kind = seeker_kind(f.weapon)
        mpos = f.ms[M.MS_POS:M.MS_POS + 3]
        shooter = self.arms.get(f.shooter)
        link = shooter is not None and shooter.lock == f.target and shooter.locked and \
            f.shooter in sides and sides[f.shooter].alive
        if kind == "infrared":
            if self._in_sun(mpos, target.pos):            # the sun fills the seeker: it follows the sun
                f.decoy = decoys.Decoy("sun", -1, mpos + 1.0e6 * self.sun_ned, np.zeros(3), t)
                self._event(t, "player" if f.shooter == 0 else "opponent", "decoyed",
                            f"{f.weapon.missile['name']} #{f.serial} follows the sun")
                return f.decoy.pos, f.decoy.vel
            return (target.pos, target.vel) if self._clear(mpos, target.pos) else None   # a hill between: lost
        if kind == "semi_active":
            return (target.pos, target.vel) if link and self._clear(mpos, target.pos) else None
        rng = float(np.linalg.norm(target.pos - mpos))
        if not f.active and rng <= f.weapon.seeker["active_range_m"]:
            f.active = True
            self._event(t, "player" if f.shooter == 0 else "opponent", "active",
                        f"{f.weapon.missile['name']} #{f.serial} seeker active, {rng / 1000.0:.1f} km to go")
        if f.active:
            if radar.in_notch(_notch_gate(sides, f), mpos, target.pos, target.vel):
                return None                       # lost in the clutter notch
            return (target.pos, target.vel) if self._clear(mpos, target.pos) else None
        if link:
            f.memory = (target.pos.copy(), target.vel.copy(), t)
            return target.pos, target.vel
        p, v, t0 = f.memory
        return p + v * (t - t0), v

    def _fly(self, f: Flight, sides: dict, t: float, dt: float) -> None:
        aim = self._guide_on(f, sides, t)
        if aim is None and f.ms[M.MS_TRACKING] > 0.5:
            f.ms[M.MS_TRACKING] = 0.0
            self._event(t, "player" if f.shooter == 0 else "opponent", "track lost",
                        f"{f.weapon.missile['name']} #{f.serial}")
        if aim is None:                           # unguided: on along its path (the target's point far ahead)
            p0 = f.ms[M.MS_POS:M.MS_POS + 3]
            aim = (p0 + 1.0e5 * f.ms[M.MS_VEL:M.MS_VEL + 3] / max(float(np.linalg.norm(f.ms[M.MS_VEL:M.MS_VEL + 3])), 1.0),
                   np.zeros(3))
        m0 = f.ms[M.MS_POS:M.MS_POS + 3].copy()
        t_before = float(f.ms[M.MS_TIME])
        f.status = M.missile_step(f.ms, f.weapon.model, np.asarray(aim[0], np.float64),
                                  np.asarray(aim[1], np.float64), dt, M.G0)
        if f.status == M.ST_FLYING and self.terrain is not None:
            m_now = f.ms[M.MS_POS:M.MS_POS + 3]
            if self.terrain.underground(m_now) or not self.terrain.line_clear(m0, m_now):
                f.status = M.ST_GROUND            # into a hill (the kernel's own ground is sea level)
                f.ms[M.MS_STATUS] = M.ST_GROUND
        if f.status == M.ST_FLYING:
            return
        m1 = f.ms[M.MS_POS:M.MS_POS + 3]
        flown = float(f.ms[M.MS_TIME]) - t_before          # (it stops at the sub-step it ended in)
        self._detonated(f.status, m1)
        who = "player" if f.shooter == 0 else "opponent"
        name = f"{f.weapon.missile['name']} #{f.serial}"
        struck = []
        if f.status in (M.ST_HIT, M.ST_MISS_FUZED):
            lethal = float(f.weapon.fuze["lethal_radius_m"])
            for ident, s in sides.items():
                d, p = _closest(m0, m1, s.pos, s.pos + s.vel * flown)
                if d <= lethal:
                    p_body = s.R.T @ (p - s.pos) + s.cg
                    if s.state is not None:
                        lines = burst(s.model, s.state, p_body, lethal, self.rng)
                        self.bursts.append((ident, lines, f.weapon.missile["name"]))
                    else:
                        self.remote_bursts.append((ident, p_body, f.weapon.id, lethal))
                    struck.append((s, d))
        if struck:
            for s, d in struck:
                self._event(t, who, "hit", f"{name} on {self._name(s)}, burst {d:.1f} m from it, "
                                           f"{t - f.t0:.1f} s after launch")
        else:
            why = M.STATUS_NAMES[f.status]
            if f.decoy is not None:
                what = "the sun" if f.decoy.kind == "sun" else f"a {f.decoy.kind}"
                why = f"decoyed by {what}" + (", burst on it" if f.status in (M.ST_HIT, M.ST_MISS_FUZED)
                                              else f", then {why}")
            self._event(t, who, "miss", f"{name}: {why}, closest {f.ms[M.MS_CLOSEST]:.0f} m, "
                                        f"{t - f.t0:.1f} s after launch")

    def _detonated(self, status: int, point) -> None:
        """A warhead that went off this step (fuzed, self-destructed or into the ground), where the
        flash and smoke go: a ground impact on the ground's surface."""
        if status in (M.ST_HIT, M.ST_MISS_FUZED, M.ST_SELF_DESTRUCT):
            self.detonations.append((tuple(float(x) for x in point), "burst"))
        elif status == M.ST_GROUND:
            ground = self.terrain.height_at(float(point[0]), float(point[1])) if self.terrain is not None else 0.0
            self.detonations.append(((float(point[0]), float(point[1]), -ground), "ground"))

    # ------------------------------------------------------------------ what the frame shows
    def view(self, ident: int, sides: dict) -> WeaponsView | None:
        """Fighter ``ident``'s weapons, lock, launch zone, warning and radar picture (its cockpit's)."""
        arm = self.arms.get(ident)
        me = sides.get(ident)
        if arm is None or me is None:
            return None
        enemy = next((s for k, s in sides.items() if k != ident), None)
        m = arm.missile()
        sel = tuple((GUN.upper() if w == GUN else arm.weapons[w].missile["name"], arm.loadout.get(w, 0))
                    for w in arm.selection)
        lock_pos = None
        if arm.lock_state and enemy is not None and enemy.ident == arm.lock:
            lock_pos = read_only(enemy.pos)
        threats = tuple(self.threats(ident, me.pos))
        warning = []
        for p, _, tgo, _ in threats:
            b = me.R.T @ (p - me.pos)
            warning.append((math.atan2(b[1], b[0]), tgo))
        contacts = ()
        if me.radar is not None and enemy is not None and enemy.alive:
            c = self._contact(me, enemy, track=arm.lock == enemy.ident and bool(arm.lock_state))
            b = me.R.T @ (enemy.pos - me.pos)
            contacts = ((c.range_m, math.atan2(b[1], b[0]), c.seen, arm.lock == enemy.ident and arm.locked),)
        seeker = 0.0
        if m is not None and seeker_kind(m) == "infrared":
            seeker = m.seeker["gimbal_limit_deg"] if arm.locked else 0.5 * m.seeker["field_of_view_deg"]
        own = [f for f in self.flights if f.shooter == ident]
        return WeaponsView(
            m.missile["name"] if m is not None else "GUN", sel, arm.lock_state, lock_pos, arm.tone, seeker,
            arm.zone if m is not None else None, tuple(warning), arm.flares, arm.chaff, contacts,
            float(me.radar["detection_range_m"]) if me.radar is not None else 0.0, arm.selected,
            tuple((w, n, seeker_kind(arm.weapons[w])) for w, n in arm.loadout.items()), threats, len(own),
            any(seeker_kind(f.weapon) != "infrared" and not f.active for f in own))

    def missiles_array(self) -> np.ndarray:
        """(n, 9): position NED, velocity NED, motor burning 0/1, shooter ident, serial number."""
        out = np.zeros((len(self.flights), 9))
        for i, f in enumerate(self.flights):
            out[i, 0:6] = f.ms[0:6]
            out[i, 6] = 1.0 if f.ms[M.MS_TIME] < f.weapon.burn_time_s else 0.0
            out[i, 7] = f.shooter
            out[i, 8] = f.serial
        return out

    def missile_names(self) -> tuple:
        return tuple(f.weapon.missile["name"] for f in self.flights)

    def decoys_array(self, t: float) -> np.ndarray:
        return decoys.as_array(self.decoys, t)

    def threats(self, ident: int, pos) -> list[tuple]:
        """The missiles guiding on ``ident`` that its warning system would show: radar missiles with
        their seeker active (or semi-active ones, the launcher's illumination), infrared ones within
        WARN_IR_M. (position, velocity, seconds to go, seeker kind)."""
        out = []
        for f in self.flights:
            if f.target != ident or f.ms[M.MS_TRACKING] < 0.5:
                continue
            kind = seeker_kind(f.weapon)
            p, v = f.ms[0:3], f.ms[3:6]
            rel = np.asarray(pos) - p
            rng = float(np.linalg.norm(rel))
            if kind == "infrared" and rng > WARN_IR_M or kind == "radar" and not f.active:
                continue
            closing = float(v @ rel) / max(rng, 1e-6)
            out.append((p.copy(), v.copy(), rng / closing if closing > 1.0 else math.inf, kind))
        return out


def _notch_gate(sides: dict, f: Flight) -> float:
    """A radar missile's own clutter gate: no figure found for a missile's seeker, so the launcher's
    radar's [E]."""
    shooter = sides.get(f.shooter)
    return float(shooter.radar["notch_gate_ms"]) if shooter is not None and shooter.radar is not None else 0.0
