"""The validation report's plots: each the model's curve over the published points.

Every function takes the result of ``flightsim.validate.run.validate`` and a PNG path, draws
one card, and returns a caption (or None when the aircraft has nothing for that card).
"""
from __future__ import annotations

KMH_PER_MPH = 1.609344
STATUS_COLOUR = {"within": "tab:green", "explained": "tab:orange", "unexplained": "tab:red", "shown": "tab:gray",
                 "error": "black"}


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _finish(plt, fig, axes, xlabel, path, title=None):
    """Label, grid and legend every axis, title the figure, write it."""
    for a in axes:
        a.set_xlabel(xlabel)
        a.grid(alpha=0.3)
        a.legend(fontsize=8)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _card(result, name):
    return next((c["result"] for c in result["cards"] if c["card"] == name and c["result"]), None)


def figure_errors(result, path):
    """Every figure's error against its source, with its tolerance band."""
    rows = [r for r in result["figures"] if r["error_pct"] is not None]
    if not rows:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(9, 0.28 * len(rows) + 1.4), dpi=110)
    y = list(range(len(rows)))[::-1]
    for yi, r in zip(y, rows):
        ax.barh(yi, r["error_pct"], color=STATUS_COLOUR[r["status"]], height=0.6)
        ax.plot([-r["tolerance_pct"], r["tolerance_pct"]], [yi, yi], "|", color="k", ms=9)
    ax.set_yticks(y)
    ax.set_yticklabels([f"{r['figure']}, {r['condition'][:48]}" for r in rows], fontsize=7)
    ax.axvline(0.0, color="k", lw=0.8)
    ax.set_xlabel("model minus published, % of published")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(f"{result['name']}: every published figure")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return "Every figure's error against its source. Green: within its tolerance (the black ticks); orange: outside " \
           "it where the sources disagree; red: outside it and unexplained (the model's fault); " \
           "grey: shown for comparison, not checked."


def polar(result, path):
    if "polar" not in result["curves"]:
        return None
    from ..tools.tunnel import plot_polar
    plot_polar(result["curves"]["polar"], result["curves"]["polar_reference"], path)
    return "Glide polar: steady glides of the full model (airbrakes in, sea level), over the published polar."


def performance(result, path):
    if "performance" not in result["curves"]:
        return None
    from ..tools.perf import plot_performance
    plot_performance(result["curves"]["performance"], result["curves"]["reference_points"], path)
    return "Maximum level speed and best climb against altitude, over the published figures (circles: checked)."


def roll_rate(result, path):
    curve = _card(result, "roll_curve")
    if curve is None:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 5), dpi=110)
    pts = curve["points"]
    ax.plot([p["ias_kmh"] for p in pts], [p["roll_rate_dps"] for p in pts], "-o", color="tab:blue", ms=4,
            label=f"model, {curve['stick_force_n'] or 0:.0f} N lateral force (or full aileron)")
    pub = [r for r in result["figures"] if r["card"] == "roll_rate"]
    if pub:
        ax.plot([r["conditions"]["ias_kmh"] for r in pub], [r["published"] for r in pub], "s", mfc="none",
                color="tab:red", ms=9, label="published")
        ax.plot([r["conditions"]["ias_kmh"] for r in pub], [r["model"] for r in pub], "x", color="tab:blue", ms=8,
                label="model at the published points")
    ax.set_ylabel("steady roll rate, deg/s")
    ax.set_ylim(bottom=0.0)
    ax.set_title(f"{result['name']}: roll rate against speed at {curve['altitude_m']:.0f} m")
    _finish(plt, fig, (ax,), "indicated airspeed, km/h", path)
    return ("Steady roll rate against indicated airspeed: full 6-DOF abrupt aileron rolls from trimmed straight "
            "flight, left and right averaged, the stick force held (the aileron deflection it buys falls with "
            "speed as the hinge moment grows).")


def turn(result, path):
    tc = _card(result, "turn")
    if tc is None:
        return None
    plt = _plt()
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.8), dpi=110)
    for kind, style in (("sustained", "-o"), ("instantaneous", "--s")):
        pts = [p for p in tc["points"] if kind in p]
        if not pts:
            continue
        v = [p["ias_kmh"] for p in pts]
        a1.plot(v, [p[kind]["rate_dps"] for p in pts], style, ms=4, label=kind)
        a2.plot(v, [p[kind]["radius_m"] for p in pts], style, ms=4, label=kind)
    a1.set_ylabel("turn rate, deg/s")
    a2.set_ylabel("turn radius, m")
    a2.set_yscale("log")
    _finish(plt, fig, (a1, a2), "indicated airspeed, km/h", path,
            f"{result['name']}: turn performance at {tc['altitude_m']:.0f} m (no published figure: model only)")
    return "Turn rate and radius against speed. " + tc["method"] + "."


def envelope(result, path):
    """A jet's level-flight envelope: maximum level Mach against altitude at maximum and military
    power, and the best specific excess power, over the published speeds."""
    env = result["curves"].get("envelope")
    if env is None:
        return None
    plt = _plt()
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.8), dpi=110)
    rows = env["rows"]
    h = [r["altitude_m"] / 1000.0 for r in rows]
    for power, style in (("max", "-o"), ("military", "--s")):
        a1.plot([r[f"{power}_mach"] if r[f"{power}_mach"] is not None else float("nan") for r in rows], h, style, ms=4,
                label=f"model, {power} power")
    for p in env["points"]:
        a1.plot([p["mach"]], [p["altitude_m"] / 1000.0], "o" if p["checked"] else "o", mfc="k" if p["checked"] else "w",
                mec="k", ms=7)
    a1.set_xlabel("maximum level Mach number")
    a1.set_ylabel("altitude, km")
    a1.legend(fontsize=8)
    a2.plot([r["best_ps_ms"] for r in rows], h, "-o", ms=4)
    a2.set_xlabel("best Ps at 1 g, maximum power, m/s")
    for ax in (a1, a2):
        ax.grid(True, alpha=0.3)
    fig.suptitle(f"{result['name']}: level-flight envelope at {env['mass_kg']:.0f} kg (black: published, checked; "
                 "white: shown)")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return ("Maximum level Mach number against altitude (the fastest speed with Ps >= 0 at 1 g) and the best "
            "specific excess power at 1 g, pulls of the full model, over the published speeds.")


def g_limiter(result, path):
    """The flight-control law's full aft stick: load factor and angle of attack against time."""
    g = _card(result, "g_limiter")
    if g is None or not g.get("series"):
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 4.6), dpi=110)
    t = [r[0] for r in g["series"]]
    ax.plot(t, [r[1] for r in g["series"]], "-", label="load factor, g")
    ax.plot(t, [r[2] for r in g["series"]], "--", label="angle of attack, deg")
    ax.axhline(9.0, color="0.4", lw=0.8)
    ax.legend(fontsize=8)
    _finish(plt, fig, (ax,), "time since full aft stick, s", path,
            f"{result['name']}: full aft stick at M {g['mach']:.2f}, {g['altitude_m']:.0f} m (the law's limit 9 g)")
    return ("The G limiter: full aft stick from trimmed level flight above the corner speed; the load factor "
            "comes on at the law's onset rate, meets the limit and holds it while the speed bleeds away, the "
            "angle of attack growing toward its own limit.")


def em_turn(result, path):
    """A jet's energy-maneuverability diagram: turn rate against speed at each altitude flown."""
    curves = [c["result"] for c in result["cards"] if c["card"] == "em_turn" and c["result"]]
    if not curves:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8.5, 5.2), dpi=110)
    for k, c in enumerate(curves):
        rows = c["rows"]
        v = [r["ias_kmh"] for r in rows]
        col = f"C{k}"
        ax.plot(v, [r["instantaneous_dps"] if r["instantaneous_dps"] is not None else float("nan") for r in rows],
                "--", color=col, label=f"{c['altitude_m']:.0f} m instantaneous")
        ax.plot(v, [r["sustained_dps"] if r["sustained_dps"] is not None else float("nan") for r in rows],
                "-", color=col, label=f"{c['altitude_m']:.0f} m sustained")
        if c["corner"]:
            ax.plot([c["corner"]["ias_kmh"]], [c["corner"]["turn_rate_dps"]], "o", color=col)
    ax.set_ylabel("turn rate, deg/s")
    ax.legend(fontsize=8)
    _finish(plt, fig, (ax,), "indicated airspeed, km/h", path,
            f"{result['name']}: turn rate against speed, maximum power (the dots: the corner speed)")
    return ("Sustained (Ps = 0) and instantaneous (the g limit, or the wing at the law's angle-of-attack "
            "limit) turn rates against indicated airspeed, wings-level pulls of the full model (flightsim.tools.maneuver); "
            "the instantaneous curve peaks at the corner speed.")


def winch(result, path):
    row = next((b for b in result["behaviours"] if b["card"] == "winch_launch_speed"), None)
    launches = _card(result, "winch_launches")
    if launches is None:
        return None
    plt = _plt()
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.8), dpi=110)
    for run in launches:
        cols = run["trace"]["columns"]
        rows = run["trace"]["rows"]
        t = [r[cols.index("time_s")] for r in rows]
        a1.plot(t, [r[cols.index("ias_kmh")] for r in rows], label=run["how"])
        a2.plot(t, [r[cols.index("height_m")] for r in rows], label=f"{run['how']}: {run['event']}")
    a1.axhline(launches[0]["launch_speed_kmh"], color="gray", ls=":", label="the driver's launch speed")
    if row is not None and row.get("limit"):
        a1.axhline(row["limit"], color="tab:red", ls="--", label="limit (manual)")
    a1.set_ylabel("indicated airspeed, km/h")
    a2.set_ylabel("height above the launch point, m")
    _finish(plt, fig, (a1, a2), "time from the winch starting, s", path,
            f"{result['name']}: winch launches on the game's {launches[0]['cable_m']:.0f} m cable")
    return ("Winch launch profiles: airspeed and height until the release (or the weak link), flown by the "
            "scenario's autopilot, hands off, and as a newcomer on the keyboard.")


def time_series(result, path, card, ylabel, title, caption, x="time_s"):
    r = _card(result, card)
    if r is None or "trace" not in r:
        return None
    plt = _plt()
    cols, rows = r["trace"]["columns"], r["trace"]["rows"]
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    for k, name in enumerate(cols):
        if name != x:
            ax.plot([row[cols.index(x)] for row in rows], [row[k] for row in rows], label=name)
    ax.set_ylabel(ylabel)
    ax.set_title(f"{result['name']}: {title}")
    _finish(plt, fig, (ax,), x.replace("_s", ", s"), path)
    return caption


def time_to_climb(result, path):
    r = _card(result, "time_to_climb")
    if r is None:
        return None
    plt = _plt()
    h, c = r["altitude_m"], r["climb_ms"]
    t = [0.0]
    for k in range(len(h) - 1):
        t.append(t[-1] + 0.5 * (h[k + 1] - h[k]) * (1.0 / c[k] + 1.0 / c[k + 1]))
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    ax.plot([x / 60.0 for x in t], h, "-o", ms=3, label="model, military power, best-climb speed")
    ax.set_ylabel("altitude, m (ISA)")
    ax.set_title(f"{result['name']}: time to climb")
    _finish(plt, fig, (ax,), "time, min", path)
    return "Time to climb: the best climb rate integrated over height (no published curve found: model only)."


def thermal(result, path):
    return time_series(result, path, "thermal_climb", "altitude, m", "a thermal climb",
                       "A thermal climb: the thermalling autopilot circling and centring the strongest thermal from "
                       "the vario (model only).")


def jsbsim_overlays(result, directory, aircraft) -> list[tuple[str, str]]:
    """One PNG per side-by-side case (``--jsbsim``): each channel of ours over JSBSim's.
    Returns [(file name, caption)]."""
    from .jsbsim_side import CHANNELS
    plt = _plt()
    out = []
    for k, (name, pair) in enumerate(result.get("curves", {}).get("jsbsim", {}).items()):
        fig, axes = plt.subplots(len(CHANNELS), 1, figsize=(8, 1.6 * len(CHANNELS)), sharex=True)
        for a, (ch, label) in zip(axes, CHANNELS):
            a.plot(pair["ours"]["t"], pair["ours"][ch], label="flightsim", color="tab:blue")
            a.plot(pair["jsbsim"]["t"], pair["jsbsim"][ch], label="JSBSim", color="tab:orange", ls="--")
            a.set_ylabel(label, fontsize=8)
        png = f"{aircraft}_jsbsim_{k}.png"
        _finish(plt, fig, axes[-1:], "time s", f"{directory}/{png}", title=f"{aircraft} and JSBSim: {name}")
        out.append((png, f"Side by side with JSBSim, identical inputs: {name}"))
    return out


PLOTS = (("errors", figure_errors), ("polar", polar), ("performance", performance), ("roll_rate", roll_rate),
         ("turn", turn), ("em_turn", em_turn), ("envelope", envelope), ("g_limiter", g_limiter), ("winch", winch),
         ("time_to_climb", time_to_climb), ("thermal", thermal))
