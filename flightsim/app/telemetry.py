"""Flying with no graphics at all: the scenario's World, built exactly as the window builds it
(start, winch, thermals, ridge lift, AI opponent, targets), flown hands-off or by the
scenario's own autopilot, with telemetry printed once a simulated second.

    python run.py --headless-telemetry [--scenario S] [--aircraft A] [--pilot none|auto]
                  [--seconds N] [--altitude-m H] [--realtime] [--json]

Each JSON line: t_s, altitude_m, tas_kmh, ias_kmh, vs_ms, alpha_deg, beta_deg, roll_deg,
pitch_deg, heading_deg, nz_g, stalled_sections, on_ground, and ``events``: what happened
since the line before ({"t_s", "event", "detail"}; events: took off, cable released, cable
back-released, weak link broke, landed, at rest, crashed, hit, hit taken, target destroyed,
opponent destroyed; with missiles in play (flightsim/world/missiles.py) also lock, lock lost,
launch, active, countermeasure, decoyed, track lost, and a missile's hit or miss, each with ``by``:
who did it, "player" or "opponent"; and shot down, which ends the flight).

With ``--multiplayer`` (flightsim/net/session.py) the flight is paced to the wall clock, each line
gains ``peers``: [{"callsign", "aircraft", "distance_m", "age_s", "ping_ms"}] (the other players heard, nearest
first) and ``net``: {"sent", "received", "refused", "bytes_sent"}, and the events ``joined``,
``left``, ``destroyed`` and ``collision`` (``detail``: the other player's callsign and the aircraft
it is drawn as).
"""
from __future__ import annotations

import dataclasses
import json
import math
import time

from ..physics.named_model import AircraftData
from ..pilots.autopilot import autopilot
from ..runtime.handoff import DT
from ..world.flight_log import FlightLog

WINCH_EVENTS = {"released": "cable released", "back-release": "cable back-released",
                "weak link broke": "weak link broke"}
COMBAT_COUNTS = (("hits_scored", "hit"), ("hits_taken", "hit taken"), ("targets_destroyed", "target destroyed"),
                 ("opponents_destroyed", "opponent destroyed"))


def record(snap) -> dict:
    """One telemetry line's figures from a snapshot (the handoff the renderer reads too)."""
    roll, pitch, yaw = snap.euler_rad
    return {
        "t_s": round(snap.time_s, 2),
        "altitude_m": round(snap.altitude_m, 2),
        "tas_kmh": round(snap.tas_ms * 3.6, 1),
        "ias_kmh": round(snap.ias_ms * 3.6, 1),
        "vs_ms": round(-float(snap.velocity_ned_ms[2]), 2),
        "alpha_deg": round(math.degrees(snap.alpha_rad), 2),
        "beta_deg": round(math.degrees(snap.beta_rad), 2),
        "roll_deg": round(math.degrees(roll), 1),
        "pitch_deg": round(math.degrees(pitch), 1),
        "heading_deg": round(math.degrees(yaw) % 360, 1),
        "nz_g": round(snap.nz_g, 2),
        "stalled_sections": int(snap.stalled_sections),
        "on_ground": int(snap.on_ground),
    }


class EventWatcher:
    """The scenario's events, found by comparing what the world publishes from one tick to the
    next: the winch's event, the flight log (take-off, touchdown, rest, crash), the combat score."""

    def __init__(self, world):
        self.world = world
        self.log = FlightLog(world.terrain.airfield)
        self._winch_event = ""
        self._ground_start = None
        self._seen = {"airborne": False, "touchdown": None, "at_rest": False, "crash": None}
        self._counts = {k: (0, None) for k, _ in COMBAT_COUNTS}     # count reported, when
        self._war_seen = 0                                           # missile events reported
        self.shot_down = ""                                          # why the player is out of the fight
        self.net_seen = 0                                            # multiplayer events reported (net_events)

    def update(self, snap) -> list[dict]:
        out = []
        t = round(snap.time_s, 2)
        w = self.world.winch
        self.log.update(snap, on_cable=bool(w is not None and w.attached),
                        release_altitude_m=None if w is None else w.release_height_m)
        log = self.log
        if w is not None and w.event != self._winch_event:
            self._winch_event = w.event
            if w.event and w.release_height_m is not None and log.start_ned is not None:
                h = w.release_height_m + float(log.start_ned[2])
                out.append({"t_s": t, "event": WINCH_EVENTS.get(w.event, w.event),
                            "detail": f"{h:.0f} m above the launch point ({100.0 * h / w.cable_length_m:.0f} % of "
                                      f"the {w.cable_length_m:.0f} m cable), {snap.ias_ms * 3.6:.0f} km/h IAS"})
        if self._ground_start is None and log.start_ned is not None:
            self._ground_start = bool(snap.on_ground)
        if log.airborne and not self._seen["airborne"]:
            self._seen["airborne"] = True
            if self._ground_start:              # (an air start is airborne from the first tick)
                out.append({"t_s": t, "event": "took off", "detail": f"{snap.ias_ms * 3.6:.0f} km/h IAS"})
        if log.touchdown is not None and log.touchdown is not self._seen["touchdown"]:
            self._seen["touchdown"] = log.touchdown
            out.append({"t_s": t, "event": "landed", "detail": log.touchdown.text})
        if log.at_rest and not self._seen["at_rest"]:
            self._seen["at_rest"] = True
            out.append({"t_s": t, "event": "at rest", "detail": f"grade {log.grade}"})
        if log.crash is not None and log.crash != self._seen["crash"]:
            self._seen["crash"] = log.crash
            out.append({"t_s": t, "event": "crashed", "detail": log.crash})
        combat = self.world.combat
        frame = None if combat is None else combat.frames[1]
        if frame is not None:
            # a burst scores many hits in a second: one event per count a second at most
            for key, name in COMBAT_COUNTS:
                n = int(getattr(frame, key))
                last_n, last_t = self._counts[key]
                if n > last_n and (last_t is None or t - last_t >= 1.0 or key.endswith("destroyed")):
                    out.append({"t_s": t, "event": name, "detail": f"{n} in all (+{n - last_n})"})
                    self._counts[key] = (n, t)
            new = frame.event_count - self._war_seen
            if new > 0:
                for t_ev, who, event, detail in frame.events[-min(new, len(frame.events)):]:
                    out.append({"t_s": t_ev, "event": event, "detail": detail, "by": who})
                self._war_seen = frame.event_count
            if frame.player_down and not self.shot_down:
                self.shot_down = frame.player_down
                out.append({"t_s": t, "event": "shot down", "detail": frame.player_down})
        return out

    @property
    def finished(self) -> str | None:
        """Why the flight is over (a crash, or landed and at rest), or None while it flies on."""
        if self.log.crash is not None:
            return "crashed"
        if self.log.at_rest and self.log.touchdown is not None:
            return "landed and at rest"
        if self.shot_down:
            return "shot down"
        return None


def net_events(world, watcher) -> list[dict]:
    """The multiplayer session's joined / left events not reported yet (their time the flight's)."""
    net = getattr(world, "net", None)
    if net is None:
        return []
    f = net.frame
    new = f.event_count - watcher.net_seen
    watcher.net_seen = f.event_count
    if new <= 0:
        return []
    t = round(float(world.buffer.read()[1].time_s), 2)
    return [{"t_s": t, "event": what, "detail": f"{callsign} ({aircraft})"}
            for _, what, callsign, aircraft in f.events[-min(new, len(f.events)):]]


def _with_altitude(scenario, altitude_m: float, terrain_elevation_m: float):
    """The scenario with its air start moved to altitude_m (above sea level)."""
    start = dict(scenario.start, height_m=max(0.0, altitude_m - terrain_elevation_m), min_clearance_m=0.0)
    return dataclasses.replace(scenario, start=start)


def telemetry(args) -> int:
    from ..world.assembly import World
    from ..world.scenario import find_scenario
    from ..world.terrain import generate
    sc = find_scenario(args.scenario)
    if args.altitude_m is not None:
        if sc.start["type"] == "air":
            sc = _with_altitude(sc, args.altitude_m, generate().airfield.elevation_m)
        else:
            print(f"--altitude-m ignored: {sc.name} starts on the {sc.start['type']}", flush=True)
    session = None
    if getattr(args, "net", None) is not None:
        from ..net.session import describe, open_session
        session = open_session(args.net)
        args.realtime = True                 # the other players fly in real time
        print(describe(args.net, session.link.port), flush=True)
    try:
        world = World(args.aircraft, sc, net=session)
        return _telemetry(args, sc, world)
    finally:
        if session is not None:
            session.close()


def _telemetry(args, sc, world) -> int:
    recorder = None
    if getattr(args, "record", None):
        from ..recording.recorder import start_recording
        recorder = start_recording(world, args.record)
    if world.start.note:
        print(world.start.note, flush=True)
    pilot = None
    if args.pilot == "auto":
        pilot = autopilot(world.scenario, world.terrain, world.winch, world.weather, powered=world.sim.powered,
                          aircraft=world.compiled.spec, combat=world.combat)
    snap = world.buffer.read()[1]
    who = f"flown by {getattr(pilot, 'name', type(pilot).__name__)}" if pilot is not None else "hands off"
    start = world.start
    speed = f", {start.speed_ms * 3.6:.0f} km/h TAS" if start.speed_ms else ""
    print(f"{world.compiled.name} in {sc.name} ({start.type} start at {snap.altitude_m:.0f} m{speed}, "
          f"{AircraftData(world.sim.model).mass_kg:.0f} kg), {who}; flying {args.seconds:.0f} s headless", flush=True)
    watcher = EventWatcher(world)
    pending = watcher.update(snap) + net_events(world, watcher)
    try:
        return _fly(args, world, pilot, watcher, pending, snap)
    finally:
        if recorder is not None:
            recorder.close()
            print(f"recorded {recorder.step} steps to {args.record} ({recorder.bytes_written} bytes)", flush=True)


def _fly(args, world, pilot, watcher, pending, snap) -> int:
    physics = world.physics
    t0 = time.perf_counter()
    ticks = int(round(args.seconds / DT))
    for k in range(ticks):
        if pilot is not None:
            world.mailbox.post(pilot(snap))
        physics.tick(k * DT)
        if physics.refused_steps:
            print("non-finite state refused; stopping", flush=True)
            return 1
        snap = world.buffer.read()[1]
        events = watcher.update(snap) + net_events(world, watcher)
        pending += events
        if not args.json:
            for ev in events:
                print(f"t {ev['t_s']:6.1f} s  {ev['event']}" + (f": {ev['detail']}" if ev["detail"] else ""), flush=True)
        if args.realtime:
            delay = t0 + (k + 1) * DT - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
        over = watcher.finished
        if (k + 1) % 50 == 0 or over or k + 1 == ticks:
            line = record(snap)
            if world.net is not None:
                f = world.net.frame
                line["peers"] = [p.as_json() for p in f.peers]
                line["net"] = {"sent": f.sent, "received": f.received, "refused": f.refused,
                               "bytes_sent": f.bytes_sent}
            if args.json:
                line["events"] = pending
                print(json.dumps(line), flush=True)
            else:
                print(f"t {line['t_s']:6.1f} s  alt {line['altitude_m']:7.1f} m  IAS {line['ias_kmh']:6.1f} km/h  "
                      f"TAS {line['tas_kmh']:6.1f} km/h  vs {line['vs_ms']:6.2f} m/s  pitch {line['pitch_deg']:5.1f}  "
                      f"roll {line['roll_deg']:6.1f}  hdg {line['heading_deg']:5.1f}  alpha {line['alpha_deg']:5.2f}",
                      flush=True)
            pending = []
        if over:
            if not args.json:
                print(f"{over} after {snap.time_s:.1f} s", flush=True)
            break
    return 0
