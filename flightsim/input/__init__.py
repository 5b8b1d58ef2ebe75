"""Input devices -> ControlInputs (keyboard now; joystick later)."""
