"""Input devices -> one ControlInputs per frame.

    bindings.py   the action names, the keyboard table, the device defaults, the F1 text
    keyboard.py   keys -> ramped, self-centring stick; levels; step requests (pyglet-free)
    profiles.py   per-device TOML profiles: axes, inversion, deadzone, expo, calibration
    joystick.py   pyglet joysticks / gamepads / pedals: discovery, hot-plug, reading
    mixer.py      keyboard + devices -> ControlInputs -> the physics mailbox

Format and defaults: docs/controls.md.
"""
