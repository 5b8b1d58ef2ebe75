"""Flight-test validation: every aircraft flown against its published figures.

``python -m flightsim.validate --aircraft ID [--json] [--report DIR]`` reads
``aircraft/<ID>/references.toml`` (flightsim.aircraft_data.references), flies the card each figure and
statement names, the way test pilots fly them, in the full 6-DOF model (steady figures as trims
of it), and compares.

    run.py          the runner: every figure and statement, the model-only cards, the curves
    cards.py        which card flies which figure or statement
    flight.py       a card's start: the aircraft trimmed straight at a test condition
    performance.py  speeds, climbs, ceiling, engine power, stall speeds, the glide polar
    roll.py         steady roll rate at a stick force, a glider's 45-to-45 roll reversal
    handling.py     stick force per g, trim changes, speed stability, turn performance
    stall.py        the stall's character: wings level, in a turn, after a winch pull-up
    systems.py      wing twist's aileron reversal, the adjustable stabilizer, automatic slats
    ground.py       take-off and landing ground runs
    launch.py       winch launches, the weak link, a thermal climb (in the game's own world)
    plots.py        the report's plots; report.py its HTML page
"""
