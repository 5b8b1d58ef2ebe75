"""Guns, recoil, battle damage and bullets (issue 7 item 4; seed 000: "firing your guns has
an effect upon your aircraft too ... slow you down and torque the aircraft"; "a damaged
wing section loses lift and gains drag, so the pilot must hold aileron")."""
import math

import numpy as np
import pytest

from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.aircraft_data.guns import load_guns
from flightsim.aircraft_data.schema import DataError
from flightsim.physics.ballistics import set_damage
from flightsim.physics.bullet_pool import BulletPool, hit_radius
from flightsim.physics.dynamics import derivative
from flightsim.physics.named import N_DIAGNOSTICS, STATE_SIZE, AircraftView, Controls
from flightsim.physics.named_model import AircraftData
from flightsim.physics.plant_mass import resum_mass
from flightsim.physics.scratch import make_scratch
from flightsim.physics.state import flat_terrain, make_env
from flightsim.runtime.handoff import dcm
from flightsim.sim import Sim

G0 = 9.80665
FPS = 0.3048
YD = 0.9144


@pytest.fixture(scope="module")
def p51():
    return compile_aircraft("p51d")


@pytest.fixture(scope="module")
def cruise(p51):
    """A P-51D trimmed level at 400 km/h, 1,500 m: (state, ctrl)."""
    s = Sim(p51)
    s.spawn_trimmed_level(400.0 / 3.6, 1500.0)
    return s.state.copy(), s.ctrl.copy()


def fresh_sim(p51, cruise):
    """A Sim with its own model array (damage and mass re-sums stay in it)."""
    from dataclasses import replace
    s = Sim(replace(p51, model=p51.model.copy()))
    s.state, s.ctrl = cruise[0].copy(), cruise[1].copy()
    return s


def deriv(sim, ctrl=None):
    """The state's time derivative and the diagnostics, each by name: the derivative is ordered
    like a state, so its ``yaw_rate_rads`` is the yaw acceleration, rad/s2."""
    ws, R, fm, d, new, backup = make_scratch(sim.model)
    state = sim.state.copy()
    diag = np.zeros(N_DIAGNOSTICS)
    derivative(state, sim.ctrl if ctrl is None else ctrl, sim.env, sim.terrain, sim.model, sim.tables,
               diag, d, ws, R, fm)
    return AircraftView(d), AircraftView(state, diag)


def vned(state):
    return AircraftView(state).velocity_ned_ms


def guns_of(model):
    return AircraftData(model).guns


# ------------------------------------------------------------------ guns as data

def test_p51d_carries_six_browning_guns_with_the_published_load(p51):
    g = guns_of(p51.model)
    assert len(g) == 6
    assert sorted(g.ammo_rounds) == [270, 270, 270, 270, 400, 400]        # 1,880 rounds
    assert g.rate_rps == pytest.approx(800.0 / 60.0)
    # recoil impulse per round = bullet momentum + propellant gas momentum
    assert g.recoil_impulse_ns == pytest.approx(0.046 * 870.0 + 0.0155 * 1430.0)
    # three a side, symmetric
    assert np.sum(g.muzzle_m[:, 1] > 0) == 3 and np.sum(g.muzzle_m[:, 1] < 0) == 3
    # the ammunition is carried by the guns: the take-off weight is still Wright Field's
    assert p51.mass_kg == pytest.approx(4427.0, abs=1.0)
    assert not any(m["name"].startswith("ammunition") for m in p51.spec.masses)


def test_guns_are_harmonised_on_the_sight_line(p51):
    """Every gun's line passes the point on the sight line 274 m (300 yd) ahead, raised
    by the bullet's drop over that distance."""
    head = p51.spec.guns["head"]
    eye = np.array(head["sight_position_m"])
    guns = guns_of(p51.model)
    for muzzle, d, v in zip(guns.muzzle_m, guns.boresight, guns.muzzle_velocity_ms):
        assert np.linalg.norm(d) == pytest.approx(1.0)
        x = eye[0] + head["convergence_m"]
        t = (x - muzzle[0]) / d[0]
        p = muzzle + t * d
        drop = 0.5 * G0 * (t / v) ** 2
        assert p[1] == pytest.approx(eye[1], abs=0.01)
        assert p[2] == pytest.approx(eye[2] - drop, abs=0.01)


def test_a_glider_has_no_guns_and_the_trigger_does_nothing():
    c = compile_aircraft("astir")
    assert len(guns_of(c.model)) == 0 and not AircraftData(c.model).mass_resummed
    s = Sim(c)
    s.spawn_trimmed_glide(100 / 3.6, 1000.0)
    a = s.state.copy()
    s.step()
    no_fire = s.state.copy()
    s.state[:] = a
    ctrl = s.ctrl.copy()
    Controls(ctrl).fire = 1.0
    s.step(ctrl)
    assert np.array_equal(s.state, no_fire)


GOOD_GUNS = {"sight_position_m": [-1.0, 0.0, -0.5], "convergence_m": 250.0}
GOOD_GUN = {"name": "g", "position_m": [-0.5, 1.0, 0.2], "rounds_per_minute": 800.0, "muzzle_velocity_ms": 850.0,
            "bullet_mass_kg": 0.046, "rounds": 100, "round_mass_kg": 0.12, "ammo_box_position_m": [-1.0, 1.0, 0.2],
            "ammo_box_size_m": [0.5, 0.3, 0.2], "ballistic_coefficient_g1_lb_per_in2": 0.6, "hit_damage_area_m2": 0.03,
            "calibre_mm": 12.7}


@pytest.mark.parametrize("change, key", [
    ({"guns": None}, "guns"),
    ({"gun": {"rounds": 10.5}}, "rounds"),
    ({"gun": {"mirror": True, "position_m": [-0.5, -1.0, 0.2]}}, "position_m"),
    ({"gun": {"round_mass_kg": 0.01}}, "round_mass_kg"),
    ({"gun": {"propellant_mass_kg": 0.015}}, "propellant_gas_velocity_ms"),
    ({"gun": {"muzzle_speed": 850.0}}, "muzzle_speed"),
    ({"gun": {"rounds_per_minute": -5.0}}, "rounds_per_minute"),
    ({"guns": {"convergence_m": 5.0}}, "convergence_m"),
])
def test_bad_gun_data_is_refused_naming_the_key(change, key):
    data = {"guns": dict(GOOD_GUNS), "gun": [dict(GOOD_GUN)]}
    if "guns" in change:
        if change["guns"] is None:
            del data["guns"]
        else:
            data["guns"].update(change["guns"])
    if "gun" in change:
        data["gun"][0].update(change["gun"])
    with pytest.raises(DataError) as e:
        load_guns(data, "aircraft.toml")
    assert key in str(e.value) and "aircraft.toml" in str(e.value)


def test_too_many_guns_are_refused():
    data = {"guns": dict(GOOD_GUNS), "gun": [dict(GOOD_GUN, name=f"g{i}", mirror=True) for i in range(5)]}
    with pytest.raises(DataError, match="at most 8 guns"):
        load_guns(data, "aircraft.toml")


# ------------------------------------------------------------------ recoil

def test_recoil_is_rate_times_impulse_along_the_bores_at_the_guns(p51, cruise):
    s = fresh_sim(p51, cruise)
    c_fire = s.ctrl.copy()
    Controls(c_fire).fire = 1.0
    d0, g0 = deriv(s)
    d1, g1 = deriv(s, c_fire)
    guns = guns_of(s.model)
    cg = AircraftData(s.model).cg_m
    F = np.zeros(3)
    M = np.zeros(3)
    for pos, bore, rate, impulse in zip(guns.muzzle_m, guns.boresight, guns.rate_rps, guns.recoil_impulse_ns):
        f = -rate * impulse * bore
        F += f
        M += np.cross(pos - cg, f)
    assert g1.force_body_n - g0.force_body_n == pytest.approx(F, abs=1e-6)
    assert g1.moment_body_nm - g0.moment_body_nm == pytest.approx(M, abs=1e-6)
    assert g1.recoil_n == pytest.approx(6 * 800 / 60 * (0.046 * 870 + 0.0155 * 1430), rel=1e-9)   # ~4,970 N
    assert g0.recoil_n == 0.0 and g1.ammo_rounds == g0.ammo_rounds == 1880
    assert M[1] < 0.0       # guns below the CG: firing pitches the nose down


def test_firing_two_seconds_slows_a_trimmed_p51d_by_the_recoil_momentum(p51, cruise):
    """Six guns for 2 s: 160 rounds of 62.2 N s each = 9,950 N s, on 4,420 kg: 2.25 m/s.
    Measured as the loss of specific energy (speed and height, so the small dive the
    recoil's nose-down moment starts does not hide it), divided by the speed."""
    def run(fire):
        s = fresh_sim(p51, cruise)
        c = s.ctrl.copy()
        Controls(c).fire = fire
        for _ in range(100):
            s.step(c)
        v = vned(s.state)
        return 0.5 * v @ v + G0 * s.altitude_m, s.mass_kg, s
    e0, m0, _ = run(0.0)
    e1, m1, s1 = run(1.0)
    v0 = np.linalg.norm(vned(cruise[0]))
    dv = (e1 - e0) / v0
    guns = guns_of(p51.model)
    impulse = float(np.sum(guns.rate_rps * guns.recoil_impulse_ns)) * 2.0
    expected = -impulse / (0.5 * (m0 + m1))
    assert expected == pytest.approx(-2.25, abs=0.05)
    assert dv == pytest.approx(expected, rel=0.10)
    # the count dropped by exactly 2 s of fire and the mass by those rounds
    assert s1.rounds_fired[:6] == pytest.approx(800 / 60 * 2.0)
    assert m0 - m1 == pytest.approx(6 * 800 / 60 * 2.0 * 0.1225, rel=0.02)


def test_firing_stops_when_the_belts_are_empty_and_their_weight_is_gone(p51, cruise):
    s = fresh_sim(p51, cruise)
    ammo = guns_of(s.model).ammo_rounds
    s.set_rounds_fired(ammo - 2.0)                      # two rounds left in each
    c = s.ctrl.copy()
    Controls(c).fire = 1.0
    for _ in range(50):
        s.step(c)
    assert s.rounds_fired[:6] == pytest.approx(ammo)
    assert s.ammo_rounds == 0.0 and s.recoil_n == 0.0
    # the mass re-sum: the dry aircraft plus the fuel left, no ammunition
    full = np.zeros(STATE_SIZE)
    empty = np.zeros(STATE_SIZE)
    AircraftView(empty).set_rounds_fired(ammo)
    m = s.model.copy()
    resum_mass(m, full)
    m_full = AircraftData(m).mass_kg
    resum_mass(m, empty)
    assert m_full - AircraftData(m).mass_kg == pytest.approx(1880 * 0.1225)


@pytest.mark.parametrize("empty_side, yaw_sign", [(+1.0, -1.0), (-1.0, +1.0)])
def test_with_one_wings_guns_empty_firing_yaws_toward_the_guns_still_firing(p51, cruise, empty_side, yaw_sign):
    """Seed 000: a Hurricane with its left guns knocked out yaws when it fires the right
    ones. The guns still firing push back on their own wing: the nose swings toward them
    (right guns empty -> the left guns pull the left wing back -> nose left, r < 0)."""
    s = fresh_sim(p51, cruise)
    guns = guns_of(s.model)
    side = np.sign(guns.muzzle_m[:, 1])
    base = s.state.copy()
    AircraftView(base).set_rounds_fired(np.where(side == empty_side, guns.ammo_rounds, 0.0))
    c = s.ctrl.copy()
    Controls(c).fire = 1.0
    s.state = base.copy()
    d_fire, g_fire = deriv(s, c)
    d_hold, g_hold = deriv(s)
    cg = AircraftData(s.model).cg_m
    live = np.flatnonzero(side != empty_side)
    mz = sum(np.cross(guns.muzzle_m[i] - cg,
                      -guns.rate_rps[i] * guns.recoil_impulse_ns[i] * guns.boresight[i])[2] for i in live)
    assert (g_fire.moment_body_nm[2] - g_hold.moment_body_nm[2]) == pytest.approx(mz, rel=1e-3)
    assert np.sign(mz) == yaw_sign and abs(mz) > 5000.0          # about 3 x 830 N x 2.2 m
    assert np.sign(d_fire.yaw_rate_rads - d_hold.yaw_rate_rads) == yaw_sign     # the yaw acceleration
    # flown for 1.5 s: the heading swings that way against the aircraft's weathercock stability
    def heading(fire):
        s.state = base.copy()
        cc = s.ctrl.copy()
        Controls(cc).fire = fire
        for _ in range(75):
            s.step(cc)
        return s.euler_rad[2]
    dpsi = heading(1.0) - heading(0.0)
    assert np.sign(dpsi) == yaw_sign and abs(math.degrees(dpsi)) > 0.2


# ------------------------------------------------------------------ battle damage

def section_index(name, compiled):
    return [sec.name for sec in compiled.sections].index(name)


def test_a_damaged_outer_wing_section_rolls_the_aircraft_and_adds_drag(p51, cruise):
    """Seed 000: with one wing damaged "you have to use a lot of aileron control to keep
    flying level and not rolling in the direction of the damaged wing"."""
    s = fresh_sim(p51, cruise)
    _, g0 = deriv(s)
    sec = section_index("wing_aileron_outer_left", p51)
    set_damage(s.model, sec, 0.6)
    assert AircraftData(s.model).damaged
    _, g1 = deriv(s)
    roll_moment = g1.moment_body_nm[0] - g0.moment_body_nm[0]
    assert roll_moment < -2000.0                     # rolls left, into the damaged (left) wing
    assert g1.force_body_n[0] < g0.force_body_n[0] - 150.0    # more drag (body x force more negative)
    assert g1.force_body_n[2] > g0.force_body_n[2]            # less lift
    # the aileron that holds it level: solve the roll surface for zero rolling moment
    def moment(x):
        s.set_surface("roll", x)
        return deriv(s)[1].moment_body_nm[0]

    def aileron_to_hold():
        lo, hi = x0, 1.0
        assert moment(hi) > 0.0
        for _ in range(40):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if moment(mid) < 0.0 else (lo, mid)
        return 0.5 * (lo + hi) - x0
    x0 = AircraftView(cruise[0]).surface("roll")
    held = aileron_to_hold()
    assert held > 0.02                               # right aileron held against it (of +-1 travel)
    set_damage(s.model, sec, 1.0)
    assert aileron_to_hold() > 1.4 * held            # more damage, more aileron
    set_damage(s.model, sec, 0.0)
    assert not AircraftData(s.model).damaged
    s.set_surface("roll", x0)
    assert deriv(s)[1].moment_body_nm[0] == pytest.approx(g0.moment_body_nm[0], abs=1e-6)


def test_damage_scales_the_sections_lift_and_adds_the_shot_away_drag(p51, cruise):
    from flightsim.physics.aero import CD_SHOT_AWAY
    s = fresh_sim(p51, cruise)
    sec = section_index("wing_flap_outer_right", p51)
    _, g0 = deriv(s)
    set_damage(s.model, sec, 1.0)
    _, g1 = deriv(s)
    # a whole section gone: the drag grows by at least its area times CD_SHOT_AWAY less its clean drag
    q = g0.qbar_pa
    area = AircraftData(s.model).section_area_m2[sec]
    assert g0.force_body_n[0] - g1.force_body_n[0] > 0.5 * q * area * CD_SHOT_AWAY
    assert g1.moment_body_nm[0] > g0.moment_body_nm[0] + 5000.0   # the right wing lost its lift: roll right


# ------------------------------------------------------------------ bullets

def fly_bullet(mv, bc, ranges_yd, dt=0.02, alt_m=0.0):
    pool = BulletPool(1, 1)
    pool.add((0.0, 0.0, -alt_m), (mv, 0.0, 0.0), drag_k=math.pi / 8 / (bc * 703.0696))
    pos, vel = pool.position_ned_m[0], pool.velocity_ned_ms[0]        # views of the bullet's row
    env = make_env()
    terr = flat_terrain(-1000.0)
    out = {}
    targets = [r * YD for r in ranges_yd]
    while targets:
        x0, v0 = pos[0], vel[0]
        pool.fly(dt, env, terr, 10.0)                                 # gravity G0 from the env
        while targets and pos[0] >= targets[0]:
            f = (targets[0] - x0) / (pos[0] - x0)
            out[round(targets[0] / YD)] = (v0 + f * (vel[0] - v0)) / FPS
            targets.pop(0)
    return out


def test_g1_drag_law_matches_a_published_50_bmg_table():
    """Hornady .50 BMG 750 gr A-MAX (#8270), G1 BC 1.050, 2,820 ft/s, standard sea-level
    conditions: 2,549 ft/s at 300 yd and 2,377 ft/s at 500 yd (Hornady's published
    ballistics table, as recalled [M]; it is itself a G1 solution, so this checks our
    drag law, units and integration, at the 20 ms game step)."""
    v = fly_bullet(2820 * FPS, 1.050, [300, 500])
    assert v[300] == pytest.approx(2549, rel=0.01)
    assert v[500] == pytest.approx(2377, rel=0.01)


def test_bullet_integration_at_20_ms_agrees_with_a_fine_step():
    coarse = fly_bullet(870.0, 0.67, [100, 500, 1000])
    fine = fly_bullet(870.0, 0.67, [100, 500, 1000], dt=0.0005)
    for r in coarse:
        assert coarse[r] == pytest.approx(fine[r], rel=1e-3)
    # the AN/M2's round: supersonic out past 1,000 yd, most of its speed gone by then
    assert 1300 < coarse[1000] < 2000


def test_in_a_vacuum_the_trajectory_is_the_exact_parabola():
    pool = BulletPool(1, 1)
    pool.add((0.0, 0.0, -3000.0), (800.0, 30.0, -50.0))                 # no drag constant: no air drag
    for _ in range(100):
        pool.fly(0.02, make_env(), flat_terrain(0.0), 10.0)
    t = 2.0
    assert pool.position_ned_m[0] == pytest.approx([800 * t, 30 * t, -3000 - 50 * t + 0.5 * G0 * t * t], abs=1e-6)
    assert pool.age_s[0] == pytest.approx(2.0)


def test_bullets_expire_with_age_and_in_the_ground():
    pool = BulletPool(2, 1)
    k = math.pi / 8 / (0.67 * 703.0696)
    pool.add((0.0, 0.0, -3000.0), (800.0, 0.0, 0.0), drag_k=k)       # high up: lives until its age runs out
    pool.add((0.0, 0.0, -100.0), (600.0, 0.0, 200.0), drag_k=k)      # diving into the ground 100 m below
    env, terr = make_env(), flat_terrain(0.0)
    alive = []
    for _ in range(160):
        pool.fly(0.02, env, terr, 3.0)
        alive.append(int(np.sum(pool.alive)))
    assert alive[10] == 2 and not pool.alive[1]
    assert alive[148] == 1 and alive[-1] == 0


def aimed_bullet(target_pos, target_R, cg, body_point, from_body_dir, owner=1, speed=900.0, back_m=300.0):
    """A pool with one bullet one tick before it reaches a body point of a still aircraft."""
    p = target_pos + target_R @ (np.asarray(body_point) - cg)
    d = target_R @ np.asarray(from_body_dir, dtype=float)
    d /= np.linalg.norm(d)
    pool = BulletPool(1, 4)
    pool.add(p - d * back_m, d * speed, owner=owner, hit_area_m2=0.03)
    return pool


@pytest.mark.parametrize("name, point_y, point_z, hit", [
    ("wing_aileron_outer_left", -4.9, 0.273, True),
    ("wing_flap_inner_right", 1.2, 0.599, True),
    ("", -6.2, 0.2, False),                     # past the wing tip
])
def test_a_bullet_hits_the_section_it_passes_through(p51, name, point_y, point_z, hit):
    model = p51.model.copy()
    data = AircraftData(model)
    cg = data.cg_m
    pos = np.array([100.0, 200.0, -1500.0])
    R = dcm([math.cos(0.2), 0.0, 0.0, math.sin(0.2)])        # yawed 23 deg
    # from below and behind, through the wing's chord plane
    pool = aimed_bullet(pos, R, cg, [-3.3, point_y, point_z], [0.8, 0.0, -0.6])
    pool.fly(300.0 / 900.0, make_env(gravity=0.0), flat_terrain(-1e4), 10.0)   # 300 m: to the point
    pool.collide_aircraft(model, 0, pos, R, pos, R, cg, hit_radius(model, cg))
    hits = pool.hits()
    if hit:
        assert len(hits) == 1 and not pool.alive[0]
        sec = hits[0].section
        assert p51.sections[sec].name == name
        assert data.section_damage[sec] == pytest.approx(0.03 / data.section_area_m2[sec])
        assert data.damaged                          # the aero kernel's flag
        assert hits[0].point == pytest.approx([-3.3, point_y, point_z], abs=0.3)
    else:
        assert len(hits) == 0 and pool.alive[0]
        assert np.all(data.section_damage == 0.0)


def test_a_bullet_never_hits_the_aircraft_that_fired_it(p51):
    model = p51.model.copy()
    cg = AircraftData(model).cg_m
    pos = np.zeros(3)
    R = np.eye(3)
    pool = aimed_bullet(pos, R, cg, [-3.3, 2.0, 0.5], [0.0, 0.0, -1.0], owner=7)
    pool.fly(1.0 / 3.0, make_env(gravity=0.0), flat_terrain(-1e4), 10.0)
    pool.collide_aircraft(model, 7, pos, R, pos, R, cg, 12.0)
    assert pool.n_hits == 0
    pool.collide_aircraft(model, 3, pos, R, pos, R, cg, 12.0)
    assert pool.n_hits == 1


def test_hits_on_a_moving_aircraft_use_its_motion_over_the_tick(p51):
    """A target crossing at 150 m/s: a bullet that reaches the point where the wing root
    is at the end of the tick hits it (the segment is tested in the body frame that moves
    from the start pose to the end pose); the same bullet 30 m off misses."""
    model = p51.model.copy()
    cg = AircraftData(model).cg_m
    R = np.eye(3)
    pos1 = np.array([0.0, 0.0, -1000.0])
    pos0 = pos1 - np.array([0.0, 150.0 * 0.02, 0.0])       # it moved 3 m east in the tick
    # the bullet climbs through the right wing root at the end of the tick
    pool = aimed_bullet(pos1, R, cg, [-3.3, 0.3, 0.676], [0.0, 0.0, -1.0], back_m=18.0)
    pool.fly(0.02, make_env(gravity=0.0), flat_terrain(-1e4), 10.0)
    moving = pool.copy()
    moving.collide_aircraft(model.copy(), 0, pos0, R, pos1, R, cg, 12.0)
    assert moving.n_hits == 1
    far = pos1 + np.array([0.0, 30.0, 0.0])
    off = pool.copy()
    off.collide_aircraft(model.copy(), 0, far, R, far, R, cg, 12.0)
    assert off.n_hits == 0


def test_a_bullet_hits_a_balloon_sphere():
    pool = BulletPool(2, 4)
    pool.add((20.0, 0.0, -500.0), previous_ned_m=(0.0, 0.0, -500.0))     # the segments swept last tick
    pool.add((20.0, 8.0, -500.0), previous_ned_m=(0.0, 8.0, -500.0))
    spheres = np.array([[10.0, 1.0, -500.0, 5.0, 1.0]])
    pool.collide_spheres(spheres)
    assert pool.n_hits == 1
    assert not pool.alive[0] and pool.alive[1]
    assert pool.hits()[0].point == pytest.approx([10.0 - math.sqrt(24.0), 0.0, -500.0])
