"""The game a player runs: the command line, the window and its flow (menu, loading, flying,
replay), the drawing of one frame, settings, the first start's preparing, and flying with no
window (screenshots, telemetry)."""
