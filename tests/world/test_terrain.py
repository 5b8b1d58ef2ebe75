"""The world heightfield: deterministic, big enough, its features, shared with ground contact."""
import numpy as np

from flightsim.physics.ground import terrain_height
from flightsim.world import scenery
from flightsim.world import terrain as T


def test_deterministic_and_size():
    a = T.generate()
    b = T.generate.__wrapped__(7)        # uncached: generated again from the seed
    assert np.array_equal(a.heights_m, b.heights_m)
    assert min(a.size_ne_m) >= 40000.0
    assert a.heights_m.flags["C_CONTIGUOUS"] and a.heights_m.dtype == np.float64
    c = T.generate.__wrapped__(8)
    assert not np.array_equal(a.heights_m, c.heights_m)


def test_features():
    t = T.generate()
    af = t.airfield
    # airfield flat at its elevation
    for along in (-450, 0, 450):
        for right in (-100, 0, 150):
            n, e = af.to_world(along, right)
            assert abs(t.height_at(n, e) - af.elevation_m) < 0.01
    # the ridge stands well above the airfield; there is water, and hills and valleys
    ridge = max(t.height_at(n, -6500.0 - n * np.tan(np.radians(20))) for n in range(-6000, 6001, 500))
    assert ridge > af.elevation_m + 250
    water = t.heights_m <= t.water_level_m + 0.01
    assert 0.0005 < water.mean() < 0.2
    assert t.heights_m.max() - t.heights_m.min() > 500


def test_physics_sees_the_same_ground():
    t = T.generate()
    env = t.env()
    rng = np.random.default_rng(0)
    for n, e in rng.uniform(-15000, 15000, (20, 2)):
        h, _, _ = terrain_height(t.heights_m, env, n, e)
        assert abs(h - t.height_at(n, e)) < 1e-6


def test_scenery_deterministic():
    t = T.generate()
    a, b = scenery.build(t), scenery.build(t)
    assert np.array_equal(a.trees, b.trees) and len(a.trees) > 1000
    assert {"airfield", "mast", "church", "castle"} <= set(a.landmarks)
    assert not np.any(t.is_water(a.trees[:, 0], a.trees[:, 1]))


def test_the_heightfield_kept_on_disk_is_the_one_made_bit_for_bit(tmp_path, monkeypatch):
    """generate() keeps the heights in the cache folder; read back they are the same bits, and a
    damaged file is made again, never used."""
    import numpy as np

    from flightsim.world import terrain as T
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    T.generate.cache_clear()
    try:
        made = T.generate(7, 20480.0, 80.0)
        files = list((tmp_path / "flightsim" / "terrain").glob("*.npy"))
        assert len(files) == 1
        T.generate.cache_clear()
        read = T.generate(7, 20480.0, 80.0)
        fresh = T.heightfield(7, made.heights_m.shape[0], made.origin_ne_m, 80.0, T.AirfieldSpec())
        assert np.array_equal(read.heights_m, fresh) and np.array_equal(made.heights_m, fresh)
        files[0].write_bytes(b"not an array")
        T.generate.cache_clear()
        again = T.generate(7, 20480.0, 80.0)
        assert np.array_equal(again.heights_m, fresh)
        assert np.array_equal(np.load(files[0]), fresh)          # written again
    finally:
        T.generate.cache_clear()
