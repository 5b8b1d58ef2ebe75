"""A DIS link over UDP (issue 36): our PDUs out to a list of peers (unicast addresses, a broadcast
address, or a multicast group, as each is written), theirs in, the remote entities they describe
kept with their arrival times, joined and left.

    link = DisLink(listen_port=3000, peers=[("127.0.0.1", 3001)], origin=(51.19, -1.03), exercise=1)
    link.send(entity_state)            # to every peer
    link.poll(t_s)                     # read what has arrived: remote aircraft updated, events
    link.remotes                       # key -> Remote (its EntityState, when it came, a Smoother)

Everything that arrives is decoded by flightsim/net/dis.py: a datagram that is not a usable Entity
State PDU of our exercise is dropped and counted by its reason (``refused``); so is an echo of our
own entity. Nothing that arrives can stop the link or touch the local aircraft. A remote that sends
nothing for ``TIMEOUT_S`` (DIS's 12 s: 2.4 heartbeats) has left.
"""
from __future__ import annotations

import socket
from collections import Counter
from dataclasses import dataclass, field

from .dead_reckoning import Smoother
from .dis import HEADER, EntityState, Refused, decode, encode
from .dis_warfare import PDU_COLLISION, PDU_DETONATION, PDU_FIRE, Collision, Detonation, decode_warfare

DIS_PORT = 3000
TIMEOUT_S = 12.0
MAX_DATAGRAM = 8192
MAX_PER_POLL = 250             # datagrams read per poll at most (a flood waits for the next: 26 us each
                               # to decode, so a tick's share stays a third of its 20 ms)
MAX_REMOTES = 128              # entities kept at most (a sender inventing ids cannot grow us without bound)
MAX_WARFARE = 500              # Fire / Detonation / Collision PDUs kept between two ticks at most
WARFARE_TYPES = (PDU_FIRE, PDU_DETONATION, PDU_COLLISION)


@dataclass
class Remote:
    state: EntityState
    last_s: float
    smoother: Smoother = field(default_factory=Smoother)
    source: tuple = ()             # the address its first update came from: another claiming it is refused


MULTICAST_TTL = 4              # a multicast group's datagrams cross a few routers (a site), not the internet


def is_multicast(host: str) -> bool:
    try:
        return 224 <= int(host.split(".")[0]) <= 239 and len(host.split(".")) == 4
    except ValueError:
        return False


def older(stamp: int, than: int) -> bool:
    """DIS timestamp ``stamp`` is before ``than`` (both past the same hour's start, or just across
    it: a difference of more than half an hour is the hour's wrap, not age)."""
    a, b = stamp >> 1, than >> 1
    half = 2 ** 30
    return 0 < (b - a) % (2 * half) < half


class DisLink:
    def __init__(self, listen_port: int = DIS_PORT, peers=(), origin=(0.0, 0.0), exercise: int = 1,
                 bind_host: str = "127.0.0.1"):
        self.origin = origin
        self.exercise = exercise
        self.peers = [(h, int(p)) for h, p in peers]
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        # a peer may be a broadcast address (a LAN's x.x.x.255) or a multicast group (224-239.x.x.x):
        # the socket may send to the one and is a member of the other, its own datagrams looped back
        # to it (dropped as our own entity); with either, players on one machine share the port
        # (SO_REUSEADDR), else a port another game holds is refused
        shared = any(is_multicast(h) or h.endswith(".255") for h, _ in self.peers)
        if shared:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        self.sock.bind((bind_host, listen_port))
        self.groups = [h for h, _ in self.peers if is_multicast(h)]
        for group in self.groups:
            self.sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                                 socket.inet_aton(group) + socket.inet_aton("0.0.0.0"))
        if self.groups:
            self.sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, MULTICAST_TTL)
            self.sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
        self.sock.setblocking(False)
        self.port = self.sock.getsockname()[1]
        self.remotes: dict = {}
        self.refused: Counter = Counter()
        self.own: set = set()                # the keys of our own entities (their echoes are dropped)
        self.sent = 0
        self.received = 0
        self.warfare: list = []              # Fire, Detonation, Collision read, for the world (take_warfare)

    def send(self, es: EntityState) -> int:
        """``es`` to every peer; the bytes sent to each."""
        self.own.add(es.key)
        return self.send_bytes(encode(es, self.origin, self.exercise))

    def send_bytes(self, data: bytes) -> int:
        """One encoded PDU to every peer; its size."""
        for peer in self.peers:
            try:
                self.sock.sendto(data, peer)
                self.sent += 1
            except OSError as e:              # a peer not there (ICMP unreachable): counted, not fatal
                self.refused[f"send to {peer[0]}:{peer[1]}: {e.strerror or e}"] += 1
        return len(data)

    def poll(self, t_s: float) -> list:
        """Read what has arrived; the joined and left events of this poll: (t_s, "joined" / "left",
        marking, entity type)."""
        new = []
        for _ in range(MAX_PER_POLL):
            try:
                data, source = self.sock.recvfrom(MAX_DATAGRAM)
            except (BlockingIOError, InterruptedError):
                break
            except OSError as e:              # e.g. a port unreachable from an earlier send
                self.refused[f"receive: {e.strerror or e}"] += 1
                continue
            self.received += 1
            try:
                if len(data) >= HEADER.size and data[2] in WARFARE_TYPES:
                    self._warfare(data, tuple(source))
                    continue
                es = decode(data, self.origin, self.exercise)
            except Refused as r:
                self.refused[str(r).split(":")[0]] += 1
                continue
            if es.key in self.own:
                self.refused["our own entity"] += 1
                continue
            r = self.remotes.get(es.key)
            if r is None and len(self.remotes) >= MAX_REMOTES:
                self.refused["more entities than we keep"] += 1
                continue
            if r is None:
                r = self.remotes[es.key] = Remote(es, t_s, source=tuple(source))
                new.append((t_s, "joined", es.marking, es.entity_type))
            elif r.source and tuple(source) != r.source:
                self.refused["an entity's id from another address"] += 1     # spoofed
                continue
            elif older(es.timestamp, r.state.timestamp):
                self.refused["older than its last update (reordered)"] += 1
                continue
            if es.appearance.get("deactivated"):          # it left the exercise (its game closed): gone now
                del self.remotes[es.key]
                new.append((t_s, "left", es.marking, es.entity_type))
                continue
            r.state, r.last_s = es, t_s
            r.smoother.update(es, t_s)
        for key, r in list(self.remotes.items()):
            if t_s - r.last_s > TIMEOUT_S:
                del self.remotes[key]
                new.append((t_s, "left", r.state.marking, r.state.entity_type))
        return new

    def _warfare(self, data: bytes, source: tuple = ()) -> None:
        """A Fire, Detonation or Collision PDU of our exercise into ``warfare`` (Refused: why not).
        Its issuer must be an entity we have heard from, at the address its Entity States come from
        (no one else can shoot, hit or collide in its name)."""
        if data[1] != self.exercise:
            raise Refused(f"exercise {data[1]}, not ours ({self.exercise})")
        length = HEADER.unpack_from(data)[5]
        if length != len(data):
            raise Refused(f"the header says {length} bytes, the datagram has {len(data)}")
        pdu = decode_warfare(data, data[2], self.origin)
        if isinstance(pdu, Detonation):            # its issuer: the event id's site and application
            spoof = any(pdu.issuer == k[:2] for k in self.own)
        else:
            spoof = (pdu.issuer if isinstance(pdu, Collision) else pdu.shooter) in self.own
        if spoof:
            raise Refused("our own entity")
        by = pdu.issuer if isinstance(pdu, (Detonation, Collision)) else pdu.shooter
        issuer = next((r for k, r in self.remotes.items() if k[:2] == tuple(by)[:2]), None)
        if issuer is None:
            raise Refused("a warfare PDU from an entity not heard from")
        if source and issuer.source and source != issuer.source:
            raise Refused("an entity's id from another address")
        if len(self.warfare) >= MAX_WARFARE:
            raise Refused("more warfare PDUs than a tick can take")
        self.warfare.append(pdu)

    def take_warfare(self) -> list:
        """The Fire, Detonation and Collision PDUs read since the last call."""
        out, self.warfare = self.warfare, []
        return out

    def close(self) -> None:
        self.sock.close()
