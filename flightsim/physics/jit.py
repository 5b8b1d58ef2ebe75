"""How the physics kernels are compiled: numba's options in one place.

Three kinds of function, each with its decorator (and two variants, below the third):

* ``@entry``: called from Python, or allocates, or returns an array (a view of scratch
  memory is an array too). numba's reference counting (NRT) stays on, as it must for
  anything that owns or hands back memory. ``@parallel_entry`` is the same with numba's
  threads for its ``prange`` loops (the batched step, the gym's fused step).
* ``@kernel``: a function of the step (the derivative, the sections, the powerplant,
  the ground...). Compiled once as its own function and called; LLVM inlines the small
  ones itself. Two choices make that as fast as inlining everything was:

  - no reference counting (numba's ``_nrt=False``). A kernel only reads and writes the
    arrays its caller owns, so counting references buys nothing; with it on, every call
    increfs and decrefs each array argument with an atomic instruction (11 arrays for the
    derivative), which cost 11 % of a step. Such a kernel must not allocate and must
    not return an array (numba refuses the first at compile time; the second is
    checked by tests/physics/test_cache.py). Called straight from Python (dynamics.step_in_diag,
    the gym's one-environment step), it then also wraps none of the arrays it is given in a
    counted object: a malloc and two atomic counts per array saved on every call.
  - LLVM's fast-math flags nsz, arcp, contract, afn: results differ from strict IEEE
    order in the last bits and stay bit-identical run to run, whatever else the process
    ran before. NaN and infinity are honoured (no nnan / ninf), so the step's non-finite
    checks keep working. Not ``reassoc``: it lets LLVM vectorise sums, and a vectorised
    loop runs or falls back to the scalar one by runtime checks, so the order of the sum
    (its last bits) depended on where the arrays happened to lie. Measured: one Astir
    step earlier in the process changed a P-51D flight from its second step on, and a
    recorded flight did not replay bit for bit in a fresh process. Without it, the same
    in every order tried, for 2-3 % of the step rate (Astir 558k -> 543k steps/s one per
    call, P-51D 285k -> 280k).

  One order still shows in the last bits: the order in which a machine's cache was filled. A
  kernel loaded from the cache is linked into the kernels compiled after it as object code,
  where LLVM cannot inline it, so contraction into fused multiply-adds falls differently than
  when caller and callee are compiled together. Measured Nov 2026: the engine's idle balance
  (called by the aircraft compiler) compiled and cached before the step moved the kept
  regression flights by 1e-15 to 4e-12 from the fifth second on. The cache is therefore
  filled in one order, flightsim/app/prepare.py's (the game's first start, the test suite's
  first step); tools that compile out of that order use a cache of their own
  (scripts/check.sh).

* ``@hot_kernel``: a kernel that numba also inlines at IR level into its callers, for
  the few small helpers called per section or blade element that LLVM leaves as calls.

``@exact_kernel``: a kernel without the fast-math flags, for readouts and observations whose
numbers must be numpy's own (physics.batch.read_row, flightsim/gym/fused.py): no reference
counting, strict IEEE order.

IR-level inlining (``inline="always"``) copies the callee's IR into every call site
before type inference; applied to every helper it made the first compile take about
150 s for the step alone (numba's IR deep copies, not LLVM). Measured on this 2-core
machine, empty cache, both aircraft trimmed and stepped, and steps per second in
thousands (single / batched, best of six windows, variants run interleaved):

    IR-inlined                      cold compile   Astir          P-51D
    every helper (before)           190 s          520-549 / 787-857   252-271 / 320-334
    none                            19.0 s         543-556 / 1005-1012 272-273 / 344-347
    + aero.coefficients             20.2 s         567-580 / 1016-1035 270-279 / 345-358
    + compress.stretched_angle      20.2 s         565-586 / 1017-1025 294-295 / 379-383
    + aero.wind_at, ground._contact 22.2 s         583-589 / 1043-1069 294-298 / 381-390

(the "before" row also counted references; the rows below it do not.) The last row is
what ``hot_kernel`` marks.
"""
from numba import njit

FASTMATH = frozenset({"nsz", "arcp", "contract", "afn"})
ENTRY_OPTIONS = dict(cache=True, nogil=True, error_model="numpy")
KERNEL_OPTIONS = dict(ENTRY_OPTIONS, fastmath=set(FASTMATH), _nrt=False)
HOT_KERNEL_OPTIONS = dict(KERNEL_OPTIONS, inline="always")

entry = njit(**ENTRY_OPTIONS)
parallel_entry = njit(parallel=True, **ENTRY_OPTIONS)     # an entry whose prange loops go over numba's threads
# a kernel without fast-math: readouts and observations whose numbers must be numpy's own
exact_kernel = njit(**dict(ENTRY_OPTIONS, _nrt=False))
kernel = njit(**KERNEL_OPTIONS)
hot_kernel = njit(**HOT_KERNEL_OPTIONS)
