// Shared sky / fog / light functions. World space in every shader is NED metres
// relative to the camera (north, east, down); only m_view turns NED into GL axes.
uniform vec3 u_sun_ned;        // unit vector toward the sun
uniform float u_fog_density;   // 1/m
uniform vec3 u_sky_zenith;
uniform vec3 u_sky_horizon;
uniform vec3 u_sun_color;      // direct sunlight (reddened and faded near the horizon: render/sun.py)
uniform vec3 u_ambient;        // sky light

vec3 sky_color(vec3 dir) {
    float up = -dir.z;
    float t = 1.0 - clamp(up, 0.0, 1.0);
    vec3 c = mix(u_sky_zenith, u_sky_horizon, t * t * t * t);
    if (up < 0.0) c = mix(u_sky_horizon, u_sky_horizon * 0.86, clamp(-up * 4.0, 0.0, 1.0));
    float sd = max(dot(dir, u_sun_ned), 0.0);
    c += u_sun_color * vec3(1.18, 1.08, 0.91) * (0.22 * pow(sd, 6.0) + 0.35 * pow(sd, 60.0));
    return c;
}

vec3 haze_color(vec3 dir) {
    vec3 d = normalize(vec3(dir.xy, -0.015 * length(dir.xy)));
    return sky_color(d);
}

vec3 apply_fog(vec3 col, vec3 rel) {
    float dist = length(rel);
    float f = 1.0 - exp(-dist * u_fog_density);
    // thinner haze looking down from altitude
    f *= 1.0 - 0.35 * clamp(rel.z / (dist + 1.0), 0.0, 1.0);
    return mix(col, haze_color(rel / max(dist, 1e-3)), clamp(f, 0.0, 1.0));
}

vec3 sun_light(vec3 n) {
    float diff = max(dot(n, u_sun_ned), 0.0);
    float sky = 0.5 + 0.5 * (-n.z);
    return u_sun_color * diff + u_ambient * (0.25 + 0.2 * sky);
}
