"""The game a player runs: the command line, the window, the app's states (screens.py: loading,
menu, flying, replay, crash) over the flow of worlds (flow.py), the drawing of one frame,
settings, the first start's preparing, and flying with no window (screenshots, telemetry)."""
