"""Where the flat world lies on the Earth: the scenario's origin (the airfield's latitude and
longitude) and the WGS84 ellipsoid. The world's NED metres map to latitude and longitude by the
origin's radii of curvature (the flight recorder's exports, recording/export.py) and from there to
Earth-centred, Earth-fixed (ECEF) coordinates and back, with the body's attitude as the Euler
angles against ECEF that DIS (IEEE 1278.1) carries (flightsim/net/dis.py)."""
from __future__ import annotations

import math

import numpy as np

DEFAULT_ORIGIN = (51.1875, -1.0325)          # Lasham airfield, Hampshire (a gliding centre)
WGS84_A = 6378137.0
WGS84_E2 = 6.69437999014e-3


def _radii(lat0_deg: float) -> tuple[float, float]:
    lat0 = math.radians(lat0_deg)
    s = 1.0 - WGS84_E2 * math.sin(lat0) ** 2
    r_north = WGS84_A * (1.0 - WGS84_E2) / s ** 1.5          # meridian radius of curvature
    r_east = WGS84_A / math.sqrt(s) * math.cos(lat0)         # parallel's radius
    return r_north, r_east


def ned_to_latlon(north_m, east_m, origin) -> tuple:
    r_north, r_east = _radii(origin[0])
    return origin[0] + np.degrees(np.asarray(north_m) / r_north), origin[1] + np.degrees(np.asarray(east_m) / r_east)


def latlon_to_ned(lat_deg, lon_deg, origin) -> tuple:
    r_north, r_east = _radii(origin[0])
    return np.radians(np.asarray(lat_deg) - origin[0]) * r_north, np.radians(np.asarray(lon_deg) - origin[1]) * r_east


def geodetic_to_ecef(lat_deg: float, lon_deg: float, alt_m: float) -> np.ndarray:
    lat, lon = math.radians(lat_deg), math.radians(lon_deg)
    n = WGS84_A / math.sqrt(1.0 - WGS84_E2 * math.sin(lat) ** 2)
    return np.array([(n + alt_m) * math.cos(lat) * math.cos(lon), (n + alt_m) * math.cos(lat) * math.sin(lon),
                     (n * (1.0 - WGS84_E2) + alt_m) * math.sin(lat)])


def ecef_to_geodetic(xyz) -> tuple[float, float, float]:
    """(latitude deg, longitude deg, height m) of an ECEF point (fixed-point iteration on the
    latitude; well away from the poles, as the game's world is)."""
    x, y, z = (float(v) for v in xyz)
    lon = math.atan2(y, x)
    p = math.hypot(x, y)
    lat = math.atan2(z, p * (1.0 - WGS84_E2))
    alt = 0.0
    for _ in range(10):
        n = WGS84_A / math.sqrt(1.0 - WGS84_E2 * math.sin(lat) ** 2)
        alt = p / math.cos(lat) - n
        new = math.atan2(z, p * (1.0 - WGS84_E2 * n / (n + alt)))
        done = abs(new - lat) < 1e-13
        lat = new
        if done:
            break
    n = WGS84_A / math.sqrt(1.0 - WGS84_E2 * math.sin(lat) ** 2)
    return math.degrees(lat), math.degrees(lon), p / math.cos(lat) - n


def ecef_from_ned_matrix(lat_deg: float, lon_deg: float) -> np.ndarray:
    """The rotation taking a local NED vector at (lat, lon) into ECEF axes (its columns: north, east,
    down in ECEF)."""
    lat, lon = math.radians(lat_deg), math.radians(lon_deg)
    sl, cl, so, co = math.sin(lat), math.cos(lat), math.sin(lon), math.cos(lon)
    return np.array([[-sl * co, -so, -cl * co],
                     [-sl * so, co, -cl * so],
                     [cl, 0.0, -sl]])


def world_to_ecef(ned_m, origin) -> tuple[np.ndarray, np.ndarray]:
    """(ECEF position, the ECEF-from-NED rotation there) of a point of the flat world (NED from the
    origin; down = minus the height above the ellipsoid)."""
    lat, lon = ned_to_latlon(ned_m[0], ned_m[1], origin)
    return geodetic_to_ecef(float(lat), float(lon), -float(ned_m[2])), ecef_from_ned_matrix(float(lat), float(lon))


def ecef_to_world(xyz, origin) -> tuple[np.ndarray, np.ndarray]:
    """(NED in the flat world, the ECEF-from-NED rotation there) of an ECEF point."""
    lat, lon, alt = ecef_to_geodetic(xyz)
    n, e = latlon_to_ned(lat, lon, origin)
    return np.array([float(n), float(e), -alt]), ecef_from_ned_matrix(lat, lon)


def euler_zyx(R) -> tuple[float, float, float]:
    """(psi, theta, phi): the yaw-pitch-roll angles of a rotation matrix (body to reference axes),
    DIS's Tait-Bryan order about z, then y, then x."""
    return (math.atan2(R[1, 0], R[0, 0]), -math.asin(max(-1.0, min(1.0, R[2, 0]))), math.atan2(R[2, 1], R[2, 2]))


def matrix_zyx(psi: float, theta: float, phi: float) -> np.ndarray:
    """The rotation (body to reference axes) of yaw-pitch-roll angles: euler_zyx's inverse."""
    cps, sps, cth, sth, cph, sph = (math.cos(psi), math.sin(psi), math.cos(theta), math.sin(theta), math.cos(phi),
                                    math.sin(phi))
    return np.array([[cth * cps, sph * sth * cps - cph * sps, cph * sth * cps + sph * sps],
                     [cth * sps, sph * sth * sps + cph * cps, cph * sth * sps - sph * cps],
                     [-sth, sph * cth, cph * cth]])
