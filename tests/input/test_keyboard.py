from flightsim.handoff import ControlInputs
from flightsim.input.keyboard import KeyboardControls


def test_ramp_and_recentre():
    k = KeyboardControls(ControlInputs(pitch_trim=0.2))
    k.press("pitch_up")
    c = k.update(0.1)
    assert 0.0 < c.pitch < 0.5          # ramps, does not jump
    for _ in range(10):
        c = k.update(0.1)
    assert c.pitch == 1.0
    k.release("pitch_up")
    for _ in range(3):
        c = k.update(0.1)
    assert c.pitch == 0.0 and c.pitch_trim == 0.2
    k.press("airbrake")
    c = k.update(0.5)
    assert 0.4 < c.airbrake < 0.6
    c = k.update(1.0)
    assert c.airbrake == 1.0
