"""Cockpit instruments as pure functions of snapshots (numpy + stdlib only).

    spec.py     what the instruments look like: units, scales, the ASI's colour markings
                (aircraft/<id>/instruments.toml, else derived from the aircraft file)
    values.py   readings: airspeed, altitude, total-energy vario, slip ball, yaw string,
                heading, G, AoA, Mach, flight-path marker, HUD scales, stall warning
    state.py    what instruments remember: needle lags, peak G, landing judge, sim rate

The drawing is in flightsim/render/ (cockpit.py, fighter_hud.py, hud.py) and the sound
in flightsim/audio/; both only read these.
"""
