"""The menu's Multiplayer lines (flightsim/app/menu.py, app/online.py): typed in place, Enter
keeps, Esc leaves the line as it was, the side toggles, bad values are refused in the menu with
the reason and the settings keep the good ones."""
from flightsim.app.menu import Menu, multiplayer_items


def _menu(online=False, peers=()):
    fields = {"callsign": "PILOT", "send": "", "listen": 3000}
    return Menu.build([], multiplayer=(fields, "blue", online, peers))


def _select(m, kind, field=None):
    m.selected = next(i for i, it in enumerate(m.items) if it.kind == kind and (field is None or it.scenario == field))


def test_a_line_is_typed_kept_or_left():
    m = _menu()
    _select(m, "mp_field", "callsign")
    assert m.command("select") is None and m.editing == "callsign"
    for _ in range(5):
        m.command("erase")
    m.text("RED1")
    m.text("\x07é")                                # not printable ASCII: not typed
    assert m.item.label == "Callsign: RED1_"
    assert m.command("down") is None and m.editing == "callsign"    # the letter keys type, they do not move
    ch = m.command("select")
    assert (ch.action, ch.scenario, ch.path) == ("mp_set", "callsign", "RED1") and m.item.label == "Callsign: RED1"
    m.command("select")
    m.text("XX")
    assert m.command("back") is None and m.item.label == "Callsign: RED1" and m.editing is None


def test_the_side_toggles_and_going_online_is_a_choice():
    m = _menu()
    _select(m, "mp_side")
    ch = m.command("right")
    assert (ch.action, ch.path) == ("mp_set", "red") and m.item.label == "Side: red"
    assert m.command("select").path == "blue"
    _select(m, "mp_online")
    assert m.command("select").action == "online"
    on = _menu(online=True, peers=[("online: RED1, port 3000", "1 other pilot(s)"), ("  BLUE2", "p51d, 2.3 km")])
    _select(on, "mp_online")
    assert on.item.label == "Go offline" and on.command("select").action == "offline"
    assert [it.label for it in on.items if it.kind == "mp_peer"] == ["online: RED1, port 3000", "  BLUE2"]
    assert not any(it.selectable for it in on.items if it.kind == "mp_peer")
    assert [it.kind for it in multiplayer_items({}, "blue", False)][:1] == ["heading"]


def test_bad_values_are_refused_with_the_reason_and_good_ones_kept(tmp_path):
    from flightsim.app.flow import GameFlow
    from flightsim.app.menu import Choice
    flow = GameFlow(None, save=False)
    flow.menu = _menu()
    assert flow.online.choose(Choice("mp_set", "send", "not an address")) is None
    assert flow.menu.alert and "not HOST:PORT" in flow.menu.message and flow.settings.mp_send == ""
    assert flow.online.choose(Choice("mp_set", "send", "10.0.0.2:3000,10.0.0.3:3001")) == "mp_set"
    assert flow.settings.mp_send == "10.0.0.2:3000,10.0.0.3:3001" and not flow.menu.alert
    assert flow.online.choose(Choice("mp_set", "listen", "70000")) is None and flow.settings.mp_listen == 3000
    assert flow.online.choose(Choice("mp_set", "listen", "3456")) == "mp_set" and flow.settings.mp_listen == 3456
    assert flow.online.choose(Choice("mp_set", "side", "red")) == "mp_set" and flow.settings.mp_side == "red"
    assert flow.online.choose(Choice("mp_set", "callsign", "")) is None and flow.settings.mp_callsign == "PILOT"


def test_the_hud_line_warns_of_a_missile_launched_at_us():
    from flightsim.net.session import NetFrame, Peer
    from flightsim.render.remote_draw import WARN_S, pilots_line
    peers = (Peer("BLUE1", "f15c", 9000.0, 0.2, 12.0),)
    quiet = NetFrame(1, 100.0, peers=peers, events=((90.0, "joined", "BLUE1", "f15c"),))
    assert pilots_line(quiet) == "PILOTS 1: BLUE1 9.0 km 12 ms"
    fired = NetFrame(1, 100.0, peers=peers, events=((99.0, "missile launch", "BLUE1", "f15c"),))
    assert pilots_line(fired).startswith("MISSILE LAUNCH (BLUE1)") and "PILOTS 1" in pilots_line(fired)
    later = NetFrame(1, 99.0 + WARN_S + 0.1, peers=peers, events=fired.events)
    assert not pilots_line(later).startswith("MISSILE")


def test_a_remote_aircraft_s_surfaces_follow_its_body_rates():
    """DIS sends the angular velocity, not the surfaces: a remote rolling right shows its ailerons
    the way a pilot's stick would put them, pulling shows up elevator, flying straight none."""
    import numpy as np

    from flightsim.aircraft_data.compile import compile_aircraft
    from flightsim.physics.named_model import AircraftData
    from flightsim.physics.state import make_state
    from flightsim.render.remote_draw import surfaces
    comp = compile_aircraft("p51d")
    t = {"data": AircraftData(comp.model), "scratch": make_state()}
    assert not np.any(surfaces(t, (0.0, 0.0, 0.0)))
    roll = surfaces(t, (1.3, 0.0, 0.0))
    names = [s.spec["name"] for s in comp.sections]
    ail = [i for i, n in enumerate(names) if "aileron" in n]
    assert ail and np.any(roll[ail] > 0.0) and np.any(roll[ail] < 0.0)         # one up, one down
    pull = surfaces(t, (0.0, 0.6, 0.0))
    elev = [i for i, n in enumerate(names) if "elevator" in n or "stab" in n or "tail" in n]
    assert np.any(pull[elev] != 0.0) and not np.any(pull[ail])
