#version 330
#include "common.glsl"
// Low preset terrain: the per-vertex tints of terrain_low_vs.glsl plus, per pixel, only the
// farmland patchwork and the airfield (painted in place, as in terrain_fs.glsl).
uniform float u_water_m;
uniform vec4 u_rwy;             // runway centre (n, e), along-runway unit vector (n, e)
uniform vec4 u_rwy_dim;         // half length, half width, taxiway offset, taxiway half width
in vec2 v_ne;
in vec4 v_mix;
in vec4 v_light;
in vec4 v_water;
in vec4 v_fog;
out vec4 f_color;

float hash(vec2 p) {
    p = fract(p * vec2(0.1031, 0.1030));
    p += dot(p, p.yx + 33.33);
    return fract((p.x + p.y) * p.x);
}

vec3 runway(vec2 p, vec3 base) {
    // p = (along, right) in metres from the runway centre
    float hl = u_rwy_dim.x, hw = u_rwy_dim.y;
    float a = abs(p.x), b = abs(p.y);
    vec3 white = vec3(0.9);
    if (a < hl && b < hw) {
        vec3 c = vec3(0.26, 0.26, 0.27) * (0.95 + 0.1 * hash(floor(p * 0.5)));
        if (b > hw - 1.2) c = white;                                               // edge lines
        if (b < 0.5 && mod(p.x + 1000.0, 50.0) < 30.0 && a < hl - 90.0) c = white; // centreline
        if (a > hl - 70.0 && a < hl - 10.0 && mod(b, 3.6) > 1.8 && b < hw - 3.0) c = white; // piano keys
        if (a > hl - 320.0 && a < hl - 260.0 && b > 4.0 && b < 10.0) c = white;   // aiming points
        return c;
    }
    float to = u_rwy_dim.z, tw = u_rwy_dim.w;
    bool taxi = (abs(p.y - to) < tw && a < hl - 20.0) || (a > hl - 40.0 && a < hl - 20.0 && p.y > 0.0 && p.y < to);
    bool apron = p.x > -170.0 && p.x < 80.0 && p.y > to && p.y < to + 80.0;
    if (taxi || apron) {
        vec3 c = vec3(0.34, 0.34, 0.35);
        if (taxi && !apron && abs(p.y - to) < 0.25) c = vec3(0.85, 0.75, 0.2);
        return c;
    }
    if (a < hl + 60.0 && b < hw + 60.0) return base * vec3(1.05, 1.15, 0.95);   // mown strip
    return base;
}

void main() {
    vec2 cellf = floor(v_ne / vec2(260.0, 190.0));
    float p1 = hash(cellf);
    float p2 = hash(cellf + 17.0);
    vec3 grass = vec3(0.31, 0.45, 0.18);
    vec3 field = mix(vec3(0.42, 0.52, 0.20), vec3(0.64, 0.58, 0.33), p2);
    if (p1 > 0.82) field = vec3(0.47, 0.38, 0.27);                            // ploughed
    vec3 col = mix(grass, field, v_light.a * step(0.3, p1)) * v_mix.a + v_mix.rgb;
    vec2 p = v_ne - u_rwy.xy;
    vec2 ap = vec2(dot(p, u_rwy.zw), dot(p, vec2(-u_rwy.w, u_rwy.z)));
    if (abs(ap.x) < u_rwy_dim.x + 400.0 && abs(ap.y) < 400.0) col = runway(ap, col);
    col *= v_light.rgb;
    if (v_water.a > 0.5) col = v_water.rgb;
    f_color = vec4(mix(col, v_fog.rgb, v_fog.a), 1.0);
}
