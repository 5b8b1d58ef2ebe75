"""Steady-flight trim: the state in which the aircraft flies on unchanged.

Wings level, no sideslip, no rotation; three unknowns are found by Newton's method with
a finite-difference Jacobian so that the body x and z accelerations and the pitch
acceleration vanish (evaluated by the same derivative kernel the simulation flies):

* ``trim_glide(speed)``: alpha, flight-path angle, elevator (a glider's steady glide);
* ``trim_glide_at_alpha(alpha)``: speed, flight-path angle, elevator (sweeps through
  maximum lift, where a speed-parametrised trim has two solutions or none);
* ``trim_level(speed)``: alpha, throttle, elevator (powered level flight).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import layout as L
from .dynamics import derivative
from .scratch import make_scratch
from .plant_trim import plant_trim
from .state import make_ctrl, make_state, settle_surfaces


LEVEL_THROTTLE_RETRIES = (0.3, 0.9)   # level trims' other starting throttles (Trimmer.level)


@dataclass
class Trim:
    ok: bool
    tas_ms: float
    alpha_rad: float
    gamma_rad: float          # flight-path angle, + climbing
    pitch_cmd: float          # elevator position that holds it, -1..1 of its travel (with stabilizer trim: the
    #                           stabilizer); also the trim
    throttle: float
    state: np.ndarray
    ctrl: np.ndarray
    diag: np.ndarray
    residual: float
    pitch_travel: float = 1.0  # |pitch_cmd| reachable: 2 with stabilizer trim (at its stop the pilot holds elevator)

    @property
    def sink_ms(self) -> float:
        return -self.tas_ms * math.sin(self.gamma_rad)

    @property
    def glide_ratio(self) -> float:
        return -1.0 / math.tan(self.gamma_rad) if self.gamma_rad < 0 else math.inf

    @property
    def within_travel(self) -> bool:
        return abs(self.pitch_cmd) <= self.pitch_travel


class Trimmer:
    def __init__(self, model, tables, env, terrain, altitude_m=0.0, base_ctrl=None, plant_in_jacobian=True):
        # a trim is a steady state relative to the air mass: wind and thermals are left out
        still = env[:L.N_ENV_BASE].copy()
        still[L.E_WIND_N:L.E_WIND_D + 1] = 0.0
        still[L.E_THERMAL_COUNT] = 0.0
        # and so is the ground: a trim is free flight
        self.model, self.tables, self.env, self.terrain = model, tables, still, np.full((1, 1), -1.0e6)
        self.altitude_m = altitude_m
        self.base_ctrl = make_ctrl() if base_ctrl is None else base_ctrl.copy()
        self.diag = np.zeros(L.N_DIAG)
        self.deriv = np.zeros(L.N_DOF)
        self.scratch = make_scratch(model)[:3]
        self.powered = model[0, L.H_ROW_PLANT] > 0
        self.stab_trim = model[L.ROW_CONTROLS, L.CTL_STAB_RATE] > 0.0
        # False: the Jacobian's columns hold the powerplant as balanced at the point (a
        # quasi-Newton step: the residual, and so the answer, stays exact; _newton). The game's
        # trims keep the full Jacobian: a scenario starts from the bits the kept flights recorded
        self.plant_in_jacobian = plant_in_jacobian or not self.powered
        self._plant = None        # (slots plant_trim set, their values) at the last full build

    def build(self, tas, alpha, gamma, pitch_cmd, throttle, frozen_plant=None):
        s = make_state((0.0, 0.0, -self.altitude_m),
                       (tas * math.cos(alpha), 0.0, tas * math.sin(alpha)), 0.0, alpha + gamma, 0.0)
        c = self.base_ctrl.copy()
        c[L.C_THROTTLE] = throttle
        settle_surfaces(s, c)
        # trimmed: the elevator rests at its trimmed neutral point with no stick force
        # (the pitch command may go past the stick's travel here: within_travel tells); an
        # aircraft with stabilizer trim is trimmed by the stabilizer, its elevator at neutral
        c[L.C_PITCH] = 0.0
        c[L.C_PITCH_TRIM] = pitch_cmd
        if self.stab_trim:
            # beyond the stabilizer's stop the pilot holds the rest on the elevator (as a
            # fraction of its travel: pitch_cmd 1.5 = stabilizer full nose up, half up elevator;
            # the stick then gives that deflection where the pilot's force still reaches full
            # travel, below the elevator's full-deflection speed, as on a slow approach)
            stab = min(max(pitch_cmd, -1.0), 1.0)
            c[L.C_PITCH_TRIM] = stab
            c[L.C_PITCH] = pitch_cmd - stab
            s[L.S_SURF + L.SURF_PITCH] = pitch_cmd - stab
            s[L.S_SURF + L.SURF_STAB] = stab
        else:
            s[L.S_SURF + L.SURF_PITCH] = pitch_cmd
        if self.powered:
            # engine and propeller in equilibrium at this flight condition (governor pitch,
            # induced velocities, supercharger gear, coolers): plant_trim.plant_trim
            if frozen_plant is not None:
                slots, values = frozen_plant
                s[slots] = values
            elif self.plant_in_jacobian:
                plant_trim(self.model, self.tables, s, c, self.env, self.scratch[0])
            else:
                before = s.copy()             # (kept: which slots the balance set, to hold them)
                plant_trim(self.model, self.tables, s, c, self.env, self.scratch[0])
                slots = np.flatnonzero(~((s == before) | (np.isnan(s) & np.isnan(before))))
                self._plant = (slots, s[slots].copy())
        return s, c

    def forces(self, tas, alpha, gamma, pitch_cmd, throttle, frozen_plant=None):
        """One derivative of the built state: (external force without gravity, body axes, N (a
        copy); pitch acceleration, rad/s^2). ``frozen_plant``: the plant as a full build at the
        same airspeed, angle of attack and throttle balanced it (``last_plant``)."""
        s, c = self.build(tas, alpha, gamma, pitch_cmd, throttle, frozen_plant)
        derivative(s, c, self.env, self.terrain, self.model, self.tables, self.diag, self.deriv, *self.scratch)
        return self.diag[L.D_FORCE:L.D_FORCE + 3].copy(), float(self.deriv[L.S_OMEGA + 1])

    @property
    def last_plant(self):
        """The powerplant as the last full build balanced it (kept without the plant in the
        Jacobian only): held for builds that change neither airspeed, angle of attack nor throttle."""
        return self._plant

    def residual(self, tas, alpha, gamma, pitch_cmd, throttle, frozen_plant=None):
        s, c = self.build(tas, alpha, gamma, pitch_cmd, throttle, frozen_plant)
        derivative(s, c, self.env, self.terrain, self.model, self.tables, self.diag, self.deriv, *self.scratch)
        # scale: accelerations in g, pitch acceleration in rad/s^2
        return np.array([self.deriv[L.S_VEL] / 9.81, self.deriv[L.S_VEL + 2] / 9.81, self.deriv[L.S_OMEGA + 1]])

    def _newton(self, x0, unpack, steps, lo, hi, max_step, iters=40):
        """Newton's method from ``x0``: the residual at each point from a full build (the plant
        balanced). Without the plant in the Jacobian, the columns that keep airspeed and
        throttle hold the plant as balanced at the point itself, so each costs one derivative
        instead of a plant balance: they miss only the plant's small change with the inflow
        angle, the step converges as fast, and since the residual is exact the trim found is
        the same to the solver's tolerance (the tunnel's cards print the same JSON; a powered
        trim sweep runs two to three times as fast)."""
        frozen = not self.plant_in_jacobian
        x = np.array(x0, float)
        r = self.residual(*unpack(x))
        for _ in range(iters):
            if np.max(np.abs(r)) < 1e-9:
                break
            J = np.empty((3, 3))
            base, plant = unpack(x), self._plant         # (the plant as balanced at x: its last full build)
            for j in range(3):
                xp = x.copy()
                xp[j] += steps[j]
                args = unpack(xp)
                # (held only where airspeed and throttle stay: a change of either moves the balance far)
                hold = frozen and args[0] == base[0] and args[4] == base[4]
                J[:, j] = (self.residual(*args, frozen_plant=plant if hold else None) - r) / steps[j]
            try:
                dx = np.linalg.solve(J, -r)
            except np.linalg.LinAlgError:
                break
            # damped step: no unknown moves more than its max_step at once
            lam = min(1.0, *(max_step[j] / max(abs(dx[j]), 1e-12) for j in range(3)))
            for _ls in range(8):
                xn = np.clip(x + lam * dx, lo, hi)
                rn = self.residual(*unpack(xn))
                if np.max(np.abs(rn)) < np.max(np.abs(r)) or lam < 0.05:
                    break
                lam *= 0.5
            x, r = xn, rn
        return x, float(np.max(np.abs(r)))

    def _result(self, x, unpack, res):
        tas, alpha, gamma, pitch_cmd, throttle = unpack(x)
        s, c = self.build(tas, alpha, gamma, pitch_cmd, throttle)
        derivative(s, c, self.env, self.terrain, self.model, self.tables, self.diag, self.deriv, *self.scratch)
        s[L.S_PREV:L.S_PREV + L.N_DOF] = self.deriv
        s[L.S_HAS_PREV] = 1.0
        s[L.S_PREV_DT] = self.env[L.E_DT]
        return Trim(res < 1e-6, tas, alpha, gamma, pitch_cmd, throttle, s, c, self.diag.copy(), res,
                    2.0 if self.stab_trim else 1.0)

    def lateral(self, t: Trim, iters=20) -> Trim:
        """Aileron and rudder trim for a longitudinal trim ``t``: the tabs set so the rolling
        and yawing accelerations vanish wings level with no sideslip (a powered aircraft's
        torque, P-factor and slipstream; nothing to do for a symmetric glider). The small
        side force left over is what a pilot flying the ball centred lives with."""
        s, c = t.state.copy(), t.ctrl.copy()

        def res(x):
            c[L.C_ROLL_TRIM], c[L.C_YAW_TRIM] = x
            s[L.S_SURF + L.SURF_ROLL], s[L.S_SURF + L.SURF_YAW] = x
            derivative(s, c, self.env, self.terrain, self.model, self.tables, self.diag, self.deriv, *self.scratch)
            return np.array([self.deriv[L.S_OMEGA], self.deriv[L.S_OMEGA + 2]])

        x = np.zeros(2)
        r = res(x)
        for _ in range(iters):
            if np.max(np.abs(r)) < 1e-9:
                break
            J = np.empty((2, 2))
            for j in range(2):
                xp = x.copy()
                xp[j] += 1e-4
                J[:, j] = (res(xp) - r) / 1e-4
            try:
                x = np.clip(x + np.linalg.solve(J, -r), -1.0, 1.0)
            except np.linalg.LinAlgError:
                break
            r = res(x)
        derivative(s, c, self.env, self.terrain, self.model, self.tables, self.diag, self.deriv, *self.scratch)
        s[L.S_PREV:L.S_PREV + L.N_DOF] = self.deriv
        return Trim(t.ok and float(np.max(np.abs(r))) < 1e-6, t.tas_ms, t.alpha_rad, t.gamma_rad, t.pitch_cmd,
                    t.throttle, s, c, self.diag.copy(), max(t.residual, float(np.max(np.abs(r)))), t.pitch_travel)

    def glide(self, tas_ms, guess=(0.05, -0.05, 0.0)):
        unpack = lambda x: (tas_ms, x[0], x[1], x[2], 0.0)
        x, res = self._newton(guess, unpack, (1e-5, 1e-5, 1e-4),
                              (-0.5, -1.5, -4.0), (0.6, 0.5, 4.0), (0.05, 0.05, 0.5))
        return self._result(x, unpack, res)

    def glide_at_alpha(self, alpha_rad, guess=(30.0, -0.05, 0.0)):
        unpack = lambda x: (x[0], alpha_rad, x[1], x[2], 0.0)
        x, res = self._newton(guess, unpack, (1e-3, 1e-5, 1e-4),
                              (3.0, -1.5, -4.0), (400.0, 0.5, 4.0), (0.1 * guess[0], 0.05, 0.5))
        return self._result(x, unpack, res)

    def climb(self, tas_ms, guess=(0.05, 0.05, 0.0)):
        """Steady straight climb (or descent) at this speed with the base controls' throttle:
        alpha, flight-path angle, elevator."""
        thr = self.base_ctrl[L.C_THROTTLE]
        unpack = lambda x: (tas_ms, x[0], x[1], x[2], thr)
        x, res = self._newton(guess, unpack, (1e-5, 1e-5, 1e-4),
                              (-0.5, -1.5, -4.0), (0.6, 1.2, 4.0), (0.05, 0.05, 0.5))
        return self._result(x, unpack, res)

    def level_at_throttle(self, guess=(150.0, 0.02, 0.0)):
        """Steady level flight with the base controls' throttle: speed, alpha, elevator (the
        fast solution when started fast: maximum level speed at full throttle)."""
        thr = self.base_ctrl[L.C_THROTTLE]
        unpack = lambda x: (x[0], x[1], 0.0, x[2], thr)
        x, res = self._newton(guess, unpack, (1e-3, 1e-5, 1e-4),
                              (20.0, -0.5, -4.0), (400.0, 0.6, 4.0), (10.0, 0.05, 0.5))
        return self._result(x, unpack, res)

    def level(self, tas_ms, guess=(0.05, 0.5, 0.0)):
        """Steady level flight at this airspeed: alpha, throttle, elevator. Where the guessed throttle
        lies where more throttle passes no more air (the engine at its boost cap, the residual flat
        in the throttle), Newton's method cannot move it: it starts again from LEVEL_THROTTLE_RETRIES."""
        unpack = lambda x: (tas_ms, x[0], 0.0, x[2], x[1])
        best = None
        for thr in (guess[1],) + LEVEL_THROTTLE_RETRIES:
            x, res = self._newton((guess[0], thr, guess[2]), unpack, (1e-5, 1e-4, 1e-4),
                                  (-0.5, 0.0, -4.0), (0.6, 1.0, 4.0), (0.05, 0.2, 0.5))
            if best is None or res < best[1]:
                best = (x, res)
            if res < 1e-6:
                break
        return self._result(best[0], unpack, best[1])
