"""Give back the GL objects a drawing object holds, when it is thrown away (a scenario switch).

moderngl objects are freed only by ``release()`` (or by the garbage collector much later,
if at all), and pyglet labels keep their vertex lists in a batch until ``delete()``. A
game that rebuilds its renderer and HUD for every scenario switch would grow without
bound. ``release_gl(obj)`` walks the attributes of flightsim's render objects (and the
lists, tuples and dicts in them), releases every moderngl object it finds with what only
it refers to (a vertex array's buffers, a framebuffer's attachments) -- never the context
itself, its screen, nor anything in ``keep`` -- and deletes pyglet labels. Each object is
visited once, so a program shared by two owners is released once.
"""
from __future__ import annotations

OWNED_MODULES = ("flightsim.render", "flightsim.app.game", "flightsim.app.flow")


def _is_moderngl(o) -> bool:
    return (type(o).__module__ or "").startswith("moderngl")


def release_gl(root, keep=()) -> int:
    """Release what ``root`` holds; returns how many GL objects / labels were released.
    A context in ``keep`` also keeps its default framebuffers."""
    keep = list(keep)
    for k in list(keep):
        if type(k).__name__ == "Context":
            keep += [getattr(k, "screen", None), getattr(k, "fbo", None)]
    seen = {id(k) for k in keep if k is not None}
    count = 0

    def walk(o, depth):
        nonlocal count
        if o is None or isinstance(o, (str, bytes, int, float, bool)) or id(o) in seen or depth > 8:
            return
        seen.add(id(o))
        mod = type(o).__module__ or ""
        if _is_moderngl(o):
            kind = type(o).__name__
            if kind == "Context" or not hasattr(o, "release"):
                return
            owned = []                     # what only this object refers to: a VAO's buffers, an FBO's targets
            if kind == "VertexArray":
                owned = [c[0] for c in (getattr(o, "_content", None) or ()) if c]
                owned += [getattr(o, "_index_buffer", None), getattr(o, "_program", None)]
            elif kind == "Framebuffer":
                owned = list(getattr(o, "color_attachments", ()) or ()) + [getattr(o, "depth_attachment", None)]
            try:
                o.release()
                count += 1
            except Exception:              # already gone with its context: nothing to give back
                pass
            for x in owned:
                walk(x, depth + 1)
            return
        if mod.startswith("pyglet.text"):
            if hasattr(o, "delete"):
                from .overlay import free_batch
                own = getattr(o, "_own_batch", False) and getattr(o, "_batch", None)
                try:
                    o.delete()
                    if own:
                        free_batch(own)
                    count += 1
                except Exception:
                    pass
            return
        if isinstance(o, (list, tuple, set, frozenset)):
            for x in list(o):
                walk(x, depth + 1)
            return
        if isinstance(o, dict):
            for x in list(o.values()):
                walk(x, depth + 1)
            return
        if not mod.startswith(OWNED_MODULES):
            return
        if type(o).__name__ == "TextBank":
            count += o.release()
            return
        d = getattr(o, "__dict__", None)
        if d:
            for x in list(d.values()):
                walk(x, depth + 1)

    walk(root, 0)
    return count
