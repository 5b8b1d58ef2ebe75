"""The menu: what it lists, where the selection is, and what keys and joysticks do in it.

Pyglet-free (the drawing is flightsim.render.menu, the switching flightsim.app.flow). The
menu opens at start (no ``--scenario``), on Esc in flight (the flight pauses), and a few
seconds after a crash. It lists, under a heading per kind (gliders, fighters), every
scenario in scenarios/ with its description; in flight also "Resume" and "Restart" (in a
replay "Take over" too); then the newest recorded flights (flightsim.recording.library), and
always "Quit".

    keys       Up / W, Down / S choose; Enter / Space fly it; Esc back to the flight;
               Shift+Esc quit; on the paint line Left / Right (or Enter) change the livery
    joystick   hat or d-pad up / down, or the stick pushed / pulled (repeats when held);
               trigger (b0), b1, gamepad A or Start choose; gamepad B or Back go back

``Menu.command("up" | "down" | "select" | "back")`` returns a ``Choice`` when one is made:
``Choice("fly", name)``, ``Choice("replay", path=file)``, ``Choice("restart")``,
``Choice("resume")``, ``Choice("take_over")`` or ``Choice("quit")``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

KIND_TITLES = {"glider": "Gliders", "fighter": "Fighters", "trainer": "Trainers"}
RECORDINGS_SHOWN = 12          # the newest recorded flights listed

# pyglet key names -> menu commands (the window resolves them against pyglet.window.key)
MENU_KEYS = {"UP": "up", "W": "up", "DOWN": "down", "S": "down", "LEFT": "left", "RIGHT": "right",
             "RETURN": "select", "ENTER": "select", "NUM_ENTER": "select", "SPACE": "select",
             "ESCAPE": "back", "BACKSPACE": "erase"}
EDIT_COMMANDS = ("select", "back", "erase")     # what keys do while a line is edited (the text types itself)
MP_FIELDS = {"callsign": "Callsign", "send": "Send to", "listen": "Port"}
MP_TEXT_MAX = 200
SELECT_BUTTONS = ("b0", "b1", "a", "start")
BACK_BUTTONS = ("b", "back")
UP_BUTTONS = ("hat_up", "dpup")
DOWN_BUTTONS = ("hat_down", "dpdown")


@dataclass(frozen=True)
class Choice:
    action: str                    # "fly", "replay", "restart", "resume", "take_over", "quit", "livery"
    scenario: str | None = None
    path: str | None = None        # the recording to replay
    step: int = 0                  # "livery": the next (+1) or the previous (-1) paint scheme


@dataclass(frozen=True)
class MenuItem:
    kind: str                      # "heading", "resume", "restart", "take_over", "livery", "scenario", "replay",
                                   # "refused" (a scenario file that could not be read: shown, not selectable), "quit",
                                   # multiplayer: "mp_field" (an edited line; scenario = its field), "mp_side",
                                   # "mp_online", "mp_peer" (a pilot present: shown, not selectable)
    label: str
    detail: str = ""
    scenario: str | None = None
    path: str | None = None        # a recording (kind "replay")

    @property
    def selectable(self) -> bool:
        return self.kind not in ("heading", "refused", "mp_peer")


@dataclass
class Menu:
    """The items and the selection. ``reason``: "start", "pause" or "crash"."""
    items: list = field(default_factory=list)
    selected: int = 0
    reason: str = "start"
    title: str = "flightsim"
    message: str = ""              # under the title: what is paused, or what the crash was
    current: str | None = None     # the scenario being flown (None at start)
    alert: bool = False            # the message is a warning (a scenario that could not be loaded)
    editing: str | None = None     # the multiplayer field being typed into (None: none)
    buffer: str = ""               # what has been typed into it

    @classmethod
    def build(cls, scenarios, current: str | None = None, reason: str = "start", message: str = "",
              preselect: str | None = None, recordings=(), replaying: bool = False, livery=None,
              refused=(), multiplayer=None) -> Menu:
        """``scenarios``: objects with name, kind, description, aircraft (flightsim.world.scenario);
        ``recordings``: flightsim.recording.library.RecordingInfo, newest first; ``replaying``:
        the flight behind the menu is a replay; ``refused``: (path, why) of scenario files that
        could not be read (world.scenario.scenario_catalogue), listed after the scenarios;
        ``multiplayer``: (fields, side, online, peers) for the Multiplayer lines (flightsim/app/online.py)."""
        items = []
        flying = current is not None and reason in ("pause", "crash")
        if flying and replaying:
            items.append(MenuItem("resume", "Resume", "back to the replay", current))
            items.append(MenuItem("take_over", "Take over", "fly on from here yourself", current))
            items.append(MenuItem("restart", "Restart", "the replay from its start", current))
        elif flying:
            if reason == "pause":
                items.append(MenuItem("resume", "Resume", f"back to {current}", current))
            items.append(MenuItem("restart", "Restart", f"{current} from its start again", current))
        if livery is not None:            # (label, detail): the aircraft's paint, Left / Right or Enter change it
            items.append(MenuItem("livery", livery[0], livery[1]))
        kinds = [k for k in KIND_TITLES if any(s.kind == k for s in scenarios)]
        kinds += sorted({s.kind for s in scenarios} - set(kinds))
        for k in kinds:
            items.append(MenuItem("heading", KIND_TITLES.get(k, k.title())))
            for s in scenarios:
                if s.kind == k:
                    items.append(MenuItem("scenario", s.name, s.description, s.name))
        if refused:
            items.append(MenuItem("heading", "Scenario files refused"))
            for path, why in refused:
                items.append(MenuItem("refused", Path(path).stem, why))
        if multiplayer is not None:
            items += multiplayer_items(*multiplayer)
        recordings = list(recordings)[:RECORDINGS_SHOWN]
        if recordings:
            items.append(MenuItem("heading", "Recorded flights"))
            for r in recordings:
                items.append(MenuItem("replay", r.label, r.detail, path=str(r.path)))
        items.append(MenuItem("quit", "Quit", "leave flightsim"))
        m = cls(items, 0, reason, "flightsim", message, current)
        if flying:
            m.selected = 0                       # resume (pause) or restart (crash)
        else:
            names = [it.scenario for it in items if it.kind == "scenario"]
            want = preselect if preselect in names else current if current in names else None
            m.selected = next((i for i, it in enumerate(items) if it.kind == "scenario"
                               and (want is None or it.scenario == want)), 0)
        return m

    @property
    def item(self) -> MenuItem:
        return self.items[self.selected]

    def move(self, step: int) -> None:
        """To the next selectable item up (-1) or down (+1), wrapping round."""
        n = len(self.items)
        i = self.selected
        for _ in range(n):
            i = (i + step) % n
            if self.items[i].selectable:
                self.selected = i
                return

    def command(self, cmd: str) -> Choice | None:
        if self.editing is not None:
            return self._edit(cmd)
        if cmd == "erase":
            return None
        if cmd == "up":
            self.move(-1)
        elif cmd == "down":
            self.move(+1)
        elif cmd == "select":
            it = self.item
            if it.kind == "scenario":
                return Choice("fly", it.scenario)
            if it.kind == "replay":
                return Choice("replay", path=it.path)
            if it.kind in ("resume", "restart", "take_over", "quit"):
                return Choice(it.kind)
            if it.kind == "livery":
                return Choice("livery", step=1)
            if it.kind == "mp_field":
                self.editing, self.buffer = it.scenario, it.path or ""
                self._relabel()
            if it.kind == "mp_side":
                return self._side()
            if it.kind == "mp_online":
                return Choice(it.scenario)                    # "online" or "offline"
        elif cmd in ("left", "right"):
            if self.item.kind == "livery":
                return Choice("livery", step=-1 if cmd == "left" else 1)
            if self.item.kind == "mp_side":
                return self._side()
        elif cmd == "back":
            if self.current is not None and self.reason in ("pause", "crash"):
                return Choice("resume")
        else:
            raise ValueError(f"not a menu command: {cmd!r}")
        return None

    # ------------------------------------------------------------------ the multiplayer lines
    def text(self, chars: str) -> None:
        """Typed characters, into the line being edited (printable ASCII: DIS's marking and addresses)."""
        if self.editing is None:
            return
        keep = "".join(c for c in chars if 32 <= ord(c) < 127)
        self.buffer = (self.buffer + keep)[:MP_TEXT_MAX]
        self._relabel()

    def _edit(self, cmd: str) -> Choice | None:
        if cmd == "erase":
            self.buffer = self.buffer[:-1]
            self._relabel()
            return None
        if cmd not in EDIT_COMMANDS:
            return None
        name, value = self.editing, self.buffer
        self.editing = None
        if cmd == "back":                                 # Esc: the line as it was
            self._relabel()
            return None
        self._relabel(value)
        return Choice("mp_set", scenario=name, path=value)

    def _relabel(self, value: str | None = None) -> None:
        it = self.item
        if it.kind != "mp_field":
            return
        shown = self.buffer + "_" if self.editing is not None else (it.path if value is None else value)
        self.items[self.selected] = MenuItem("mp_field", f"{MP_FIELDS[it.scenario]}: {shown}", it.detail,
                                             it.scenario, it.path if value is None else value)

    def _side(self) -> Choice:
        it = self.item
        side = "red" if it.scenario == "blue" else "blue"
        self.items[self.selected] = MenuItem("mp_side", f"Side: {side}", it.detail, side)
        return Choice("mp_set", scenario="side", path=side)


def multiplayer_items(fields: dict, side: str, online: bool, peers=()) -> list:
    """The Multiplayer lines: callsign, peers, port and side (each edited in place), going online or
    offline, and the pilots present."""
    items = [MenuItem("heading", "Multiplayer (DIS)")]
    for name, title in MP_FIELDS.items():
        v = str(fields.get(name, ""))
        items.append(MenuItem("mp_field", f"{title}: {v}", "Enter to type, Enter again to keep, Esc to leave",
                              name, v))
    items.append(MenuItem("mp_side", f"Side: {side}", "Left / Right: blue or red (red starts 8 km ahead, head-on)",
                          side))
    items.append(MenuItem("mp_online", "Go offline" if online else "Fly online",
                          "back to flying alone" if online else "this scenario again, with the others",
                          "offline" if online else "online"))
    for p in peers:
        items.append(MenuItem("mp_peer", p[0], p[1]))
    return items


class MenuNavigator:
    """Joystick and gamepad -> menu commands, from a JoyFrame (flightsim.input.joystick).

    Buttons by their raw names (whatever the flight profile maps them to); the stick's
    pitch axis as a direction that repeats while held."""
    THRESHOLD = 0.55
    REPEAT_DELAY_S = 0.40
    REPEAT_S = 0.15

    def __init__(self):
        self._dir = 0
        self._t = 0.0

    def reset(self) -> None:
        self._dir = 0
        self._t = 0.0

    def commands(self, frame, dt_s: float) -> list[str]:
        out = []
        for name, pressed in getattr(frame, "buttons", ()):
            if not pressed:
                continue
            if name in UP_BUTTONS:
                out.append("up")
            elif name in DOWN_BUTTONS:
                out.append("down")
            elif name in SELECT_BUTTONS:
                out.append("select")
            elif name in BACK_BUTTONS:
                out.append("back")
        y = float(getattr(frame, "momentary", {}).get("pitch", 0.0))   # + stick back (toward the pilot)
        d = 1 if y > self.THRESHOLD else -1 if y < -self.THRESHOLD else 0
        if d != self._dir:
            self._dir = d
            self._t = self.REPEAT_DELAY_S
            if d:
                out.append("down" if d > 0 else "up")
        elif d:
            self._t -= dt_s
            while self._t <= 0.0:
                self._t += self.REPEAT_S
                out.append("down" if d > 0 else "up")
        return out


def resolve_menu_keys(key_module) -> dict[int, str]:
    out = {}
    for name, cmd in MENU_KEYS.items():
        sym = getattr(key_module, name, None)
        if sym is not None:
            out[int(sym)] = cmd
    return out
