"""Guided weapons (issue 35): missiles as data files (weapons/<id>/missile.toml, ``data``), flown by
the physics (flightsim/physics/missile.py), and their launch envelopes (``envelope``;
``python -m flightsim.weapons``)."""
