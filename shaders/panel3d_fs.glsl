#version 330
#include "common.glsl"
#include "shadow.glsl"
// The instrument panel's face: the 2D panel's drawing as a texture in the cockpit, lit by
// the light that reaches into the cockpit (the sky through the canopy, the sun where the
// aircraft's shadow lets it in). Luminous paint keeps the dials readable in the shade.
uniform sampler2D u_panel;
in vec3 v_rel;
in vec3 v_normal;
in vec2 v_uv;
in vec4 v_shadow;
out vec4 f_color;
void main() {
    vec4 t = texture(u_panel, v_uv);
    if (t.a < 0.4) discard;
    vec3 n = normalize(v_normal);
    float ndl = dot(n, u_sun_ned);
    float lit = sun_shadow(v_shadow, ndl);
    vec3 light = u_sun_color * max(ndl, 0.0) * lit * 0.6 + u_ambient * 0.55;
    vec3 c = t.rgb * max(light, vec3(0.62));
    f_color = vec4(c, 1.0);
}
