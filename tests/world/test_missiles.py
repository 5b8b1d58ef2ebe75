"""Missiles in the world's combat (issue 35): the radar's lock, the seeker's tone, a launch pressed
through the controls, the missile's flight to a burst that shoots the target down, decoys, the
weapon buttons from the keys, the scenario's loadout refused when wrong, and a missile fight
recorded and replayed bit for bit with its missiles in the ACMI export."""
import argparse
import math
from dataclasses import replace

import numpy as np
import pytest

from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.aircraft_data.damage import set_stores_and_missiles
from flightsim.aircraft_data.schema import DataError
from flightsim.app.telemetry import telemetry
from flightsim.input.keyboard import BUTTON_MIN_S, KeyboardControls
from flightsim.physics.named_controls import CONTROL_INDEX, N_CONTROLS
from flightsim.physics.named_model import AircraftData
from flightsim.recording.cli import main as replay_main
from flightsim.recording.format import read_recording
from flightsim.recording.replay import verify
from flightsim.runtime.handoff import ControlInputs
from flightsim.sim import Sim
from flightsim.world import decoys
from flightsim.world.armament import Side, armament, store_weapons
from flightsim.world.missiles import LOCK_ACQUIRE_S, MissileWar
from flightsim.world.scenario import load_scenario
from flightsim.world.terrain import Terrain

DT = 0.02


@pytest.fixture(scope="module")
def f15c():
    return compile_aircraft("f15c")


class Jet:
    """An F-15C flying straight and level (moved by hand, not by the physics: the geometry is the test)."""

    def __init__(self, comp, ident, north_m, heading_deg, speed_ms=250.0, alt_m=6000.0):
        self.sim = Sim(replace(comp, model=comp.model.copy()))      # its own damage
        hdg = math.radians(heading_deg)
        self.sim.spawn_trimmed_level(speed_ms, alt_m, hdg, north_m, 0.0)
        self.ident = ident
        self.pos = np.array([north_m, 0.0, -alt_m])
        self.vel = speed_ms * np.array([math.cos(hdg), math.sin(hdg), 0.0])
        self.ctrl = np.zeros(N_CONTROLS)
        self.spec = comp.spec

    def side(self, alive=True):
        return Side(self.ident, "player" if self.ident == 0 else "opponent", self.pos.copy(), self.vel.copy(),
                    self.sim.body_to_ned(), AircraftData(self.sim.model).cg_m, self.sim.model, self.sim.state, 0.0,
                    alive, self.spec.signature, self.spec.radar, store_weapons(self.spec))

    def press(self, button, on=True):
        self.ctrl[CONTROL_INDEX[button]] = 1.0 if on else 0.0


def _war(a_missiles, b_missiles=(), b_flares=0, seed=1):
    return MissileWar({0: armament(list(a_missiles), 0, 0), 1: armament(list(b_missiles), b_flares, 0)},
                      np.random.default_rng(seed))


def _fly(war, jets, seconds, t0=0.0, script=None):
    """Step the war ``seconds``, the jets moving straight; ``script(k, t)`` presses buttons."""
    n = int(round(seconds / DT))
    for k in range(n):
        t = t0 + k * DT
        if script is not None:
            script(k, t)
        war.step({j.ident: j.side() for j in jets}, {j.ident: j.ctrl for j in jets}, t, DT)
        for j in jets:
            j.pos = j.pos + j.vel * DT
    return t0 + n * DT


def _events(war, name=None):
    return [e for e in war.events if name is None or e[2] == name]


def test_lock_takes_its_time_then_a_radar_missile_flies_to_a_kill(f15c):
    a = Jet(f15c, 0, 0.0, 0.0)
    b = Jet(f15c, 1, 25000.0, 180.0)             # head-on, 25 km, both at 250 m/s
    war = _war(["aim120c"])
    assert war.arms[0].selected == "aim120c"
    a.press("lock")
    t = _fly(war, [a, b], 0.5)
    a.press("lock", False)
    assert war.arms[0].lock_state == "acquiring" and not _events(war, "lock")
    t = _fly(war, [a, b], 1.0, t)
    lock = _events(war, "lock")
    assert len(lock) == 1 and lock[0][0] == pytest.approx(LOCK_ACQUIRE_S, abs=0.03) and lock[0][1] == "player"
    a.press("launch")
    t = _fly(war, [a, b], 0.1, t)
    a.press("launch", False)
    assert len(_events(war, "launch")) == 1 and war.arms[0].loadout["aim120c"] == 0
    t = _fly(war, [a, b], 40.0, t)
    hits = _events(war, "hit")
    assert len(hits) == 1 and "the bandit" in hits[0][3], war.events
    assert _events(war, "active")                 # its own seeker took over inside 16 km
    # the burst went into the damage model: sections of the target struck
    assert np.max(AircraftData(b.sim.model).section_damage) > 0.0
    assert not war.flights


def test_a_launch_takes_the_round_off_the_launchers_store(f15c):
    """The round leaves the launcher's missile store as it leaves the rail: the jet is lighter by its
    launch mass from the next step."""
    comp = replace(f15c, model=f15c.model.copy())
    set_stores_and_missiles(comp.model, comp.spec, [], ["aim120c"])       # one round on the fuselage row
    a = Jet(comp, 0, 0.0, 0.0)
    b = Jet(f15c, 1, 25000.0, 180.0)
    a.sim.step()
    before = a.sim.mass_kg
    war = _war(["aim120c"])
    a.press("lock")
    t = _fly(war, [a, b], 1.5)
    a.press("launch")
    _fly(war, [a, b], 0.1, t)
    assert len(_events(war, "launch")) == 1 and a.sim.stores_released[0] == 1.0
    a.sim.step()
    assert before - a.sim.mass_kg == pytest.approx(161.5, abs=0.05)     # less a step's fuel


def test_no_launch_without_a_lock_and_the_weapons_cycle(f15c):
    a = Jet(f15c, 0, 0.0, 0.0)
    b = Jet(f15c, 1, 20000.0, 180.0)
    war = _war(["aim120c", "aim9m", "aim9m"])
    a.press("launch")
    _fly(war, [a, b], 0.2)
    assert not _events(war, "launch") and war.arms[0].loadout == {"aim120c": 1, "aim9m": 2}
    seen = [war.arms[0].selected]
    for k in range(3):
        a.press("weapon_select")
        _fly(war, [a, b], DT)
        a.press("weapon_select", False)
        _fly(war, [a, b], DT)
        seen.append(war.arms[0].selected)
    assert seen == ["aim120c", "aim9m", "gun", "aim120c"]


def test_the_infrared_seeker_growls_only_within_its_lock_range(f15c):
    """With no radar lock the seeker looks along the boresight (its 3.5 deg field of view): from
    behind (the F-15C's nozzles: infrared value 0.9 x 4 = 3.6) the AIM-9M's 20 km reference range
    reaches its 23.2 km cap; beyond it, or off the boresight, no tone."""
    a = Jet(f15c, 0, 0.0, 0.0)
    b = Jet(f15c, 1, 0.0, 0.0)
    nose = a.sim.body_to_ned()[:, 0]
    war = _war(["aim9m"])
    for r, tone in ((30000.0, False), (22000.0, True), (8000.0, True)):
        b.pos = a.pos + r * nose
        _fly(war, [a, b], DT)
        assert war.arms[0].tone == tone, r
    b.pos = a.pos + 8000.0 * (nose + np.array([0.0, 0.06, 0.0]))     # 3.4 deg to the right
    _fly(war, [a, b], DT)
    assert not war.arms[0].tone
    assert len(_events(war, "lock")) == 1


def test_decoy_chances_by_the_seekers_countermeasure_factor():
    """An AIM-9M (DCS ccm_k0 0.5) is drawn off by a flare 0.15 of the time from astern (FlightGear's
    1 - 0.85), half again head-on, half as often against an afterburner; an AIM-120C (0.1) by a chaff
    bundle 0.07 of the time, four times that against a beaming target seen from above."""
    from flightsim.aircraft_data.loader import load_aircraft
    from flightsim.weapons.data import load_missile
    k9 = load_missile("aim9m").seeker["countermeasure_k"]
    k120 = load_missile("aim120c").seeker["countermeasure_k"]
    here, still = np.zeros(3), np.array([200.0, 0.0, 0.0])
    seeker = np.array([-5000.0, 0.0, 0.0])       # level: no clutter behind the target
    assert decoys.decoy_chance("flare", 0.0, here, still, 0.0, seeker, k9) == pytest.approx(0.15)
    assert decoys.decoy_chance("flare", 180.0, here, still, 0.0, seeker, k9) == pytest.approx(0.225)
    assert decoys.decoy_chance("flare", 0.0, here, still, 1.0, seeker, k9) == pytest.approx(0.075)
    assert decoys.decoy_chance("chaff", 0.0, here, still, 0.0, seeker, k120) == pytest.approx(0.07)
    beaming = np.array([0.0, 250.0, 0.0])
    above = np.array([-3000.0, 0.0, -3000.0])    # looking down on a target crossing the beam: the notch
    gate = load_aircraft("f15c").radar["notch_gate_ms"]           # the launcher's radar's gate
    assert decoys.decoy_chance("chaff", 90.0, here, beaming, 0.0, above, k120, gate) == pytest.approx(0.28)


def test_a_flare_falls_behind_and_burns_out():
    R = np.eye(3)
    d = decoys.eject("flare", 0, np.zeros(3), np.array([250.0, 0.0, 0.0]), R, 0.0)
    alive = [d]
    t = 0.0
    while alive and t < 10.0:
        alive = decoys.fly(alive, DT, t)
        t += DT
        if t == pytest.approx(1.0, abs=DT / 2):
            assert d.vel[0] < 120.0 and d.vel[2] > 5.0       # slowed by its drag, falling
    assert not alive and t == pytest.approx(decoys.FLARE_BURN_S, abs=0.05)


def test_flares_spoil_some_infrared_shots(f15c):
    """An AIM-9M fired from 2.5 km behind a straight-flying F-15C (the seeker slaved to the radar's
    lock): always a kill with no flares; with a flare every 2 s from launch (the AI's program,
    pilots/missile_tactics.py) some of 16 seeded shots follow a flare, not all."""
    def shots(flares):
        kills = 0
        for seed in range(16):
            a = Jet(f15c, 0, 0.0, 0.0)
            b = Jet(f15c, 1, 2500.0, 0.0)
            war = _war(["aim9m"], b_flares=60 if flares else 0, seed=seed)
            t = _fly(war, [a, b], 1.2, script=lambda k, t: a.press("lock", k < 5))
            assert war.arms[0].locked and war.arms[0].tone

            def script(k, t):
                a.press("launch", k < 5)
                b.press("flare", flares and k % 100 < 5)
            _fly(war, [a, b], 12.0, t, script)
            kills += len(_events(war, "hit"))
        return kills
    assert shots(False) == 16
    fooled = 16 - shots(True)
    assert 1 <= fooled <= 15


def test_a_weapon_button_tap_reads_pressed_long_enough():
    kb = KeyboardControls(ControlInputs())
    kb.press("launch")
    kb.release("launch")                          # a tap inside one frame
    assert kb.update(0.01).launch == 1.0
    assert kb.update(BUTTON_MIN_S - 0.02).launch == 1.0
    assert kb.update(0.02).launch == 0.0
    kb.press("countermeasures")
    c = kb.update(0.01)
    assert c.flare == 1.0 and c.chaff == 1.0
    a = ControlInputs(launch=1.0, chaff=1.0).to_array()
    assert a[CONTROL_INDEX["launch"]] == 1.0 and a[CONTROL_INDEX["chaff"]] == 1.0 and a[CONTROL_INDEX["lock"]] == 0.0


@pytest.mark.parametrize("edit,key", [
    ('missiles = ["aim120c", "aim9x"]', "combat.missiles[1]"),
    ("missiles = [" + ", ".join(['"aim9m"'] * 13) + "]", "combat.missiles"),
    ("flares = 2.5", "combat.flares"),
])
def test_a_bad_loadout_is_refused_naming_the_key(tmp_path, edit, key):
    from flightsim.world.scenario import find_scenario
    text = find_scenario("f15c_sidewinder").path.read_text()
    name = edit.split(" =")[0]
    lines = text.split("[combat]\n", 1)
    body = "\n".join(x for x in lines[1].splitlines() if not x.startswith(name + " ="))
    p = tmp_path / "f15c_sidewinder.toml"
    p.write_text(lines[0] + "[combat]\n" + edit + "\n" + body + "\n")
    with pytest.raises(DataError) as e:
        load_scenario(p)
    assert key in str(e.value) and "\n" not in str(e.value)


def test_a_missile_fight_replays_bit_for_bit_with_its_missiles_in_the_acmi(tmp_path):
    out = tmp_path / "sw.fsrec"
    args = argparse.Namespace(scenario="f15c_sidewinder", aircraft=None, altitude_m=None, pilot="auto", seconds=14.0,
                              realtime=False, json=True, record=str(out))
    assert telemetry(args) == 0
    rec = read_recording(out)
    assert verify(rec).ok
    acmi = tmp_path / "sw.acmi"
    assert replay_main([str(out), "--export", "acmi", "-o", str(acmi)]) == 0
    text = acmi.read_text()
    assert "Type=Weapon+Missile,Name=AIM-9M Sidewinder" in text


def test_the_acmi_shows_a_warhead_once_as_an_explosion():
    """A missile's warhead (a burst, or one into the ground) that went off since the last frame
    written is a Tacview Misc+Explosion for one frame; gun hits and older ones are not."""
    from types import SimpleNamespace

    from flightsim.recording.export import _acmi_weapons
    hits = (((100.0, 0.0, -1000.0), "burst", 0.02), ((0.0, 0.0, -300.0), "ground", 0.5), (None, "player", 0.0),
            ((1.0, 1.0, -1.0), "aircraft", 0.0))
    frame = SimpleNamespace(missiles=[], missile_names=[], decoys=[], hits=hits)
    lines: list = []
    bursts = [0]
    live = _acmi_weapons(frame, (0.0, 0.0), set(), lines, 0.1, bursts)
    assert len(lines) == 1 and lines[0].startswith("100000,T=") and "Type=Misc+Explosion,Radius=12" in lines[0]
    later = SimpleNamespace(missiles=[], missile_names=[], decoys=[], hits=tuple((p, k, a + 0.1) for p, k, a in hits))
    lines.clear()
    _acmi_weapons(later, (0.0, 0.0), live, lines, 0.1, bursts)
    assert lines == ["-100000"] and bursts == [1]


def test_the_weapon_sounds():
    """The seeker's growl and the missile warning are heard; a launch and a lock taken trigger
    their one-shots (audio/engine.py, from the player's WeaponsView)."""
    from types import SimpleNamespace

    from flightsim.audio.engine import AudioEngine
    from flightsim.audio.synth import Cues, Mixer, oneshot
    m = Mixer()
    quiet = np.abs(m.render(4800)).max()
    m.set(Cues(growl=1.0, missile_warning=True))
    m.render(4800)
    assert np.abs(m.render(4800)).max() > quiet + 0.05
    assert len(oneshot("launch")) > 0 and len(oneshot("lock")) > 0
    eng = AudioEngine.__new__(AudioEngine)
    v0 = SimpleNamespace(own_in_flight=0, lock="acquiring")
    v1 = SimpleNamespace(own_in_flight=1, lock="locked")
    assert eng._weapon_events(v0) == []
    assert eng._weapon_events(v1) == [("launch", 1.0), ("lock", 1.0)]
    assert eng._weapon_events(v1) == []


def test_the_launch_zone_agrees_with_the_envelope_tool():
    """The HUD's zone for a level head-on geometry is the envelope's Rmax (the same physics, a
    coarser search), its no-escape range shorter, its Rmin under 2 km."""
    from flightsim.physics.atmosphere import isa
    from flightsim.weapons.data import load_missile
    from flightsim.weapons.dlz import REL_TOL, current
    from flightsim.weapons.envelope import envelope
    m = load_missile("aim120c")
    v = 0.85 * isa(5000.0)[3]
    rmax, rne, rmin = current(m, [0.0, 0.0, -5000.0], [v, 0.0, 0.0], [30000.0, 0.0, -5000.0], [-v, 0.0, 0.0])
    env = envelope("aim120c", 5000.0, 0.85, 0.85)
    assert rmax / 1000.0 == pytest.approx(env["rmax_head_on_km"], rel=2 * REL_TOL)
    assert 0.0 < rne < rmax and 0.0 < rmin < 2000.0


def test_the_sun_blinds_an_infrared_seeker(f15c):
    """A target within 7.5 deg of the sun gives no tone; a missile whose target passes in front of
    the sun follows the sun (FlightGear's lock-on-sun cone)."""
    a = Jet(f15c, 0, 0.0, 0.0)
    b = Jet(f15c, 1, 0.0, 0.0)
    nose = a.sim.body_to_ned()[:, 0]
    b.pos = a.pos + 8000.0 * nose
    war = MissileWar({0: armament(["aim9m"], 0, 0), 1: armament([], 0, 0)}, np.random.default_rng(1),
                     sun_ned=np.array([0.0, 0.0, -1.0]))
    war.sun_ned = nose / np.linalg.norm(nose) + np.array([0.0, 0.0, -0.05])      # just above the target
    war.sun_ned /= np.linalg.norm(war.sun_ned)
    _fly(war, [a, b], DT)
    assert not war.arms[0].tone
    war.sun_ned = np.array([0.0, 0.0, -1.0])                                     # overhead
    _fly(war, [a, b], DT, DT)
    assert war.arms[0].tone
    a.press("launch")
    _fly(war, [a, b], 0.1, 2 * DT)
    assert war.flights
    war.sun_ned = war.flights[0].ms[3:6] / np.linalg.norm(war.flights[0].ms[3:6]) + np.array([0.0, 0.0, -0.02])
    war.sun_ned /= np.linalg.norm(war.sun_ned)
    _fly(war, [a, b], 0.1, 0.2)
    assert any("follows the sun" in e[3] for e in _events(war, "decoyed"))


def test_the_gun_funnel_bends_into_a_turn(f15c):
    """Flying straight the funnel's far end sits under its near end (gravity); in a right turn
    at 5 g the rounds fired earlier are now left of the nose's line: the funnel bends left of it
    (its far end outside the turn, as an EEGS funnel does), narrowing with range."""
    from types import SimpleNamespace

    from flightsim.physics.quat import quat_from_euler
    from flightsim.render.gun_funnel import GunFunnel
    guns = AircraftData(f15c.model).guns

    def fly(rate):
        fun = GunFunnel(guns)
        v = 250.0
        for k in range(100):                                     # 2 s of history
            t = k * DT
            hdg = rate * t
            p = np.array([v / rate * math.sin(hdg), v / rate * (1 - math.cos(hdg)), -5000.0]) if rate else \
                np.array([v * t, 0.0, -5000.0])
            snap = SimpleNamespace(time_s=t, position_ned_m=p, velocity_ned_ms=v * np.array([math.cos(hdg), math.sin(hdg), 0.0]),
                                   quat_wxyz=quat_from_euler(0.0, 0.0, hdg))
            fun.remember(snap)
        fwd = snap.velocity_ned_ms / v

        def project(d):                                          # a pinhole along the nose, 800 px a radian
            x = float(d @ fwd)
            right = np.array([-fwd[1], fwd[0], 0.0])
            return None if x <= 0 else np.array([800.0 * float(d @ right) / x, -800.0 * d[2] / x])
        return fun.walls(snap.position_ned_m, project)
    left, right = fly(0.0)
    centre = (np.array(left) + np.array(right)) / 2
    assert centre[-1][1] < centre[0][1] and abs(centre[-1][0] - centre[0][0]) < 2.0
    width = np.linalg.norm(np.array(right) - np.array(left), axis=1)
    assert width[0] > 2 * width[-1]
    left, right = fly(5.0 * 9.80665 / 250.0)
    centre = (np.array(left) + np.array(right)) / 2
    assert centre[-1][0] < centre[0][0] - 20.0


def test_a_respawned_bandit_is_armed_again():
    from flightsim.world.assembly import World
    w = World("f15c", "f15c_sidewinder", small_world=True)
    c = w.combat
    arm = c.missiles.war.arms[1]
    arm.loadout["aim9m"] = 0
    arm.flares = 3
    c._respawn_near(w.physics.state)
    again = c.missiles.war.arms[1]
    assert again.loadout == {"aim9m": 4} and again.flares == 60 and again.chaff == 120


def test_the_ai_picks_its_weapon_locks_shoots_and_defends():
    """pilots/missile_tactics.py from a cockpit's view: the AIM-120 far, the AIM-9 inside 9 km,
    the gun inside 1.2 km; a lock press when it has none (a press is an edge: not held two ticks);
    a radar shot inside 0.8 Rmax with the lock; and with a missile warning it drags a far missile,
    beams a near one dispensing the cartridge that fools it every 2 s, and breaks in the last 3 s."""
    from flightsim.pilots.missile_tactics import MissileTactics
    from flightsim.world.armament import WeaponsView

    def view(**kw):
        base = dict(selected="AIM-120C AMRAAM", selection=(), lock="", lock_position_ned_m=None, tone=False,
                    seeker_limit_deg=0.0, zone=None, warning=(), flares=60, chaff=120, contacts=(),
                    radar_range_m=88000.0, selected_id="aim120c",
                    loadout=(("aim120c", 4, "radar"), ("aim9m", 4, "infrared")), threats=(), own_in_flight=0,
                    own_on_datalink=False)
        base.update(kw)
        return WeaponsView(**base)
    me, vel = np.zeros(3), np.array([250.0, 0.0, 0.0])
    ai = MissileTactics()
    b, steer = ai(me, vel, np.array([40000.0, 0.0, 0.0]), -vel, 0.0, view())
    assert b["lock"] == 1.0 and b["weapon_select"] == 0.0 and steer is None
    b, _ = ai(me, vel, np.array([40000.0, 0.0, 0.0]), -vel, 0.02, view(lock="acquiring"))
    assert b["lock"] == 0.0
    b, _ = ai(me, vel, np.array([40000.0, 0.0, 0.0]), -vel, 2.0,
              view(lock="locked", zone=(60000.0, 20000.0, 1000.0, 40000.0)))
    assert b["launch"] == 1.0
    b, _ = ai(me, vel, np.array([6000.0, 0.0, 0.0]), -vel, 30.0, view(lock="locked"))
    assert b["weapon_select"] == 1.0                               # to the AIM-9
    b, _ = ai(me, vel, np.array([6000.0, 0.0, 0.0]), -vel, 30.02, view(lock="locked"))
    assert b["weapon_select"] == 0.0                               # let go: the next press is an edge again
    b, _ = ai(me, vel, np.array([900.0, 0.0, 0.0]), -vel, 31.0, view(lock="locked", selected_id="aim9m"))
    assert b["weapon_select"] == 1.0                               # to the gun
    far = ((np.array([20000.0, 0.0, 0.0]), -3.0 * vel, 30.0, "radar"),)
    b, steer = ai(me, vel, np.array([30000.0, 0.0, 0.0]), -vel, 40.0, view(threats=far))
    assert ai.mode == "drag" and steer[0] < 0.0 and b["chaff"] == 1.0 and b["flare"] == 0.0
    near = ((np.array([8000.0, 0.0, 0.0]), -3.0 * vel, 9.0, "radar"),)
    b, steer = ai(me, vel, np.array([30000.0, 0.0, 0.0]), -vel, 41.0, view(threats=near))
    assert ai.mode == "beam" and abs(steer[1]) > abs(steer[0]) and b["chaff"] == 0.0      # the next in 2 s
    b, _ = ai(me, vel, np.array([30000.0, 0.0, 0.0]), -vel, 42.1, view(threats=near))
    assert b["chaff"] == 1.0
    close = ((np.array([1500.0, 0.0, 0.0]), -3.0 * vel, 2.0, "infrared"),)
    b, _ = ai(me, vel, np.array([30000.0, 0.0, 0.0]), -vel, 42.2, view(threats=close))
    assert ai.mode == "break" and b["flare"] == 1.0


def _ridge(north_m=4000.0, height_m=2000.0, ground_m=0.0):
    """A flat world (0 m) 40 km square with a ridge across it, ``height_m`` high, 400 m thick at
    ``north_m``."""
    n = 1001
    h = np.full((n, n), ground_m)
    north = -20000.0 + 40.0 * np.arange(n)
    h[np.abs(north - north_m) <= 200.0, :] = height_m
    return Terrain(h, (-20000.0, -20000.0), 40.0, 0.0, 0)


def test_terrain_line_of_sight():
    t = _ridge()
    assert not t.line_clear([0.0, 0.0, -1000.0], [8000.0, 0.0, -1000.0])          # through the ridge
    assert t.line_clear([0.0, 0.0, -1000.0], [3000.0, 0.0, -1000.0])              # short of it
    assert t.line_clear([0.0, 0.0, -2500.0], [8000.0, 0.0, -2500.0])              # over the top
    assert t.top_m == 2000.0
    assert t.underground([4000.0, 10.0, -1500.0]) and not t.underground([3000.0, 10.0, -1500.0])
    nan = float("nan")                  # not a number: hides nothing, is not underground (and raises nothing)
    assert t.line_clear([nan, 0.0, -1000.0], [8000.0, 0.0, -1000.0]) and not t.underground([4000.0, nan, -1500.0])


def test_the_ground_hides_a_target_and_stops_missiles_and_flares(f15c):
    """A ridge between the fighters: no radar lock ("behind the ground") and no seeker tone; a
    missile launched before the ridge rose flies into it, and a flare that falls onto the ground is
    gone. The same shots over flat ground see, growl and fly on."""
    a = Jet(f15c, 0, 0.0, 0.0, alt_m=1000.0)
    b = Jet(f15c, 1, 6000.0, 0.0, alt_m=1000.0)             # 6 km ahead, flying away: the seeker sees its tail
    war = MissileWar({0: armament(["aim9m"], 0, 0), 1: armament([], 0, 0)}, np.random.default_rng(1),
                     terrain=_ridge())
    a.press("lock")
    t = _fly(war, [a, b], 2.0)
    a.press("lock", False)
    assert not war.arms[0].tone and not war.arms[0].lock_state and not _events(war, "lock")
    assert war._contact(a.side(), b.side()).reason == "behind the ground"
    war.terrain = _ridge(height_m=-100.0)                    # the ridge gone (below the flat ground)
    t = _fly(war, [a, b], DT, t)
    a.press("lock")
    t = _fly(war, [a, b], 1.5, t)
    a.press("lock", False)
    assert war.arms[0].tone and war.arms[0].lock_state == "locked"
    a.press("launch")
    t = _fly(war, [a, b], 0.1, t)
    a.press("launch", False)
    assert len(war.flights) == 1
    war.terrain = _ridge(north_m=2500.0, height_m=3000.0)  # a wall 2.5 km out rises before it
    _fly(war, [a, b], 10.0, t)
    misses = _events(war, "miss")
    assert not _events(war, "hit") and len(misses) == 1 and "hit the ground" in misses[0][3], war.events
    # a flare ejected 20 m above a plain at 500 m comes down onto it and is gone
    plain = _ridge(ground_m=500.0, height_m=500.0)
    d = decoys.eject("flare", 1, np.array([0.0, 0.0, -520.0]), np.zeros(3), np.eye(3), 0.0)
    alive = [d]
    for k in range(100):
        alive = decoys.fly(alive, DT, k * DT, plain)
    assert not alive
    assert decoys.fly([decoys.eject("flare", 1, np.array([0.0, 0.0, -520.0]), np.zeros(3), np.eye(3), 0.0)],
                      DT, 0.0, None)                           # no terrain: flying on


def test_a_warhead_leaves_a_flash_where_it_went_off(f15c):
    """The step a missile ends by its fuze ("burst") or in a hill ("ground", on the ground's surface)
    says where, for the renderer's flash and smoke."""
    a = Jet(f15c, 0, 0.0, 0.0, alt_m=1000.0)
    b = Jet(f15c, 1, 6000.0, 0.0, alt_m=1000.0)
    war = MissileWar({0: armament(["aim9m", "aim9m"], 0, 0), 1: armament([], 0, 0)}, np.random.default_rng(1))
    seen = []

    def fly(seconds, t):
        for _ in range(int(round(seconds / DT))):
            t = _fly(war, [a, b], DT, t)
            seen.extend((point, kind, b.pos.copy()) for point, kind in war.detonations)
        return t
    t = fly(DT, 0.0)
    a.press("launch")
    t = fly(0.1, t)
    a.press("launch", False)
    t = fly(20.0, t)
    assert _events(war, "hit") and [k for _, k, _ in seen] == ["burst"]
    assert np.linalg.norm(np.array(seen[0][0]) - seen[0][2]) < 30.0         # by the target then
    seen.clear()
    b.pos = a.pos + np.array([6000.0, 0.0, 0.0])
    t = fly(0.1, t)
    a.press("launch")
    t = fly(0.1, t)
    a.press("launch", False)
    war.terrain = _ridge(north_m=a.pos[0] + 2500.0, height_m=3000.0)   # a wall rises across the second shot's way
    fly(10.0, t)
    (n, e, d), kind, _ = seen[0]
    assert [k for _, k, _ in seen] == ["ground"] and d == -war.terrain.height_at(n, e) and d < -900.0   # on the wall's face
