"""N aircraft of one type stepped together: the arrays of physics.batch.step_many by name.

    fleet = Fleet("astir", 64)
    fleet.place(i, sim)               # row i becomes a copy of a Sim's aircraft (state, controls, env)
    fleet.controls.roll = actions     # one value per aircraft (physics.named.Controls on the (N, ...) array)
    fleet.step(n_steps)               # one kernel call for all of them, on every core
    fleet.read.ias_kmh, fleet.read.euler_deg   # physics.named.FleetReadouts: arrays, one row per aircraft

One aircraft steps with the single-aircraft kernel (no thread start-up); more go through
step_many, which shares them out over numba's threads.
"""
from __future__ import annotations

import numba
import numpy as np

from .physics.batch import step_many
from .physics.dynamics import step_in_diag as _step  # (its diags are diag_size long: never -1)
from .physics.named import Controls, FleetReadouts
from .physics.scratch import diag_size
from .sim import Sim


class Fleet:
    def __init__(self, aircraft, n: int, env=None, terrain=None):
        self.template = Sim(aircraft, env, terrain)
        self.compiled = self.template.compiled
        self.n = int(n)
        t = self.template
        self.states = np.tile(t.state, (self.n, 1))
        self.ctrls = np.tile(t.ctrl, (self.n, 1))
        self.envs = np.tile(t.env, (self.n, 1))
        self.diags = np.zeros((self.n, diag_size(t.model)))
        self.status = np.zeros(self.n, dtype=np.int64)
        self.read = FleetReadouts(self.states, self.diags, t.dt_s)
        self.controls = Controls(self.ctrls)

    def place(self, i: int, sim: Sim) -> None:
        """Row i takes a Sim's aircraft: its state, controls, environment and diagnostics."""
        self.states[i] = sim.state
        self.ctrls[i] = sim.ctrl
        if len(sim.env) != self.envs.shape[1]:
            raise ValueError(f"env of {len(sim.env)} values, the fleet's have {self.envs.shape[1]}")
        self.envs[i] = sim.env
        self.diags[i, :len(sim.diag)] = sim.diag

    def step(self, n_steps: int = 1) -> np.ndarray:
        """Every aircraft ``n_steps`` steps with its controls held; returns the status
        (1: a step was refused as non-finite, the aircraft then stopped)."""
        t = self.template
        if self.n == 1:
            self.status[0] = 0
            for _ in range(n_steps):
                if _step(self.states[0], self.ctrls[0], self.envs[0], t.terrain, t.model, t.tables, self.diags[0]):
                    self.status[0] = 1
                    break
        else:
            step_many(self.states, self.ctrls, self.envs, t.terrain, t.model, t.tables, self.diags, n_steps,
                      self.status, numba.get_num_threads())
        return self.status

    def step_one(self, i: int) -> int:
        """One step of aircraft i alone (after placing it, to fill its diagnostics)."""
        t = self.template
        return _step(self.states[i], self.ctrls[i], self.envs[i], t.terrain, t.model, t.tables, self.diags[i])

    def sim_view(self, i: int) -> Sim:
        """A Sim whose arrays are row i's (writes go to the fleet): for code written for one Sim."""
        s = object.__new__(Sim)
        t = self.template
        s.compiled, s.model, s.tables, s.terrain = t.compiled, t.model, t.tables, t.terrain
        s.state, s.ctrl, s.env, s.diag = self.states[i], self.ctrls[i], self.envs[i], self.diags[i]
        return s
