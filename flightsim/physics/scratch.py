"""The step kernels' scratch memory: one flat float array carved into the per-section airflow
rows, the per-group and powerplant rows, the per-section Mach-table rows, the rotation matrix,
the force and moment sums, the derivative, the new and backup states (backup followed by the
step's clamped controls).

A Sim, a fleet and the physics thread keep it in the tail of each aircraft's diag array
(``diag_size``), so a step allocates nothing; ``make_scratch`` gives a fresh zeroed one for
trims and tools. dynamics.step_in_diag carves the same views without reference counting.
"""
import numpy as np

from .jit import entry, kernel
from .layout import H_N_SECTIONS, N_CTRL, N_DIAG, N_DOF, N_STATE, WS_PLANT

WS_EXTRA = 8        # per-group rows after the sections' (aero.solve_induced and section_forces use them)
# after the powerplant's rows, one row per section: a section with a Mach table keeps there the
# table's values at its Mach number (CLmax ratio, wave drag, suction loss, a.c. shift; the lift-slope
# ratio is in its airflow row), looked up once by aero.section_airflow for section_forces: the same
# lookup twice cost the F-15C 0.1 us a step (Nov 2026)
WS_MACH_OFFSET = WS_EXTRA + WS_PLANT


@kernel
def scratch_rows(model):
    """Rows of ws, eight floats each: the sections', then WS_EXTRA per-group rows, then the
    powerplant's, then a Mach-table row per section (WS_MACH_OFFSET)."""
    return 2 * int(model[0, H_N_SECTIONS]) + WS_EXTRA + WS_PLANT


@kernel
def scratch_size(model):
    """Floats of scratch memory the step kernels need for this model (see carve_scratch)."""
    return scratch_rows(model) * 8 + 9 + 6 + 2 * N_DOF + N_STATE + N_CTRL


@entry
def carve_scratch(work, model):
    """The step kernels' scratch as views of one flat array of scratch_size(model) floats:
    ws (per-section airflow rows, then 8 rows of per-group values, then the powerplant's
    rows, then a Mach-table row per section), R (body->NED), fm (force 0..2 and moment 3..5, body axes), deriv, new and backup
    state rows (backup N_STATE + N_CTRL long: the step's clamped controls follow the state)."""
    nrow = scratch_rows(model)
    o = nrow * 8
    ws = work[0:o].reshape((nrow, 8))
    R = work[o:o + 9].reshape((3, 3))
    o += 9
    fm = work[o:o + 6]
    o += 6
    deriv = work[o:o + N_DOF]
    o += N_DOF
    new = work[o:o + N_DOF]
    o += N_DOF
    backup = work[o:o + N_STATE + N_CTRL]
    return ws, R, fm, deriv, new, backup


@entry
def make_scratch(model):
    """Fresh scratch memory for the step kernels (see carve_scratch), zeroed: nothing may
    start from whatever the heap held before (a trim must not depend on what the process
    did earlier)."""
    return carve_scratch(np.zeros(scratch_size(model)), model)


@entry
def _work(diag, model):
    """The scratch memory of one kernel call: the tail of diag when the caller made it long
    enough (diag_size: Sim and the physics thread do, so a step allocates nothing), else a
    fresh array."""
    need = scratch_size(model)
    if diag.shape[0] >= N_DIAG + need:
        return carve_scratch(diag[N_DIAG:N_DIAG + need], model)
    return carve_scratch(np.zeros(need), model)


def diag_size(model) -> int:
    """Length of a diag array that also holds the step kernels' scratch memory."""
    return N_DIAG + scratch_size(model)
