"""What an aircraft's instruments look like: units, scale ranges, airspeed colour markings.

Read from ``aircraft/<id>/instruments.toml`` when the aircraft has one (the Astir's
cites its flight manual), otherwise derived from the aircraft file: the red line at its
``vne_kmh``, the green arc from 1.1 x its reference stall speed. Powered aircraft default
to the units of a WW2 American fighter panel (mph, feet, ft/min, inHg) and get the engine
gauges listed in ``ENGINE_GAUGES``; an instruments.toml's ``[[engine_gauge]]`` list replaces
them (e.g. a boost gauge in lb/in2 or an ata gauge: ``values.ENGINE_SOURCES``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..aircraft_data.schema import DataError, Field, num, positive, read_toml, validate_table

KMH_PER_UNIT = {"kmh": 1.0, "kt": 1.852, "mph": 1.609344}
M_PER_UNIT = {"m": 1.0, "ft": 0.3048}
MS_PER_UNIT = {"ms": 1.0, "fpm": 0.00508}
SPEED_LABEL = {"kmh": "km/h", "kt": "kt", "mph": "mph"}
ALT_LABEL = {"m": "m", "ft": "ft"}
VS_LABEL = {"ms": "m/s", "fpm": "ft/min"}
COLOURS = ("green", "yellow", "white", "red", "blue")

INSTRUMENT_KEYS = {
    "speed_unit": Field("enum", required=False, default="kmh", choices=tuple(KMH_PER_UNIT)),
    "altitude_unit": Field("enum", required=False, default="m", choices=tuple(M_PER_UNIT)),
    "vertical_speed_unit": Field("enum", required=False, default="ms", choices=tuple(MS_PER_UNIT)),
    "asi_min_kmh": num(False, 0.0),
    "asi_max_kmh": num(False, None, positive),
    "vario_range_ms": num(False, 5.0, positive),
    "vario_time_constant_s": num(False, 1.0, positive),
    "vne_kmh": num(False, None, positive),
    "va_kmh": num(False, None, positive),
    "vw_kmh": num(False, None, positive),
    "vt_kmh": num(False, None, positive),
    "approach_kmh": num(False, None, positive),
    "stall_kmh": num(False, None, positive),
    "g_limit_max": num(False, None, positive),
    "g_limit_min": num(False, None),
}
ARC_KEYS = {"color": Field("enum", choices=COLOURS), "from_kmh": num(check=positive), "to_kmh": num(check=positive)}
MARK_KEYS = {"kind": Field("enum", choices=("red_line", "yellow_triangle", "blue_line", "tick")),
             "at_kmh": num(check=positive), "label": Field("str", required=False, default="")}
GAUGE_KEYS = {"field": Field("str"), "label": Field("str"), "unit": Field("str", required=False, default=""),
              "min": num(), "max": num(), "scale": num(False, 1.0, positive),
              "green_from": num(False, None), "green_to": num(False, None),
              "yellow_from": num(False, None), "yellow_to": num(False, None), "red_at": num(False, None),
              "step": num(False, None, positive), "label_every": num(False, None, positive)}


@dataclass(frozen=True)
class Arc:
    color: str
    from_kmh: float
    to_kmh: float


@dataclass(frozen=True)
class Mark:
    kind: str
    at_kmh: float
    label: str = ""


@dataclass(frozen=True)
class GaugeSpec:
    """A round engine gauge reading one optional snapshot field (value shown = field * scale)."""
    field: str
    label: str
    unit: str
    min: float
    max: float
    scale: float = 1.0
    green: tuple | None = None
    yellow: tuple | None = None
    red_at: float | None = None
    step: float | None = None           # minor tick spacing, display units
    label_every: float | None = None    # numeral spacing, display units


# Piston-fighter engine gauges (P-51D-like), shown for powered aircraft whose snapshot
# carries the reading (flightsim.instruments.values.engine_value: rpm, manifold_pressure_inhg,
# oil_temp_c, coolant_temp_c, fuel_kg -- or the powered-flight Snapshot's engine_rpm,
# manifold_pressure_pa, oil_k, coolant_k, fuel_kg). An aircraft's [[engine_gauge]] may read
# the manifold pressure as British boost instead (boost_psi, lb/in2 above 14.7: its min may
# be negative) or in German ata (manifold_pressure_ata).
# Ranges: propeller governor 1800-3000 rpm (DCS P-51D manual, propeller control lever);
# 61 inHg military power (Henriques, "P-51 Mustang", migman.com); coolant normally
# 100-110 C (Twin & Turbine, Aug 2015, Stallion 51 article); fuel 269 US gal = 1614 lb
# = 732 kg with the fuselage tank (AOPA Pilot, Aug 2007, spec sheet). Oil-temperature
# band and the red lines are assumed.
ENGINE_GAUGES = (
    GaugeSpec("rpm", "RPM", "x100", 0.0, 45.0, scale=0.01, green=(18.0, 27.0), yellow=(27.0, 30.0), red_at=30.0,
              step=2.5, label_every=10.0),
    GaugeSpec("manifold_pressure_inhg", "MAP", "in Hg", 10.0, 75.0, green=(28.0, 46.0), yellow=(46.0, 61.0),
              red_at=61.0, step=5.0, label_every=20.0),
    GaugeSpec("oil_temp_c", "OIL", "\u00b0C", 0.0, 120.0, green=(70.0, 80.0), yellow=(80.0, 90.0), red_at=90.0,
              step=10.0, label_every=40.0),
    GaugeSpec("oil_pressure_psi", "OIL P", "psi", 0.0, 100.0, green=(70.0, 80.0), yellow=(50.0, 70.0),
              step=10.0, label_every=20.0),
    GaugeSpec("coolant_temp_c", "COOL", "\u00b0C", 0.0, 150.0, green=(100.0, 110.0), yellow=(110.0, 121.0),
              red_at=121.0, step=10.0, label_every=50.0),
    GaugeSpec("fuel_kg", "FUEL", "kg", 0.0, 750.0, yellow=(0.0, 100.0), step=50.0, label_every=250.0),
)
ENGINE_FIELDS = tuple(g.field for g in ENGINE_GAUGES)


@dataclass
class InstrumentSpec:
    name: str = ""
    kind: str = "glider"
    speed_unit: str = "kmh"
    altitude_unit: str = "m"
    vertical_speed_unit: str = "ms"
    asi_min_kmh: float = 0.0
    asi_max_kmh: float = 300.0
    vario_range_ms: float = 5.0
    vario_time_constant_s: float = 1.0
    vne_kmh: float | None = None
    va_kmh: float | None = None
    vw_kmh: float | None = None
    vt_kmh: float | None = None
    approach_kmh: float | None = None
    stall_kmh: float | None = None
    g_limit_max: float = 5.3          # JAR 22.337 Utility category (gliders); powered default below
    g_limit_min: float = -2.65
    arcs: list = field(default_factory=list)
    marks: list = field(default_factory=list)
    engine_gauges: tuple = ENGINE_GAUGES
    source: str = "derived"           # the instruments.toml path, or "derived"
    # pitch trim by the whole tailplane ([controls.stabilizer_trim]): its travel (nose up, nose
    # down, deg) for the trim indicator; None: an elevator trim tab
    stabilizer_travel_deg: tuple | None = None

    # ------------------------------------------------------------ unit helpers
    def stabilizer_deg(self, trim_position: float) -> float | None:
        """The tailplane's incidence change (deg, + leading edge up) at a pitch trim position
        (-1 full nose down .. +1 full nose up), or None without stabilizer trim."""
        if self.stabilizer_travel_deg is None:
            return None
        up, down = self.stabilizer_travel_deg
        return -trim_position * (up if trim_position > 0.0 else down)

    def speed(self, kmh: float) -> float:
        """km/h -> the ASI's unit."""
        return kmh / KMH_PER_UNIT[self.speed_unit]

    def altitude(self, m: float) -> float:
        return m / M_PER_UNIT[self.altitude_unit]

    def vertical_speed(self, ms: float) -> float:
        return ms / MS_PER_UNIT[self.vertical_speed_unit]

    @property
    def speed_label(self) -> str:
        return SPEED_LABEL[self.speed_unit]

    @property
    def altitude_label(self) -> str:
        return ALT_LABEL[self.altitude_unit]

    @property
    def vs_label(self) -> str:
        return VS_LABEL[self.vertical_speed_unit]

    @property
    def glider(self) -> bool:
        return self.kind == "glider"


def _nice_ceiling(x: float, step: float) -> float:
    return step * -(-x // step)


def derived(compiled=None, name="", kind="glider", vne_kmh=None, stall_kmh=None, mass_kg=None) -> InstrumentSpec:
    """Markings from the aircraft file alone (no instruments.toml)."""
    if compiled is not None:
        spec = compiled.spec
        name = compiled.name
        kind = spec.aircraft.get("kind", kind)
        vne_kmh = spec.aircraft.get("vne_kmh", vne_kmh)
        ref = spec.reference or {}
        if ref.get("stall_kmh"):
            stall_kmh = ref["stall_kmh"] * (compiled.mass_kg / ref["mass_kg"]) ** 0.5
    powered = kind == "powered"
    stab = None
    if compiled is not None and compiled.spec.controls.get("stabilizer_trim"):
        st = compiled.spec.controls["stabilizer_trim"]
        stab = (st["nose_up_deg"], st["nose_down_deg"])
    s = InstrumentSpec(name=name, kind=kind, speed_unit="mph" if powered else "kmh",
                       altitude_unit="ft" if powered else "m", vertical_speed_unit="fpm" if powered else "ms",
                       vne_kmh=vne_kmh, stall_kmh=stall_kmh, stabilizer_travel_deg=stab)
    if vne_kmh:
        s.asi_max_kmh = _nice_ceiling(vne_kmh * 1.15, 50.0 if not powered else 80.0)
        s.marks.append(Mark("red_line", vne_kmh))
        lo = 1.1 * stall_kmh if stall_kmh else 0.3 * vne_kmh
        s.arcs += [Arc("green", lo, 0.7 * vne_kmh), Arc("yellow", 0.7 * vne_kmh, vne_kmh)]
    if powered:
        s.g_limit_max, s.g_limit_min = 8.0, -4.0     # P-51D limit load factors (AOPA Pilot, Aug 2007)
        s.asi_min_kmh = 0.0
        s.vario_range_ms = 6000 * 0.00508     # 6000 ft/min VSI
    else:
        s.asi_min_kmh = 40.0
    return s


def load(compiled) -> InstrumentSpec:
    """The instruments of a compiled aircraft: its instruments.toml, else derived."""
    path = Path(compiled.spec.path).parent / "instruments.toml"
    base = derived(compiled)
    if not path.exists():
        return base
    return load_file(path, base)


def load_file(path: Path, base: InstrumentSpec | None = None) -> InstrumentSpec:
    base = base or InstrumentSpec()
    data = read_toml(path)
    allowed = {"instruments", "asi_arc", "asi_mark", "engine_gauge"}
    for key in data:
        if key not in allowed:
            raise DataError(path, key, f"unknown table (allowed: {', '.join(sorted(allowed))})")
    head = validate_table(data.get("instruments", {}), INSTRUMENT_KEYS, path, "instruments")
    s = InstrumentSpec(name=base.name, kind=base.kind, source=str(path), stabilizer_travel_deg=base.stabilizer_travel_deg)
    for k, v in head.items():
        setattr(s, k, v if v is not None else getattr(base, k))
    if s.asi_max_kmh is None:
        s.asi_max_kmh = base.asi_max_kmh
    if "asi_arc" in data:
        s.arcs = [Arc(**validate_table(a, ARC_KEYS, path, f"asi_arc[{i}]")) for i, a in enumerate(data["asi_arc"])]
    else:
        s.arcs = list(base.arcs)
    if "asi_mark" in data:
        s.marks = [Mark(**validate_table(m, MARK_KEYS, path, f"asi_mark[{i}]"))
                   for i, m in enumerate(data["asi_mark"])]
    else:
        s.marks = list(base.marks)
    for i, a in enumerate(s.arcs):
        if a.to_kmh <= a.from_kmh:
            raise DataError(path, f"asi_arc[{i}].to_kmh", "must be greater than from_kmh")
    if "engine_gauge" in data:
        gauges = []
        for i, g in enumerate(data["engine_gauge"]):
            r = validate_table(g, GAUGE_KEYS, path, f"engine_gauge[{i}]")
            band = lambda a, b: (r[a], r[b]) if r[a] is not None and r[b] is not None else None
            gauges.append(GaugeSpec(r["field"], r["label"], r["unit"], r["min"], r["max"], r["scale"],
                                    band("green_from", "green_to"), band("yellow_from", "yellow_to"), r["red_at"],
                                    r["step"], r["label_every"]))
        s.engine_gauges = tuple(gauges)
    return s
