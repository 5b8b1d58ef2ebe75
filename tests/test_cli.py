"""The command-line JSON shapes written in the issues are a public interface."""
import json
import subprocess
import sys


def run_json(*args):
    r = subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def test_tunnel_polar_json_shape():
    r = run_json("flightsim.tunnel", "polar", "--aircraft", "astir", "--mass-kg", "372", "--json")
    assert isinstance(r["aircraft"], str) and r["aircraft"] == "astir"
    assert r["mass_kg"] == 372.0
    assert r["points"] and all(set(p) >= {"tas_kmh", "sink_ms", "glide_ratio"} for p in r["points"])
    assert all(isinstance(p[k], float) for p in r["points"] for k in ("tas_kmh", "sink_ms", "glide_ratio"))
    speeds = [p["tas_kmh"] for p in r["points"]]
    assert speeds == sorted(speeds) and speeds[0] == r["slowest_glide_kmh"] <= r["stall_kmh"] and speeds[-1] == 250.0
    assert all(p["sink_ms"] > 0 for p in r["points"])                                        # sink positive down
    assert set(r["best_glide"]) >= {"tas_kmh", "glide_ratio"}
    assert set(r["min_sink"]) >= {"tas_kmh", "sink_ms"}
    assert isinstance(r["stall_kmh"], float)


def test_tunnel_plot_writes_a_png(tmp_path):
    out = tmp_path / "polar.png"
    subprocess.run([sys.executable, "-m", "flightsim.tunnel", "polar", "--aircraft", "astir", "--plot", str(out)],
                   check=True, capture_output=True)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 20000


def test_bench_json_shape():
    r = run_json("flightsim.bench", "--json", "--seconds", "0.2", "--no-startup")
    for entry in r["physics"]:
        assert isinstance(entry["aircraft"], str)
        assert isinstance(entry["sections"], int) and entry["sections"] > 0
        assert entry["steps_per_s"] > 0 and entry["batched_steps_per_s"] > 0
        assert entry["jsbsim_model"] is None or isinstance(entry["jsbsim_model"], str)
        assert entry["jsbsim_steps_per_s"] is None or entry["jsbsim_steps_per_s"] > 0
        for k in ("single_vs_jsbsim_paired", "single_vs_jsbsim_with_io_paired"):   # from the interleaved windows
            assert (entry[k] is None) == (entry["jsbsim_steps_per_s"] is None) and (entry[k] is None or entry[k] > 0)
    assert {e["aircraft"] for e in r["physics"]} >= {"astir"}


def test_bench_render_json_names_its_milliseconds_as_such():
    """The render measurement's JSON: the frame time's 99th percentile under its glossary name
    (docs/units.md: _msec), and under its older name, the same figure (a public field kept)."""
    r = run_json("flightsim.bench", "--render-only", "--json", "--frames", "5", "--width", "320", "--height", "180",
                 "--quality", "low")["render"]
    assert r["frames"] == 5 and r["fps_mean"] > 0
    assert r["frame_p99_msec"] == r["frame_ms_p99"] > 0
    assert r["max_tick_lateness_msec"] == r["max_tick_lateness_ms"] >= 0
