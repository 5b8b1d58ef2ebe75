"""Gymnasium environments on flightsim's own flight model (needs ``pip install -e .[gym]``).

    import gymnasium as gym
    import flightsim.gym                       # registers the environments below
    env = gym.make("flightsim/Glide-v0")       # one aircraft
    envs = gym.make_vec("flightsim/Glide-v0", num_envs=64, vectorization_mode="vector_entry_point")

    flightsim/Glide-v0      Astir: hold a heading and an airspeed in a glide
    flightsim/Thermal-v0    Astir: climb in a thermal
    flightsim/Dogfight-v0   P-51D: a gun solution on the game's AI P-51D

Tasks, observations, actions and rewards: flightsim/gym/tasks.py. The vector environment
steps all its aircraft in one numba call shared over the cores (physics/batch.py);
``python -m flightsim.bench --gym`` measures it beside JSBSim driven the same way.
"""
from __future__ import annotations

try:
    import gymnasium
except ImportError as e:      # pragma: no cover - the message is the point
    raise ImportError("flightsim.gym needs gymnasium: pip install -e '.[gym]'") from e

from .tasks import TASKS

ENV_IDS = tuple(f"flightsim/{name}" for name in TASKS)


def register() -> None:
    for name in TASKS:
        env_id = f"flightsim/{name}"
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(id=env_id, entry_point="flightsim.gym.env:FlightEnv", kwargs={"task": name},
                           vector_entry_point="flightsim.gym.env:FlightVectorEnv")


register()
