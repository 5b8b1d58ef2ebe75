"""U.S. Standard Atmosphere 1976 (identical to the ICAO/ISA atmosphere below 32 km).

All functions take GEOMETRIC altitude in metres above mean sea level and convert it to
geopotential altitude, ``H = r0 z / (r0 + z)`` (eq. 18, r0 = 6 356 766 m). Layers
(geopotential base, molecular-scale temperature gradient):

    0 m'      -6.5 K/km  (288.15 K, 101325 Pa at the base)
    11 000 m'  0         (216.65 K)
    20 000 m' +1.0 K/km  (216.65 K), used up to 32 km geometric

Below 0 m the troposphere formula is continued to -1 km. Outside [-1 km, 32 km]
geometric the altitude is clamped, so the result stays finite and continuous.
Pressure: eq. 33a (gradient layers) / 33b (isothermal); density: eq. 42; speed of
sound: eq. 50; dynamic viscosity: eq. 51 (Sutherland).
"""
import math

import numpy as np

from .jit import entry

# --- constants of the standard (Table 2 and Part 1)
G0 = 9.80665                  # m/s^2 (m^2 s^-2 per geopotential metre)
R_STAR = 8.31432              # J/(mol K), the 1976 value (not CODATA)
M0 = 0.0289644                # kg/mol, sea-level mean molar mass of air
R_AIR = R_STAR / M0           # J/(kg K), 287.05287...
GAMMA = 1.4                   # ratio of specific heats
# air's heat for the engine and its coolers (not part of the standard)
CP_AIR = 1005.0               # J/(kg K), specific heat at constant pressure
KAPPA_EXP = 3.5               # gamma / (gamma - 1): isentropic T ratio = p ratio^(1 / KAPPA_EXP)
R0 = 6356766.0                # m, effective Earth radius for geopotential altitude
T0 = 288.15                   # K
P0 = 101325.0                 # Pa
RHO0 = P0 / (R_AIR * T0)      # kg/m^3, 1.2250
SUTHERLAND_BETA = 1.458e-6    # kg/(s m K^0.5)
SUTHERLAND_S = 110.4          # K

Z_MIN = -1000.0               # m geometric, lower clamp
Z_MAX = 32000.0               # m geometric, upper clamp

# --- layer bases (geopotential m'), gradients (K/m'), base temperatures and pressures
H1, H2 = 11000.0, 20000.0
L0, L2 = -0.0065, 0.0010
T1 = T0 + L0 * H1             # 216.65 K
_GMR = G0 / R_AIR             # K/m', the hydrostatic constant g0 M0 / R*
P1 = P0 * (T0 / T1) ** (_GMR / L0)               # 22632.06 Pa at 11 km'
P2 = P1 * math.exp(-_GMR * (H2 - H1) / T1)        # 5474.89 Pa at 20 km'


@entry
def geopotential_altitude(altitude_m):
    """Geometric altitude (m) -> geopotential altitude (m'), eq. 18."""
    return R0 * altitude_m / (R0 + altitude_m)


@entry
def isa(altitude_m):
    """ISA 1976 at a GEOMETRIC altitude (m MSL, clamped to [-1000, 32000]).

    Returns ``(temperature_k, pressure_pa, density_kgm3, speed_of_sound_ms)``:
    K, Pa, kg/m^3, m/s.
    """
    z = altitude_m
    if z < Z_MIN:
        z = Z_MIN
    elif z > Z_MAX:
        z = Z_MAX
    h = R0 * z / (R0 + z)
    if h <= H1:
        t = T0 + L0 * h
        p = P0 * (T0 / t) ** (_GMR / L0)
    elif h <= H2:
        t = T1
        p = P1 * math.exp(-_GMR * (h - H1) / T1)
    else:
        t = T1 + L2 * (h - H2)
        p = P2 * (T1 / t) ** (_GMR / L2)
    rho = p / (R_AIR * t)
    a = math.sqrt(GAMMA * R_AIR * t)
    return t, p, rho, a


@entry
def isa_density(altitude_m):
    """ISA 1976 air density (kg/m^3) at a GEOMETRIC altitude (m MSL)."""
    return isa(altitude_m)[2]


@entry
def dynamic_viscosity(temperature_k):
    """Dynamic viscosity of air (Pa s = kg/(m s)) at ``temperature_k`` (K):
    Sutherland's law, eq. 51, beta = 1.458e-6 kg/(s m K^0.5), S = 110.4 K."""
    return SUTHERLAND_BETA * temperature_k ** 1.5 / (temperature_k + SUTHERLAND_S)


def isa_table(altitudes_m):
    """Vectorised :func:`isa` in plain numpy, for tools and plots.

    ``altitudes_m``: array-like of GEOMETRIC altitudes (m MSL, clamped like ``isa``).
    Returns ``(temperature_k, pressure_pa, density_kgm3, speed_of_sound_ms)``,
    float64 arrays of the input's shape (K, Pa, kg/m^3, m/s).
    """
    z = np.clip(np.asarray(altitudes_m, dtype=np.float64), Z_MIN, Z_MAX)
    h = R0 * z / (R0 + z)
    trop = h <= H1
    strat = (h > H1) & (h <= H2)
    t = np.where(trop, T0 + L0 * h, np.where(strat, T1, T1 + L2 * (h - H2)))
    p = np.where(
        trop, P0 * (T0 / t) ** (_GMR / L0),
        np.where(strat, P1 * np.exp(-_GMR * (h - H1) / T1), P2 * (T1 / t) ** (_GMR / L2)))
    rho = p / (R_AIR * t)
    a = np.sqrt(GAMMA * R_AIR * t)
    return t, p, rho, a
