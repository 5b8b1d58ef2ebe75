"""The game's multiplayer session as the menu drives it (issue 36): the Multiplayer lines' values
(the settings' mp_callsign, mp_send, mp_listen, mp_side), going online (the session opened, the
scenario flown again in a World that has it) and offline, and the pilots present.

One session serves every World the player flies while online (its socket outlives scenario
switches); the command line's ``--multiplayer`` starts the game online with its own options. A
session given up is closed once the World that used it has stopped (``retire_done``, from the
flow's install of the next World).
"""
from __future__ import annotations

from ..net.session import BadNetConfig, NetConfig, describe, open_session

FIELD_SETTINGS = {"callsign": "mp_callsign", "send": "mp_send", "listen": "mp_listen", "side": "mp_side"}


class Online:
    def __init__(self, flow):
        self.flow = flow
        self.alone = flow.world_factory       # how the flow builds a World with no session
        self.session = None
        self._retired: list = []

    def menu_args(self) -> tuple:
        """(fields, side, online, peers) for the menu's Multiplayer lines."""
        s = self.flow.settings
        fields = {"callsign": s.mp_callsign, "send": s.mp_send, "listen": s.mp_listen}
        side = s.mp_side
        peers = []
        if self.session is not None:                  # online: the lines say what the session flies with
            cfg = self.session.config
            fields = {"callsign": cfg.callsign, "send": ",".join(f"{h}:{p}" for h, p in cfg.peers),
                      "listen": self.session.link.port}
            side = cfg.side
            f = self.session.frame
            peers.append((f"online as {cfg.callsign}",
                          f"{len(f.peers)} other pilot(s); sent {f.sent}, received {f.received}, refused {f.refused}"))
            for p in f.peers:
                ping = "" if p.ping_ms is None else f", ping {p.ping_ms:.0f} ms"
                rng = f"{p.distance_m / 1000.0:.1f} km" if p.distance_m >= 1000.0 else f"{p.distance_m:.0f} m"
                peers.append((f"  {p.callsign}", f"{p.aircraft}, {rng}{ping}"))
        return fields, side, self.session is not None, peers

    def attach(self, session) -> None:
        """Fly every World from now on with ``session`` (None: alone)."""
        from ..world.assembly import World
        if self.session is not None and self.session is not session:
            self._retired.append(self.session)
        self.session = session
        if session is None:
            self.flow.world_factory = self.alone
        else:
            def factory(scenario, aircraft):
                return World(aircraft, scenario, net=session)
            self.flow.world_factory = factory

    def choose(self, ch) -> str | None:
        """A Multiplayer line's choice: a value set, or going online or offline; returns the action."""
        flow = self.flow
        menu = flow.menu
        if ch.action == "mp_set":
            key = FIELD_SETTINGS[ch.scenario]
            value = int(ch.path) if key == "mp_listen" and ch.path.strip().isdigit() else ch.path.strip()
            from .settings import _problem
            bad = _problem(key, value)
            if bad:
                menu.message, menu.alert = f"{ch.scenario}: {bad}", True
                return None
            setattr(flow.settings, key, value)
            menu.message, menu.alert = "", False
            flow.sync_settings()
            return ch.action
        s = flow.settings
        if ch.action == "online":
            try:
                session = open_session(NetConfig.parse(s.mp_listen, s.mp_send, s.mp_callsign, side=s.mp_side))
            except BadNetConfig as e:
                menu.message, menu.alert = str(e), True
                return None
            print(describe(session.config, session.link.port), flush=True)
            self.attach(session)
        else:
            self.attach(None)
        if flow.scenario_name is not None:
            flow.switch(flow.scenario_name)          # the same scenario, in a World with (or without) the session
        return ch.action

    def retire_done(self) -> None:
        """The World that used a given-up session has stopped: close it."""
        for s in self._retired:
            s.close()
        self._retired = []

    def close(self) -> None:
        self.retire_done()
        if self.session is not None:
            self.session.close()
            self.session = None
