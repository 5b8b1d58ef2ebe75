"""flightsim: a real-time flight simulator whose aircraft are assembled from their parts."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AIRCRAFT_DIR = ROOT / "aircraft"
SHADER_DIR = ROOT / "shaders"
ASSET_DIR = ROOT / "assets"
