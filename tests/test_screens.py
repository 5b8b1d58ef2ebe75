"""The app's states (flightsim.app.screens): the flow's mode names the one current, each reads
its own input, and calls go one way: window -> screens -> flow -> game, menu, actions.
(Their drawing, for real, is tests/render/test_screenshots_flow.py's.)"""
from types import SimpleNamespace

import pytest

from flightsim.app.flow import GameFlow
from flightsim.app.screens import Crashed, Flying, Loading, MenuScreen, Replaying, Screens, WindowInput
from flightsim.input import bindings
from tests.test_import_graph import import_graph


class FakeMixer:
    def __init__(self):
        self.pressed, self.queued, self.devices = [], [], []

    def press(self, action, source):
        self.pressed.append(action)
        if action in bindings.APP_ACTIONS:
            self.queued.append(action)

    def take_app_actions(self):
        out, self.queued = self.queued, []
        return out

    def update(self, dt):
        return "controls"


class FakeFlow:
    """What the screens call on the flow, written down."""

    def __init__(self, mode="flying"):
        self.mode, self.menu, self.calls, self.posted = mode, None, [], []
        self.game = SimpleNamespace(hud=SimpleNamespace(show_help=True))
        self.world = SimpleNamespace(mailbox=SimpleNamespace(post=self.posted.append))

    def app_action(self, action, win=None):
        self.calls.append(("app_action", action))
        if action == "menu":
            self.menu = "open"

    def menu_command(self, cmd):
        self.calls.append(("menu_command", cmd))
        return "quit" if cmd == "quit" else None

    def replay_command(self, cmd):
        self.calls.append(("replay_command", cmd))


def _io(key_sym=None):
    key = SimpleNamespace(ESCAPE=27)
    return WindowInput(bindings=bindings, key=key, keymap={}, menu_keys={13: "select", 81: "quit"},
                       replay_keys={}, mixer=FakeMixer(), joysticks=None, navigator=None, win=None)


def test_the_flow_s_mode_names_the_state():
    flow = GameFlow(None)
    assert flow.mode == "loading"                        # no World built yet
    crash = SimpleNamespace(kind="crash")
    flow.game = SimpleNamespace(instruments=SimpleNamespace(event=None))
    assert flow.mode == "flying"
    flow.game.instruments.event = SimpleNamespace(kind="touchdown")
    assert flow.mode == "flying"
    flow.game.instruments.event = crash
    assert flow.mode == "crash" and flow.crash_pending is crash
    flow.menu = object()
    assert flow.mode == "menu"                            # the crash's menu (or any) over it
    flow.menu, flow._crash_seen = None, crash
    assert flow.mode == "flying"                          # restarted: that crash is over
    flow.replay = object()
    assert flow.mode == "replay"


@pytest.mark.parametrize("mode,kind", [("loading", Loading), ("menu", MenuScreen), ("flying", Flying),
                                       ("crash", Crashed), ("replay", Replaying)])
def test_the_current_screen_is_the_mode_s(mode, kind):
    screens = Screens(FakeFlow(mode), _io())
    assert type(screens.current) is kind and screens.current.name == mode


def test_preparing_is_loading_whatever_the_flow_holds():
    prep = SimpleNamespace(done=False, failed=False, cancel=lambda: None)
    started = []
    screens = Screens(FakeFlow("flying"), _io(), preparer=prep, start=lambda: started.append(1))
    assert screens.current.name == "loading"
    prep.done, prep.seconds = True, 3.0
    assert screens.current.frame(0.016) and started == [1]          # prepared: the first World's build starts
    assert screens.current.name == "flying"


def test_each_state_reads_its_own_keys():
    io = _io()
    flow = FakeFlow("loading")
    screens = Screens(flow, io)
    assert screens.current.key(None, 27, False) == "close"          # Esc leaves while loading
    assert screens.current.key("fullscreen", 0, False) is True and flow.calls == [("app_action", "fullscreen")]
    flow.calls = []
    assert screens.current.key("pitch_up", 0, False) is True and io.mixer.pressed == []   # no controls yet

    flow.mode = "menu"
    assert screens.current.key(None, 13, False) is True and flow.calls == [("menu_command", "select")]
    assert screens.current.key(None, 81, False) == "close"          # the menu's Quit
    assert screens.current.key("pitch_up", 0, False) is True and io.mixer.pressed == []

    flow.mode, flow.calls = "flying", []
    assert screens.current.key("pitch_up", 0, False) is True and io.mixer.pressed == ["pitch_up"]
    assert screens.current.key("menu", 0, False) is True and flow.calls == [("app_action", "menu")]
    flow.menu, flow.calls = None, []
    io.mixer.queued.append("fullscreen")                             # a joystick button, read with the frame
    assert screens.current.frame(0.016) and flow.calls == [("app_action", "fullscreen")]
    flow.posted.clear()
    assert screens.current.key("quit", 0, False) == "close"         # the window's own: closed there
    assert screens.current.frame(0.016) and flow.posted == ["controls"]

    flow.mode, io.mixer.pressed, flow.posted = "replay", [], []
    assert screens.current.key("pitch_up", 0, False) is True and io.mixer.pressed == []    # no flight controls
    assert screens.current.frame(0.016) and flow.posted == []


def test_calls_go_one_way_window_screens_flow():
    """No module below imports one above it: the flow never reaches the screens or the window,
    the actions never the flow, the screens never the window."""
    graph = import_graph()
    order = ["flightsim.app.window", "flightsim.app.screens", "flightsim.app.flow", "flightsim.app.actions"]
    for i, low in enumerate(order):
        above = set(order[:i])
        assert not graph[low] & above, f"{low} imports {graph[low] & above}"
