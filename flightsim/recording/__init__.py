"""The flight recorder: recording (recorder), the file (format), re-simulating and verifying
(replay), exporting to IGC, Tacview ACMI and CSV (export)."""
