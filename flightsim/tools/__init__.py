"""The engineer's tools: the wind tunnel and its sweeps, the roll rig, the jet's
energy-maneuverability rig, the climb's power budget, and the benchmarks beside JSBSim.
(The flight-test cards are flightsim.validate.)"""
