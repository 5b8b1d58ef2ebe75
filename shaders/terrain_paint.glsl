// Shared by terrain_fs.glsl and terrain_low_fs.glsl (and the tints by terrain_low_vs.glsl):
// the fields, the land tints, the ground's close-up detail and the airfield painted in
// place, so the presets cannot drift apart in colour.
//
// The fields are a patchwork the way farmland is: irregular plots (the grid warped and
// turned a different way in each parish), each its own crop -- wheat, barley, green crops,
// rapeseed, meadow, fresh ploughland -- with hedgerows along many of their edges, and crop
// rows or mowing stripes inside them that fade out before they could shimmer. Close up,
// grain noise on everything; the forest floor seen from above is a canopy of crowns; rock
// on the steep slopes is streaked.
#ifndef GROUND_DETAIL
#define GROUND_DETAIL 0
#endif
// AIRFIELD, WATER (#defines, render/terrain_draw.py VARIANTS): the terrain's nodes that reach the
// airfield's box or the water's level are drawn by a variant with that paint; the rest leave it
// out (software GL would shade both sides of the branch on every pixel)
#ifndef AIRFIELD
#define AIRFIELD 1
#endif
#ifndef WATER
#define WATER 1
#endif
#ifndef GRID_CELLS
#define GRID_CELLS 16
#endif

// a node's grid point (row, column) of a vertex: the grid's as they are (edge 0), a skirt's
// turned onto the node's edge it hangs from (render/terrain_draw.py: one skirt mesh, along row
// 0, drawn for each edge that borders coarser ground)
vec2 node_cell(vec2 ij, float edge) {
    float G = float(GRID_CELLS);
    int e = int(edge + 0.5);
    if (e == 1) return vec2(ij.y, G - ij.x);
    if (e == 2) return vec2(G - ij.x, G - ij.y);
    if (e == 3) return vec2(G - ij.y, ij.x);
    return ij;
}
uniform vec4 u_rwy;             // runway centre (n, e), along-runway unit vector (n, e)
uniform vec4 u_rwy_dim;         // half length, half width, taxiway offset, taxiway half width
uniform sampler2D u_noise;      // tiling value noise: r, g, b, a with features 1/8, 1/16, 1/32, 1/64 of a tile
                                // (render/renderer.py ground_noise): one fetch, four scales of detail

float hash(vec2 p) {
    p = fract(p * vec2(0.1031, 0.1030));
    p += dot(p, p.yx + 33.33);
    return fract((p.x + p.y) * p.x);
}

// the noise texture over the ground, tile_m metres a tile (r: tile/8 features .. a: tile/64)
vec4 noise_at(vec2 ne, float tile_m) { return texture(u_noise, ne / tile_m); }

float vnoise(vec2 p) {
    vec2 i = floor(p);
    vec2 f = p - i;
    f = f * f * (3.0 - 2.0 * f);
    float a = hash(i), b = hash(i + vec2(1.0, 0.0)), c = hash(i + vec2(0.0, 1.0)), d = hash(i + vec2(1.0, 1.0));
    return mix(mix(a, b, f.x), mix(c, d, f.x), f.y);
}

vec3 runway(vec2 p, vec3 base) {
    // p = (along, right) in metres from the runway centre
    float hl = u_rwy_dim.x, hw = u_rwy_dim.y;
    float a = abs(p.x), b = abs(p.y);
    vec3 white = vec3(0.9);
    if (a < hl && b < hw) {
        vec3 c = vec3(0.26, 0.26, 0.27);
#if GROUND_DETAIL
        c *= 0.95 + 0.1 * hash(floor(p * 0.5));
        // tyre marks in the touchdown zones
        c *= 1.0 - 0.25 * smoothstep(hl - 600.0, hl - 350.0, a) * smoothstep(hl - 120.0, hl - 250.0, a)
             * smoothstep(6.0, 1.0, abs(b - 3.0)) * (0.6 + 0.4 * hash(floor(p * vec2(0.05, 1.0))));
#endif
        if (b > hw - 1.2) c = white;                                               // edge lines
        if (b < 0.5 && mod(p.x + 1000.0, 50.0) < 30.0 && a < hl - 120.0) c = white; // centreline
        if (a > hl - 70.0 && a < hl - 10.0 && mod(b, 3.6) > 1.8 && b < hw - 3.0) c = white; // piano keys
        if (a > hl - 320.0 && a < hl - 260.0 && b > 4.0 && b < 10.0) c = white;   // aiming points
        return c;
    }
    float to = u_rwy_dim.z, tw = u_rwy_dim.w;
    bool taxi = (abs(p.y - to) < tw && a < hl - 20.0) || (a > hl - 40.0 && a < hl - 20.0 && p.y > 0.0 && p.y < to);
    bool apron = p.x > -170.0 && p.x < 80.0 && p.y > to && p.y < to + 80.0;
    if (taxi || apron) {
        vec3 c = vec3(0.34, 0.34, 0.35);
#if GROUND_DETAIL
        c *= 0.96 + 0.08 * hash(floor(p * 0.4));
#endif
        if (taxi && !apron && abs(p.y - to) < 0.25) c = vec3(0.85, 0.75, 0.2);
        return c;
    }
    if (a < hl + 60.0 && b < hw + 60.0) {                                       // the mown strip, in stripes
        float stripe = step(0.5, fract(p.y / 12.0));
        return base * vec3(1.05, 1.15, 0.95) * (0.95 + 0.08 * stripe);
    }
    return base;
}

#ifdef FRAGMENT_SHADER          // (fwidth: the fragment shaders only)
// GROUND_DETAIL (a #define: render/renderer.py QUALITY "ground_detail") 0: the plots and their
// hedges; 1: turned and wandering field edges, crop rows, the ground's texture close up. (A
// preset's choice made when the shader is compiled: software GL runs both sides of a branch.)

// the fields at (north, east)
vec3 farmland(vec2 ne, float lowland, float dist) {
    vec2 q = ne;
#if GROUND_DETAIL
    // each parish (about 2.5 km) turns its field grid its own way, and the grid is warped
    vec2 parish = floor(ne / 2500.0);
    float ang = 0.6 * (hash(parish) - 0.5);
    q = mat2(cos(ang), sin(ang), -sin(ang), cos(ang)) * ne;
    q += 55.0 * noise_at(ne, 7200.0).rg - 27.5;                    // 900 m and 450 m
#endif
    // three hashes make a field: its band of rows, its row, itself (the rest drawn from them)
    float row_h = 150.0 + 90.0 * hash(vec2(floor(q.y / 240.0), 3.0));
    float row = floor(q.y / row_h);
    float hr = hash(vec2(row, 11.0));
    float w = 170.0 + 140.0 * hr;
    float shift = fract(hr * 7.31) * w;
    float xs = (q.x + shift) / w;
    vec2 cellf = vec2(floor(xs), row);
    vec2 local = vec2(fract(xs) * w, fract(q.y / row_h) * row_h);
    float p1 = hash(cellf);
    float p2 = fract(p1 * 17.13);
    vec3 grass = vec3(0.31, 0.45, 0.18);
    vec3 field;
    if (p1 < 0.18) field = vec3(0.31, 0.46, 0.19) * (0.9 + 0.2 * p2);           // meadow
    else if (p1 < 0.42) field = mix(vec3(0.62, 0.56, 0.30), vec3(0.72, 0.64, 0.38), p2);  // wheat, barley
    else if (p1 < 0.67) field = mix(vec3(0.36, 0.50, 0.18), vec3(0.45, 0.55, 0.22), p2);  // green crops
    else if (p1 < 0.72) field = vec3(0.72, 0.68, 0.30);                           // rapeseed
    else if (p1 < 0.86) field = mix(vec3(0.42, 0.33, 0.23), vec3(0.50, 0.40, 0.28), p2);  // ploughed
    else field = vec3(0.52, 0.50, 0.30);                                          // stubble
#if GROUND_DETAIL
    // rows or mowing stripes inside the field, along or across it; faded out where they would shimmer
    float across = fract(p1 * 5.71) < 0.5 ? local.x : local.y;
    float spacing = p1 < 0.18 ? 10.0 : (p1 < 0.86 && p1 > 0.72 ? 0.9 : 1.6);
    float fw = max(fwidth(across), 1e-4);
    float rows = 0.5 + 0.5 * sin(6.2832 * across / spacing);
    field *= 1.0 + 0.10 * (rows - 0.5) * clamp(1.0 - fw * 3.0 / spacing, 0.0, 1.0);
    field *= 0.93 + 0.14 * noise_at(ne + p2 * 500.0, 2300.0).a;            // wetter and drier patches (36 m)
    float hw = 2.2 + 1.5 * noise_at(ne, 200.0).b;                        // the hedges' bushes about 6 m apart
#else
    float hw = 2.8;
#endif
    // hedgerows on some edges: a dark band a few metres wide, its bushes breaking it
    float edge = min(min(local.x, w - local.x), min(local.y, row_h - local.y));
    float hedged = step(0.35, fract(p1 * 29.37));
    float fwh = max(dist * 0.0025, 0.5);     // about a pixel of ground there
    float hedge = hedged * clamp((hw - edge) / fwh + 0.5, 0.0, 1.0);
    vec3 col = mix(grass, field, lowland * step(0.12, p1 + (1.0 - lowland)));
    col = mix(col, vec3(0.13, 0.22, 0.09), hedge * smoothstep(9000.0, 2500.0, dist) * 0.9);
    return col;
}
#endif

float lowland_weight(float h) { return clamp((560.0 - h) / 120.0, 0.0, 1.0); }

// the land tints over the patchwork as col = a * patchwork + b: forest, rock on slopes, high
// ground, the shore (one chain of mixes, linear in the patchwork colour). Every step after the
// forest scales what came before by the same factor, so a forest weight wf comes out as
//     col = tint(0) applied to patch + wf * a(0) * (FOREST_COLOUR - patch)
// which lets the fragment shader lay the forest per pixel over a tint made without it.
const vec3 FOREST_COLOUR = vec3(0.13, 0.24, 0.10);
float forest_weight(float forest) { return smoothstep(0.45, 0.6, forest); }

vec4 land_tint(float forest, float slope, float h, float water_m) {
    float a = 1.0;
    vec3 b = vec3(0.0);
    float w = forest_weight(forest);
    a *= 1.0 - w; b = mix(b, FOREST_COLOUR, w);
    w = smoothstep(0.35, 0.6, slope);
    a *= 1.0 - w; b = mix(b, vec3(0.46, 0.43, 0.38), w);
    w = smoothstep(700.0, 900.0, h) * 0.6;
    a *= 1.0 - w; b = mix(b, vec3(0.56, 0.53, 0.42), w);
    w = smoothstep(0.5, 4.0, h - water_m);
    a *= w; b = mix(vec3(0.62, 0.58, 0.45), b, w);
    return vec4(b, a);
}

// close-up texture over the tinted ground: crowns in the forest, streaks in the rock, grain
// everywhere (detail 0 .. 1; the low preset asks for the grain alone)
vec3 ground_detail(vec3 col, vec2 ne, float forest, float slope, float dist) {
    float near = clamp(1.0 - dist / 2500.0, 0.0, 1.0);
#if GROUND_DETAIL
    float f = forest_weight(forest);
    vec4 mid = noise_at(ne, 200.0);           // 25, 12, 6, 3 m
    // stands of different trees, seen from any distance
    col *= 1.0 + f * 0.35 * (noise_at(ne, 2300.0).b - 0.5) + f * 0.2 * (mid.r - 0.5);
    vec4 fine = noise_at(ne, 60.0);           // 7.5, 3.8, 1.9, 0.9 m
    col *= 1.0 + 0.10 * near * (fine.a - 0.5);                    // grain
    // crowns about 4 m across, lit on the sun's side, the gaps between them dark
    vec2 s = normalize(u_sun_ned.xy + vec2(1e-4)) * 1.2;
    float crowns = mid.a * 0.7 + fine.b * 0.3;
    float toward = noise_at(ne + s, 200.0).a * 0.7 + fine.b * 0.3;
    col *= 1.0 + f * near * (0.9 * (toward - crowns) - 0.45 * smoothstep(0.5, 0.2, crowns));
    // rock: streaked and lichened
    col *= 1.0 + smoothstep(0.35, 0.6, slope) * near * 0.35 * (fine.r * 0.6 + fine.g * 0.4 - 0.5);
    return col;
#else
    return col * (1.0 + 0.1 * near * (hash(floor(ne * 0.5)) - 0.5));    // a grain of cells close up
#endif
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
