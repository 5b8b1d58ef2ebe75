#version 330
// A cumulus puff: one camera-facing quad per instance, expanded in NED around its centre.
uniform mat4 m_proj;
uniform mat4 m_view;
uniform vec3 u_cam_right;       // NED unit vectors of the camera
uniform vec3 u_cam_up;
in vec2 in_corner;              // -1..1
in vec4 in_puff;                // centre (NED relative to the eye), radius m
in vec3 in_cloud;               // cloud base altitude (as NED z relative to the eye), cloud top likewise, shade
out vec2 v_uv;
out vec3 v_rel;
out vec3 v_centre;
out float v_radius;
out vec3 v_cloud;
void main() {
    vec3 p = in_puff.xyz + (u_cam_right * in_corner.x + u_cam_up * in_corner.y) * in_puff.w;
    v_uv = in_corner;
    v_rel = p;
    v_centre = in_puff.xyz;
    v_radius = in_puff.w;
    v_cloud = in_cloud;
    gl_Position = m_proj * m_view * vec4(p, 1.0);
}
