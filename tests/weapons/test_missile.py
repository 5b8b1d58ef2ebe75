"""Missiles as physical bodies (issue 35): the motor, the g limit, the seeker and the fuze of
flightsim/physics/missile.py, flown from their data files."""
import copy
import math
import shutil

import numpy as np
import pytest

from flightsim.aircraft_data.schema import DataError
from flightsim.physics import missile as M
from flightsim.weapons import envelope as E
from flightsim.weapons.data import list_weapons, load_missile


def test_the_hangar_has_both_missiles():
    assert {"aim9m", "aim120c", "aim7m"} <= set(list_weapons())


@pytest.mark.parametrize("weapon", ("aim9m", "aim120c", "aim7m"))
def test_the_motor_obeys_the_rocket_equation(weapon):
    """With no drag, no gravity and no steering, the speed gained is Isp g0 ln(m0 / m1) and the
    missile burns out at its launch mass less its propellant."""
    m = copy.copy(load_missile(weapon))
    m.model = m.model.copy()
    n_t, n_m = int(m.model[M.MD_N_THRUST]), int(m.model[M.MD_N_MACH])
    o = M.MD_TABLES + 2 * n_t
    m.model[o + n_m:o + 3 * n_m] = 0.0                   # no drag, boost or coast
    ms = np.zeros(M.N_MS)
    M.launch(ms, m.model, np.array([0.0, 0.0, -5000.0]), np.array([250.0, 0.0, 0.0]), np.array([1e7, 0.0, -5000.0]))
    ms[M.MS_TRACKING] = 0.0                               # unguided: no lift asked for
    for _ in range(int((m.burn_time_s + 1.0) / 0.02)):
        M.missile_step(ms, m.model, np.array([1e7, 0.0, -5000.0]), np.zeros(3), 0.02, 0.0)
    m0, m1 = m.missile["launch_mass_kg"], m.missile["launch_mass_kg"] - m.missile["propellant_kg"]
    assert ms[M.MS_MASS] == pytest.approx(m1, abs=1e-6)
    dv = np.linalg.norm(ms[M.MS_VEL:M.MS_VEL + 3]) - 250.0
    assert dv == pytest.approx(m.specific_impulse_s * M.G0 * math.log(m0 / m1), rel=0.01)
    assert 220.0 < m.specific_impulse_s < 250.0           # reduced-smoke HTPB / AP


@pytest.mark.parametrize("weapon", ("aim9m", "aim120c", "aim7m"))
def test_a_head_on_shot_hits_and_never_pulls_past_the_g_limit(weapon):
    m = load_missile(weapon)
    status, ms, track = E._flight(m, 5000.0, 0.9, 0.9, 6000.0, "head_on", track_len=5000)
    assert status == M.ST_HIT and ms[M.MS_CLOSEST] <= m.fuze["lethal_radius_m"]
    assert 0.0 < ms[M.MS_MAX_G] <= m.aero["g_limit"] + 1e-9
    assert ms[M.MS_TIME] >= m.guidance["arming_s"]        # the fuze was armed


def test_a_target_behind_the_seekers_gimbal_is_lost():
    """An infrared missile fired 90 degrees away from its target: the seeker loses it at once."""
    m = load_missile("aim9m")
    ms = np.zeros(M.N_MS)
    tpos = np.array([0.0, 4000.0, -3000.0])
    M.launch(ms, m.model, np.array([0.0, 0.0, -3000.0]), np.array([250.0, 0.0, 0.0]), tpos)
    status, _ = M.fly_engagement(ms, m.model, tpos, np.zeros(3), 0.0, 200.0, 0.0, 0.0, 0.02, 61.0, M.G0,
                                 np.zeros((0, 6)))
    assert ms[M.MS_TRACKING] == 0.0 and status != M.ST_HIT


def test_a_bad_data_file_is_refused_naming_the_key(tmp_path):
    src = load_missile("aim9m").path
    bad = tmp_path / "missile.toml"
    shutil.copy(src, bad)
    bad.write_text(bad.read_text().replace("thrust_n = [0.0, 12810.0, 12810.0, 0.0]", "thrust_n = [0.0, 12810.0]"))
    with pytest.raises(DataError, match="motor.thrust_n"):
        load_missile(str(bad))
    bad.write_text(src.read_text().replace("g_limit = 40.0", "g_limit = 1e9"))
    with pytest.raises(DataError, match="aero.g_limit"):
        load_missile(str(bad))


def test_off_a_launcher_at_rest_it_flies_along_its_rail():
    """Launched with no speed (a hovering launcher), the motor pushes along the rail's axis, at the
    target, until the missile is fast enough to fly on its lift: it reaches a target 5 km away."""
    m = load_missile("aim9m")
    status, ms, _ = E._flight(m, 1000.0, 0.0, 0.5, 5000.0, "head_on")
    assert status == M.ST_HIT
    assert ms[M.MS_AXIS] == pytest.approx(1.0) and abs(ms[M.MS_AXIS + 2]) < 1e-12
