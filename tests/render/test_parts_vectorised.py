"""model.parts.transforms (all parts at once, numpy) gives exactly what the rules written part
by part (transforms_by_part, here) give, for every aircraft over random poses: deflections, slats,
airbrakes, gear, shot-away sections, stores, the propeller, the cockpit view."""
import numpy as np
import pytest

from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.aircraft_data.loader import load_aircraft
from flightsim.render.glutil import axis_angle
from flightsim.render.model.looks import look
from flightsim.render.model.parts import MAX_PARTS, transforms

AIRCRAFT = ("spitfire", "bf109", "p51d", "f15c", "astir")


def _collapse(out, k, pivot):
    out[k, :3, :3] = 0.0
    out[k, :3, 3] = pivot


def transforms_by_part(parts, deflections_rad, airbrake: float, gear_up: float, slat_positions=None,
                       section_damage=None, stores_on=None, propeller_rad: float = 0.0, cockpit: bool = False,
                       hide_blades: bool = False) -> np.ndarray:
    """(MAX_PARTS, 4, 4) matrices for a pose: each section's control deflection (rad) and slat
    position (0 closed .. 1 open), the airbrakes 0..1, the gear 0 down .. 1 up, sections shot
    away (damage 1) hidden with what hangs on them, the stores not on hidden (none given: all
    hidden), the propeller turned by propeller_rad; in the cockpit view the cockpit parts
    hidden. Part by part, as the rules read: what model.parts.transforms must give."""
    out = np.tile(np.eye(4), (MAX_PARTS, 1, 1))
    slats = () if slat_positions is None else slat_positions
    gone = () if section_damage is None else section_damage
    for k, p in enumerate(parts):
        lost = p.section if p.kind in ("section", "control", "slat", "airbrake") else p.owner
        if 0 <= lost < len(gone) and gone[lost] >= 1.0:
            _collapse(out, k, p.pivot)                 # shot away: collapsed into a point, not drawn
        elif p.kind == "store":
            if stores_on is None or p.section >= len(stores_on) or stores_on[p.section] < p.shown_from:
                _collapse(out, k, p.pivot)
        elif p.kind == "control" and 0 <= p.section < len(deflections_rad):
            R = axis_angle(p.axis, float(deflections_rad[p.section]))
            out[k, :3, :3] = R
            out[k, :3, 3] = p.pivot - R @ p.pivot
        elif p.kind == "slat":
            f = min(max(float(slats[p.section]), 0.0), 1.0) if p.section < len(slats) else 0.0
            R = axis_angle(p.axis, -p.droop_rad * f)       # + about the span axis is nose up
            out[k, :3, :3] = R
            out[k, :3, 3] = p.pivot - R @ p.pivot + p.open_m * f
        elif p.kind == "airbrake":
            out[k, :3, 3] = p.axis * p.travel_m * float(airbrake)
        elif p.kind == "gear" and p.retractable:
            if p.retract_rad != 0.0:
                f = min(max(float(gear_up), 0.0), 1.0)
                R = axis_angle(p.axis, p.retract_rad * f)
                out[k, :3, :3] = R
                out[k, :3, 3] = p.pivot - R @ p.pivot
            elif gear_up >= 0.5:
                _collapse(out, k, p.pivot)         # no retraction given: hidden when up
        elif p.kind == "blades" and hide_blades:
            _collapse(out, k, p.pivot)
        elif p.kind in ("propeller", "blades"):
            R = axis_angle(p.axis, float(propeller_rad))
            out[k, :3, :3] = R
            out[k, :3, 3] = p.pivot - R @ p.pivot
        elif p.kind == "cockpit" and cockpit:
            _collapse(out, k, p.pivot)
        elif p.kind == "hidden":
            out[k, :3, :3] = 0.0
    return out


@pytest.mark.parametrize("name", AIRCRAFT)
def test_the_same_matrices_as_part_by_part(name):
    comp = compile_aircraft(load_aircraft(name))
    parts = look(comp, "low").model.parts
    n = len(comp.sections)
    rng = np.random.default_rng(7)
    for trial in range(40):
        kw = dict(
            deflections_rad=rng.uniform(-0.5, 0.5, n if trial % 7 else max(n - 3, 0)),
            airbrake=float(rng.uniform(0, 1)), gear_up=float(rng.choice([0.0, 0.3, 0.5, 1.0])),
            slat_positions=None if trial % 3 == 0 else rng.uniform(-0.2, 1.2, n),
            section_damage=None if trial % 2 else (rng.uniform(0, 1, n) > 0.8).astype(float),
            stores_on=None if trial % 4 == 0 else rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], 4),
            propeller_rad=float(rng.uniform(0, 6.3)), cockpit=bool(trial % 5 == 0), hide_blades=bool(trial % 6 == 0))
        assert np.allclose(transforms(parts, **kw), transforms_by_part(parts, **kw), atol=1e-12), (trial, kw)


def test_a_missile_rows_rounds_go_in_their_launch_order():
    """The F-15C's rounds are parts of their store: all shown while the row is full, the first listed
    hidden after the first launch, and so on; none once the row is empty or not carried."""
    parts = look(compile_aircraft("f15c"), "low").model.parts
    rounds = [k for k, p in enumerate(parts) if p.kind == "store" and p.section == 0]
    assert len(rounds) == 4

    def shown(share):
        m = transforms(parts, np.zeros(0), 0.0, 0.0, stores_on=np.array([share, 0.0, 0.0, 0.0]))
        return [bool(np.any(m[k, :3, :3] != 0.0)) for k in rounds]
    assert shown(1.0) == [True] * 4
    assert shown(0.75) == [False, True, True, True]
    assert shown(0.25) == [False, False, False, True]
    assert shown(0.0) == [False] * 4
