#version 330
#include "common.glsl"
// Soft round puff: alpha falls off to the rim, a sphere's normal for the sun, darker
// toward the flat base, which cuts the cloud off level (a cumulus's base is flat: the
// condensation level); fogged with the distance like everything else.
uniform vec3 u_cam_right;
uniform vec3 u_cam_up;
uniform vec3 u_cam_fwd;
in vec2 v_uv;
in vec3 v_rel;
in vec3 v_centre;
in float v_radius;
in vec3 v_cloud;
out vec4 f_color;
void main() {
    float r2 = dot(v_uv, v_uv);
    if (r2 > 1.0) discard;
    // the flat base: NED z grows downward, so below the base is z > base
    float below = v_rel.z - v_cloud.x;
    float base_fade = 1.0 - smoothstep(0.0, 0.04 * v_radius, below);
    if (base_fade <= 0.0) discard;
    float alpha = (1.0 - smoothstep(0.35, 1.0, r2)) * base_fade;
    vec3 n = normalize(u_cam_right * v_uv.x + u_cam_up * v_uv.y - u_cam_fwd * sqrt(max(1.0 - r2, 0.0)));
    float sun = max(dot(n, u_sun_ned), 0.0);
    // height within the cloud: 0 at the base, 1 at the top
    float h = clamp((v_cloud.x - v_rel.z) / max(v_cloud.x - v_cloud.y, 1.0), 0.0, 1.0);
    vec3 shadow = vec3(0.60, 0.64, 0.71);
    vec3 lit = vec3(1.0, 0.99, 0.96);
    vec3 c = mix(shadow, lit, clamp(0.35 + 0.45 * sun + 0.45 * h, 0.0, 1.0)) * v_cloud.z;
    c = apply_fog(c, v_rel);
    f_color = vec4(c, alpha);
}
