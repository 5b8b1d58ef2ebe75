"""One player's multiplayer session over DIS (issue 36): the local aircraft out as Entity State
PDUs when its dead reckoning drifts or the heartbeat is due, the remote aircraft in, each drawn on
its smoothed dead-reckoned path, and what the game reads published whole each tick.

    cfg = NetConfig.parse(listen=3000, send="127.0.0.1:3001,10.0.0.7:3000", callsign="RED1", exercise=1)
    net = NetSession(cfg)                # the socket: one for the whole game
    net.attach("p51d", origin=(51.19, -1.03))     # each World the player flies
    net.tick(state, diag)               # the world's hook (physics thread), once a tick
    net.frame                           # NetFrame: remotes (position, attitude, flags), peers, events

Everything the game reads is in the frozen ``NetFrame`` swapped whole each tick (the renderer and
the telemetry never reach into the link). The network's times are the wall clock's (``clock``:
arrivals, ages, time-outs, the others' dead reckoning; ``utc``: the absolute timestamps); the
sender's own dead reckoning runs on the flight's clock, which its truth moves with.

Our entity id is (1, a random application number, 1): DIS wants it unique in the exercise, and two
players on two machines may well both listen on port 3000.
"""
from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field

import numpy as np

from ..physics.named import AircraftView
from .dead_reckoning import extrapolate, must_send
from .dis import DRM_RVW, EntityState, dis_timestamp, timestamp_seconds
from .dis_warfare import RESULT_ENTITY_IMPACT, Collision, Detonation, Fire, encode_collision, encode_detonation, encode_fire
from .entity_types import GUN_ROUNDS, entity_type_of, nearest_aircraft
from .link import DIS_PORT, DisLink
from .munitions import is_munition

PART_TOL = 0.05                 # a control surface this far from what was sent (rad, ~3 deg; gear / brake 0..1)
COLLIDE_M = 8.0                 # two aircraft this close (centre to centre) have collided (fighters' half-spans)
MAX_LEAD_S = 0.5               # the most of a peer's measured delay its dead reckoning makes up
MAX_PEERS = 64                  # a --dis-send list longer than this is refused (a typo, not a LAN)
SITE = 1                        # our site number; the application number is drawn at random (see the module)


class BadNetConfig(ValueError):
    """A multiplayer option that cannot work: the message says which and why, in one line."""


def parse_peers(text: str) -> list:
    """'HOST:PORT[,HOST:PORT...]' as [(host, port)]; BadNetConfig names the bad item."""
    peers = []
    for item in (text or "").split(","):
        item = item.strip()
        if not item:
            continue
        host, sep, port = item.rpartition(":")
        if not sep or not host:
            raise BadNetConfig(f"--dis-send: '{item}' is not HOST:PORT")
        try:
            p = int(port)
        except ValueError:
            raise BadNetConfig(f"--dis-send: '{item}': the port '{port}' is not a number") from None
        if not 1 <= p <= 65535:
            raise BadNetConfig(f"--dis-send: '{item}': port {p} is not 1-65535")
        peers.append((host, p))
    if len(peers) > MAX_PEERS:
        raise BadNetConfig(f"--dis-send: {len(peers)} peers, at most {MAX_PEERS}")
    return peers


@dataclass(frozen=True)
class NetConfig:
    listen_port: int = DIS_PORT
    peers: tuple = ()
    callsign: str = "PILOT"
    exercise: int = 1
    bind_host: str = "0.0.0.0"
    side: str = "blue"              # a team dogfight's side: DIS force 1 (blue) or 2 (red)

    @property
    def force(self) -> int:
        return 2 if self.side == "red" else 1

    @classmethod
    def parse(cls, listen=None, send="", callsign=None, exercise=None, bind_host="0.0.0.0", side=None) -> NetConfig:
        port = DIS_PORT if listen is None else int(listen)
        if not 0 <= port <= 65535:
            raise BadNetConfig(f"--dis-listen: port {port} is not 0-65535")
        ex = 1 if exercise is None else int(exercise)
        if not 1 <= ex <= 255:
            raise BadNetConfig(f"--exercise: {ex} is not 1-255 (DIS's exercise id is one byte, 0 unused)")
        name = "PILOT" if callsign is None else str(callsign)
        try:
            name.encode("ascii")
        except UnicodeEncodeError:
            raise BadNetConfig(f"--callsign: '{name}' is not plain ASCII (DIS's marking)") from None
        if not 1 <= len(name) <= 11 or not name.isprintable():
            raise BadNetConfig(f"--callsign: '{name}' must be 1-11 printable characters (DIS's marking)")
        sd = "blue" if side is None else str(side)
        if sd not in ("blue", "red"):
            raise BadNetConfig(f"--side: '{sd}' is not blue or red")
        return cls(port, tuple(parse_peers(send)), name, ex, bind_host, sd)


@dataclass(frozen=True)
class RemoteAircraft:
    """Another player's aircraft as the game draws it, at the frame's wall time."""
    key: tuple                  # DIS entity id (site, application, entity)
    callsign: str
    aircraft: str               # our aircraft nearest its entity type (drawn as that)
    entity_type: tuple
    position_ned_m: np.ndarray
    R: np.ndarray               # body -> NED
    velocity_ned_ms: np.ndarray
    gear_down: bool
    engine_on: bool
    afterburner: bool
    destroyed: bool
    force: int
    age_s: float                # since its last Entity State
    smoke: bool = False
    flaming: bool = False
    omega_body_rads: np.ndarray = field(default_factory=lambda: np.zeros(3))   # its body rates (DIS angular velocity)
    parts: dict = field(default_factory=dict)    # its articulated parts as sent (net/dis.py PART_CLASSES)


@dataclass(frozen=True)
class Peer:
    callsign: str
    aircraft: str
    distance_m: float
    age_s: float                # since its last Entity State
    ping_ms: float | None = None   # one-way delay of its updates (absolute DIS timestamps: clocks in step), smoothed

    def as_json(self) -> dict:
        return {"callsign": self.callsign, "aircraft": self.aircraft, "distance_m": round(self.distance_m, 1),
                "age_s": round(self.age_s, 2), "ping_ms": None if self.ping_ms is None else round(self.ping_ms, 1)}


@dataclass(frozen=True)
class NetFrame:
    tick: int
    wall_s: float
    remotes: tuple = ()                          # RemoteAircraft
    peers: tuple = ()                            # Peer, nearest first
    events: tuple = ()                           # (wall s, 'joined' / 'left', callsign, aircraft), the newest
    event_count: int = 0
    sent: int = 0                                # Entity State PDUs sent (each peer counted)
    bytes_sent: int = 0
    received: int = 0
    refused: int = 0                             # datagrams dropped (malformed, not ours, hostile)
    listen_port: int = 0
    munitions: np.ndarray = field(default_factory=lambda: np.zeros((0, 9)))   # others' missiles, the combat frame's layout


MAX_EVENTS = 32


@dataclass
class _Sent:
    es: EntityState
    t_s: float                  # the flight's time it was sent at


class NetSession:
    """The DIS side of one World: see the module."""

    def __init__(self, config: NetConfig, clock=time.monotonic, entity: int = 1, utc=time.time):
        self.config = config
        self.clock = clock
        self.utc = utc                  # UTC seconds: the absolute DIS timestamps (a peer's delay)
        self.delay_s: dict = {}         # remote key -> smoothed one-way delay of its updates
        self.link = DisLink(config.listen_port, config.peers, (0.0, 0.0), config.exercise, config.bind_host)
        self.key = (SITE, 1 + secrets.randbelow(0xFFFE), entity)
        self.aircraft_id = ""
        self.entity_type = entity_type_of("")
        self.last: _Sent | None = None
        self.send_reasons: dict = {}
        self.bytes_sent = 0
        self._events: list = []
        self._event_count = 0
        self._tick = 0
        self._prev_v = None
        self._touching: dict = {}       # remote key -> when it was last within COLLIDE_M
        self._destroyed: set = set()    # remotes whose destruction was reported
        self._event_no = 0              # our DIS event ids (Fire, Detonation, Collision)
        self.frame = NetFrame(0, clock(), listen_port=self.link.port)

    def attach(self, aircraft_id: str, origin) -> None:
        """Fly ``aircraft_id`` in a world placed on the Earth at ``origin`` (lat, lon deg): each
        World the player flies attaches the one session (the socket outlives scenario switches)."""
        self.aircraft_id = aircraft_id
        self.entity_type = entity_type_of(aircraft_id)
        self.link.origin = origin
        self.last = None                  # the new aircraft goes out at once
        self._prev_v = None

    # ------------------------------------------------------------------ the physics thread's hook
    def tick(self, state, diag, alive: bool = True, smoke: bool = False, flaming: bool = False,
             mass_kg: float = 0.0, parts: dict | None = None) -> NetFrame:
        """Send our aircraft if DIS says so, read the others, publish the frame. ``alive``, ``smoke``
        and ``flaming``: the appearance the World sees (destroyed, trailing smoke, on fire);
        ``parts``: its control surfaces, gear and speed brake (world/articulation.py)."""
        now = self.clock()
        # the sender's own dead reckoning runs on the flight's clock (its truth moves with it, even
        # where a loaded machine runs the flight behind the wall); the network's times are the wall's
        sim_t = AircraftView(state).time_s
        es = self._entity(state, diag, now, sim_t, alive)
        es.appearance.update(smoke=bool(smoke), flaming=bool(flaming))
        es.parts = dict(parts or {})
        since = None if self.last is None else sim_t - self.last.t_s
        why = "first" if since is None or since < 0.0 else must_send(es.position_ned_m, es.R, self.last.es, since)
        if not why and es.appearance != self.last.es.appearance:
            why = "appearance"                     # gear, fire, smoke, destroyed: the others see it at once
        if not why and any(abs(v - self.last.es.parts.get(k, 0.0)) > PART_TOL for k, v in es.parts.items()):
            why = "parts"                          # a surface moved past DIS's 3 deg (or the gear, the brake)
        if why:
            self.bytes_sent += self.link.send(es) * max(len(self.link.peers), 1)
            self.last = _Sent(es, sim_t)
            self.send_reasons[why] = self.send_reasons.get(why, 0) + 1
        for t_ev, what, marking, etype in self.link.poll(now):
            if is_munition(etype):                       # a missile coming or going: not a pilot joining
                continue
            self._event(t_ev, what, marking, nearest_aircraft(etype))
            if what == "joined":
                self.last = None          # a newcomer hears us at the next tick, not the next heartbeat
        self._delays(now)
        self._tick += 1
        self.frame = self._publish(es.position_ned_m, now)
        self._collisions(es, now, mass_kg)
        self._events = self._events[-MAX_EVENTS:]
        return self.frame

    def _event(self, t: float, what: str, callsign: str, aircraft: str) -> None:
        self._events.append((t, what, callsign, aircraft))
        self._event_count += 1

    def _collisions(self, es: EntityState, now: float, mass_kg: float) -> None:
        """A remote aircraft within COLLIDE_M of ours: one Collision PDU (issuer us) and a
        "collision" event, then not again for that one until it has been clear for a second."""
        for key, r in self.link.remotes.items():
            if is_munition(r.state.entity_type):
                continue
            # where its own dead reckoning puts it (not where it is drawn: the blend lags half a second)
            p, _ = extrapolate(r.state, now - r.last_s + min(self.delay_s.get(key, 0.0), MAX_LEAD_S))
            near = float(np.linalg.norm(p - es.position_ned_m)) < COLLIDE_M
            if near and key not in self._touching:
                self._send(encode_collision(Collision(self.key, key, self._next_event(), es.velocity_ned_ms,
                                                      mass_kg), self.link.origin, self.config.exercise,
                                            dis_timestamp(self.utc(), absolute=True)))
                self._event(now, "collision", r.state.marking, nearest_aircraft(r.state.entity_type))
            if near:
                self._touching[key] = now
        for key, t in list(self._touching.items()):
            if now - t > 1.0:
                del self._touching[key]

    def _delays(self, now: float) -> None:
        """Each remote's one-way delay from the updates that came in this poll, where its sender
        stamps absolute time (ours does): its stamp against our UTC clock, within the hour."""
        utc = self.utc() % 3600.0
        for key, r in self.link.remotes.items():
            if r.last_s != now:
                continue
            sent, absolute = timestamp_seconds(r.state.timestamp)
            if not absolute:
                continue
            d = (utc - sent + 1800.0) % 3600.0 - 1800.0
            if -1.0 < d < 10.0:
                old = self.delay_s.get(key)
                self.delay_s[key] = d if old is None else 0.8 * old + 0.2 * d
        for key in list(self.delay_s):
            if key not in self.link.remotes:
                del self.delay_s[key]

    def _entity(self, state, diag, now: float, sim_t: float, alive: bool) -> EntityState:
        a = AircraftView(state, diag)
        v = np.array(a.velocity_ned_ms, dtype=float)
        dt = 0.0 if self._prev_v is None else sim_t - self._prev_v[1]
        acc = (v - self._prev_v[0]) / dt if dt > 1e-6 else np.zeros(3)
        self._prev_v = (v, sim_t)
        if not np.all(np.isfinite(acc)) or float(np.linalg.norm(acc)) > 150.0:
            acc = np.zeros(3)
        gear = float(a.surface("gear"))
        powered = diag is not None
        flags = {"gear_down": gear < 0.5, "engine_on": powered and float(a.engine_rpm) > 100.0,
                 "afterburner": powered and float(a.afterburner) > 0.05, "destroyed": not alive}
        return EntityState(self.key[0], self.key[1], self.key[2], self.entity_type, self.config.callsign,
                           np.array(a.position_ned_m, dtype=float), v, np.array(a.body_to_ned(), dtype=float),
                           np.array(a.body_rates_rads, dtype=float), acc, flags, self.config.force, DRM_RVW,
                           dis_timestamp(self.utc(), absolute=True))

    def _publish(self, own_pos, now: float) -> NetFrame:
        remotes, peers, munitions = [], [], []
        for key, r in list(self.link.remotes.items()):
            # drawn where it is now: its updates' measured delay (absolute timestamps) made up
            p, R = r.smoother.pose(now + min(self.delay_s.get(key, 0.0), MAX_LEAD_S))
            es = r.state
            if is_munition(es.entity_type):          # a missile in flight (net/munitions.py), not a pilot
                if es.appearance.get("destroyed"):
                    del self.link.remotes[key]       # gone: dropped at once, not after the time-out
                else:
                    munitions.append([*p, *es.velocity_ned_ms, float(bool(es.appearance.get("engine_on"))), -1.0,
                                      float(key[2])])
                continue
            kind = nearest_aircraft(es.entity_type)
            ap = es.appearance
            age = now - r.last_s
            remotes.append(RemoteAircraft(key, es.marking, kind, es.entity_type, p, R,
                                          np.asarray(es.velocity_ned_ms, float), bool(ap.get("gear_down")),
                                          bool(ap.get("engine_on")), bool(ap.get("afterburner")),
                                          bool(ap.get("destroyed")), es.force, age, bool(ap.get("smoke")),
                                          bool(ap.get("flaming")), np.asarray(es.omega_body_rads, float),
                                          dict(es.parts)))
            if ap.get("destroyed") and key not in self._destroyed:
                self._destroyed.add(key)
                self._event(now, "destroyed", es.marking, kind)
            d = self.delay_s.get(key)
            peers.append(Peer(es.marking, kind, float(np.linalg.norm(p - own_pos)), age,
                              None if d is None else 1000.0 * max(d, 0.0)))
        peers.sort(key=lambda q: q.distance_m)
        return NetFrame(self._tick, now, tuple(remotes), tuple(peers), tuple(self._events), self._event_count,
                        self.link.sent, self.bytes_sent, self.link.received, sum(self.link.refused.values()),
                        self.link.port, np.array(munitions, dtype=float).reshape(-1, 9))

    # ------------------------------------------------------------------ warfare (world/net_combat.py)
    def _send(self, data: bytes) -> None:
        self.bytes_sent += self.link.send_bytes(data) * max(len(self.link.peers), 1)

    def _next_event(self) -> int:
        self._event_no = (self._event_no + 1) & 0xFFFF
        return self._event_no

    def send_fire(self, gun: int, position_ned_m, velocity_ned_ms, rounds: int, rate_per_min: int, he: bool,
                  munition=GUN_ROUNDS, target=(0, 0, 0)) -> None:
        """A Fire PDU: the rounds one of our guns fired this tick, or a missile launched at ``target``."""
        f = Fire(self.key, self._next_event(), gun, np.asarray(position_ned_m, float),
                 np.asarray(velocity_ned_ms, float), rounds, rate_per_min, tuple(munition), he, tuple(target))
        self._send(encode_fire(f, self.link.origin, self.config.exercise, dis_timestamp(self.utc(), absolute=True)))

    def send_detonation(self, shooter: tuple, position_ned_m, point_body_m, rounds: int = 1, target=None,
                        munition=GUN_ROUNDS, result: int = RESULT_ENTITY_IMPACT) -> None:
        """A Detonation PDU: ``shooter``'s rounds struck us (the target decides a gun's hits), or
        (``target`` given) our missile burst by another player (flightsim/world/net_combat.py)."""
        d = Detonation(tuple(shooter), self.key if target is None else tuple(target), self._next_event(),
                       np.asarray(position_ned_m, float), np.asarray(point_body_m, float), result, rounds,
                       tuple(munition), self.key[:2])
        self._send(encode_detonation(d, self.link.origin, self.config.exercise, dis_timestamp(self.utc(), absolute=True)))

    def take_warfare(self) -> list:
        """The Fire, Detonation and Collision PDUs read since the last call (the world's net combat)."""
        return self.link.take_warfare()

    def event(self, what: str, key) -> None:
        """An event about a remote entity (the world's net combat: "missile launch"), into the frame's."""
        r = self.link.remotes.get(tuple(key))
        self._event(self.clock(), what, r.state.marking if r else "?", nearest_aircraft(r.state.entity_type) if r else "")

    def remote_callsign(self, key) -> str | None:
        r = self.link.remotes.get(tuple(key))
        return None if r is None else r.state.marking

    def remote_kind(self, key) -> str | None:
        """The aircraft of ours a remote entity is drawn as (None: not heard from)."""
        r = self.link.remotes.get(tuple(key))
        return None if r is None else nearest_aircraft(r.state.entity_type)

    def close(self) -> None:
        """Leave: one last Entity State marked deactivated (the others drop us at once, not after
        DIS's 12 s), then the socket."""
        if self.last is not None:
            es = self.last.es
            es.appearance = dict(es.appearance, deactivated=True)
            es.timestamp = dis_timestamp(self.utc(), absolute=True)
            try:
                self.link.send(es)
            except OSError:
                pass
        self.link.close()


def open_session(cfg: NetConfig, clock=time.monotonic) -> NetSession:
    """The session, its socket bound; a port in use or an address not this machine's: BadNetConfig."""
    try:
        return NetSession(cfg, clock)
    except OSError as e:
        raise BadNetConfig(f"multiplayer: cannot listen on UDP {cfg.bind_host}:{cfg.listen_port}: "
                           f"{e.strerror or e}") from None


def describe(cfg: NetConfig, port: int) -> str:
    """One line for the start: where we listen and whom we tell."""
    to = ", ".join(f"{h}:{p}" for h, p in cfg.peers) or "nobody (listening only)"
    return f"multiplayer: {cfg.callsign}, DIS exercise {cfg.exercise}, listening on UDP {port}, sending to {to}"


def distance_text(m: float) -> str:
    return f"{m / 1000.0:.1f} km" if m >= 1000.0 else f"{m:.0f} m"

