#version 330
// A cached overlay layer (flightsim.render.overlay.CachedLayer): one quad over the pixel
// rectangle u_rect (x0, y0, x1, y1; origin bottom left) sampling the layer texture 1:1.
uniform vec2 u_screen;
uniform vec4 u_rect;
out vec2 v_uv;
void main() {
    vec2 c = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 p = mix(u_rect.xy, u_rect.zw, c);
    v_uv = p / u_screen;
    gl_Position = vec4(v_uv * 2.0 - 1.0, 0.0, 1.0);
}
