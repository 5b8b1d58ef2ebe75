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
# control surfaces and actuators as they actually are (the controls are requests, see
# dynamics.surfaces): normalised like the commands, moved once per step
S_SURF = 32      # 32..37
SURF_PITCH, SURF_ROLL, SURF_YAW, SURF_FLAP, SURF_AIRBRAKE, SURF_GEAR = 0, 1, 2, 3, 4, 5
SURF_STAB = 6    # the stabilizer trim's position, -1..1 (+ nose up), where the aircraft trims by it
N_SURF = 7       # (39 spare)
S_ENGINE = 40    # 40..67: powered-aircraft states (engine, propeller, fuel), see the block at the end
S_GUN_FIRED = 68  # 68..75: rounds fired by each gun (combat block at the end)
S_SLAT = 76      # 76..83: each slat's position, 0 closed .. 1 open (sections' SEC_SLAT_K)
N_SLATS = 8
# 84..121: systems damage and stores; 122..135: jets and the flight-control law (the blocks at the end); N_STATE = 136

# ---------------------------------------------------------------- control vector
C_PITCH = 0      # -1..1, + = nose up (stick back)
C_ROLL = 1       # -1..1, + = roll right
C_YAW = 2        # -1..1, + = nose right (right pedal); also steers the steerable wheel
C_AIRBRAKE = 3   # 0..1
C_FLAP = 4       # -1..1 (flap/camber setting; 0 where the aircraft has none)
C_BRAKE_L = 5    # 0..1
C_BRAKE_R = 6    # 0..1
C_THROTTLE = 7   # 0..1 (powered aircraft; the engine issue wires it)
C_PITCH_TRIM = 8  # -1..1 elevator trim tab: shifts the elevator's neutral point (C_ROLL_TRIM, C_YAW_TRIM below)
C_GEAR_UP = 9    # 0 = retractable gear down (the default), 1 = up
C_ROLL_TRIM = 16  # -1..1 aileron trim tab: shifts the aileron's neutral point (as C_PITCH_TRIM the elevator's)
C_YAW_TRIM = 17   # -1..1 rudder trim tab
C_FIRE = 18      # 0/1 gun trigger (combat block at the end)
C_DROP_TANKS = 19  # 0/1 release the drop tanks (stores block at the end)
C_DROP_BOMBS = 20  # 0/1 release the bombs
C_FCS_DIRECT = 21  # 0/1 the flight-control law switched off: the stick moves the surfaces directly (jets block)
C_MIXTURE_LEAN = 22  # 0 full rich .. 1 idle cut-off: a manual mixture lever (carburetted engines; block at the end)
C_CARB_HEAT = 23  # 0 cold .. 1 full carburettor heat (carburetted engines)
# 24..28 weapon buttons, 0/1: no kernel reads them, the world's combat acts on each press (world/missiles.py)
C_LAUNCH, C_WEAPON_SELECT, C_LOCK, C_FLARE, C_CHAFF = 24, 25, 26, 27, 28   # missile, next weapon, lock, flare, chaff
N_CTRL = 29      # 10..15: the powerplant's controls (C_PROP_RPM ..., the block at the end)

# ---------------------------------------------------------------- environment vector
E_WIND_N = 0     # steady wind NED, m/s (the velocity of the air)
E_WIND_E = 1
E_WIND_D = 2
E_TERRAIN_N0 = 3  # heightfield origin (north, east) of sample [0, 0], m
E_TERRAIN_E0 = 4
E_TERRAIN_DX = 5  # heightfield spacing, m (north = rows, east = columns)
E_GRAVITY = 6    # m/s^2
E_DT = 7         # step, s
E_THERMAL_COUNT = 8  # number of thermals that follow (wind-field hook)
E_HUMIDITY = 9   # relative humidity of the air, 0..1 (0: dry; the carburettor's icing, physics/carburettor.py)
# an external force on the airframe for the coming step (a winch or tow cable, set by the
# world between ticks): NED force, N, at a body point (from the datum), m
E_EXT_FORCE = 10  # 10..12
E_EXT_POINT = 13  # 13..15
E_THERMALS = 16  # thermals: (north, east, radius_m, updraft_ms, cloud base m ASL (0: none),
                 # ground m ASL under it) each, appended
N_ENV_BASE = 16
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
D_NONFINITE = 20  # why the last step was refused (the state kept as it was), 0: it was not:
REFUSED_NONFINITE = 1.0   # a non-finite number anywhere in the state it produced
REFUSED_BOUNDS = 2.0      # a state past physical bounds (MAX_SPEED_MS, MAX_RATE_RADS)
REFUSED_CONTROL = 3.0     # a control that is not a number (NaN)
MAX_SPEED_MS = 5000.0     # no aircraft here reaches it: past it the numbers have run away
MAX_RATE_RADS = 200.0     # body rate, rad/s (a tumbling airframe: a few)
D_GEAR_LOAD = 21  # total gear normal force, N
D_STALLED_SECTIONS = 22  # number of lifting sections past their stall angle
D_DOWNWASH = 23
D_HEIGHT_AGL = 24  # height of the CG above terrain, m
D_IAS = 25        # indicated (equivalent) airspeed, m/s
D_CONTACT_MASK = 26  # bit mask of non-gear contacts touching now
D_STIFFNESS = 27  # fastest aerodynamic damping rate estimated this step, 1/s
D_SUBSTEPS = 28   # sub-steps the last 20 ms step was split into (1 almost always)
D_STALLED_WING = 48  # wing sections beyond their stall angle (buffet onset: the first one)
# N_DIAG keeps 1 mod 4: the step kernels' scratch is carved from the diag array right after the
# named values (scratch._work), and its alignment to 32 bytes changes the last bits of the flight
# (measured: with N_DIAG = 58 the kept winch launch differed from step 135 on by up to 5e-15; 49 and 61 replay it)
N_DIAG = 65       # 32..47: the powerplant's outputs (D_RPM ..., the block at the end); 49..57 damage, 58..63 jets,
#                   64 the exhaust gas temperature (D_EGT)

# ---------------------------------------------------------------- model array
MODEL_COLS = 52
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
# row 3: control system (the stick is a force request, seed 000): per axis pitch/roll/yaw
# (CTL_COLS columns each), then the actuators
ROW_CONTROLS = 3
CTL_COLS = 5
CTL_Q_FULL = 0     # dynamic pressure (Pa, at the full-deflection IAS) up to which full force gives full travel
CTL_TAU = 1        # time constant of the surface at that speed, s (faster above it: stiffer backforce)
CTL_RATE = 2       # travel rate limit away from neutral, full travel per s
CTL_FORCE = 3      # the pilot's maximum force on this axis, N (reporting)
CTL_INV_HINGE_EXP = 4   # 1 / m, the hinge moment growing as deflection^m: above q_full the force holds
#                         the deflection fraction (q_full / q)^(1/m) (m = 1: a linear hinge moment)
CTL_FLAP_RATE = 15      # actuator rates, full travel per s
CTL_AIRBRAKE_RATE = 16
CTL_GEAR_RATE = 17
# the pitch trim as the stabilizer's incidence (0 rate: a trim tab, the elevator's neutral point)
CTL_STAB_RATE = 18      # stabilizer trim travel, full travel (-1..1) per s
CTL_STAB_UP_RAD = 19    # incidence change at full nose-up trim (leading edge down), rad (> 0)
CTL_STAB_DOWN_RAD = 20  # at full nose-down trim (leading edge up), rad (> 0)
# tabs per axis (elevator, aileron, rudder), 3 columns each from these
CTL_GEARED_EASE = 21    # 21..23 fraction of the hinge moment a geared (balance) tab takes off
CTL_SPRING_Q = 24       # 24..26 dynamic pressure at which a spring tab carries half the hinge moment, Pa (0: none)
CTL_TAB_LOSS = 27       # 27..29 fraction of the surface's effect the tabs' lift cancels at full assistance
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
SEC_LE_LOSS = 31  # how much of the CLmax loss with Mach the section suffers, 0..1 (compress.clmax_loss_weight)
SEC_SLOPE_INV = 39  # 1 / the attached lift-curve slope of its table (rad), for the Mach stall stretch
SEC_TWIST_INV = 40  # wing twist: rad of twist per N m about the elastic axis (1 / torsional stiffness; 0: rigid)
SEC_EA_AFT = 41     # the elastic axis behind the quarter chord, in chords
# automatic leading-edge slats (seed 000): per section, opened by its own local angle of attack
SEC_SLAT_K = 42         # its slat's state slot, S_SLAT + k (-1: no slat)
SEC_SLAT_TABLE = 43     # the section's table with the slat open (SEC_TABLE: closed)
SEC_SLAT_OPEN = 44      # local angle of attack (rad, less its group's induced angle) that opens it
SEC_SLAT_CLOSE = 45     # ... below which it closes again
SEC_SLAT_RATE = 46      # travel, full per s
SEC_SLAT_STALL = 47     # the stall angle of the slat-open table, rad
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
# slope dcl/dalpha (per rad) of the undeflected curve, smoothed over +/-1 deg, then cl, cd,
# cm at the control's full positive deflection (an airfoil's [deflection_full], a flap's
# measured large-deflection effect; without one, the +10 curve extrapolated linearly to
# 30 deg) and that deflection in 10-degree steps (the whole row; column 1 then holds the full
# increment over the 10-degree one at zero incidence, 0 without a full curve)
T_CL = 0
T_CD = 3
T_CM = 6
T_SLOPE = 9
T_FULL = 10        # cl, cd, cm: 10, 11, 12
T_FULL_STEPS = 13
T_ROWS = 14

# ================================================================ powered aircraft (issue 6)
# Engine, supercharger, propeller, governor, cooling and fuel tanks (seed 000). They are
# stepped once per tick after the rigid body (dynamics.step_ws -> plant.plant_advance);
# their forces enter the one derivative per step (plant.plant_forces).
# ---- state (S_ENGINE = 40 ..)
S_ENG_OMEGA = 40      # crankshaft angular speed, rad/s (the propeller turns at gear_ratio times it)
S_PROP_PITCH = 41     # blade angle at the reference station (0.75 R), rad
S_SC_GEAR = 42        # supercharger gear: 0 low, 1 high
S_COOLANT_T = 43      # coolant temperature, K (0: not yet set -> taken as ambient)
S_OIL_T = 44          # oil temperature, K
S_RAD_FLAP = 45       # radiator exit flap, 0 closed .. 1 open (automatic)
S_FUEL_USED = 46      # 46..51: fuel burned from each tank, kg (0 = the loaded fuel)
N_TANK_MAX = 6
S_INFLOW = 52         # 52..59: axial induced velocity at the disc per blade station, m/s
N_PROP_ST_MAX = 8
S_SWIRL = 60          # 60..67: swirl (tangential induced) velocity at the disc per station, m/s
# ---- controls
C_PROP_RPM = 10       # 0..1 governor setting, minimum .. maximum rpm (make_ctrl default 1)
C_WEP = 11            # 0/1 war emergency power: the manifold-pressure cap rises to the WEP boost
C_BLOWER = 12         # 0 automatic supercharger gear, 1 held in low gear
C_FEATHER = 13        # 0/1 feather the propeller (where it can be feathered)
C_CUTOFF = 14         # 0/1 mixture idle cut-off: no fuel, the engine stops
C_STARTER = 15        # 0/1 starter motor engaged
# ---- diag
D_RPM = 32            # engine rpm
D_MAP = 33            # manifold pressure, Pa
D_SHAFT_POWER = 34    # brake power delivered to the propeller shaft, W
D_THRUST = 35         # propeller thrust along the shaft, N
D_PROP_TORQUE = 36    # aerodynamic torque on the propeller, N m
D_FUEL_FLOW = 37      # kg/s
D_BLADE_ANGLE = 38    # rad, at 0.75 R
D_SC_GEAR = 39        # 0 low / 1 high
D_COOLANT_T = 40      # K
D_OIL_T = 41          # K
D_FUEL_KG = 42        # fuel on board, kg
D_MASS = 43           # aircraft mass this step, kg
D_EXHAUST_THRUST = 44  # N
D_PROP_EFF = 45       # thrust power / shaft power
D_ENGINE_LOAD = 46    # brake power / rated power
D_SC_POWER = 47       # power absorbed by the supercharger, W
D_CARB_T = 31         # carburettor air temperature at the throttle, K (a carburetted engine; else 0)
D_EGT = 64            # exhaust gas temperature, K (a carburetted engine's mixture indicator; else 0)
# ---- model header (row 0)
H_ROW_PLANT = 20      # first powerplant row (0: no engine)
H_N_PROP_ST = 21      # blade stations
H_N_TANKS = 22        # fuel tanks
H_CONTROL_MACH = 23   # Mach number beyond which control surfaces lose effectiveness (0: none)
# ---- section columns (compressibility, propwash)
SEC_THICKNESS = 32    # thickness/chord of the section (0: no compressibility)
SEC_WASH_K = 33       # blade station whose slipstream this section sits in (-1: none)
SEC_WASH_AX = 34      # axial slipstream velocity at the section per unit induced velocity at the disc
SEC_WASH_SWY = 35     # swirl velocity (body y, z) at the section per unit swirl at the disc
SEC_WASH_SWZ = 36
SEC_WAVE_PEAK = 37    # transonic wave-drag peak of the section, 5 (t/c)^(5/3) (compress.py)
# ---- powerplant rows (offsets from header H_ROW_PLANT)
PLANT_ENGINE, PLANT_SC, PLANT_PROP, PLANT_COOL, PLANT_DRY = 0, 1, 2, 3, 4
PLANT_STATIONS = 5    # then H_N_PROP_ST blade-station rows, then H_N_TANKS tank rows
N_AZIMUTH = 3         # positions around the disc the blade loads are evaluated at (3 resolve
                      # the mean and the once-per-revolution part: thrust, torque, P-factor)
WS_PLANT = 5          # scratch rows the powerplant passes from the derivative to the step
# engine row
EN_DISP = 0           # swept volume, m3
EN_VOL_EFF = 1        # volumetric efficiency (referred to manifold conditions)
EN_IND_EFF = 2        # indicated thermal efficiency on the fuel burned
EN_LHV = 3            # fuel lower heating value, J/kg
EN_FAR_RICH = 4       # fuel/air ratio at full power (auto-rich)
EN_FAR_LEAN = 5       # fuel/air ratio at cruise (auto-lean)
EN_FAR_STOICH = 6     # stoichiometric fuel/air ratio (no more fuel than this burns)
EN_ENRICH_MAP = 7     # manifold pressure where power enrichment starts, Pa
EN_OMEGA_MAX = 8      # maximum (rated) crankshaft speed, rad/s
EN_OMEGA_IDLE = 9     # ground idle speed, rad/s
EN_MAP_MIL = 10       # manifold-pressure cap, military power, Pa
EN_MAP_WEP = 11       # manifold-pressure cap, war emergency power, Pa
EN_IDLE_FLOW = 12     # throttle-closed air flow as a fraction of the full-throttle flow
EN_FMEP0 = 13         # friction mean effective pressure at zero rpm, Pa
EN_FMEP2 = 14         # friction mean effective pressure added at rated rpm (grows as rpm^2), Pa
EN_EXH_BACK = 15      # exhaust back pressure / ambient pressure
EN_GEAR = 16          # propeller rpm / crankshaft rpm
EN_INERTIA = 17       # rotating parts of the engine, kg m2 at the crankshaft
EN_STARTER_TORQUE = 18  # N m at the crankshaft
EN_OMEGA_FIRE = 19    # below this crankshaft speed the engine does not fire, rad/s
EN_EXH_VJ = 20        # exhaust jet velocity of the ejector stacks at full flow, m/s
EN_CRANK_SENSE = 21   # +1 the crankshaft turns with the propeller, -1 against it (reduction gear)
EN_RATED_POWER = 22   # W (load reporting)
EN_EXH_POS = 23       # 23..25 exhaust stacks, body axes from datum
EN_HEAT_COOLANT = 26  # fraction of the fuel energy burned that goes into the coolant
EN_HEAT_OIL = 27      # ... into the oil
EN_TEMP_MAX = 28      # coolant temperature for the radiator flap fully open, K
# a float carburettor with a manual mixture lever (physics/carburettor.py; EN_CARBURETTOR 0: the
# automatic mixture of EN_FAR_RICH / EN_FAR_LEAN above)
EN_CARBURETTOR = 29   # 1: fuel metered by the venturi (mixture richer as the air thins), manual mixture and heat
EN_CARB_HEAT_RISE = 30  # the carburettor heat's temperature rise at 75 % power, K
EN_ICE_BLOCK_KG = 31  # ice that closes the throttle bore, kg
EN_EGT_PEAK_RISE = 32  # exhaust gas temperature above the charge's at the stoichiometric mixture, rated power, K
# supercharger row
SC_STAGES = 0         # impellers in series
SC_EFF = 1            # adiabatic efficiency of each stage
SC_WORK_LOW = 2       # specific work of each stage at rated rpm, low gear, J/kg (grows as rpm^2)
SC_WORK_HIGH = 3      # ... high gear (0: single speed)
SC_UP_PA = 4          # ambient pressure below which the automatic switch selects high gear, Pa
SC_DOWN_PA = 5        # ambient pressure above which it goes back to low gear, Pa (hysteresis)
SC_AC_EFF = 6         # aftercooler effectiveness (0..1)
SC_AC_T = 7           # aftercooler coolant temperature, K
SC_RAM = 8            # intake ram recovery (fraction of the dynamic pressure)
SC_DRIVE_EFF = 9      # mechanical efficiency of the supercharger drive
SC_FLUID = 10         # 1: driven through a barometrically controlled fluid coupling (DB 601/605): the
                      # impeller slips to give just the capped boost, up to SC_WORK_LOW locked (0: gears)
# propeller row
PR_POS = 0            # 0..2 hub, body axes from datum
PR_SENSE = 3          # +1 clockwise seen from the cockpit (spin vector along +x body), -1 anticlockwise
PR_RADIUS = 4         # m
PR_BLADES = 5
PR_INERTIA = 6        # kg m2 (blades and hub)
PR_PITCH_MIN = 7      # fine-pitch stop, rad at 0.75 R
PR_PITCH_MAX = 8      # coarse-pitch stop, rad
PR_FEATHER = 9        # feathered blade angle, rad (0: cannot feather)
PR_PITCH_RATE = 10    # pitch-change rate limit, rad/s
PR_GOV_GAIN = 11      # governor: pitch rate per unit relative rpm error, rad/s
PR_GOV_MIN = 12       # governed crankshaft speed range, rad/s
PR_GOV_MAX = 13
PR_GOV_LEAD = 14      # flyweight lead (rate feedback), s
PR_HUB_R = 15         # hub / spinner radius, m
PR_GOV_MIL = 16       # highest governed speed without war emergency power, rad/s (0: PR_GOV_MAX)
# cooling row: radiator (0..7) and oil cooler (8..15)
CL_RAD = 0
CL_OIL = 8
CL_AREA = 0           # face area, m2
CL_EFF = 1            # heat-exchanger effectiveness
CL_CDA_MIN = 2        # net drag area with the exit flap closed, m2
CL_CDA_MAX = 3        # ... fully open
CL_T_OPEN = 4         # temperature where the automatic flap starts to open, K
CL_T_RANGE = 5        # ... and is fully open this much above, K
CL_HEAT_CAP = 6       # heat capacity of the circuit (fluid and metal), J/K
CL_DUCT = 7           # duct air speed / flight speed with the flap open (closed: 40 % of it)
CL_POS = 16           # 16..18 duct position, body axes from datum
# blade-station rows
PS_R = 0              # radius, m
PS_DR = 1             # width of the station, m
PS_CHORD = 2          # m
PS_TWIST = 3          # blade angle here minus the angle at the reference station, rad
PS_TABLE = 4          # airfoil table
PS_TC = 5             # thickness / chord
PS_STALL = 6          # stall angle of the section's table, rad (positive, negative)
PS_NEG_STALL = 7
PS_WAVE_PEAK = 8      # transonic wave-drag peak of the blade section
PS_LE_LOSS = 9        # as SEC_LE_LOSS
PS_SLOPE_INV = 10     # as SEC_SLOPE_INV
# tank rows
TK_POS = 0            # 0..2 body axes from datum
TK_FUEL = 3           # fuel loaded, kg
TK_CAPACITY = 4       # kg
TK_SIZE = 5           # 5..7 box of the full tank, m (inertia)
TK_PRIORITY = 8       # feed order: lowest first, equal ones together


# ================================================================ guns and battle damage (issue 7)
# Guns are aircraft data ([[gun]], aircraft_data/guns.py): while C_FIRE is held and a gun has rounds
# left it pushes back on the airframe at its mount with its mean recoil force
# (rate x impulse per round, along -boresight; physics/guns.py), and the rounds it fires
# leave the ammunition box, whose mass the kernel re-sums with the fuel. Bullets fly in
# flightsim/physics/ballistics.py; a hit raises a section's SEC_DAMAGE, which takes lift
# away and adds drag in aero.section_forces.
N_GUN_MAX = 8         # state S_GUN_FIRED .. S_GUN_FIRED + N_GUN_MAX - 1
# ---- diag
D_AMMO = 29           # rounds left, all guns
D_RECOIL = 30         # total recoil force this step, N
# ---- model header (row 0)
H_ROW_DRY = 24        # row holding the dry aircraft (everything but fuel and ammunition; 0: nothing to re-sum)
H_ROW_GUN = 25        # first gun row (0: no guns)
H_N_GUNS = 26
H_DAMAGED = 27        # 1 once any section has battle damage (the aero kernel reads SEC_DAMAGE only then)
# ---- section column
SEC_DAMAGE = 38       # battle damage of the section, 0 intact .. 1 shot away (aero.section_forces);
                      # set by the hit test or ballistics.set_damage, which keep H_DAMAGED in step
# ---- gun rows
GUN_POS = 0           # 0..2 muzzle, body axes from datum
GUN_DIR = 3           # 3..5 unit boresight, body axes
GUN_RATE = 6          # rounds per second
GUN_MUZZLE_V = 7      # muzzle velocity relative to the gun, m/s
GUN_BULLET_MASS = 8   # projectile, kg
GUN_IMPULSE = 9       # recoil impulse per round (bullet + propellant gas momentum), N s
GUN_AMMO = 10         # rounds loaded
GUN_ROUND_MASS = 11   # one linked round (bullet, case, propellant, link), kg
GUN_BOX_POS = 12      # 12..14 ammunition box centre, body axes from datum
GUN_BOX_SIZE = 15     # 15..17 box of the full ammunition load, m (inertia; its length shrinks as it empties)
GUN_DRAG_K = 18       # bullet drag: deceleration = GUN_DRAG_K * rho * v^2 * Cd_G1(Mach); (pi/8) / BC, m2/kg
GUN_HIT_AREA = 19     # lifting surface one hit spoils, m2 (damage per hit = this / section area)
GUN_SIDE = 20         # -1 left wing, +1 right wing, 0 centre (reporting)


# ================================================================ systems damage and stores (issue 18)
# Seed 000: components take hits; leaks drain coolant, oil and fuel at rates set by the hole,
# the engine's heat balance then overheats it, overheating and oil starvation wear it out
# until it seizes; tanks leak, self-sealing ones close small holes, a hit tank can burn and
# a burning tank with fuel in it explodes; stores (bombs, drop tanks) are mass and drag
# until they are released. Health is state (zero = intact, so a fresh state is a sound
# aircraft); a hit changes it in the world between ticks (physics/damage.apply_hit, as the
# winch sets its force); leaks, heat, wear and fire are rates stepped once per tick
# (damage.damage_advance); the mass re-sum takes the stores and the shot-away sections.
# ---- state
N_RAD_MAX = 2          # coolant radiators sharing the heat load (Bf 109 F/G, Spitfire: two)
S_COOLANT_LOST = 84    # 84..85: coolant lost from each radiator's circuit, fraction 0..1
S_COOLANT_LEAK = 86    # 86..87: its leak, fraction of the circuit per s
S_OIL_LOST = 88        # oil lost, fraction 0..1
S_OIL_LEAK = 89        # fraction per s
S_ENGINE_HIT = 90      # direct damage to the engine (cylinders, manifolds), 0..1: that share of power lost
S_ENGINE_WEAR = 91     # wear from overheating and oil starvation, 0..1 (1: seized)
S_PROP_DAMAGE = 92     # blades shot about, 0..1: thrust and torque lost
S_PILOT_WOUND = 93     # 0 fit .. 1 killed
S_LINK_CUT = 94        # 94..96: pitch, roll, yaw control linkage damage, 0 intact .. 1 severed
S_TANK_LEAK = 97       # 97..102: each tank's leak at full head, kg/s (falls as sqrt of the fill)
S_TANK_SEAL = 103      # 103..108: 1 / time constant of a self-sealing tank closing its holes, 1/s (0: open)
S_TANK_FIRE = 109      # 109..114: seconds the tank has been burning (0: not burning; < 0: burned out)
S_EXPLODED = 115       # 1 + the tank that exploded (0: none): the world takes the wing or the aircraft
S_STORE_GONE = 116     # 116..121: share released, 0 on .. 1 gone (a missile row: its rounds launched); ST_LOADED
N_STORE_MAX = 6
# 122..131: jet engines and the flight-control law (the block at the end); N_STATE = 132 there
# ---- diag
D_OIL_PRESSURE = 49    # oil pressure, Pa (gauge)
D_COOLANT_LEFT = 50    # coolant left, fraction of the system
D_OIL_LEFT = 51        # oil left, fraction
D_ENGINE_HEALTH = 52   # power the engine can still make, fraction (0: seized or destroyed)
D_FIRES = 53           # tanks burning
D_FUEL_LEAK = 54       # fuel leaking from all tanks, kg/s
D_STORE_MASS = 55      # stores still on, kg (drop tanks with their fuel)
D_STORE_DRAG = 56      # drag of the stores, N
D_SEIZED = 57          # 1 once the engine has seized
# ---- model header (row 0)
H_ROW_PART = 28        # first hit-box row (0: none)
H_N_PARTS = 29
H_ROW_STORE = 30       # first store row (0: none)
H_N_STORES = 31
H_ROW_DMG = 32         # the damage constants row (0: no systems damage)
H_STORES_LOADED = 33   # stores in this flight's loadout (0: the store kernels have nothing to do)
# ---- hit-box rows: the components a bullet can strike besides the lifting sections
PT_KIND = 0            # PART_* below
PT_INDEX = 1           # which radiator / tank / store
PT_POS = 2             # 2..4 box centre, body axes from datum
PT_HALF = 5            # 5..7 half sizes, m
PT_STOPS = 8           # armour: the largest calibre it stops, mm
PART_ENGINE, PART_RADIATOR, PART_OIL_COOLER, PART_TANK, PART_PROPELLER = 0, 1, 2, 3, 4
PART_PILOT, PART_ARMOUR, PART_LINK_PITCH, PART_LINK_ROLL, PART_LINK_YAW = 5, 6, 7, 8, 9
PART_NAMES = ("engine", "radiator", "oil_cooler", "tank", "propeller", "pilot", "armour",
              "elevator_linkage", "aileron_linkage", "rudder_linkage")
# ---- the damage constants row
DM_COOLANT_KG = 0      # coolant in the whole system, kg
DM_COOLANT_DP = 1      # coolant system pressure above ambient driving a leak, Pa
DM_OIL_KG = 2          # oil carried, kg
DM_OIL_DP = 3          # normal oil pressure (gauge) at cruise rpm and above, Pa (also drives an oil leak)
DM_T_LIMIT = 4         # coolant temperature limit (the manual's combat maximum), K
DM_T_FAIL = 5          # engine temperature at which it seizes outright, K
DM_OIL_T_LIMIT = 6     # oil temperature limit, K
DM_OIL_T_FAIL = 7      # oil temperature at which the bearings fail outright, K
DM_METAL_CAP = 8       # heat capacity of the engine without its coolant, J/K
DM_OIL_METAL_CAP = 9   # of the oil circuit without its oil, J/K
DM_WEAR_S = 10         # seconds halfway from limit to failure that wear the engine out
DM_N_CORES = 11        # coolant radiators (1 or 2), each carrying an equal share
DM_FIRE_BURN = 12      # fuel a tank fire burns, kg/s
DM_FIRE_EXPLODE_S = 13  # a tank burning this long with fuel in it explodes, s
DM_FIRE_SPREAD_S = 14  # after burning this long a fire reaches tanks within DM_FIRE_SPREAD_M
DM_FIRE_SPREAD_M = 15
DM_OIL_RPM = 16        # crankshaft speed from which the pump gives full pressure, rad/s
DM_BEARING_S = 17      # seconds at no oil pressure and full rpm that wear the engine out
DM_COOLANT_CP = 18     # specific heat of the coolant, J/(kg K)
DM_OIL_CP = 19         # of the oil
DM_FUSELAGE_HALF_Y = 20  # tanks within this of the centre line are in the fuselage (an explosion there is the aircraft)
DM_BLOCK_OIL = 22      # heat an engine past its coolant limit gives its oil, W per K past the limit
DM_SHARED = 21         # 1: the radiators share one coolant circuit (a hole in either drains it all:
                       # the Spitfire's); 0: each radiator has its own (the Bf 109 F/G's cut-off valves)
# ---- tank columns (the powered block's tank rows)
TK_SEAL_MM = 9         # a self-sealing tank closes holes up to this calibre, mm (0: not self-sealing)
TK_STORE = 10          # 1 + the store that carries it (a drop tank; 0: an internal tank)
# ---- store rows
ST_KIND = 0            # STORE_*: bomb, drop tank, missiles (a row of ST_COUNT rounds, released one by one)
ST_MASS = 1            # kg, all its rounds (a drop tank empty: its fuel is its tank row's)
ST_POS = 2             # 2..4 body axes from datum
ST_SIZE = 5            # 5..7 box, m
ST_CDA = 8             # drag area, m2
ST_TANK = 9            # 1 + its tank (a drop tank; 0: none)
ST_LOADED = 10         # 1 carried on this flight (the loadout), 0 not fitted
ST_TANK_ROW = 11       # the model row of its tank (a drop tank)
ST_COUNT = 12          # rounds in the row this flight (a missile store; 1 otherwise)
ST_CAPACITY = 13       # rounds the row holds (its stations): ST_COUNT or more
STORE_BOMB, STORE_DROP_TANK, STORE_MISSILE = 0, 1, 2
# ---- gun columns (the guns block)
GUN_CALIBRE_MM = 21    # bullet calibre, mm
GUN_ROUND_KIND = 22    # ROUND_* below
ROUND_BALL, ROUND_AP, ROUND_INCENDIARY, ROUND_HE = 0, 1, 2, 3
ROUND_NAMES = ("ball", "ap", "incendiary", "he")


# ================================================================ jets and the flight-control law (issue 19)
# Afterburning turbofans (physics/jet.py) instead of the piston engine and propeller: each
# engine's spool and afterburner are states moved once per tick toward what the throttle asks;
# net thrust from the engine's deck against Mach and altitude, with the fuel they burn from the
# powerplant block's tanks. The flight-control law (physics/fcs.py) sits between the stick and
# the surfaces: stick -> demanded g (or pitch rate at low speed), roll rate, sideslip.
# Sections whose airfoil has a [mach] table take their compressibility from it (aero.py).
N_JET_MAX = 2
# ---- state
S_JET_SPOOL = 122      # 122..123: each engine's spool, 0 idle .. 1 military (core speed, as a thrust fraction)
S_JET_AB = 124         # 124..125: its afterburner, 0 off .. 1 full
S_JET_FAILED = 126     # 126..127: 1 once the engine has failed (flamed out, shot or switched off): it windmills
S_FCS_PITCH = 128      # the pitch law's integrator: stabilator position it has learned, -1..1 of travel
S_FCS_ROLL = 129       # the roll law's integrator
S_FCS_YAW = 130        # the yaw law's integrator (sideslip)
S_FCS_G = 131          # the pitch law's load-factor demand less 1, as it follows the stick at the onset-rate limit, g
S_FCS_G_INT = 132      # the pitch law's integral of the load-factor error, g (what the steady-turn relation misses)
S_CARB_ICE = 133       # ice in the carburettor's throttle bore, kg (physics/carburettor.py)
S_FUEL_CUT = 134       # 1: no fuel reaches the engine (a scripted failure: it stops firing and windmills)
N_STATE = 136          # (135 spare)
# ---- diag
D_G_DEMAND = 58        # the load factor the pitch law asks for, g
D_G_LIMIT = 59         # the positive limit in force (lower while rolling), g
D_JET_THRUST = 60      # net thrust of all engines, N
D_JET_SPOOL = 61       # mean spool of the running engines, 0 idle .. 1 military
D_JET_AB = 62          # mean afterburner, 0..1
D_JETS_RUNNING = 63    # engines running
# ---- model header (row 0)
H_ROW_JET = 34         # the jet engine's row (0: no jets); its installations and deck follow
H_N_JETS = 35
H_ROW_FCS = 36         # the flight-control law's row (0: the stick moves the surfaces, seed 000's way)
# ---- the jet engine's row (every installed engine is this engine)
JE_MIL_N = 0           # net thrust, sea level static, military (full dry), N
JE_AB_N = 1            # ... maximum afterburner, N
JE_IDLE_FRAC = 2       # gross idle thrust, sea level static, as a fraction of military
JE_IDLE_AIR = 3        # idle air flow, sea level static, kg/s (its ram drag: the idle net thrust falls with speed)
JE_TSFC_MIL = 4        # thrust-specific fuel consumption at military, sea level static, kg/(N s)
JE_TSFC_AB = 5         # ... at maximum afterburner
JE_TSFC_MACH = 6       # TSFC grows by this fraction per unit Mach (and as sqrt(theta) with temperature)
JE_SPOOL_UP = 7        # spool time constant accelerating, s
JE_SPOOL_DOWN = 8      # ... decelerating, s
JE_AB_RATE = 9         # afterburner travel, full per s (light-off and staging)
JE_DETENT = 10         # throttle at the military detent: above it the afterburner
JE_AB_SPOOL = 11       # the afterburner lights only with the spool above this
JE_WINDMILL_CDA = 12   # drag area of a failed, windmilling engine (inlet spillage and the stalled core), m2
JE_N_MACH = 13         # deck rows (Mach values)
JE_N_ALT = 14          # deck columns (altitudes)
# ---- each installed engine's row (from H_ROW_JET + 1)
JT_POS = 0             # 0..2 nozzle exit, body axes from datum
JT_AXIS = 3            # 3..5 thrust direction, unit, body axes
# ---- then the deck: one altitude row ([alt_0, alt_1, ...], m), then N_MACH military rows and N_MACH
#      afterburner rows, each [mach, ratio at alt_0, ratio at alt_1, ...]: net thrust over its
#      sea-level static value
JET_ROW_ENGINE = 0
JET_ROW_INSTALL = 1
# ---- the flight-control law's row
FC_G_MAX = 0           # positive load-factor limit, g (full aft stick asks for it)
FC_G_MIN = 1           # negative limit, g (full forward stick)
FC_G_ROLLING = 2       # the positive limit while rolling at the full roll rate, g (blended in with the roll)
FC_ALPHA_MAX = 3       # angle of attack the law will not pull past, rad
FC_PITCH_RATE = 4      # largest pitch rate it asks for (low speed: the stick is a pitch-rate demand), rad/s
FC_ROLL_RATE = 5       # roll rate at full lateral stick, rad/s
FC_PITCH_BW = 6        # pitch-rate loop: bandwidth, 1/s
FC_PITCH_INT = 7       # ... integral gain, 1/s^2
FC_ROLL_BW = 8         # roll-rate loop bandwidth, 1/s
FC_YAW_BW = 9          # yaw damping and sideslip loop bandwidth, 1/s
FC_M_PITCH = 10        # pitching moment per Pa of dynamic pressure per unit pitch surface (low speed), N m / Pa
FC_M_ROLL = 11         # rolling moment per Pa per unit roll surface, N m / Pa
FC_M_YAW = 12          # yawing moment per Pa per unit yaw surface, N m / Pa
FC_Q_MIN = 13          # the gains stop growing below this dynamic pressure, Pa
FC_ALPHA_GAIN = 14     # the angle-of-attack limiter's pitch rate per rad past FC_ALPHA_MAX, 1/s
FC_G_GAIN = 15         # the g limiter: pitch rate taken off per g past the limit, in units of g / V
FC_G_ONSET = 16        # the demanded load factor changes at most this fast, g/s (onset-rate limit)
FC_ROLL_DAMP = 17      # the sections' roll damping: rolling moment per unit roll rate is qbar / V times this, m3
FC_LIFT_AREA = 18      # S CLmax of the wing's and the body's horizontal sections at low speed, m2 (the corner speed)
# ---- section columns
SEC_MACH_ROW = 48      # the first of the section's Mach-table rows (0: compress.py's model from its thickness)
SEC_CLMAX = 49         # the section's low-speed maximum lift coefficient (its table's)
SEC_CLMIN = 50         # ... and its most negative
# ---- a Mach table: MT_ROWS rows, each [n, value_1 .. value_n] (n <= MODEL_COLS - 1)
MT_MACH, MT_LIFT, MT_CLMAX, MT_CD_WAVE, MT_SUCTION, MT_AC_SHIFT = 0, 1, 2, 3, 4, 5
MT_ROWS = 6
