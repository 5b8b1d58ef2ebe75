"""A float carburettor with a manual mixture lever and carburettor heat, and its ice (seed 001's
Cessna 172: "power falls with altitude and with a wrong mixture; carburettor icing").

* **Metering.** The venturi's pressure drop meters the fuel: the air's mass flow goes as
  ``sqrt(rho_air)``, the fuel's as ``sqrt(rho_fuel)``, so the fuel/air ratio grows as
  ``1 / sqrt(rho_air)``: set full rich at sea level, the mixture gets richer as the aircraft climbs
  (Lycoming, Operator's Manual O-320, section 3 "leaning"; Stinton, The Design of the Aeroplane,
  ch. 7). The mixture lever closes the fuel's metering area from full rich (0) to idle cut-off (1).
* **Power against mixture.** The indicated work relative to that at the best-power mixture, against
  the equivalence ratio phi = FAR / FAR_stoich: flat between phi 1.2 and 1.3 (best power), 4-5 %
  lower at the stoichiometric mixture, falling with the fuel lean of it and with incomplete
  combustion rich of it, to nothing at the lean and rich running limits (Heywood, Internal
  Combustion Engine Fundamentals, 1988, ch. 15: a spark-ignition engine's imep and efficiency
  against the equivalence ratio; the running limits of a carburetted engine with its uneven
  distribution, phi 0.62 and 2.0, assumed). ``MIXTURE_PHI`` / ``MIXTURE_POWER`` below.
* **Exhaust gas temperature** peaks at the stoichiometric mixture, best power running about
  130 F rich of the peak (Lycoming, Operator's Manual, leaning with an EGT gauge: best power
  100-150 F rich of peak); the peak rise at rated power is the engine's ``egt_peak_rise_k``.
* **Carburettor air temperature.** The air cools in the carburettor by the fuel's evaporation
  (70 % of it evaporated by the throttle plate; latent heat 350 kJ/kg) and by its expansion past
  the throttle (a share of the isentropic drop to the manifold pressure, the rest recovered as the
  flow slows, and no further than the sonic gap of a nearly closed throttle): about 20 K below the
  intake air at full throttle, 30 K at cruise, 35 K closed (FAA AC 20-113 and the UK CAA Safety
  Sense 14: "the temperature may drop by as much as 30 C (70 F)"). The evaporated share is not
  published: 70 % puts the icing where the CAA's carburettor-icing chart has it, at cruise power
  up to about 30 C outside and at descent power to about 35 C. Carburettor heat
  draws the air over the exhaust: its rise at 75 % power is the engine's ``carb_heat_rise_k``
  (14 CFR 23.1093(a)(1): 90 F at 75 % of maximum continuous power), less at low power where the exhaust is
  cooler.
* **Ice.** Air cooled below 0 C and below its frost point leaves its surplus water vapour as ice
  on the venturi and throttle plate: the surplus is the intake air's humidity (the environment's
  relative humidity at the ambient temperature) less what saturated air holds over ice at the
  carburettor's temperature and the manifold pressure. A share of it sticks (``ICE_CAPTURE``,
  assumed), less as the carburettor gets so cold that the water freezes into crystals that pass
  through (none below -40 C, assumed); cold air holds little water anyway, which is why the CAA's
  chart shows the risk falling off below about -10 C outside. Ice narrows the bore: the air the
  throttle passes falls by the share of the bore blocked (``ice_block_kg`` closes it wide open,
  a fifth of it the gap of a closed throttle), the manifold pressure and, with a fixed-pitch
  propeller, the rpm fall (at idle in a descent the engine may stop), until carburettor heat melts
  it: air above 0 C gives a share of its heat above 0 C to the ice (``MELT_SHARE``, assumed;
  latent heat of fusion 334 kJ/kg).
"""
import math

from .atmosphere import CP_AIR, KAPPA_EXP
from .jit import kernel
from .layout import EN_CARB_HEAT_RISE, EN_EGT_PEAK_RISE, EN_FAR_RICH, EN_FAR_STOICH, EN_ICE_BLOCK_KG

RHO_SEA_LEVEL = 1.225      # kg/m3: full rich is set at the ISA sea-level density
T_FREEZE = 273.15          # K
L_VAPOUR_FUEL = 350e3      # J/kg, aviation gasoline's latent heat of vaporisation
L_FUSION = 334e3           # J/kg, ice
EVAPORATED = 0.7           # share of the fuel evaporated by the throttle plate (assumed: see the module)
EXPANSION_SHARE = 0.3      # share of the isentropic expansion's cooling past the throttle kept (assumed)
CHOKED_RATIO = 0.528       # the critical pressure ratio for air (gamma 1.4): the gap is sonic below it
ICE_CAPTURE = 0.25         # share of the water frozen out of the air that sticks (assumed)
ICE_CAPTURE_COLD_C = -40.0   # carburettor temperature below which no ice sticks (the water freezes to crystals)
ICE_CAPTURE_FULL_C = -20.0   # ... above which (to 0 C) the full share sticks
MELT_SHARE = 0.1           # share of the air's heat above 0 C that melts the ice (assumed)
HEAT_LOW_POWER = 0.4       # carburettor heat's rise at idle rpm, as a share of its rise at 75 % power rpm
RPM_75 = 0.9               # rpm / rated rpm at 75 % power with a fixed-pitch propeller (about 2,450 of 2,700)
PHI_BEST_POWER = 1.25      # the mixture a pilot leans to for the most rpm (the middle of the flat top)
LEAN_ABOVE_M = 914.4       # the Cessna 172P POH: full rich below 3,000 ft, leaned for the most rpm above
THROTTLE_GAP_SHARE = 0.2   # the ice that closes a throttle at idle, as a share of what closes the open bore (assumed)

# indicated work against the equivalence ratio, relative to best power (see above)
MIXTURE_PHI = (0.62, 0.70, 0.75, 0.80, 0.90, 1.00, 1.10, 1.20, 1.30, 1.40, 1.50, 1.60, 1.70, 1.80, 1.90, 2.00)
MIXTURE_POWER = (0.0, 0.55, 0.72, 0.80, 0.89, 0.955, 0.99, 1.0, 1.0, 0.985, 0.96, 0.92, 0.85, 0.70, 0.40, 0.0)
N_MIXTURE = len(MIXTURE_PHI)


@kernel
def mixture_power(phi):
    """Indicated work at equivalence ratio phi relative to that at the best-power mixture (0
    beyond the running limits)."""
    if phi <= MIXTURE_PHI[0] or phi >= MIXTURE_PHI[N_MIXTURE - 1]:
        return 0.0
    k = 1
    while MIXTURE_PHI[k] < phi:
        k += 1
    x0 = MIXTURE_PHI[k - 1]
    x1 = MIXTURE_PHI[k]
    return MIXTURE_POWER[k - 1] + (MIXTURE_POWER[k] - MIXTURE_POWER[k - 1]) * (phi - x0) / (x1 - x0)


@kernel
def heated_intake(model, row, t_in, heat, rpm_ratio):
    """The intake air's temperature (K) with the carburettor heat lever at ``heat`` (0..1)."""
    h = heat if heat > 0.0 else 0.0
    if h > 1.0:
        h = 1.0
    r = rpm_ratio if rpm_ratio < RPM_75 else RPM_75
    if r < 0.0:
        r = 0.0
    share = HEAT_LOW_POWER + (1.0 - HEAT_LOW_POWER) * r / RPM_75
    return t_in + h * share * model[row, EN_CARB_HEAT_RISE]


@kernel
def metered_far(model, row, lean, rho):
    """The fuel/air ratio the carburettor meters from the intake air's density ``rho``: full rich at
    sea-level density, richer as the air thins, times the mixture lever's opening (lean 0 full
    rich .. 1 idle cut-off)."""
    x = lean if lean > 0.0 else 0.0
    if x > 1.0:
        x = 1.0
    return model[row, EN_FAR_RICH] * math.sqrt(RHO_SEA_LEVEL / rho) * (1.0 - x)


@kernel
def carburettor_temperature(t_in, far, manifold, p_in):
    """The air's temperature at the throttle plate (K): the intake's less the fuel's evaporation
    and the expansion past the throttle."""
    t = t_in - EVAPORATED * far * L_VAPOUR_FUEL / CP_AIR
    ratio = manifold / p_in if p_in > 0.0 else 1.0
    if ratio < CHOKED_RATIO:
        ratio = CHOKED_RATIO            # a nearly closed throttle's gap chokes: the air expands no further there
    if ratio < 1.0:
        t -= EXPANSION_SHARE * t_in * (1.0 - ratio ** (1.0 / KAPPA_EXP))
    return t


@kernel
def exhaust_gas_temperature(model, row, t_charge, far, load):
    """EGT (K): the peak rise at the stoichiometric mixture, less rich and lean of it, and less at
    low power."""
    phi = far / model[row, EN_FAR_STOICH]
    if phi <= 0.0:
        return t_charge
    if phi >= 1.0:
        shape = 1.0 - 0.45 * (phi - 1.0)
    else:
        shape = 1.0 - 0.6 * (1.0 - phi)
    if shape < 0.2:
        shape = 0.2
    ld = load if load > 0.0 else 0.0
    if ld > 1.2:
        ld = 1.2
    return t_charge + model[row, EN_EGT_PEAK_RISE] * shape * (0.7 + 0.3 * ld)


@kernel
def saturation_pressure(t_k, over_ice):
    """Saturation vapour pressure of water (Pa): Magnus formulas (Alduchov and Eskridge 1996),
    over water or over ice."""
    c = t_k - T_FREEZE
    if over_ice:
        return 611.21 * math.exp(22.587 * c / (273.86 + c))
    return 610.94 * math.exp(17.625 * c / (243.04 + c))


@kernel
def ice_rate(model, row, ice_kg, humidity, t_amb, p_amb, t_carb, manifold, air):
    """Rate of change of the carburettor's ice, kg/s: water frozen out of air cooled below 0 C
    and its frost point, or the ice melted by air above 0 C."""
    if t_carb >= T_FREEZE:
        if ice_kg <= 0.0:
            return 0.0
        return -MELT_SHARE * air * CP_AIR * (t_carb - T_FREEZE) / L_FUSION
    if humidity <= 0.0 or air <= 0.0:
        return 0.0
    rh = humidity if humidity < 1.0 else 1.0
    e_amb = rh * saturation_pressure(t_amb, t_amb < T_FREEZE)
    w_in = 0.622 * e_amb / (p_amb - e_amb)
    e_sat = saturation_pressure(t_carb, True)
    p = manifold if manifold > 2.0 * e_sat else 2.0 * e_sat
    w_sat = 0.622 * e_sat / (p - e_sat)
    surplus = w_in - w_sat
    if surplus <= 0.0:
        return 0.0
    c = t_carb - T_FREEZE
    share = (c - ICE_CAPTURE_COLD_C) / (ICE_CAPTURE_FULL_C - ICE_CAPTURE_COLD_C)
    if share <= 0.0:
        return 0.0
    if share > 1.0:
        share = 1.0
    if ice_kg >= model[row, EN_ICE_BLOCK_KG]:
        return 0.0
    return ICE_CAPTURE * share * air * surplus


@kernel
def bore_open(model, row, ice_kg, throttle):
    """Share of the throttle's opening the ice leaves (1: clear). A nearly closed throttle leaves
    only a gap round its plate, which less ice closes: the ice that closes it falls with the
    throttle to THROTTLE_GAP_SHARE of the bore's at idle (the CAA: throttle ice is likeliest at
    reduced power, "because of the partially closed throttle valve")."""
    thr = throttle if throttle > 0.0 else 0.0
    if thr > 1.0:
        thr = 1.0
    block = model[row, EN_ICE_BLOCK_KG] * (THROTTLE_GAP_SHARE + (1.0 - THROTTLE_GAP_SHARE) * thr)
    if ice_kg <= 0.0 or block <= 0.0:
        return 1.0
    b = 1.0 - ice_kg / block
    return b if b > 0.0 else 0.0


def lean_for_best_power(altitude_m: float, far_rich: float, far_stoich: float) -> float:
    """The mixture lever (0 full rich .. 1 cut-off) a pilot leans to for the most rpm at an altitude
    (ISA, no ram): the best-power mixture, full rich where the carburettor meters leaner than it."""
    from .atmosphere import isa
    rho = isa(float(altitude_m))[2]
    rich = far_rich * math.sqrt(RHO_SEA_LEVEL / rho)
    return max(0.0, 1.0 - PHI_BEST_POWER * far_stoich / rich)


def best_power_lean(model, row: int, altitude_m: float) -> float:
    """lean_for_best_power for a compiled engine row."""
    return lean_for_best_power(altitude_m, float(model[row, EN_FAR_RICH]), float(model[row, EN_FAR_STOICH]))
