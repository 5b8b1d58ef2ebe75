"""Index layout of the flat float64 arrays the numba kernels work on.

The kernels never see Python objects: an aircraft is one 2-D ``model`` array
(a header row, a mass-properties row, one row per section, per gear leg and per
contact point), a 3-D ``tables`` array of airfoil curves resampled on one alpha
grid, and the per-step ``state``, ``ctrl``, ``env`` and ``diag`` vectors.
Everything is SI; angles in radians.
"""

# ---------------------------------------------------------------- state vector
S_POS = 0        # 0..2  position NED, m
S_VEL = 3        # 3..5  velocity in body axes (u, v, w), m/s, relative to the ground
S_QUAT = 6       # 6..9  q_ned_from_body, scalar first (w, x, y, z)
S_OMEGA = 10     # 10..12 body rates (p, q, r), rad/s
N_DOF = 13       # the integrated part
S_PREV = 13      # 13..25 derivative of the previous step (trapezoid/AB2 history)
S_HAS_PREV = 26  # 1.0 once S_PREV holds a derivative
S_TICK = 27      # steps taken since the state was made (t = tick * dt)
S_CONTACT_MASK = 28  # bit mask of non-gear contacts touching last step (strike edge detection)
S_STRIKE_SPEED = 29  # largest strike speed since reset, m/s
S_STRIKE_INDEX = 30  # contact index of that strike (-1: none)
S_PREV_DT = 31   # length of the step that produced S_PREV, s (variable-step history)
N_STATE = 32

# ---------------------------------------------------------------- control vector
C_PITCH = 0      # -1..1, + = nose up (stick back)
C_ROLL = 1       # -1..1, + = roll right
C_YAW = 2        # -1..1, + = nose right (right pedal); also steers the steerable wheel
C_AIRBRAKE = 3   # 0..1
C_FLAP = 4       # -1..1 (flap/camber setting; 0 where the aircraft has none)
C_BRAKE_L = 5    # 0..1
C_BRAKE_R = 6    # 0..1
C_THROTTLE = 7   # 0..1 (powered aircraft; the engine issue wires it)
C_PITCH_TRIM = 8  # -1..1 added to the pitch command (trim tab, until issue 4's control feel)
C_GEAR_UP = 9    # 0 = retractable gear down (the default), 1 = up
N_CTRL = 10

# ---------------------------------------------------------------- environment vector
E_WIND_N = 0     # steady wind NED, m/s (the velocity of the air)
E_WIND_E = 1
E_WIND_D = 2
E_TERRAIN_N0 = 3  # heightfield origin (north, east) of sample [0, 0], m
E_TERRAIN_E0 = 4
E_TERRAIN_DX = 5  # heightfield spacing, m (north = rows, east = columns)
E_GRAVITY = 6    # m/s^2
E_DT = 7         # step, s
E_THERMAL_COUNT = 8  # number of thermals that follow (wind-field hook; 0 now)
E_THERMALS = 10  # thermals: (north, east, radius_m, updraft_ms, 0, 0) each, appended
N_ENV_BASE = 10
N_THERMAL = 6

# ---------------------------------------------------------------- diag vector (outputs of a step)
D_ALPHA = 0
D_BETA = 1
D_TAS = 2
D_QBAR = 3
D_MACH = 4
D_RHO = 5
D_NZ = 6          # load factor along -z body (g)
D_NY = 7
D_NX = 8
D_FORCE = 9       # 9..11 total external force, body, N (without gravity)
D_MOMENT = 12     # 12..14 total moment about CG, body, N m
D_CL_WING = 15
D_ALPHA_INDUCED = 16
D_ON_GROUND = 17  # number of gear legs in contact
D_STRIKE_INDEX = 18  # contact that newly touched this step (-1 none)
D_STRIKE_SPEED = 19  # its speed relative to the ground, m/s
D_NONFINITE = 20  # 1 if this step produced a non-finite state (state was kept)
D_GEAR_LOAD = 21  # total gear normal force, N
D_STALLED_SECTIONS = 22  # number of lifting sections past their stall angle
D_DOWNWASH = 23
D_HEIGHT_AGL = 24  # height of the CG above terrain, m
D_IAS = 25        # indicated (equivalent) airspeed, m/s
D_CONTACT_MASK = 26  # bit mask of non-gear contacts touching now
D_STIFFNESS = 27  # fastest aerodynamic damping rate estimated this step, 1/s
D_SUBSTEPS = 28   # sub-steps the last 20 ms step was split into (1 almost always)
N_DIAG = 32

# ---------------------------------------------------------------- model array
MODEL_COLS = 32
# row 0: header
H_N_SECTIONS = 0
H_N_GEAR = 1
H_N_CONTACT = 2
H_ROW_SECTION = 3
H_ROW_GEAR = 4
H_ROW_CONTACT = 5
H_N_GROUPS = 6
H_GROUND_RADIUS = 7  # farthest gear/contact point from the CG, m (ground early-out)
# row 1: mass properties
ROW_MASS = 1
M_MASS = 0
M_CG = 1          # 1..3 CG, body axes from datum
M_INERTIA = 4     # 4..12 inertia tensor about CG, row-major
M_INV_INERTIA = 13  # 13..21
# row 2: group properties (4 groups x 4 columns)
ROW_GROUPS = 2
GROUP_WING, GROUP_HTAIL, GROUP_VTAIL, GROUP_BODY = 0, 1, 2, 3
N_GROUPS = 4
G_COLS = 4
G_K_INDUCED = 0   # 1 / (pi * AR * e): induced angle per unit CL
G_AREA = 1
G_DOWNWASH = 2    # downwash at this group per unit wing CL (rad)
G_SPAN = 3
# section rows
SEC_POS = 0       # 0..2 quarter-chord point, body axes from datum
SEC_CHORD_AX = 3  # 3..5 unit chord axis (toward leading edge)
SEC_NORMAL = 6    # 6..8 unit normal (lift direction at zero alpha)
SEC_SPAN_AX = 9   # 9..11 unit span axis = chord x normal
SEC_AREA = 12
SEC_CHORD = 13
SEC_SPAN = 14
SEC_TABLE = 15
SEC_GROUP = 16
SEC_GAIN = 17     # 17..20 deflection (rad) per unit pitch, roll, yaw, flap command
SEC_AIRBRAKE_DCD = 21
SEC_AIRBRAKE_DCL = 22
SEC_STALL_ALPHA = 23  # alpha of CLmax (rad), for stall reporting
SEC_MASS = 24
SEC_NEG_STALL_ALPHA = 25
SEC_RXN = 26      # 26..28 (r - cg) x normal, per unit inertia about each body axis
SEC_INV_MASS = 29  # 1 / aircraft mass (heave stiffness weight)
SEC_RE_FACTOR = 30  # (chord / table Reynolds number)^-0.2: drag scale = this * (rho V / mu)^-0.2 (0: none)
# gear rows
GR_POS = 0
GR_K = 3
GR_C = 4
GR_ROLL_MU = 5
GR_BRAKE_MU = 6
GR_SIDE_MU = 7
GR_STEER = 8      # steering angle at full right pedal, rad (negative for a wheel behind the CG)
GR_BRAKE_SIDE = 9  # 0 both, -1 left pedal, +1 right pedal
GR_DRAG_AREA = 10  # drag area CD*S when extended, m2
GR_RETRACTABLE = 11  # 1 if it retracts with C_GEAR_UP
# contact rows
CT_POS = 0
CT_K = 3
CT_C = 4
CT_MU = 5

# ---------------------------------------------------------------- tables
TABLE_ALPHA_MIN_DEG = -180.0
TABLE_STEP_DEG = 0.25
TABLE_N = 1441     # -180..180 in 0.25 deg
# rows of tables[i]: cl, cd, cm at -10, 0, +10 deg deflection, then the lift-curve
# slope dcl/dalpha (per rad) of the undeflected curve, smoothed over +/-1 deg
T_CL = 0
T_CD = 3
T_CM = 6
T_SLOPE = 9
T_ROWS = 10
