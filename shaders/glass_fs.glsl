#version 330
#include "common.glsl"
// Canopy glass: nearly clear face-on, a mirror of the sky at grazing angles (Fresnel), the
// sun's glint; a faint tint. Blended over the scene, not written to depth.
uniform vec3 u_tint;
uniform float u_inside;         // 1 from the cockpit: fainter reflections, as the eye sees them there
in vec3 v_rel;
in vec3 v_normal;
out vec4 f_color;
void main() {
    vec3 n = normalize(v_normal);
    vec3 d = normalize(v_rel);
    if (dot(n, d) > 0.0) n = -n;
    vec3 r = reflect(d, n);
    float fres = 0.04 + 0.96 * pow(1.0 - max(dot(-d, n), 0.0), 5.0);
    vec3 env = r.z <= 0.0 ? sky_color(r) : mix(u_sky_horizon * 0.7, vec3(0.25, 0.28, 0.22), clamp(r.z * 3.0, 0.0, 1.0));
    float glint = pow(max(dot(r, u_sun_ned), 0.0), 400.0) * 4.0;
    float k = mix(1.0, 0.35, u_inside);
    float a = clamp((0.10 + 0.75 * fres) * k + glint, 0.0, 0.95);
    vec3 c = mix(u_tint, env, 0.8) + u_sun_color * glint;
    f_color = vec4(apply_fog(c, v_rel), a);
}
