"""Every binding in one table: keyboard keys, and the default stick / gamepad layouts.

Pyglet-free: keys are pyglet key *names* (``"PAGEUP"``, ``"SHIFT+F"``) resolved against
``pyglet.window.key`` by the window (``resolve_keys``); the F1 overlay and the README are
written from the same rows (``help_text``), so what the help says is what the keys do.

Actions are plain names. Flight actions go to ``KeyboardControls`` (held ones ramp while
held; step ones act once per press); app actions (views, pause, reset, ...) go to the
window. Joystick and gamepad buttons use the same action names (see ``profiles``).
"""
from __future__ import annotations

# ---------------------------------------------------------------------------- actions
HELD_ACTIONS = {
    "pitch_down": "stick forward (nose down)", "pitch_up": "stick back (nose up)",
    "roll_left": "roll left", "roll_right": "roll right",
    "yaw_left": "left rudder", "yaw_right": "right rudder",
    "throttle_up": "throttle up", "throttle_down": "throttle down",
    "trim_up": "pitch trim nose up", "trim_down": "pitch trim nose down",
    "roll_trim_left": "aileron trim left", "roll_trim_right": "aileron trim right",
    "yaw_trim_left": "rudder trim left", "yaw_trim_right": "rudder trim right",
    "brake": "wheel brakes (both)", "brake_left": "left wheel brake", "brake_right": "right wheel brake",
    "airbrake_extend": "airbrakes out gradually", "airbrake_retract": "airbrakes in gradually",
    "fire": "fire the guns (while held)",
    "launch": "launch the selected missile", "weapon_select": "next weapon (gun, then each missile carried)",
    "lock": "radar or seeker lock on the target ahead / break the lock",
    "flare": "drop a flare", "chaff": "drop a chaff bundle", "countermeasures": "drop a flare and a chaff bundle",
    "mixture_lean": "mixture leaner (carburetted engines)", "mixture_rich": "mixture richer",
}
STEP_ACTIONS = {
    "flaps_down": "flaps down one notch", "flaps_up": "flaps up one notch",
    "airbrake": "airbrakes fully out / in", "gear": "gear up / down",
    "engine_cutoff": "engine: mixture cut-off (stop it) / run",
    "drop_tanks": "release the drop tanks", "drop_bombs": "release the bombs",
    "fcs_mode": "flight-control law (G limiter) off / on (fly-by-wire jets)",
    "carb_heat": "carburettor heat on / off",
}
APP_ACTIONS = {
    "view_cockpit": "cockpit view", "view_chase": "chase view", "view_orbit": "orbit view",
    "view_tower": "tower / fly-by view", "view_hud": "HUD view",
    "view_panel": "2D instrument panel view",
    "view_next": "next view", "view_prev": "previous view",
    "look_left": "look left", "look_right": "look right", "look_back": "look back over the shoulder",
    "look_up": "look up", "look_down": "look down into the cockpit", "look_front": "look ahead",
    "look_front_left": "look forward left", "look_front_right": "look forward right",
    "zoom_in": "zoom in (cockpit)", "zoom_out": "zoom out (cockpit)",
    "pause": "pause / resume", "reset": "reset to the start", "help": "this help",
    "calibrate": "joystick calibration start / finish", "fullscreen": "fullscreen", "quit": "quit",
    "telemetry": "telemetry readout on / off", "vario_sound": "variometer sound on / off",
    "release": "release the winch cable",
    "menu": "menu (pauses): resume, restart, another scenario, quit",
    "time_faster": "time acceleration up (x1, x2, x4)", "time_slower": "time acceleration down",
}
# Flight Simulator II's set-and-stay steps (flightsim/input/fs2.py: the text mode and the window's
# fs2 keyboard profile): each press moves a control one step and it stays there
SET_ACTIONS = {
    "elevator_step_down": "elevator a step down (nose down)", "elevator_step_up": "elevator a step up (nose up)",
    "aileron_step_left": "ailerons a step left", "aileron_step_right": "ailerons a step right",
    "rudder_step_left": "rudder a step left", "rudder_step_right": "rudder a step right",
    "centre_controls": "centre the ailerons and rudder",
    "throttle_step_up": "throttle a step up", "throttle_step_down": "throttle a step down",
    "trim_step_up": "pitch trim a step nose up", "trim_step_down": "pitch trim a step nose down",
    "mixture_step_lean": "mixture a step leaner", "mixture_step_rich": "mixture a step richer",
}
FLIGHT_ACTIONS = {**HELD_ACTIONS, **STEP_ACTIONS}
ACTIONS = {**FLIGHT_ACTIONS, **SET_ACTIONS, **APP_ACTIONS}
KEY_PROFILES = ("standard", "fs2")
VIEW_ACTIONS = {"view_cockpit": "cockpit", "view_chase": "chase", "view_orbit": "orbit",
                "view_tower": "tower", "view_hud": "hud", "view_panel": "panel"}
LOOK_ACTIONS = ("look_left", "look_right", "look_back", "look_up", "look_down", "look_front", "look_front_left",
                "look_front_right")

# ---------------------------------------------------------------------------- keyboard
# (keys as shown, what they do, {pyglet key name [with SHIFT+]: action})
KEYBOARD_ROWS = [
    ("Up / W, Down / S", "stick forward / back (Up = nose down)",
     {"UP": "pitch_down", "W": "pitch_down", "DOWN": "pitch_up", "S": "pitch_up"}),
    ("Left / A, Right / D", "roll left / right", {"LEFT": "roll_left", "A": "roll_left",
                                                  "RIGHT": "roll_right", "D": "roll_right"}),
    ("Q / E", "rudder left / right", {"Q": "yaw_left", "E": "yaw_right"}),
    ("+ / -", "throttle up / down (hold)", {"EQUAL": "throttle_up", "NUM_ADD": "throttle_up",
                                           "PLUS": "throttle_up", "MINUS": "throttle_down",
                                           "NUM_SUBTRACT": "throttle_down"}),
    ("F / Shift+F", "flaps down / up one notch", {"F": "flaps_down", "SHIFT+F": "flaps_up"}),
    ("B", "airbrakes fully out / in", {"B": "airbrake"}),
    ("] / [", "airbrakes out / in gradually (hold)", {"BRACKETRIGHT": "airbrake_extend",
                                                      "BRACKETLEFT": "airbrake_retract"}),
    ("G", "gear up / down", {"G": "gear"}),
    ("Space", "wheel brakes (hold)", {"SPACE": "brake"}),
    ("Enter / Right Ctrl", "fire the guns (hold)", {"RETURN": "fire", "NUM_ENTER": "fire", "RCTRL": "fire"}),
    ("Backspace / Shift+Enter", "launch the selected missile",
     {"BACKSPACE": "launch", "SHIFT+RETURN": "launch", "SHIFT+NUM_ENTER": "launch"}),
    ("I / Tab", "next weapon (gun, AIM-9, AIM-120 ...) / lock the target ahead (again: break it)",
     {"I": "weapon_select", "TAB": "lock"}),
    ("8 / 9 / 0", "drop a flare / a chaff bundle / both", {"_8": "flare", "_9": "chaff", "_0": "countermeasures"}),
    ("O", "release the winch cable", {"O": "release"}),
    ("J / N", "release the drop tanks / the bombs", {"J": "drop_tanks", "N": "drop_bombs"}),
    ("X", "engine: cut off (stop it, glide) / run again", {"X": "engine_cutoff"}),
    ("Y / U, H", "mixture leaner / richer (hold), carburettor heat on / off (light aircraft)",
     {"Y": "mixture_lean", "U": "mixture_rich", "H": "carb_heat"}),
    ("L", "jets: flight-control law (G limiter) off / on", {"L": "fcs_mode"}),
    (", / .", "left / right wheel brake (hold)", {"COMMA": "brake_left", "PERIOD": "brake_right"}),
    ("Page Up / Page Down", "pitch trim nose up / down (hold)", {"PAGEUP": "trim_up", "PAGEDOWN": "trim_down"}),
    ("Home / End", "aileron trim left / right (hold)", {"HOME": "roll_trim_left", "END": "roll_trim_right"}),
    ("Insert / Delete", "rudder trim left / right (hold)", {"INSERT": "yaw_trim_left", "DELETE": "yaw_trim_right"}),
    ("1 2 3 4 5 6", "cockpit, chase, orbit, tower, HUD, 2D panel view",
     {"_1": "view_cockpit", "_2": "view_chase", "_3": "view_orbit", "_4": "view_tower", "_5": "view_hud",
      "_6": "view_panel"}),
    ("Numpad 4 6 2 8 5, 7 9 1", "look left, right, back, up, ahead; forward left / right, down",
     {"NUM_4": "look_left", "NUM_6": "look_right", "NUM_2": "look_back", "NUM_8": "look_up", "NUM_5": "look_front",
      "NUM_7": "look_front_left", "NUM_9": "look_front_right", "NUM_1": "look_down"}),
    ("Z / Shift+Z", "zoom in / out (cockpit; mouse wheel too)", {"Z": "zoom_in", "SHIFT+Z": "zoom_out"}),
    ("C / V", "next / previous view", {"C": "view_next", "V": "view_prev"}),
    ("mouse drag / wheel", "look around (cockpit) or orbit / zoom", {}),
    ("F2 / M", "telemetry readout / variometer sound on-off", {"F2": "telemetry", "M": "vario_sound"}),
    ("P / R", "pause / reset to the start", {"P": "pause", "R": "reset"}),
    ("T / Shift+T", "time acceleration x1 -> x2 -> x4 / back down", {"T": "time_faster", "SHIFT+T": "time_slower"}),
    ("K", "calibrate joystick: K, move axes to their stops, centre, K", {"K": "calibrate"}),
    ("F1 / F11", "this help / fullscreen", {"F1": "help", "F11": "fullscreen"}),
    ("Esc / Shift+Esc", "menu (pauses; Esc again resumes) / quit", {"ESCAPE": "menu", "SHIFT+ESCAPE": "quit"}),
]


# in a replay (flightsim.recording.player) these keys drive the replay instead of the flight
# controls; views, help, the menu and the instruments' toggles keep their keys
REPLAY_ROWS = [
    ("Space / P", "replay: play / pause", {"SPACE": "play_pause", "P": "play_pause"}),
    ("Left / Right", "replay: 10 s back / on (with Shift 60 s)",
     {"LEFT": "back", "RIGHT": "forward", "SHIFT+LEFT": "back_long", "SHIFT+RIGHT": "forward_long"}),
    ("Home / End, R", "replay: to the start / the end; R from the start",
     {"HOME": "start", "END": "end", "R": "start"}),
    ("Up/Down, T/Shift+T", "replay: faster / slower (0.25x to 16x)",
     {"UP": "faster", "DOWN": "slower", "T": "faster", "SHIFT+T": "slower"}),
    ("Enter", "replay: take over, fly on from here", {"RETURN": "take_over", "ENTER": "take_over",
                                                       "NUM_ENTER": "take_over"}),
    ("mouse on the bar", "replay: click or drag to scrub", {}),
]


def replay_keymap(key_module) -> dict[tuple[int, bool], str]:
    """{(symbol, shift): replay command} for a pyglet.window.key module."""
    out = {}
    for _, _, m in REPLAY_ROWS:
        for name, cmd in m.items():
            shift = name.startswith("SHIFT+")
            sym = getattr(key_module, name[6:] if shift else name, None)
            if sym is not None:
                out[(int(sym), shift)] = cmd
    return out


COMBAT_ACTIONS = ("fire", "launch", "weapon_select", "lock", "flare", "chaff", "countermeasures")


def rows_for(profile: str = "standard") -> list:
    """The keyboard rows of a profile (KEY_PROFILES): the standard layout, or Flight Simulator II's
    (fs2.FS2_ROWS) with the standard rows of the app's own keys and of the weapons (guns, missiles,
    countermeasures: FS II's own layout had none for them) whose keys it leaves free."""
    if profile == "standard":
        return KEYBOARD_ROWS
    if profile != "fs2":
        raise ValueError(f"keyboard profile {profile!r}: one of {', '.join(KEY_PROFILES)}")
    from .fs2 import FS2_ROWS
    taken = {k for _, _, m in FS2_ROWS for k in m}
    app = [(keys, what, m) for keys, what, m in KEYBOARD_ROWS
           if m and all(a in APP_ACTIONS or a in COMBAT_ACTIONS for a in m.values()) and not taken & set(m)]
    return FS2_ROWS + app


def keyboard_bindings(profile: str = "standard") -> dict[str, str]:
    """{key name (maybe "SHIFT+X"): action} over all rows of a profile."""
    out: dict[str, str] = {}
    for _, _, m in rows_for(profile):
        for k, a in m.items():
            if k in out:
                raise ValueError(f"key {k} bound twice")
            out[k] = a
    return out


def resolve_keys(key_module, profile: str = "standard") -> dict[tuple[int, bool], str]:
    """{(symbol, shift): action} for a pyglet.window.key module; unknown names are skipped."""
    out = {}
    for name, action in keyboard_bindings(profile).items():
        shift = name.startswith("SHIFT+")
        sym = getattr(key_module, name[6:] if shift else name, None)
        if sym is not None:
            out[(int(sym), shift)] = action
    return out


def action_for(keymap: dict[tuple[int, bool], str], symbol: int, shift: bool) -> str | None:
    """The action of a key press: the shifted binding if there is one, else the plain one."""
    return keymap.get((symbol, shift)) or keymap.get((symbol, False))


def actions_of_symbol(keymap: dict[tuple[int, bool], str], symbol: int) -> list[str]:
    """Every action a key can have started (a release ends them whatever the modifiers are now)."""
    return [a for (s, _), a in keymap.items() if s == symbol]


# ---------------------------------------------------------------------------- devices (defaults, for help and docs)
STICK_ROWS = [
    ("x / y", "roll / pitch (stick back = nose up)"),
    ("twist (rz) or rudder axis", "rudder"),
    ("throttle lever (throttle, slider or z)", "throttle; on a glider the airbrakes (lever back = out)"),
    ("trigger (button 0)", "wheel brakes"),
    ("button 1 / 2 / 3 / 4", "airbrakes out-in / flaps up / flaps down / gear"),
    ("button 5", "fire the guns"),
    ("button 6 / 7 / 8 / 9", "launch the missile / next weapon / lock / flare and chaff"),
    ("hat up / down", "pitch trim nose down / up"),
    ("hat left / right", "previous / next view"),
]
GAMEPAD_ROWS = [
    ("left stick", "pitch and roll (pull back = nose up)"),
    ("right stick x", "rudder"),
    ("right stick y", "throttle up / down (push = more)"),
    ("left / right trigger", "left / right wheel brake"),
    ("left / right shoulder", "flaps up / down"),
    ("d-pad up / down", "pitch trim nose down / up"),
    ("d-pad left / right", "previous / next view"),
    ("A / B / X / Y", "airbrakes out-in / wheel brakes / fire the guns / gear"),
    ("Start / Back", "pause / menu"),
]
PEDALS_ROWS = [
    ("rudder axis (rz)", "rudder"),
    ("toe brakes (x / y)", "left / right wheel brake"),
]


def _table(rows, width):
    return [f"{k:<{width}} {v}" for k, v in rows]


def help_text(devices: list[str] | None = None, profile: str = "standard") -> str:
    """The F1 overlay: every keyboard binding of the profile, then the device defaults."""
    lines = ["flightsim - keys (F1 closes)" + ("" if profile == "standard" else f", the {profile} layout"), ""]
    lines += _table([(k, d) for k, d, _ in rows_for(profile)], 20)
    lines += ["", "joystick: x/y roll/pitch, twist rudder, lever throttle (glider: airbrakes),",
              "  trigger wheel brakes, hat up/down trim, hat left/right view, buttons 1-4",
              "  airbrakes / flaps up / flaps down / gear, button 5 fire, 6 launch, 7 weapon, 8 lock,",
              "  9 flare and chaff",
              "gamepad: left stick pitch/roll, right stick rudder (x) and throttle (y),",
              "  triggers L/R brakes, shoulders flaps, d-pad trim / view, A airbrakes, X fire, Y gear"]
    lines += ["menu (Esc): Up / Down choose, Enter fly, Esc back; joystick hat or stick, trigger / A",
              "  gamepad Back opens it in flight"]
    lines += [""] + _table([(k, d) for k, d, _ in REPLAY_ROWS], 20)
    if devices is not None:
        lines.append("devices: " + (", ".join(devices) if devices else "none (keyboard only)"))
    return "\n".join(lines)


def markdown_tables() -> str:
    """The README / docs tables, from the same rows."""
    out = ["| Key | Action |", "|---|---|"]
    out += [f"| {k} | {d} |" for k, d, _ in KEYBOARD_ROWS]
    out += ["", "| In a replay | Action |", "|---|---|"] + [f"| {k} | {d} |" for k, d, _ in REPLAY_ROWS]
    for title, rows in (("Flight stick", STICK_ROWS), ("Gamepad", GAMEPAD_ROWS), ("Rudder pedals", PEDALS_ROWS)):
        out += ["", f"| {title} | Action |", "|---|---|"] + [f"| {k} | {d} |" for k, d in rows]
    return "\n".join(out)
