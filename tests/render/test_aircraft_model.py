"""Aircraft exteriors from their visual.toml and liveries.toml (flightsim/render/model/):
the shape against the published three-view dimensions, the parts that move with the
physics, the paint where the livery puts it, and data refused in one line. Numpy only:
no GL here."""
import math

import numpy as np
import pytest

from flightsim import AIRCRAFT_DIR
from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.aircraft_data.livery import choose, load_liveries
from flightsim.aircraft_data.loader import load_aircraft
from flightsim.aircraft_data.schema import DataError
from flightsim.aircraft_data.visual import check_against_aircraft, load_visual
from flightsim.render.model import exterior, paint
from flightsim.render.model.parts import transforms

WITH_LOOKS = sorted(p.parent.name for p in AIRCRAFT_DIR.glob("*/visual.toml"))
_CACHE = {}


def built(aircraft):
    if aircraft not in _CACHE:
        comp = compile_aircraft(load_aircraft(aircraft))
        vis = load_visual(AIRCRAFT_DIR / aircraft / "visual.toml")
        check_against_aircraft(vis, comp.spec)
        _CACHE[aircraft] = (comp, vis, exterior.build(comp, vis, detail="low", atlas_px=1024))
    return _CACHE[aircraft]


def test_every_aircraft_has_a_look():
    assert WITH_LOOKS == ["astir", "bf109", "c172p", "f15c", "p51d", "spitfire"]
    for a in WITH_LOOKS:
        assert (AIRCRAFT_DIR / a / "liveries.toml").exists()


@pytest.mark.parametrize("aircraft", WITH_LOOKS)
def test_the_skin_has_the_published_dimensions(aircraft):
    """Length and span within 2 % of the published figures, the height too where one is
    published for a stated attitude (tail down, a blade standing vertical)."""
    comp, vis, model = built(aircraft)
    d = exterior.overall_dimensions(model, comp, vis.height_attitude)
    assert d["length_m"] == pytest.approx(vis.length_m, rel=0.02)
    assert d["span_m"] == pytest.approx(vis.span_m, rel=0.02)
    if vis.height_published:
        assert d["height_m"] == pytest.approx(vis.height_m, rel=0.02)


@pytest.mark.parametrize("aircraft", WITH_LOOKS)
def test_closed_skins_face_outward(aircraft):
    """Bodies, spinners, tubes and boxes have their normals (and front faces) outside: the
    shader paints a fuselage's inside as the cockpit's walls."""
    comp, vis, model = built(aircraft)
    u, v = np.meshgrid(np.linspace(0.05, 0.95, 10), np.linspace(0.02, 0.98, 20), indexing="ij")
    for sk in model.skins:
        if sk.kind not in ("fuselage", "body", "spinner", "tyre", "exhaust", "metal", "pilot") or \
                sk.name.startswith(("airbrake", "hub")):
            continue
        P, N = sk.points(u, v), sk.normals(u, v)
        outward = np.mean(np.sum(N * (P - P.reshape(-1, 3).mean(axis=0)), axis=-1))
        assert outward > 0, sk.name


def _part_vertices(model, kind, section=None):
    ids = [k for k, p in enumerate(model.parts) if p.kind == kind and (section is None or p.section == section)]
    mask = np.isin(model.vertices[:, 8].astype(int), ids)
    return ids, mask


def _moved(model, mats, mask):
    v = model.vertices[mask]
    P = np.c_[v[:, :3], np.ones(len(v))]
    out = np.einsum("nij,nj->ni", mats[v[:, 8].astype(int)], P)[:, :3]
    return out, v[:, :3]


def test_controls_turn_by_the_physics_deflection():
    comp, vis, model = built("spitfire")
    ailerons = [k for k, s in enumerate(comp.sections) if s.spec["control"] == "aileron"]
    k = ailerons[0]
    defl = np.zeros(len(comp.sections))
    defl[k] = math.radians(15.0)
    mats = transforms(model.parts, defl, 0.0, 0.0)
    ids, mask = _part_vertices(model, "control", k)
    assert ids and mask.sum() > 50
    moved, rest = _moved(model, mats, mask)
    shift = np.linalg.norm(moved - rest, axis=1)
    assert shift.max() > 0.05                  # the trailing edge moves by centimetres
    # the rest of the wing stays
    _, fixed = _part_vertices(model, "section")
    m2, r2 = _moved(model, mats, fixed)
    assert np.allclose(m2, r2)


def test_a_section_shot_away_takes_its_skin_and_its_control():
    comp, vis, model = built("spitfire")
    k = next(i for i, s in enumerate(comp.sections) if s.spec["control"] == "aileron")
    dmg = np.zeros(len(comp.sections))
    dmg[k] = 1.0
    mats = transforms(model.parts, np.zeros(len(comp.sections)), 0.0, 0.0, section_damage=dmg)
    for kind in ("section", "control"):
        ids, mask = _part_vertices(model, kind, k)
        assert ids
        for i in ids:
            assert np.allclose(mats[i, :3, :3], 0.0)


def test_the_gear_folds_into_the_wing():
    comp, vis, model = built("p51d")
    ids, mask = _part_vertices(model, "gear")
    up = transforms(model.parts, np.zeros(len(comp.sections)), 0.0, 1.0)
    down = transforms(model.parts, np.zeros(len(comp.sections)), 0.0, 0.0)
    lo_down = _moved(model, down, mask)[0][:, 2].max()
    lo_up = _moved(model, up, mask)[0][:, 2].max()
    assert lo_down > lo_up + 0.5                  # the wheels come up by more than half a metre


def test_the_propeller_turns_and_blurs():
    comp, vis, model = built("spitfire")
    n = len(comp.sections)
    ids, mask = _part_vertices(model, "blades")
    a = _moved(model, transforms(model.parts, np.zeros(n), 0.0, 0.0, propeller_rad=0.0), mask)[0]
    b = _moved(model, transforms(model.parts, np.zeros(n), 0.0, 0.0, propeller_rad=0.5), mask)[0]
    assert np.abs(a - b).max() > 0.3
    assert np.allclose(a[:, 0], b[:, 0], atol=1e-6)          # about the thrust line
    hidden = transforms(model.parts, np.zeros(n), 0.0, 0.0, hide_blades=True)
    assert all(np.allclose(hidden[i, :3, :3], 0.0) for i in ids)


def test_the_cockpit_view_hides_the_pilot_and_opens_the_cockpit():
    comp, vis, model = built("bf109")
    n = len(comp.sections)
    (cid,) = [k for k, p in enumerate(model.parts) if p.kind == "cockpit"]
    assert np.count_nonzero(model.vertices[:, 8] == cid) > 20
    assert np.allclose(transforms(model.parts, np.zeros(n), 0.0, 0.0, cockpit=True)[cid, :3, :3], 0.0)
    assert np.allclose(transforms(model.parts, np.zeros(n), 0.0, 0.0)[cid], np.eye(4))
    ck = model.cockpit
    assert ck["sight"]["kind"] == "revi16b" and ck["panel_x"] < ck["eye"][0] + 1.2


def _texel(model, atlas, skin_name, point, normal):
    """The atlas colour of the texel of a skin nearest a point whose normal is like ``normal``."""
    sk = next(s for s in model.skins if s.name == skin_name)
    u, v = np.meshgrid(np.linspace(0, 1, 300), np.linspace(0, 1, 300), indexing="ij")
    P, N = sk.points(u, v), sk.normals(u, v)
    d = np.linalg.norm(P - np.asarray(point), axis=-1) + 10.0 * (np.sum(N * np.asarray(normal), axis=-1) < 0.3)
    i, j = np.unravel_index(np.argmin(d), d.shape)
    x0, y0, w, h = sk.rect
    n = atlas.shape[0]
    return atlas[int((y0 + v[i, j] * h) * n), int((x0 + u[i, j] * w) * n), :3].astype(int)


def test_the_livery_paints_its_markings_where_it_says():
    """A roundel's red centre on the fuselage side, a Balkenkreuz's black centre, the star's
    white middle: at the marking's own position, in side or plan view."""
    comp, vis, model = built("spitfire")
    lv = choose(load_liveries(AIRCRAFT_DIR / "spitfire" / "liveries.toml"), "raf_222_zd_b")
    atlas = paint.paint_atlas(model, lv, 1024)
    m = next(m for m in lv.markings if m.kind == "roundel_c1" and m.on == "fuselage")
    r, g, b = _texel(model, atlas, "fuselage", (m.x_m, -0.4, m.z_m), (0, -1, 0))    # the left side
    assert r > 120 and g < 80 and b < 80, (r, g, b)
    comp, vis, model = built("bf109")
    lv = choose(load_liveries(AIRCRAFT_DIR / "bf109" / "liveries.toml"), "lw_stab_iv_jg54_410077")
    atlas = paint.paint_atlas(model, lv, 1024)
    m = next(m for m in lv.markings if m.kind == "balkenkreuz" and m.on == "fuselage")
    assert _texel(model, atlas, "fuselage", (m.x_m, 0.4, m.z_m), (0, 1, 0)).max() < 60


def test_paint_follows_the_scheme():
    """Upper colours on top, the lower colour underneath; a natural-metal scheme's bare metal
    is flagged metal for the shader (alpha >= 0.5), its painted panels not."""
    comp, vis, model = built("p51d")
    lv = choose(load_liveries(AIRCRAFT_DIR / "p51d" / "liveries.toml"), "usaaf_352fg_cripes")
    atlas = paint.paint_atlas(model, lv, 1024)
    sk = next(s for s in model.skins if s.name == "fuselage")
    x0, y0, w, h = sk.rect
    n = atlas.shape[0]
    block = atlas[int(y0 * n):int((y0 + h) * n), int(x0 * n):int((x0 + w) * n)]
    assert (block[..., 3] >= 128).mean() > 0.3           # most of it bare aluminium
    comp, vis, model = built("spitfire")
    lv = choose(load_liveries(AIRCRAFT_DIR / "spitfire" / "liveries.toml"), "raf_222_zd_b")
    atlas = paint.paint_atlas(model, lv, 1024)
    top = _texel(model, atlas, "wing", (-3.6, 2.0, 0.2), (0, 0, -1))
    under = _texel(model, atlas, "wing", (-3.6, 2.0, 0.5), (0, 0, 1))
    lower = np.asarray(lv.lower) * 255
    assert np.abs(under - lower).max() < 40 and np.abs(top - lower).max() > 30


def test_the_ai_wears_the_other_side():
    for a, mine in (("p51d", "allied"), ("spitfire", "allied"), ("bf109", "axis"), ("f15c", "allied")):
        lvs = load_liveries(AIRCRAFT_DIR / a / "liveries.toml")
        assert sum(lv.side == lvs[0].side for lv in lvs) >= 2     # two of its own side at least
        assert choose(lvs, not_side=mine).side != mine


@pytest.mark.parametrize("text, problem", [
    ("[visual]\nsources=[]\nlength_m=1\nspan_m=1\nheight_m=1\nwingspan=2\n", "visual.wingspan: unknown key"),
    ("[visual]\nsources=[]\nlength_m=1\nspan_m=1\nheight_m=1\n[fuselage]\nstations=[{x_m=0,top_m=0.5,bottom_m=-0.5,"
     "half_width_m=0.3},{x_m=-1,top_m=0,bottom_m=0,half_width_m=0}]\n", "bottom_m (-0.5) is above top_m (0.5)"),
    ("[visual]\nsources=[]\nlength_m=1\nspan_m=1\nheight_m=1\n[fuselage]\nstations=[{x_m=-1,top_m=-0.5,bottom_m=0.5,"
     "half_width_m=0.3},{x_m=0,top_m=0,bottom_m=0,half_width_m=0}]\n", "stations run nose to tail"),
    ("\xff\xfe not text", "not a text file in UTF-8"),
])
def test_bad_visual_data_is_refused_in_one_line(tmp_path, text, problem):
    p = tmp_path / "visual.toml"
    p.write_bytes(text.encode("latin-1") if "\xff" in text else text.encode())
    with pytest.raises(DataError) as e:
        load_visual(p)
    msg = str(e.value)
    assert "\n" not in msg and str(p) in msg and problem in msg


def test_bad_livery_data_is_refused_in_one_line(tmp_path):
    base = ('[[livery]]\nid="x"\nname="x"\nside="allied"\nnation="raf"\ncolours={a=[1,2,3]}\nupper="a"\nlower="a"\n')
    for extra, problem in (('spinner="b"\n', "unknown colour 'b'"),
                           ('[[livery.marking]]\nkind="text"\non="fuselage"\nx_m=0\nsize_m=1\ntext="A+B"\ncolour="a"\n',
                            "the stencil font has"),
                           ('[[livery.marking]]\nkind="swastika"\non="fin"\nx_m=0\nsize_m=1\n', "must be one of")):
        p = tmp_path / "liveries.toml"
        p.write_text(base + extra)
        with pytest.raises(DataError) as e:
            load_liveries(p)
        assert problem in str(e.value) and "\n" not in str(e.value)


def test_a_look_is_built_once_and_read_back(tmp_path, monkeypatch):
    """A warm start reads the model and the painted atlas from the cache: nothing lofted or
    painted again, the same vertices and texels; a cache file cut short is built again."""
    from flightsim.render.model import looks
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))

    def fresh_process():
        monkeypatch.setattr(looks, "_models", {})
        monkeypatch.setattr(looks, "_atlases", {})

    fresh_process()
    comp = built("astir")[0]
    first = looks.look(comp, "low")
    meshes = list((tmp_path / "flightsim" / "mesh").glob("*.pkl"))
    assert len(meshes) == 1 and first.model.skins
    calls = []
    real = exterior.build
    monkeypatch.setattr(exterior, "build", lambda *a, **k: calls.append(1) or real(*a, **k))
    fresh_process()
    again = looks.look(comp, "low")
    assert calls == []
    np.testing.assert_array_equal(again.model.vertices, first.model.vertices)
    np.testing.assert_array_equal(again.model.indices, first.model.indices)
    np.testing.assert_array_equal(again.atlas, first.atlas)
    assert len(again.model.parts) == len(first.model.parts)
    meshes[0].write_bytes(meshes[0].read_bytes()[:100])
    fresh_process()
    third = looks.look(comp, "low")
    assert calls == [1]
    np.testing.assert_array_equal(third.model.vertices, first.model.vertices)
