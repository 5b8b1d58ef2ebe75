"""Fly every card an aircraft's references.toml lists, and compare.

``validate(aircraft)`` returns the result the command line prints as JSON and the report draws:

    {"aircraft": "p51d",
     "figures": [{"figure", "condition", "published", "model", "unit", "error_pct", "source",
                  "card", "checked", "tolerance_pct", "status", "where", "trust", "note", ...}],
     "behaviours": [{"behaviour", "pass", "observed", "source", "card", "status", ...}],
     "cards": [{"card", "summary", "result"}],          # flown with no published figure
     "curves": {...},                                   # what the report plots
     "summary": {...}}

A figure's status: "within" (inside its tolerance), "explained" (outside it, and the references
file shows that the sources disagree, the model among them: its ``disagreement``), "unexplained"
(outside it where the sources agree: a fault of the model to find; its ``cause`` says what is known
of it), "shown" (not checked: a figure the file gives for comparison only), "error" (the card
could not be flown). A behaviour's: "pass", "explained" (the sources disagree) or "fail".
"""
from __future__ import annotations

import math
import time
import traceback

from ..aircraft_data.loader import load_aircraft
from . import cards, performance


def _figure(aircraft, f, log) -> dict:
    row = {"figure": f.name, "condition": f.condition_text(), "published": f.value, "model": None, "unit": f.unit,
           "error_pct": None, "source": f.citation(), "card": f.card, "checked": f.check,
           "tolerance_pct": f.tolerance_pct, "trust": f.source.trust, "note": f.note,
           "disagreement": f.disagreement, "cause": f.cause,
           "conditions": {k: v for k, v in f.cond.items() if v not in (None, "")}}
    t0 = time.perf_counter()
    try:
        model = float(cards.FIGURES[f.card](aircraft, f.cond))
    except (RuntimeError, ValueError) as e:
        row.update(status="error", error=f"{type(e).__name__}: {e}")
        log(f"  {f.card:18s} {f.name}: could not be flown ({e})")
        return row
    err = 100.0 * (model - f.value) / f.value
    within = abs(err) <= f.tolerance_pct
    status = "shown" if not f.check else "within" if within else "explained" if f.disagreement else "unexplained"
    row.update(model=round(model, 4), error_pct=round(err, 2), status=status,
               seconds=round(time.perf_counter() - t0, 1))
    log(f"  {f.card:18s} {f.condition_text()[:60]:60s} {f.value:9.2f} {model:9.2f} {f.unit:6s} {err:+6.1f} % {status}")
    return row


def _behaviour(aircraft, b, log) -> dict:
    row = {"behaviour": b.text, "pass": False, "observed": "", "source": b.citation(), "card": b.card,
           "trust": b.source.trust, "note": b.note, "disagreement": b.disagreement, "cause": b.cause,
           "limit": b.limit, "low": b.low, "high": b.high}
    t0 = time.perf_counter()
    try:
        ok, words = cards.BEHAVIOURS[b.card](aircraft, b)
    except (RuntimeError, ValueError) as e:
        row.update(status="error", observed=f"could not be flown: {e}")
        log(f"  {b.card:18s} could not be flown ({e})")
        return row
    row.update({"pass": bool(ok), "observed": words, "seconds": round(time.perf_counter() - t0, 1),
                "status": "pass" if ok else "explained" if b.disagreement else "fail"})
    log(f"  {b.card:18s} {row['status']}: {words}")
    return row


def _curves(aircraft, refs, powered) -> dict:
    """The model curves the report plots under the published points."""
    if refs.of("level_mach"):
        from . import maneuver  # a jet: its flight envelope
        return maneuver.curves(aircraft, refs)
    if powered:
        from ..tools import perf
        lv = [f for f in refs.of("level_speed") if f.check] or refs.of("level_speed")
        mass = lv[0].cond["mass_kg"] if lv else None
        heights = [0.0, 1000.0, 2000.0, 3000.0, 3500.0, 4000.0, 4500.0, 5000.0, 5500.0, 6500.0, 7500.0, 8500.0,
                   9500.0, 10500.0, 11500.0, 12500.0]
        return {"performance": perf.curves(aircraft, mass, heights),
                "reference_points": refs.reference_points()}
    ref = refs.reference_dict()
    return {"polar": performance.glide_polar(aircraft, ref["mass_kg"] if ref else None), "polar_reference": ref}


def validate(aircraft: str, log=lambda line: None) -> dict:
    """Fly every figure and behaviour of ``aircraft/<id>/references.toml`` and the model-only
    cards; ``log`` receives a line per card as it is flown."""
    t_start = time.perf_counter()
    spec = load_aircraft(aircraft)
    refs = spec.references
    if refs is None:
        raise FileNotFoundError(f"aircraft {aircraft!r} has no references: nothing to validate against")
    if refs.error is not None:
        raise refs.error
    if refs.path is None:
        raise FileNotFoundError(f"aircraft {aircraft!r} has no references.toml: nothing to validate against")
    powered = performance._sim(aircraft, None).powered
    log(f"{aircraft}: {len(refs.figures)} figures, {len(refs.behaviours)} statements ({refs.path})")
    figures = [_figure(aircraft, f, log) for f in refs.figures]
    behaviours = [_behaviour(aircraft, b, log) for b in refs.behaviours]
    log("  model-only cards and curves")
    try:
        extra = cards.model_only(aircraft, refs, powered)
    except (RuntimeError, ValueError):
        extra = [{"card": "model_only", "summary": "failed: " + traceback.format_exc(limit=2), "result": None}]
    for c in extra:
        log(f"  {c['card']:18s} {c['summary']}")
    curves = _curves(aircraft, refs, powered)
    count: dict[str, int] = {}
    for r in figures + behaviours:
        count[r["status"]] = count.get(r["status"], 0) + 1
    checked = [r for r in figures if r["checked"] and r["error_pct"] is not None]
    worst = max(checked, key=lambda r: abs(r["error_pct"]), default=None)
    summary = {"figures": len(figures), "behaviours": len(behaviours), "by_status": count,
               "unexplained": sum(count.get(s, 0) for s in ("unexplained", "fail", "error")),
               "worst_checked": None if worst is None else {"figure": worst["figure"], "condition": worst["condition"],
                                                            "error_pct": worst["error_pct"]},
               "rms_error_pct": None if not checked else round(math.sqrt(sum(r["error_pct"] ** 2 for r in checked)
                                                                        / len(checked)), 2),
               "seconds": round(time.perf_counter() - t_start, 1)}
    return {"aircraft": aircraft, "name": spec.aircraft.get("name", aircraft), "powered": powered,
            "references": str(refs.path), "figures": figures, "behaviours": behaviours, "cards": extra,
            "curves": curves, "summary": summary}
