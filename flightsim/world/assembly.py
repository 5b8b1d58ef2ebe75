"""One flight's world, assembled: terrain, weather, the aircraft's Sim at the scenario's start,
the winch, air combat and the physics thread around them.

The window, the headless runs (screenshots, telemetry) and the tests build the same World;
the renderer reads only what it publishes (snapshots, clouds, combat frames).
"""
from __future__ import annotations

import math

from ..aircraft_data.compile import compile_aircraft
from ..aircraft_data.damage import set_stores_and_missiles
from ..aircraft_data.loader import load_aircraft
from ..physics.damage import smoke_points
from ..physics.named import AircraftView
from ..physics.named_model import AircraftData
from ..runtime.handoff import ControlInputs, ControlMailbox, SnapshotBuffer
from ..runtime.physics_thread import PhysicsThread
from ..sim import Sim
from . import scenario as scn
from . import terrain as ter
from .weather import Weather
from .winch import winch_for


class World:
    """Terrain, scenery, the compiled aircraft and the physics thread around one Sim."""

    def __init__(self, aircraft=None, scenario="airfield", small_world=False, net=None):
        self.net = None                 # the multiplayer session (flightsim/net/session.NetSession), attached below
        self.engine_failed = False      # the scenario's scripted engine failure has happened ([failure])
        self.scenario = scn.find_scenario(scenario) if isinstance(scenario, str) else scenario
        sc = self.scenario
        spec = load_aircraft(aircraft or sc.aircraft)
        # how this aircraft starts this scenario (UnsuitableAircraft before anything is built);
        # start.note says where the scenario's own start did not suit it
        self.start = scn.plan_start(sc, spec)
        self.terrain = ter.small() if small_world else ter.generate()
        af = self.terrain.airfield
        self.weather = Weather(self.terrain, sc.world, sc.thermals, sc.ridge, (af.north_m, af.east_m))
        comp = compile_aircraft(spec)
        # bombs, drop tanks, and the missile stores that carry its [combat] missiles: the scenario's
        # loadout names its own aircraft's stores (another aircraft flown in the scenario goes clean)
        own = spec.id == sc.aircraft
        stores = sc.start.get("stores", []) if own else []
        missiles = ((sc.combat or {}).get("missiles") or []) if own else []
        set_stores_and_missiles(comp.model, spec, stores, missiles, sc.path, "start.stores", "combat.missiles")
        self.sim = Sim(comp, env=self.weather.env(), terrain=self.terrain.heights_m)
        self.spawn_state, ctrl = scn.spawn(self.sim, self.terrain, sc, self.start)
        if net is not None:              # multiplayer: this player's own place in the start (world/mp_start.py)
            from .mp_start import place
            place(self.spawn_state, net.config.side, net.config.callsign, sc.start["type"] == "air")
            self.sim.state[:] = self.spawn_state
        self._make_winch = None
        if sc.start["type"] == "winch":
            w = sc.winch
            self._make_winch = lambda: winch_for(
                self.sim.compiled, self.terrain, self.spawn.position_ned_m,
                af.heading_rad + math.radians(sc.start["heading_offset_deg"]), w["cable_length_m"],
                weak_link_n=w["weak_link_n"], max_pull_n=w["max_pull_n"], free_speed_ms=w["free_speed_ms"])
        self.winch = self._make_winch() if self._make_winch else None
        # the trimmed elevator goes into the trim, so a centred stick holds the trimmed glide
        c = ControlInputs.from_array(ctrl)
        self.initial_inputs = c.replace(pitch=0.0, pitch_trim=max(-1.0, min(1.0, c.pitch + c.pitch_trim)))
        self.mailbox = ControlMailbox(self.initial_inputs)
        self.buffer = SnapshotBuffer()
        self.physics = PhysicsThread(self.sim.state, self.sim.env, self.sim.terrain, self.sim.model, self.sim.tables,
                                     self.mailbox, self.buffer)
        self.physics.hook = self._world_tick
        self.physics.on_reset = self._on_reset
        self.combat = None
        self._world_tick(self.physics.state, self.physics.env, 0.0)
        guns_online = net is not None and bool(spec.guns)     # multiplayer: every armed aircraft's guns are live
        if getattr(sc, "has_combat", False) or guns_online:
            # air combat (issue 7): the AI opponent, bullets and targets, run in the same hook;
            # the renderer reads only its published frames (flightsim/world/combat.py)
            from .combat import Combat
            from .sun_position import sun_direction_ned
            self.combat = Combat(self.sim, self.terrain, sc.opponent, sc.targets, sc.combat,
                                 sun_direction_ned(sc.world.get("time_of_day_h", 13.0)))
        self.net_combat = None
        if net is not None:
            # multiplayer over DIS (issue 36): the session sends and reads in this world's hook, in
            # real time (no time acceleration: the other players' clocks run at the wall's pace)
            from .geodesy import DEFAULT_ORIGIN
            net.attach(spec.id, (float(sc.world.get("origin_lat_deg", DEFAULT_ORIGIN[0])),
                                 float(sc.world.get("origin_lon_deg", DEFAULT_ORIGIN[1]))))
            self.physics.max_time_scale = 1
            from .articulation import Articulation
            self.articulation = Articulation(self.sim.model)     # its surfaces as DIS articulated parts
            if self.combat is not None:
                from .net_combat import NetCombat
                self.net_combat = NetCombat(self.combat, net, self.sim.model)
            self.net = net

    @property
    def spawn(self) -> AircraftView:
        """The start state by name (position_ned_m, altitude_m, ...)."""
        return AircraftView(self.spawn_state)

    def _world_tick(self, state, env, t_s):
        """Before every physics step (physics thread; 2 or 4 a tick under time acceleration): the air,
        the cable, the combat."""
        self.weather.update(env, t_s, AircraftView(state).position_ned_m)
        self._failures(state)
        self.clouds = self.weather.clouds(t_s)       # read-only, swapped whole each tick: what the renderer draws
        if self.winch is not None:
            self.winch.update(env, state, self.physics.dt if hasattr(self, "physics") else 0.02,
                              self.sim.compiled.cg_m)
            rec = getattr(getattr(self, "physics", None), "recorder", None)
            if rec is not None and self.winch.release_taken:
                rec.event("release_cable")          # the pilot's hand on the release, at this step
        if getattr(self, "combat", None) is not None:
            ph = getattr(self, "physics", None)
            self.combat.tick(state, env, t_s, None if ph is None else ph.ctrl, None if ph is None else ph.diag)
        if getattr(self, "net", None) is not None:
            ph = self.physics
            down = self.combat is not None and self.combat.player_down is not None
            trails = [k for k, _, _ in smoke_points(self.sim.model, state, ph.diag)]
            self.net.tick(state, ph.diag, alive=not (AircraftView(state, ph.diag).struck or down),
                          smoke=any(k != "fire" for k in trails), flaming="fire" in trails,
                          mass_kg=AircraftData(self.sim.model).mass_kg, parts=self.articulation.parts(state))
            if self.net_combat is not None:
                self.net_combat.tick(state, t_s)

    def _failures(self, state) -> None:
        """(physics thread) The scenario's scripted failures ([failure]): the engine stops once the
        aircraft has climbed through ``engine_at_height_m`` above the airfield, no fuel reaching it
        (the commonest cause: starvation), so the propeller windmills, for the rest of the flight (a
        reset brings it back). Read from the state, so a replay fails it at the same step."""
        h = self.scenario.failure.get("engine_at_height_m")
        if h is None or self.engine_failed:
            return
        a = AircraftView(state)
        if a.altitude_m - self.terrain.airfield.elevation_m > h:
            a.fuel_cut = 1.0                        # a piston engine; a jet flames out
            for k in range(AircraftData(self.sim.model).jets):
                a.set_jet_failed(k, True)
            self.engine_failed = True

    def release_cable(self):
        if self.winch is not None:
            self.winch.release()

    @property
    def compiled(self):
        return self.sim.compiled

    def reset(self):
        """Back to the start: the physics thread applies it between steps (``_on_reset``), so a
        recorded flight replays it at the same step."""
        self.mailbox.post(self.initial_inputs)
        self.physics.reset(self.spawn_state)

    def _on_reset(self):
        """(physics thread) A reset was applied: a fresh cable, the combat anew, the failures to come."""
        self.engine_failed = False
        if self._make_winch is not None:
            self.winch = self._make_winch()
        if getattr(self, "combat", None) is not None:
            self.combat.request_reset()
