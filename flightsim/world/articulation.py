"""An aircraft's control surfaces as DIS articulated parts (issue 36), both ways: ``parts`` reads
them off our aircraft's state for its Entity State PDUs (flightsim/net/dis.py PART_CLASSES: each
side's aileron, elevator and flap, the rudder, in rad; the gear and the speed brake, 0..1), and
``deflections`` turns a remote's parts back into each section's deflection on the model of ours
that draws it.

Which section is which comes from the model's own gearing, not from names: a section is an
aileron, an elevator, a rudder or a flap by the control its deflection follows most (the pitch,
roll, yaw and flap surfaces each moved alone once, at the start), and left or right by the side
of the centreline it is on. A stabilator (the F-15C's tail, pitch and roll together) is an
elevator each side; a part the type has no section for is ignored.
"""
from __future__ import annotations

import numpy as np

from ..physics.named import AircraftView
from ..physics.named_model import AircraftData
from ..physics.state import make_state

AXES = ("pitch", "roll", "yaw", "flap")
PART_OF_AXIS = {"pitch": "elevator", "roll": "aileron", "flap": "flap"}      # each side; yaw: the rudder


class Articulation:
    def __init__(self, model):
        self.data = AircraftData(model)
        scratch = make_state()
        view = AircraftView(scratch)
        gains = []
        for axis in AXES:
            view.set_surface(axis, 1.0)
            gains.append(self.data.section_deflections_rad(scratch).copy())
            view.set_surface(axis, 0.0)
        gains = np.abs(np.array(gains))                          # (axes, sections)
        moved = gains.max(axis=0) > 1e-9
        main = np.argmax(gains, axis=0)
        y = self.data.section_position_m[:, 1]
        self.members: dict = {}                                  # part name -> section indices
        for i in np.flatnonzero(moved):
            axis = AXES[int(main[i])]
            name = "rudder" if axis == "yaw" else f"{'left' if y[i] < 0.0 else 'right'}_{PART_OF_AXIS[axis]}"
            self.members.setdefault(name, []).append(int(i))
        self._scratch = scratch

    def parts(self, state) -> dict:
        """Our aircraft's parts now: each surface's mean deflection (rad), gear and speed brake."""
        d = self.data.section_deflections_rad(state)
        view = AircraftView(state)
        out = {name: float(np.mean(d[idx])) for name, idx in self.members.items()}
        out["gear"] = 1.0 - float(view.surface("gear"))          # 1 extended
        out["speed_brake"] = float(view.surface("airbrake"))
        return out

    def deflections(self, parts: dict) -> np.ndarray:
        """Each section's deflection (rad) for a remote's parts (0 where it sent none)."""
        out = np.zeros(self.data.n_sections)
        for name, idx in self.members.items():
            if name in parts:
                out[idx] = parts[name]
        return out
