// Shared by terrain_fs.glsl and terrain_low_fs.glsl (and the tints by terrain_low_vs.glsl):
// the farmland patchwork, the land tints, and the airfield painted in place, so the two
// presets cannot drift apart in colour.
uniform vec4 u_rwy;             // runway centre (n, e), along-runway unit vector (n, e)
uniform vec4 u_rwy_dim;         // half length, half width, taxiway offset, taxiway half width

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

// the field patchwork at (north, east): grass, or in the lowlands a crop / ploughed field
vec3 farmland(vec2 ne, float lowland) {
    vec2 cellf = floor(ne / vec2(260.0, 190.0));
    float p1 = hash(cellf);
    float p2 = hash(cellf + 17.0);
    vec3 grass = vec3(0.31, 0.45, 0.18);
    vec3 field = mix(vec3(0.42, 0.52, 0.20), vec3(0.64, 0.58, 0.33), p2);
    if (p1 > 0.82) field = vec3(0.47, 0.38, 0.27);                            // ploughed
    return mix(grass, field, lowland * step(0.3, p1));
}

float lowland_weight(float h) { return clamp((560.0 - h) / 120.0, 0.0, 1.0); }

// the land tints over the patchwork as col = a * patchwork + b: forest, rock on slopes, high
// ground, the shore (one chain of mixes, linear in the patchwork colour)
vec4 land_tint(float forest, float slope, float h, float water_m) {
    float a = 1.0;
    vec3 b = vec3(0.0);
    float w = smoothstep(0.45, 0.6, forest);
    a *= 1.0 - w; b = mix(b, vec3(0.13, 0.24, 0.10), w);
    w = smoothstep(0.35, 0.6, slope);
    a *= 1.0 - w; b = mix(b, vec3(0.46, 0.43, 0.38), w);
    w = smoothstep(700.0, 900.0, h) * 0.6;
    a *= 1.0 - w; b = mix(b, vec3(0.56, 0.53, 0.42), w);
    w = smoothstep(0.5, 4.0, h - water_m);
    a *= w; b = mix(vec3(0.62, 0.58, 0.45), b, w);
    return vec4(b, a);
}

// water seen along d (unit, NED): dark water with the sky reflected by Fresnel (the low preset
// per vertex, the full one per pixel with a sun glint on top)
vec3 water_color(vec3 d) {
    vec3 r = reflect(d, vec3(0.0, 0.0, -1.0));
    float fres = 0.04 + 0.96 * pow(1.0 - max(-d.z, 0.0), 5.0);
    return mix(vec3(0.05, 0.15, 0.22), sky_color(vec3(r.xy, min(r.z, -0.02))), clamp(fres + 0.15, 0.0, 1.0));
}

vec3 paint_airfield(vec2 ne, vec3 col) {
    vec2 p = ne - u_rwy.xy;
    vec2 ap = vec2(dot(p, u_rwy.zw), dot(p, vec2(-u_rwy.w, u_rwy.z)));
    if (abs(ap.x) < u_rwy_dim.x + 400.0 && abs(ap.y) < 400.0) col = runway(ap, col);
    return col;
}
