"""Sound cues: variometer, wind, stall buffet, touchdown, crash, gear and flap motors.

    synth.py    numpy only: what each cue sounds like (pure, tested) and the Mixer
    engine.py   pyglet.media output; no audio device means silence, never an error
"""
