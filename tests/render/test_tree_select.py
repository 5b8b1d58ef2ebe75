"""The trees a frame draws (render/tree_select.py): chosen by cells, the same trees the old
tree-by-tree test chose where the budget allows, nearest first where it does not."""
import numpy as np

from flightsim.render.tree_select import CELL_M, TreeCells


def _forest(n=20000, half_m=6000.0, seed=1):
    rng = np.random.default_rng(seed)
    t = np.empty((n, 6))
    t[:, :2] = rng.uniform(-half_m, half_m, (n, 2))
    t[:, 2] = rng.uniform(0.0, 300.0, n)
    t[:, 3] = rng.uniform(8.0, 25.0, n)
    t[:, 4] = rng.uniform(2.0, 5.0, n)
    t[:, 5] = rng.uniform(0.0, 1.0, n)
    return t


def _by_tree(rows):
    """Rows by their height, crown and tint (random, so unique; copied unchanged to float32)."""
    return {tuple(np.asarray(r[3:], dtype=np.float32)): r[:3] for r in rows}


def test_every_tree_in_range_and_ahead_is_drawn_and_moved_to_the_eye():
    t = _forest()
    cells = TreeCells(t)
    eye = np.array([120.0, -340.0, -500.0])
    fwd = np.array([0.6, 0.8, 0.0])
    inst = cells.select(eye, fwd, 1400.0, 100000)
    assert inst.dtype == np.float32 and inst.shape[1] == 6
    rel = np.column_stack([t[:, 0] - eye[0], t[:, 1] - eye[1], -t[:, 2] + 0.5 - eye[2], t[:, 3:]])
    d = np.hypot(rel[:, 0], rel[:, 1])
    must = rel[(d < 1400.0) & (rel[:, :2] @ fwd[:2] > -30.0)]
    drawn = _by_tree(inst)
    for k, pos in _by_tree(must).items():
        assert k in drawn
        assert np.allclose(drawn[k], pos, atol=1e-3)
    # and nothing far outside: at most a cell's diagonal beyond the range, or behind the eye
    di = np.hypot(inst[:, 0], inst[:, 1])
    assert di.max() < 1400.0 + 2 * CELL_M * 0.71
    assert (inst[:, :2] @ fwd[:2]).min() > -30.0 - 2 * CELL_M * 0.71


def test_the_budget_takes_the_nearest_cells_first():
    t = _forest()
    cells = TreeCells(t)
    eye = np.array([0.0, 0.0, -300.0])
    inst = cells.select(eye, np.array([1.0, 0.0, 0.0]), 4500.0, 1200)
    assert len(inst) == 1200
    d = np.hypot(inst[:, 0], inst[:, 1])
    ahead_far = np.hypot(t[:, 0], t[:, 1])[t[:, 0] > 0.0]
    # the 1200 drawn lie within the nearest few hundred metres, not spread over the 4.5 km range
    assert np.percentile(d, 90) < np.sort(ahead_far)[2400]


def test_no_trees_and_none_in_range():
    assert len(TreeCells(np.zeros((0, 6))).select((0, 0, 0), (1, 0, 0), 1000.0, 100)) == 0
    cells = TreeCells(_forest(n=100, half_m=100.0))
    assert len(cells.select((50000.0, 0.0, -100.0), (1.0, 0.0, 0.0), 1000.0, 100)) == 0
