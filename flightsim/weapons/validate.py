"""A missile's validation cards (weapons/<id>/missile.toml [[figure]]), flown from their launch
conditions by the envelope's own shots (flightsim/weapons/envelope.py).

    python -m flightsim.weapons validate --weapon aim120c [--json]

Labels as the aircraft's (flightsim/validate): "within" its tolerance (or the source's low..high),
"explained" where the record says the sources disagree, else "unexplained" with what is known of
the fault in ``cause``; the command exits 1 while any is unexplained.
"""
from __future__ import annotations

from .data import load_missile
from .envelope import TARGET_G, burnout, range_limit


def model_value(missile, f: dict) -> float:
    if f["card"] == "burnout_mach":
        return burnout(missile, f["altitude_m"], f["launch_mach"])[0]
    aspect = {"rmax_head_on": "head_on", "rmax_tail_on": "tail_on", "rmin": "rmin", "no_escape": "turning_away"}
    return range_limit(missile, f["altitude_m"], f["launch_mach"], f["target_mach"], aspect[f["card"]], TARGET_G) / 1000.0


def validate(weapon: str) -> dict:
    missile = load_missile(weapon)
    rows = []
    for f in missile.figures:
        model = model_value(missile, f)
        err = 100.0 * (model - f["value"]) / f["value"]
        if f["low"] is not None and f["high"] is not None:
            inside = f["low"] <= model <= f["high"]
        else:
            inside = abs(err) <= f["tolerance_pct"]
        status = "within" if inside else "explained" if f["disagreement"] else "unexplained"
        rows.append({"card": f["card"], "published": f["value"], "low": f["low"], "high": f["high"], "model": model,
                     "unit": f["unit"], "error_pct": err, "tolerance_pct": f["tolerance_pct"],
                     "altitude_m": f["altitude_m"], "launch_mach": f["launch_mach"], "target_mach": f["target_mach"],
                     "source": f["source"], "status": status, "cause": f["cause"], "disagreement": f["disagreement"]})
    open_rows = [r for r in rows if r["status"] == "unexplained"]
    return {"weapon": missile.id, "name": missile.missile["name"], "figures": rows,
            "summary": {"figures": len(rows), "within": sum(r["status"] == "within" for r in rows),
                        "unexplained": len(open_rows)}}


def print_validation(r: dict) -> None:
    print(f"{r['name']}: {r['summary']['within']} of {r['summary']['figures']} figures within their tolerance")
    for x in r["figures"]:
        cond = f"{x['altitude_m']:.0f} m, launch M {x['launch_mach']:.2f}"
        if x["card"] != "burnout_mach":
            cond += f", target M {x['target_mach']:.2f}"
        print(f"  {x['card']:13s} {cond:38s} model {x['model']:7.2f}  published {x['published']:7.2f} {x['unit']:4s} "
              f"{x['error_pct']:+6.1f} %  {x['status']}")
