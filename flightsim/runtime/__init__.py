"""The running simulation between the physics and everything else: the fixed 50 Hz physics
thread, and what crosses between threads (the control mailbox in, immutable snapshots out).
numpy, numba and the standard library only: it runs with no window."""
