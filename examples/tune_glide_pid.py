"""Tune a glider autopilot by random search on flightsim/Glide-v0, then watch it fly in the game.

    pip install -e '.[gym]'
    python examples/tune_glide_pid.py                  # about 30-60 s of tuning, then the window
    python examples/tune_glide_pid.py --no-window      # tuning only (no display needed)

The autopilot holds a heading with the ailerons (a bank angle in proportion to the heading
error, the roll rate damping it), an airspeed with the elevator (proportional, integral and
pitch-rate damping) and the ball in the middle with the rudder: seven gains. Random search:
each generation tries ``--population`` gain sets around the best so far, every one on the same
``--scenarios`` starts and targets, all of them side by side in one vector environment
(one numba call per step for all the gliders, on every core). Reward: Glide-v0's, 0..1 per
step (1 = on speed and on heading); the score is the mean over the episode.

The tuned gains then fly the Astir in the game window ("high" scenario: 1,800 m above the
field), through the same controls the player's stick writes (flightsim.app.cli.main(pilot=...)):
turning onto heading 270 and holding 95 km/h. Close the window to end.
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np

import flightsim.gym  # noqa: F401  (registers the environments)
from flightsim.gym.env import FlightVectorEnv
from flightsim.physics.named import Controls

NAMES = ("heading", "bank", "roll_rate", "speed", "speed_integral", "pitch_rate", "sideslip")
START = np.array([1.0, 1.0, 0.3, 0.5, 0.1, 0.3, 0.5])      # a hand guess, in the units below


class GlidePID:
    """The autopilot over arrays (one row per glider); gains: (n, 7) or (7,)."""

    def __init__(self, gains, n=1, dt_s=0.02):
        self.g = np.broadcast_to(np.asarray(gains, dtype=np.float64), (n, len(NAMES))).T
        self.integral = np.zeros(n)
        self.dt_s = dt_s

    def __call__(self, heading_error_deg, ias_error_kmh, roll_deg, roll_rate_dps, pitch_rate_dps, beta_deg):
        k_h, k_phi, k_p, k_v, k_i, k_q, k_b = self.g
        bank_cmd = np.clip(k_h * heading_error_deg, -30.0, 30.0)            # deg of bank per deg of error
        roll = k_phi * (bank_cmd - roll_deg) / 30.0 - k_p * roll_rate_dps / 30.0
        self.integral = np.clip(self.integral + ias_error_kmh * self.dt_s, -200.0, 200.0)
        pitch = k_v * ias_error_kmh / 20.0 + k_i * self.integral / 50.0 - k_q * pitch_rate_dps / 20.0
        yaw = -k_b * beta_deg / 10.0
        return np.clip(np.stack([pitch, roll, yaw], axis=-1), -1.0, 1.0)


def evaluate(env: FlightVectorEnv, gains: np.ndarray, scenarios: int, seed: int) -> np.ndarray:
    """Mean reward per step of each gain set (rows of gains) over the same ``scenarios`` starts."""
    n = env.num_envs
    env.reset(seed=seed)
    t = env.task
    for i in range(scenarios, n):            # every candidate flies the same starts and targets
        j = i % scenarios
        t.fleet.states[i], t.fleet.ctrls[i], t.fleet.diags[i] = t.fleet.states[j], t.fleet.ctrls[j], t.fleet.diags[j]
        t.target_ias_kmh[i], t.target_heading_deg[i] = t.target_ias_kmh[j], t.target_heading_deg[j]
    obs = t.observe()
    col = {name: k for k, name in enumerate(env.observation_names)}
    pilot = GlidePID(np.repeat(gains, scenarios, axis=0), n)
    total = np.zeros(n)
    alive = np.ones(n, dtype=bool)
    for _ in range(t.max_steps):
        act = pilot(obs[:, col["heading_error_deg"]], obs[:, col["ias_error_kmh"]], obs[:, col["roll_deg"]],
                    obs[:, col["roll_rate_dps"]], obs[:, col["pitch_rate_dps"]], obs[:, col["beta_deg"]])
        obs, r, term, trunc, _ = env.step(act.astype(np.float32))
        total += r * alive
        alive &= ~term
        if trunc.any():
            break
    return (total / t.max_steps).reshape(-1, scenarios).mean(axis=1)


def tune(generations: int, population: int, scenarios: int, seconds: float, seed: int):
    env = FlightVectorEnv("Glide-v0", num_envs=population * scenarios)
    env.task.max_steps = int(seconds / 0.02)
    rng = np.random.default_rng(seed)
    best = START.copy()
    best_score = 0.0
    scale = 0.5
    t0 = time.perf_counter()
    for g in range(generations):
        cand = best * np.exp(rng.normal(0.0, scale, size=(population, len(NAMES))))
        cand[0] = best                                    # the best so far, judged on the new starts too
        scores = evaluate(env, cand, scenarios, seed + 1 + g)
        k = int(np.argmax(scores))
        best, best_score = cand[k], float(scores[k])
        scale = max(0.1, scale * 0.85)
        hand = f" (the hand guess {scores[0]:.3f})" if g == 0 else ""
        print(f"generation {g + 1:2d}: best {best_score:.3f}{hand}   {time.perf_counter() - t0:5.1f} s", flush=True)
    steps = generations * population * scenarios * env.task.max_steps
    print(f"{steps:,} env steps in {time.perf_counter() - t0:.1f} s")
    return best, best_score


class GamePilot:
    """The tuned autopilot in the game: reads the aircraft by name, writes the controls."""

    def __init__(self, gains, heading_deg=270.0, ias_kmh=95.0):
        from flightsim.sim import Sim
        self.pid = GlidePID(gains, 1)
        self.heading_deg, self.ias_kmh = heading_deg, ias_kmh
        # the elevator trim tab set for the target speed, as Glide-v0's starts are trimmed
        self.trim_tab = Controls(Sim("astir").trimmer(1000.0).glide(ias_kmh / 3.6).ctrl).pitch_trim

    def __call__(self, view):
        err_h = (self.heading_deg - view.heading_deg + 180.0) % 360.0 - 180.0
        pitch, roll, yaw = self.pid(np.array([err_h]), np.array([view.ias_kmh - self.ias_kmh]),
                                    np.array([view.roll_deg]), np.array([view.roll_rate_dps]),
                                    np.array([view.pitch_rate_dps]), np.array([view.beta_deg]))[0]
        return Controls(pitch=pitch, roll=roll, yaw=yaw, pitch_trim=self.trim_tab)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--generations", type=int, default=25)
    ap.add_argument("--population", type=int, default=32)
    ap.add_argument("--scenarios", type=int, default=8, help="starts and targets every gain set is judged on")
    ap.add_argument("--seconds", type=float, default=40.0, help="episode length")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-window", action="store_true", help="tune only")
    ap.add_argument("--save", default=None, help="write the gains to this JSON file")
    args = ap.parse_args(argv)
    gains, score = tune(args.generations, args.population, args.scenarios, args.seconds, args.seed)
    print("gains: " + ", ".join(f"{n} {v:.3f}" for n, v in zip(NAMES, gains)) + f"  (score {score:.3f})")
    if args.save:
        with open(args.save, "w") as f:
            json.dump({"gains": dict(zip(NAMES, map(float, gains))), "score": score}, f, indent=1)
    if not args.no_window:
        from flightsim.app.cli import main as game
        return game(["--scenario", "high", "--aircraft", "astir"], pilot=GamePilot(gains))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
