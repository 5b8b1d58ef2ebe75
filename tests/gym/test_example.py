"""examples/tune_glide_pid.py runs: a short tuning (no window) improves on the hand guess."""
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")
ROOT = Path(__file__).resolve().parents[2]


def test_the_example_tunes_an_autopilot(tmp_path):
    out = tmp_path / "gains.json"
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "tune_glide_pid.py"), "--no-window", "--generations", "3",
                        "--population", "8", "--scenarios", "2", "--seconds", "10", "--save", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "generation  3" in r.stdout and "env steps in" in r.stdout
    import json
    saved = json.loads(out.read_text())
    assert len(saved["gains"]) == 7 and 0.0 < saved["score"] <= 1.0
