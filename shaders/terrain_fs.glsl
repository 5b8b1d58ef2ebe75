#version 330
#include "common.glsl"
// Terrain colour by height, slope, farmland patchwork and forest; water; the airfield
// painted in place (no decals, no z-fighting). Arithmetic only: texture sampling is the
// expensive part on software rasterisers, so normals and forest come per vertex.
uniform float u_water_m;
uniform vec4 u_rwy;             // runway centre (n, e), along-runway unit vector (n, e)
uniform vec4 u_rwy_dim;         // half length, half width, taxiway offset, taxiway half width
in vec3 v_rel;
in vec2 v_ne;
in float v_h;
in vec3 v_normal;
in float v_forest;
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
    float h = v_h;
    vec3 n = normalize(v_normal);
    float dist = length(v_rel);
    vec3 col;
    if (h <= u_water_m + 0.05) {
        vec3 d = v_rel / max(dist, 1e-3);
        vec3 r = reflect(d, vec3(0.0, 0.0, -1.0));
        float fres = 0.04 + 0.96 * pow(1.0 - max(-d.z, 0.0), 5.0);
        col = mix(vec3(0.05, 0.15, 0.22), sky_color(vec3(r.xy, min(r.z, -0.02))), clamp(fres + 0.15, 0.0, 1.0));
        col += vec3(1.0, 0.9, 0.7) * pow(max(dot(r, u_sun_ned), 0.0), 200.0) * 1.5;
        f_color = vec4(mix(col, v_fog.rgb, v_fog.a), 1.0);
        return;
    }
    float slope = sqrt(max(1.0 - n.z * n.z, 0.0));
    vec2 cellf = floor(v_ne / vec2(260.0, 190.0));
    float p1 = hash(cellf);
    float p2 = hash(cellf + 17.0);
    vec3 grass = vec3(0.31, 0.45, 0.18);
    vec3 field = mix(vec3(0.42, 0.52, 0.20), vec3(0.64, 0.58, 0.33), p2);
    if (p1 > 0.82) field = vec3(0.47, 0.38, 0.27);                            // ploughed
    float lowland = clamp((560.0 - h) / 120.0, 0.0, 1.0);
    col = mix(grass, field, lowland * step(0.3, p1));
    col = mix(col, vec3(0.13, 0.24, 0.10), smoothstep(0.45, 0.6, v_forest));
    col = mix(col, vec3(0.46, 0.43, 0.38), smoothstep(0.35, 0.6, slope));
    col = mix(col, vec3(0.56, 0.53, 0.42), smoothstep(700.0, 900.0, h) * 0.6);
    col = mix(vec3(0.62, 0.58, 0.45), col, smoothstep(0.5, 4.0, h - u_water_m));   // shore
    vec2 p = v_ne - u_rwy.xy;
    vec2 ap = vec2(dot(p, u_rwy.zw), dot(p, vec2(-u_rwy.w, u_rwy.z)));
    if (abs(ap.x) < u_rwy_dim.x + 400.0 && abs(ap.y) < 400.0) col = runway(ap, col);
    if (dist < 1200.0) col *= 0.95 + 0.1 * hash(floor(v_ne * 0.5));              // close-up grain
    col *= sun_light(n);
    f_color = vec4(mix(col, v_fog.rgb, v_fog.a), 1.0);
}
