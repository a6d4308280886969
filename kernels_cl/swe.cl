/* SPDX-License-Identifier: BSD-3-Clause */
/* swe.cl: the Stelling & Duinmeijer scheme for the 2D shallow-water equations on a staggered C-grid, explicit and
 * semi-implicit (../shared/papers/swe-gpu-explicit-implicit.txt, sections 3.6, 6.1, 6.4 and 8.1; Stelling &
 * Duinmeijer 2003).
 *
 *   d zeta/dt + d(h u)/dx + d(h v)/dy = 0                                               continuity
 *   du/dt + u du/dx + v du/dy + g d zeta/dx + cf u |u| / h = 0                          x momentum (y alike)
 *
 * zeta is the water level above the reference plane, d the depth of the bed below it, h = zeta + d the total depth.
 * Kernels: step_hansen, step_sielecki (the explicit step in one pass over memory: momentum with implicit friction
 *   per point, thesis eq. 6.5, u and v from the same state (Hansen) or v with the new u (Sielecki), then continuity
 *   in flux form, so volume is conserved to rounding; on CPUs as u_step, v_step, zeta_step), zeta_boundary (the
 *   water-level sides), wave_speed (|velocity| + sqrt(g h), for the CFL limit and the divergence guard),
 *   centre_fields (cell-centred output, a dry cell's level and velocity NaN unless mask_dry is 0), accumulate_maxima
 *   and maxima_output (output.maxima), add_water (rain and point sources, before a step); the implicit scheme's face_predict, level_assemble, level_update and
 *   dry_negative_faces (the last section).
 * Macros: REAL (common.clh), STENCIL_RADIUS (the ghost width, 3: second-order upwind cross terms reach two faces, and
 *   the Sielecki step's rim one more), FRICTION (FRICTION_NONE, FRICTION_CHEZY, FRICTION_MANNING), FRICTION_MAP (1:
 *   the coefficient varies by cell, FACE_COEFFICIENT) and
 *   MOMENTUM_ADVECTION (1: momentum-conserving, 0: energy-head) from the case, fixed for a run: the kernels carry no
 *   code for the other choices.
 * Branch-free: every update computes its value whatever the flags and selects at the end (a ? b : c on values
 *   computed on both sides), so a CPU compiler vectorizes across work-items (PoCL), and GPU warps never diverge.
 * Layout: every array is a[j + G][i + G] with G = STENCIL_RADIUS and row pitch `pitch`, x fastest (field.h);
 *   zeta[j][i], depth[j][i] at cell centres; u[j][i] at the east face (i + 1/2, j) and v[j][i] at the north face
 *   (i, j + 1/2) of cell (i, j), each carrying its face's wet flag (wet_flag: -0 dry). One work-item per owned
 *   cell. */

#define G STENCIL_RADIUS

#define AT(a, i, j) (a)[((j) + G) * pitch + (i) + G]

/* The geometry and physics every kernel takes, in this order. */
#define GRID_ARGS                                                                                                      \
  const int nx, const int ny, const int pitch, const int x0, const int y0, const int global_nx, const int global_ny,   \
      const int closed_x, const int closed_y
#define PHYSICS_ARGS                                                                                                   \
  const REAL dt, const REAL dx, const REAL dy, const REAL g, const REAL dry_depth, const REAL friction_coefficient,    \
      __global const REAL *restrict friction_map

#define FRICTION_NONE 0 /* SweFriction in swe.h */
#define FRICTION_CHEZY 1
#define FRICTION_MANNING 2
enum { SIDE_WALL = 0, SIDE_LEVEL = 1, SIDE_WEAK_LEVEL = 2 }; /* SweSide in swe.h */

/* Upwinded total depth at a face between cells a (west/south) and b, for a face velocity w (S&D 2003, eq. for
 * h'): the upstream cell's depth; for w == 0 the higher water level over the shallower bed. */
INLINE REAL upwind_depth(const REAL w, const REAL zeta_a, const REAL depth_a, const REAL zeta_b, const REAL depth_b) {
  /* Plain selects, not fmax and fmin: a NaN needs no care here, it spoils the depths of its own cell anyway. */
  const REAL still = (zeta_a > zeta_b ? zeta_a : zeta_b) + (depth_a < depth_b ? depth_a : depth_b);
  return w > 0 ? zeta_a + depth_a : (w < 0 ? zeta_b + depth_b : still);
}

/* The friction law's coefficient at the face between cells (i, j) and (i2, j2): friction_coefficient, or with
 * FRICTION_MAP (a roughness map: physics.friction_file) the mean of the two cells' coefficients in friction_map. */
#if FRICTION_MAP
#define FACE_COEFFICIENT(i, j, i2, j2) ((AT(friction_map, i, j) + AT(friction_map, i2, j2)) / 2)
#else
#define FACE_COEFFICIENT(i, j, i2, j2) friction_coefficient
#endif

/* Bed-friction coefficient cf of cf |u| / h: g / C^2 (Chezy) or g n^2 / h^(1/3) (Manning). */
INLINE REAL friction_factor(const REAL coefficient, const REAL g, const REAL h) {
#if FRICTION == FRICTION_CHEZY
  return g / (coefficient * coefficient);
#elif FRICTION == FRICTION_MANNING
  return g * coefficient * coefficient / cbrt(h);
#else
  return 0;
#endif
}

/* 1 / (1 + k) for a flag k of 0 or 1, without a division (the kernels are bound by instructions as much as by
 * memory, and an IEEE division costs tens of them). */
INLINE REAL one_over_one_plus(const REAL k) {
  return k > 0 ? (REAL)0.5 : (REAL)1;
}

/* Along-flow advection w dw/ds at a face from its neighbours along the flow direction (m, p) and their flags
 * (thesis eq. 8.4): central where both are wet, one-sided where one is dry, zero where both are. rds = 1 / ds. */
INLINE REAL along_central(const REAL w, const REAL w_m, const REAL w_p, const REAL k_m, const REAL k_p,
                          const REAL rds) {
  return w * (k_p * w_p - k_m * w_m + (k_m - k_p) * w) * one_over_one_plus(k_m * k_p) * rds;
}

/* Cross advection c dw/dn by second-order upwinding (thesis eqs. 8.2, 8.3): c_minus, c_plus are the transverse
 * velocities on the lower and upper side; w_m2, w_m1, w_p1, w_p2 the faces two and one below and above, with flags;
 * rdn = 1 / dn. The upwind difference is second order (3 w - 4 w_1 + w_2) / 2 where both upstream faces are wet,
 * first order where only the nearer one is, and zero where that one is dry. */
INLINE REAL cross_upwind(const REAL w, const REAL c_minus, const REAL c_plus, const REAL w_m1, const REAL w_m2,
                         const REAL k_m1, const REAL k_m2, const REAL w_p1, const REAL w_p2, const REAL k_p1,
                         const REAL k_p2, const REAL rdn) {
  const REAL backward = k_m2 > 0 ? (3 * w - 4 * w_m1 + w_m2) / 2 : w - w_m1;
  const REAL forward = k_p2 > 0 ? (-3 * w + 4 * w_p1 - w_p2) / 2 : w_p1 - w;
  return (fmax(c_minus, (REAL)0) * k_m1 * backward + fmin(c_plus, (REAL)0) * k_p1 * forward) * rdn;
}

/* Momentum-conservative along-flow advection (S&D 2003): the advecting velocity is the mean discharge at the
 * upstream cell centre over the face depth, and the difference is first-order upwind, which gives the right
 * propagation speed of hydraulic jumps and bores. q_m, q_c, q_p: discharges h'w at the faces m (one back), this
 * one, p (one ahead); rds = 1 / ds. Returns the advection times 2 h_face, h_face the mean depth at this face:
 * momentum_update divides, once for the whole update. */
INLINE REAL along_momentum_times_2h(const REAL w, const REAL w_m, const REAL w_p, const REAL k_m, const REAL k_p,
                                    const REAL q_m, const REAL q_c, const REAL q_p, const REAL rds) {
  const bool forward = w > 0;
  const REAL discharge = forward ? k_m * (q_m + q_c) : k_p * (q_c + q_p);
  const REAL difference = forward ? w - w_m : w_p - w;
  return w != 0 ? discharge * difference * rds : 0;
}

/* A face velocity w one step on (thesis eq. 6.5, friction implicit per point):
 *   w_new = (w - dt (g dzeta/ds + along + cross)) h / (h + dt cf |u|),
 * slope = g dzeta/ds, along = along_scaled / scale (scale 2 h_face for the momentum-conservative form, 1 for the
 * energy-head form), h = h_mean, friction = cf |u|: multiplied out so that the update divides once (a division
 * costs a CPU as much as the rest of the update together). */
INLINE REAL momentum_update(const REAL w, const REAL slope, const REAL along_scaled, const REAL scale, const REAL cross,
                            const REAL h_mean, const REAL friction, const REAL dt) {
  return ((w - dt * (slope + cross)) * scale - dt * along_scaled) * h_mean / (scale * (h_mean + dt * friction));
}

/* The names of the GRID_ARGS and PHYSICS_ARGS parameters, to pass them on. */
#define GRID_PARAMS nx, ny, pitch, x0, y0, global_nx, global_ny, closed_x, closed_y
#define PHYSICS_PARAMS dt, dx, dy, g, dry_depth, friction_coefficient, friction_map

/* The wet flag of a face travels in its velocity (no flag arrays: the step reads and writes zeta, u and v only): a
 * dry face, and a wall, holds -0; a wet face any other value, its zero being +0. The flag is the one the face's last
 * update set (thesis eq. 6.5's kfu), which the neighbouring faces' advection of the next step reads. */
#define DRY_FACE (-(REAL)0)
INLINE REAL wet_flag(const REAL w) { /* the bits of -0 compared, not signbit: PoCL calls that, and calls stop it */
#if REAL_IS_DOUBLE                   /* vectorizing across work-items */
  return as_ulong(w) == 0x8000000000000000UL ? 0 : 1;
#else
  return as_uint(w) == 0x80000000u ? 0 : 1;
#endif
}

/* A face's new velocity as stored: its update where wet (a -0 made +0: adding +0 changes no other value), else dry. */
INLINE REAL stored_velocity(const REAL wet, const REAL updated) {
  return wet > 0 ? updated + (REAL)0 : DRY_FACE;
}

/* The mean of two face velocities (the transverse velocity at a face, thesis eq. 6.8, is the mean of two of them). */
INLINE REAL pair_mean(const REAL a, const REAL b) {
  return (a + b) / 2;
}

/* What the momentum equation at a face takes from the state at step n, all but the level gradient at n + 1 (thesis
 * eq. 6.5; eq. 6.23 for the implicit scheme): the wet flag (dry below dry_depth, and at closed walls), the upwinded
 * total depth h_up (the continuity flux's depth), the friction depth h_mean and factor cf |velocity|, the advection
 * (along_scaled / scale + cross) and the level gradient at n, slope = g dzeta/ds. */
typedef struct {
  REAL w, wet, h_up, h_mean, friction, along_scaled, scale, cross, slope;
} FaceTerms;

/* The terms at the east face of cell (i, j) from zeta, u at step n (their wet flags with them) and the transverse
 * velocity's means on the face's south and north sides (eq. 6.8: of v at n, or at n + 1 under the Sielecki
 * ordering; the caller forms them). */
INLINE FaceTerms u_terms(const int i, const int j, __global const REAL *restrict zeta,
                         __global const REAL *restrict depth, __global const REAL *restrict u, const REAL v_south,
                         const REAL v_north, GRID_ARGS, PHYSICS_ARGS) {
  FaceTerms t;
  const int gi = x0 + i, gj = y0 + j; /* a face on or beyond a closed side is a wall */
  const bool wall = (closed_x && (gi < 0 || gi >= global_nx - 1)) || (closed_y && (gj < 0 || gj >= global_ny));
  const REAL rdx = 1 / dx, rdy = 1 / dy;
  const REAL w = t.w = AT(u, i, j);
  const REAL za = AT(zeta, i, j), zb = AT(zeta, i + 1, j), da = AT(depth, i, j), db = AT(depth, i + 1, j);
  const REAL h_up = t.h_up = upwind_depth(w, za, da, zb, db);
  t.wet = (!wall && h_up > dry_depth) ? 1 : 0;
  const REAL v_mean = (v_south + v_north) / 2;
  const REAL h_face = (za + da + zb + db) / 2, h_mean = t.h_mean = fmax(h_face, dry_depth);
  const REAL w_m = AT(u, i - 1, j), w_p = AT(u, i + 1, j);
#if MOMENTUM_ADVECTION
  const REAL hm = upwind_depth(w_m, AT(zeta, i - 1, j), AT(depth, i - 1, j), za, da);
  const REAL hp = upwind_depth(w_p, zb, db, AT(zeta, i + 2, j), AT(depth, i + 2, j));
  const REAL along =
      along_momentum_times_2h(w, w_m, w_p, wet_flag(w_m), wet_flag(w_p), hm * w_m, h_up * w, hp * w_p, rdx);
  t.scale = h_face > 0 ? 2 * h_face : 1;
  t.along_scaled = h_face > 0 ? along : 0;
#else
  t.along_scaled = along_central(w, w_m, w_p, wet_flag(w_m), wet_flag(w_p), rdx);
  t.scale = 1;
#endif
  const REAL w_s1 = AT(u, i, j - 1), w_s2 = AT(u, i, j - 2), w_n1 = AT(u, i, j + 1), w_n2 = AT(u, i, j + 2);
  t.cross = cross_upwind(w, v_south, v_north, w_s1, w_s2, wet_flag(w_s1), wet_flag(w_s2), w_n1, w_n2, wet_flag(w_n1),
                         wet_flag(w_n2), rdy);
  t.friction = friction_factor(FACE_COEFFICIENT(i, j, i + 1, j), g, h_mean) * sqrt(w * w + v_mean * v_mean);
  t.slope = g * (zb - za) * rdx;
  return t;
}

/* The terms at the north face of cell (i, j), the transpose of u_terms (u_west, u_east: the means of u on the face's
 * west and east sides). */
INLINE FaceTerms v_terms(const int i, const int j, __global const REAL *restrict zeta,
                         __global const REAL *restrict depth, __global const REAL *restrict v, const REAL u_west,
                         const REAL u_east, GRID_ARGS, PHYSICS_ARGS) {
  FaceTerms t;
  const int gi = x0 + i, gj = y0 + j;
  const bool wall = (closed_y && (gj < 0 || gj >= global_ny - 1)) || (closed_x && (gi < 0 || gi >= global_nx));
  const REAL rdx = 1 / dx, rdy = 1 / dy;
  const REAL w = t.w = AT(v, i, j);
  const REAL za = AT(zeta, i, j), zb = AT(zeta, i, j + 1), da = AT(depth, i, j), db = AT(depth, i, j + 1);
  const REAL h_up = t.h_up = upwind_depth(w, za, da, zb, db);
  t.wet = (!wall && h_up > dry_depth) ? 1 : 0;
  const REAL u_mean = (u_west + u_east) / 2;
  const REAL h_face = (za + da + zb + db) / 2, h_mean = t.h_mean = fmax(h_face, dry_depth);
  const REAL w_m = AT(v, i, j - 1), w_p = AT(v, i, j + 1);
#if MOMENTUM_ADVECTION
  const REAL hm = upwind_depth(w_m, AT(zeta, i, j - 1), AT(depth, i, j - 1), za, da);
  const REAL hp = upwind_depth(w_p, zb, db, AT(zeta, i, j + 2), AT(depth, i, j + 2));
  const REAL along =
      along_momentum_times_2h(w, w_m, w_p, wet_flag(w_m), wet_flag(w_p), hm * w_m, h_up * w, hp * w_p, rdy);
  t.scale = h_face > 0 ? 2 * h_face : 1;
  t.along_scaled = h_face > 0 ? along : 0;
#else
  t.along_scaled = along_central(w, w_m, w_p, wet_flag(w_m), wet_flag(w_p), rdy);
  t.scale = 1;
#endif
  const REAL w_w1 = AT(v, i - 1, j), w_w2 = AT(v, i - 2, j), w_e1 = AT(v, i + 1, j), w_e2 = AT(v, i + 2, j);
  t.cross = cross_upwind(w, u_west, u_east, w_w1, w_w2, wet_flag(w_w1), wet_flag(w_w2), w_e1, w_e2, wet_flag(w_e1),
                         wet_flag(w_e2), rdx);
  t.friction = friction_factor(FACE_COEFFICIENT(i, j, i, j + 1), g, h_mean) * sqrt(w * w + u_mean * u_mean);
  t.slope = g * (zb - za) * rdy;
  return t;
}

/* The transverse means at a face from a state's velocities: v's at the east face of cell (i, j), u's at its north
 * face. */
#define V_SOUTH(v, i, j) pair_mean(AT(v, i, (j)-1), AT(v, (i) + 1, (j)-1))
#define V_NORTH(v, i, j) pair_mean(AT(v, i, j), AT(v, (i) + 1, j))
#define U_WEST(u, i, j) pair_mean(AT(u, (i)-1, j), AT(u, (i)-1, (j) + 1))
#define U_EAST(u, i, j) pair_mean(AT(u, i, j), AT(u, i, (j) + 1))

/* A face velocity one step on, explicit (eq. 6.5), as stored (with its wet flag). */
INLINE REAL explicit_update(const FaceTerms t, const REAL dt) {
  return stored_velocity(t.wet,
                         momentum_update(t.w, t.slope, t.along_scaled, t.scale, t.cross, t.h_mean, t.friction, dt));
}

/* The volume flux through a face with velocity w (at n + 1) between cells of total depths h_a (west/south) and h_b
 * (at n): w times the upwinded depth, the upstream cell's (at w == 0 the flux is 0 whatever depth upwind_depth
 * would give). Both cells sharing a face evaluate exactly this expression, so what leaves one cell enters the other
 * bit for bit. */
INLINE REAL face_flux(const REAL w, const REAL h_a, const REAL h_b) {
  return w * (w > 0 ? h_a : h_b);
}

/* Continuity in flux form (thesis eq. 6.2 with u, v at n + 1) at cell (i, j): zeta - dt div(h' u), from its four
 * faces' new velocities; zeta_boundary then replaces the cells of water-level sides. */
INLINE REAL continuity(const int i, const int j, __global const REAL *restrict zeta,
                       __global const REAL *restrict depth, const REAL u_west, const REAL u_east, const REAL v_south,
                       const REAL v_north, const int pitch, const REAL dt, const REAL dx, const REAL dy) {
  const REAL z = AT(zeta, i, j);
  const REAL h = z + AT(depth, i, j);
  const REAL h_west = AT(zeta, i - 1, j) + AT(depth, i - 1, j), h_east = AT(zeta, i + 1, j) + AT(depth, i + 1, j);
  const REAL h_south = AT(zeta, i, j - 1) + AT(depth, i, j - 1), h_north = AT(zeta, i, j + 1) + AT(depth, i, j + 1);
  const REAL rdx = 1 / dx, rdy = 1 / dy;
  const REAL divergence = (face_flux(u_east, h, h_east) - face_flux(u_west, h_west, h)) * rdx +
                          (face_flux(v_north, h, h_north) - face_flux(v_south, h_south, h)) * rdy;
  return z - dt * divergence;
}

/* ---- the explicit step in three kernels, for CPUs --------------------------------------------------------------
 *
 * PoCL does not vectorize step_hansen and step_sielecki across work-items (LLVM's cost model turns down their
 * work-item loops around the barriers: 5 to 7 times slower than these on the CI machine), so on CPUs the step runs as
 * u_step, v_step and zeta_step, the same arithmetic per value. Each momentum kernel also computes the rim faces the
 * next kernel needs, from the state's ghosts as the tiles' rims are, into the new velocities' ghosts: one exchange
 * of the state per step on either path. The box of faces runs from (i_first, j_first), -1 for a rim, to before
 * (i_end, j_end); on CPUs the launch covers it exactly (EXACT_GRID), elsewhere the work-items beyond it wait. */
#if EXACT_GRID
#define BEYOND_BOX(i, j) false
#else
#define BEYOND_BOX(i, j) ((i) >= i_end || (j) >= j_end)
#endif
#define BOX_ARGS const int i_first, const int j_first, const int i_end, const int j_end

/* The new u over a box, the transverse means from v at step n. */
__kernel void u_step(__global const REAL *restrict zeta, __global const REAL *restrict depth,
                     __global const REAL *restrict u, __global const REAL *restrict v, __global REAL *restrict u_new,
                     BOX_ARGS, GRID_ARGS, PHYSICS_ARGS) {
  const int i = get_global_id(0) + i_first, j = get_global_id(1) + j_first;
  if (BEYOND_BOX(i, j)) {
    return;
  }
  const FaceTerms t = u_terms(i, j, zeta, depth, u, V_SOUTH(v, i, j), V_NORTH(v, i, j), GRID_PARAMS, PHYSICS_PARAMS);
  AT(u_new, i, j) = explicit_update(t, dt);
}

/* The new v over a box, the transverse means from u_means: u at step n (Hansen) or the new u (Sielecki). */
__kernel void v_step(__global const REAL *restrict zeta, __global const REAL *restrict depth,
                     __global const REAL *restrict u_means, __global const REAL *restrict v,
                     __global REAL *restrict v_new, BOX_ARGS, GRID_ARGS, PHYSICS_ARGS) {
  const int i = get_global_id(0) + i_first, j = get_global_id(1) + j_first;
  if (BEYOND_BOX(i, j)) {
    return;
  }
  const FaceTerms t =
      v_terms(i, j, zeta, depth, v, U_WEST(u_means, i, j), U_EAST(u_means, i, j), GRID_PARAMS, PHYSICS_PARAMS);
  AT(v_new, i, j) = explicit_update(t, dt);
}

/* The new level of every owned cell. */
__kernel void zeta_step(__global const REAL *restrict zeta, __global const REAL *restrict depth,
                        __global const REAL *restrict u_new, __global const REAL *restrict v_new,
                        __global REAL *restrict zeta_new, GRID_ARGS, PHYSICS_ARGS) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (!OUTSIDE(i, j)) {
    AT(zeta_new, i, j) = continuity(i, j, zeta, depth, AT(u_new, i - 1, j), AT(u_new, i, j), AT(v_new, i, j - 1),
                                    AT(v_new, i, j), pitch, dt, dx, dy);
  }
}

/* ---- the explicit step: one pass over memory --------------------------------------------------------------------
 *
 * One work-group steps a tile of w x h cells (its local size) from the state at n (zeta, u, v, read) to n + 1
 * (u_new, v_new, zeta_new, written): first the new velocities of the tile's faces and of the faces on its west and
 * south rims (which the tile's continuity needs and the neighbouring tiles own) into local memory, then the tile's
 * new levels from them. Every owned value is written once and the state read once from DRAM (a rim's inputs are the
 * neighbour tiles', found in the caches): 7 REALs per cell-update with the bed, against 15 for the three kernels
 * above. The arithmetic of every value is that of the separate
 * kernels it replaces, so the fields are the same. The launch covers a box of owned cells ending at (i_end, j_end)
 * (the global offset its start; halo.h's parts); the tiles at its ends are partial, and the rim faces of the tiles
 * at its start lie outside it, in the ghosts at the rank's edges. The local tiles: u_tile of w + 1 columns (the west
 * rim first), v_tile of w columns, row by row from the first row the ordering needs. */

/* The first cell of this work-group's tile. */
#define TILE_I0 ((int)(get_global_id(0) - get_local_id(0)))
#define TILE_J0 ((int)(get_global_id(1) - get_local_id(1)))

/* The new level of this work-item's cell, where it is in the box, from the tile's new velocities (u_tile's rows
 * starting u_first_row rows below the tile, v_tile's one row below). */
INLINE void tile_continuity(__global const REAL *restrict zeta, __global const REAL *restrict depth,
                            __global REAL *restrict zeta_new, __local const REAL *u_tile, __local const REAL *v_tile,
                            const int u_first_row, const int i_end, const int j_end, const int pitch, const REAL dt,
                            const REAL dx, const REAL dy) {
  const int w = get_local_size(0), li = get_local_id(0), lj = get_local_id(1);
  const int i = TILE_I0 + li, j = TILE_J0 + lj;
  if (i < i_end && j < j_end) {
    const int u_east = (lj + u_first_row) * (w + 1) + li + 1, v_north = (lj + 1) * w + li;
    AT(zeta_new, i, j) = continuity(i, j, zeta, depth, u_tile[u_east - 1], u_tile[u_east], v_tile[v_north - w],
                                    v_tile[v_north], pitch, dt, dx, dy);
  }
}

/* The new u at the face (ti, tj) of the tile (-1: the west rim; rows from -first_row) into u_tile, and into u_new
 * where the face is the tile's own and inside the box. The transverse means from v at step n. Faces beyond the box's
 * end (i >= i_end, j >= j_end + last_rows) are not needed. */
INLINE void tile_u_face(const int ti, const int tj, __global const REAL *restrict zeta,
                        __global const REAL *restrict depth, __global const REAL *restrict u,
                        __global const REAL *restrict v, __global REAL *restrict u_new, __local REAL *u_tile,
                        const int first_row, const int last_rows, const int i_end, const int j_end, GRID_ARGS,
                        PHYSICS_ARGS) {
  const int i = TILE_I0 + ti, j = TILE_J0 + tj;
  if (i < i_end && j < j_end + last_rows) {
    const FaceTerms t = u_terms(i, j, zeta, depth, u, V_SOUTH(v, i, j), V_NORTH(v, i, j), GRID_PARAMS, PHYSICS_PARAMS);
    const REAL updated = explicit_update(t, dt);
    u_tile[(tj + first_row) * ((int)get_local_size(0) + 1) + ti + 1] = updated;
    if (ti >= 0 && tj >= 0 && tj < (int)get_local_size(1) && j < j_end) {
      AT(u_new, i, j) = updated;
    }
  }
}

/* Hansen: the new u of the tile's faces, each work-item its cell's east face, and of the west rim's column, spread
 * over the first work-items (one warp on a GPU). */
INLINE void tile_u_hansen(__global const REAL *restrict zeta, __global const REAL *restrict depth,
                          __global const REAL *restrict u, __global const REAL *restrict v,
                          __global REAL *restrict u_new, __local REAL *u_tile, const int i_end, const int j_end,
                          GRID_ARGS, PHYSICS_ARGS) {
  const int w = get_local_size(0), h = get_local_size(1), li = get_local_id(0), lj = get_local_id(1);
  tile_u_face(li, lj, zeta, depth, u, v, u_new, u_tile, 0, 0, i_end, j_end, GRID_PARAMS, PHYSICS_PARAMS);
  for (int k = lj * w + li; k < h; k += w * h) {
    tile_u_face(-1, k, zeta, depth, u, v, u_new, u_tile, 0, 0, i_end, j_end, GRID_PARAMS, PHYSICS_PARAMS);
  }
}

/* Sielecki: the new u of the tile's faces, the west rim's, and the rows below and above the tile (its v needs them):
 * (w + 1) (h + 2) faces numbered row by row, each work-item taking every (w h)-th. One loop over all of them ran
 * 11-27% faster on an H100 than each work-item's own face first and the rest after, and the row and column by / and
 * % faster than by / and a product (bench/README.md, swe). LLVM pairs the two with a freeze, where Oclgrind's
 * uninitialized-value plugin stops checking this kernel (tests/kernels/test_oclgrind.sh). */
INLINE void tile_u_sielecki(__global const REAL *restrict zeta, __global const REAL *restrict depth,
                            __global const REAL *restrict u, __global const REAL *restrict v,
                            __global REAL *restrict u_new, __local REAL *u_tile, const int i_end, const int j_end,
                            GRID_ARGS, PHYSICS_ARGS) {
  const int w = get_local_size(0), h = get_local_size(1);
  for (int k = get_local_id(1) * w + get_local_id(0); k < (w + 1) * (h + 2); k += w * h) {
    tile_u_face(k % (w + 1) - 1, k / (w + 1) - 1, zeta, depth, u, v, u_new, u_tile, 1, 1, i_end, j_end, GRID_PARAMS,
                PHYSICS_PARAMS);
  }
}

/* The new v at the face (ti, tj) of the tile (tj = -1: the south rim) into v_tile, and into v_new where it is the
 * tile's own; the transverse means from u at step n (Hansen) or from the new u in u_tile, whose rows start one below
 * the tile (Sielecki). */
INLINE void tile_v_face(const int ti, const int tj, __global const REAL *restrict zeta,
                        __global const REAL *restrict depth, __global const REAL *restrict u,
                        __global const REAL *restrict v, __global REAL *restrict v_new, __local const REAL *u_tile,
                        __local REAL *v_tile, const bool newest_u, const int i_end, const int j_end, GRID_ARGS,
                        PHYSICS_ARGS) {
  const int w = get_local_size(0);
  const int i = TILE_I0 + ti, j = TILE_J0 + tj;
  if (i < i_end && j < j_end) {
    const int u_at = (tj + 1) * (w + 1) + ti; /* u_tile's face west of (i, j) */
    const REAL u_west = newest_u ? pair_mean(u_tile[u_at], u_tile[u_at + w + 1]) : U_WEST(u, i, j);
    const REAL u_east = newest_u ? pair_mean(u_tile[u_at + 1], u_tile[u_at + w + 2]) : U_EAST(u, i, j);
    const FaceTerms t = v_terms(i, j, zeta, depth, v, u_west, u_east, GRID_PARAMS, PHYSICS_PARAMS);
    const REAL updated = explicit_update(t, dt);
    v_tile[(tj + 1) * w + ti] = updated;
    if (tj >= 0) {
      AT(v_new, i, j) = updated;
    }
  }
}

/* Hansen: the new v of the tile's faces, each work-item its cell's north face, and of the south rim's row (the first
 * row of work-items). */
INLINE void tile_v_hansen(__global const REAL *restrict zeta, __global const REAL *restrict depth,
                          __global const REAL *restrict u, __global const REAL *restrict v,
                          __global REAL *restrict v_new, __local REAL *v_tile, const int i_end, const int j_end,
                          GRID_ARGS, PHYSICS_ARGS) {
  const int li = get_local_id(0), lj = get_local_id(1);
  tile_v_face(li, lj, zeta, depth, u, v, v_new, NULL, v_tile, false, i_end, j_end, GRID_PARAMS, PHYSICS_PARAMS);
  if (lj == 0) {
    tile_v_face(li, -1, zeta, depth, u, v, v_new, NULL, v_tile, false, i_end, j_end, GRID_PARAMS, PHYSICS_PARAMS);
  }
}

/* Sielecki: the new v of the tile's faces and the south rim's, w (h + 1) numbered row by row as tile_u_sielecki's,
 * from the new u in u_tile. */
INLINE void tile_v_sielecki(__global const REAL *restrict zeta, __global const REAL *restrict depth,
                            __global const REAL *restrict v, __global REAL *restrict v_new, __local const REAL *u_tile,
                            __local REAL *v_tile, const int i_end, const int j_end, GRID_ARGS, PHYSICS_ARGS) {
  const int w = get_local_size(0), h = get_local_size(1);
  for (int k = get_local_id(1) * w + get_local_id(0); k < w * (h + 1); k += w * h) {
    tile_v_face(k % w, k / w - 1, zeta, depth, NULL, v, v_new, u_tile, v_tile, true, i_end, j_end, GRID_PARAMS,
                PHYSICS_PARAMS);
  }
}

/* The arguments of both step kernels. u_tile holds (w + 1) (h + 2) REALs for Sielecki, (w + 1) h for Hansen;
 * v_tile w (h + 1). */
#define STEP_ARGS                                                                                                      \
  __global const REAL *restrict zeta, __global const REAL *restrict depth, __global const REAL *restrict u,            \
      __global const REAL *restrict v, __global REAL *restrict u_new, __global REAL *restrict v_new,                   \
      __global REAL *restrict zeta_new, __local REAL *u_tile, __local REAL *v_tile, const int i_end, const int j_end,  \
      GRID_ARGS, PHYSICS_ARGS

/* Hansen ordering: u and v from the same state at n, then continuity. */
__kernel void step_hansen(STEP_ARGS) {
  tile_u_hansen(zeta, depth, u, v, u_new, u_tile, i_end, j_end, GRID_PARAMS, PHYSICS_PARAMS);
  tile_v_hansen(zeta, depth, u, v, v_new, v_tile, i_end, j_end, GRID_PARAMS, PHYSICS_PARAMS);
  barrier(CLK_LOCAL_MEM_FENCE);
  tile_continuity(zeta, depth, zeta_new, u_tile, v_tile, 0, i_end, j_end, pitch, dt, dx, dy);
}

/* Sielecki ordering: u from the state at n, v with the new u (the tile's u faces one row below to one above, so
 * that every new v of the tile and its south rim has its four u), then continuity. */
__kernel void step_sielecki(STEP_ARGS) {
  tile_u_sielecki(zeta, depth, u, v, u_new, u_tile, i_end, j_end, GRID_PARAMS, PHYSICS_PARAMS);
  barrier(CLK_LOCAL_MEM_FENCE);
  tile_v_sielecki(zeta, depth, v, v_new, u_tile, v_tile, i_end, j_end, GRID_PARAMS, PHYSICS_PARAMS);
  barrier(CLK_LOCAL_MEM_FENCE);
  tile_continuity(zeta, depth, zeta_new, u_tile, v_tile, 1, i_end, j_end, pitch, dt, dx, dy);
}

/* A component of a 4-vector by index: x west, y east, z south, w north. */
INLINE int side_int(const int4 v, const int side) {
  return side == 0 ? v.x : (side == 1 ? v.y : (side == 2 ? v.z : v.w));
}
INLINE REAL side_real(const REAL4 v, const int side) {
  return side == 0 ? v.x : (side == 1 ? v.y : (side == 2 ? v.z : v.w));
}

/* The water-level side that cell (gi, gj) of the global grid belongs to (0 west, 1 east, 2 south, 3 north), or -1:
 * the cells of the first and last column (row) of the grid on a side that is not a wall (side_type: x west, y east,
 * z south, w north). A corner cell takes the first of west, east, south, north that is a level side; a cell
 * outside the grid belongs to none. */
INLINE int level_side(const int gi, const int gj, const int global_nx, const int global_ny, const int4 side_type) {
  const bool inside = gi >= 0 && gi < global_nx && gj >= 0 && gj < global_ny;
  return !inside                                             ? -1
         : (gi == 0 && side_type.x != SIDE_WALL)             ? 0
         : (gi == global_nx - 1 && side_type.y != SIDE_WALL) ? 1
         : (gj == 0 && side_type.z != SIDE_WALL)             ? 2
         : (gj == global_ny - 1 && side_type.w != SIDE_WALL) ? 3
                                                             : -1;
}

/* The level a cell of water-level side `side` takes at n + 1 (side_level: the levels at n + 1), never below the bed:
 * the prescribed level, or on a weakly reflecting side the level that lets the outgoing characteristic through while
 * the incoming one carries the prescribed signal. With eta = zeta - reference and the face velocity u_face between
 * the boundary cell and the interior, the linearised Riemann invariants u +- sqrt(g / h) eta give
 * eta = 2 eta_in - sign sqrt(h / g) u_face, sign = +1 on the west and south sides (inflow is +u, +v) and -1 on the
 * east and north sides: an outgoing wave (eta_in = 0) leaves without reflection, an incoming one
 * (u_face = sqrt(g / h) eta_in) enters unchanged. zeta and d are the cell's level (at n) and bed depth. */
INLINE REAL side_value(const int side, const REAL zeta, const REAL d, const REAL u_face, const REAL g,
                       const REAL dry_depth, const int4 side_type, const REAL4 side_level, const REAL4 side_reference) {
  const REAL level = side_real(side_level, side), reference = side_real(side_reference, side);
  const REAL sign = side == 0 || side == 2 ? 1 : -1;
  const REAL h = fmax(zeta + d, dry_depth);
  const REAL weak = reference + 2 * (level - reference) - sign * sqrt(h / g) * u_face;
  return fmax(side_int(side_type, side) == SIDE_LEVEL ? level : weak, -d);
}

/* The velocity at the face between a water-level side's cell (i, j) and the interior. */
#define SIDE_FACE(side, u, v, i, j)                                                                                    \
  ((side) == 0 ? AT(u, i, j) : ((side) == 1 ? AT(u, (i)-1, j) : ((side) == 2 ? AT(v, i, j) : AT(v, i, (j)-1))))

/* The cells of the first and last column (row) of the grid on a water-level side take the side's level at n + 1
 * (side_value with u, v at n + 1, zeta at n). One work-item per cell of this rank's edge (1D: the south row, the
 * north row, then the west and the east columns between them); launched after zeta_step, only when a side is a level
 * side. */
__kernel void zeta_boundary(__global const REAL *restrict zeta, __global const REAL *restrict depth,
                            __global const REAL *restrict u, __global const REAL *restrict v,
                            __global REAL *restrict zeta_new, GRID_ARGS, PHYSICS_ARGS, const int4 side_type,
                            const REAL4 side_level, const REAL4 side_reference) {
  const int k = get_global_id(0);
  const int rows = ny > 1 ? 2 : 1, columns = nx > 1 ? 2 : 1, inner_rows = max(ny - 2, 0); /* each cell once */
  if (k >= rows * nx + columns * inner_rows) {
    return;
  }
  const int c = k - rows * nx; /* the index among the column cells */
  const int i = c < 0 ? k % nx : (c < inner_rows ? 0 : nx - 1);
  const int j = c < 0 ? (k < nx ? 0 : ny - 1) : 1 + c % inner_rows;
  const int side = level_side(x0 + i, y0 + j, global_nx, global_ny, side_type);
  if (side < 0) {
    return;
  }
  AT(zeta_new, i, j) = side_value(side, AT(zeta, i, j), AT(depth, i, j), SIDE_FACE(side, u, v, i, j), g, dry_depth,
                                  side_type, side_level, side_reference);
}

/* The fastest signal at cell (i, j): |u| + sqrt(g h) with cell-centred velocities, or |u| alone without the
 * gravity waves (with_waves 0: the implicit scheme's advective limit); the time step of the CFL limit is
 * cfl / (max over the grid * sqrt(1/dx^2 + 1/dy^2)). Dry cells give 0; a NaN anywhere in the state stays NaN, so the
 * maximum reveals a diverging run. */
__kernel void wave_speed(__global const REAL *restrict zeta, __global const REAL *restrict depth,
                         __global const REAL *restrict u, __global const REAL *restrict v,
                         __global REAL *restrict speed, GRID_ARGS, PHYSICS_ARGS, const int with_waves) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const REAL h = AT(zeta, i, j) + AT(depth, i, j);
  const REAL uc = (AT(u, i, j) + AT(u, i - 1, j)) / 2, vc = (AT(v, i, j) + AT(v, i, j - 1)) / 2;
  const REAL waves = with_waves ? sqrt(g * h) : 0;
  AT(speed, i, j) = h > dry_depth ? sqrt(uc * uc + vc * vc) + waves : (isnan(h) ? h : 0);
}

/* Cell-centred output: total depth h = max(zeta + d, 0), velocities u, v averaged from the two faces of the cell,
 * and the wet flag (h above dry_depth). Output fields have no ghosts (pitch_out = nx). */
__kernel void centre_fields(__global const REAL *restrict zeta, __global const REAL *restrict depth,
                            __global const REAL *restrict u, __global const REAL *restrict v,
                            __global REAL *restrict zeta_out, __global REAL *restrict h_out,
                            __global REAL *restrict u_out, __global REAL *restrict v_out,
                            __global REAL *restrict wet_out, GRID_ARGS, PHYSICS_ARGS, const int mask_dry) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const REAL h = fmax(AT(zeta, i, j) + AT(depth, i, j), (REAL)0);
  const bool shown = h > dry_depth || !mask_dry; /* a dry cell's level, u and v are NaN: missing in the files */
  const int p = j * nx + i;
  zeta_out[p] = shown ? AT(zeta, i, j) : (REAL)NAN;
  h_out[p] = h;
  u_out[p] = shown ? (AT(u, i, j) + AT(u, i - 1, j)) / 2 : (REAL)NAN;
  v_out[p] = shown ? (AT(v, i, j) + AT(v, i, j - 1)) / 2 : (REAL)NAN;
  wet_out[p] = h > dry_depth ? 1 : 0;
}

/* Maxima over a run (output.maxima), folded in after every step at time t, over the wet cells (h > dry_depth):
 * the highest level and depth, the highest cell-centred speed, and the time a cell was first wet. A cell never wet
 * holds t_wet = -1 (t >= 0 in a run) and its maxima their start values, -MAXFLOAT and 0. fmax is exact: the fold
 * gives the same bits in any order of steps and ranks, so a continued run's maxima are an uninterrupted run's. */
__kernel void accumulate_maxima(__global const REAL *restrict zeta, __global const REAL *restrict depth,
                                __global const REAL *restrict u, __global const REAL *restrict v,
                                __global REAL *restrict zeta_max, __global REAL *restrict h_max,
                                __global REAL *restrict speed_max, __global REAL *restrict t_wet, GRID_ARGS,
                                PHYSICS_ARGS, const REAL t) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const REAL h = fmax(AT(zeta, i, j) + AT(depth, i, j), (REAL)0);
  if (!(h > dry_depth)) {
    return;
  }
  const REAL uc = (AT(u, i, j) + AT(u, i - 1, j)) / 2, vc = (AT(v, i, j) + AT(v, i, j - 1)) / 2;
  AT(zeta_max, i, j) = fmax(AT(zeta_max, i, j), AT(zeta, i, j));
  AT(h_max, i, j) = fmax(AT(h_max, i, j), h);
  AT(speed_max, i, j) = fmax(AT(speed_max, i, j), sqrt(uc * uc + vc * vc));
  AT(t_wet, i, j) = AT(t_wet, i, j) < 0 ? t : AT(t_wet, i, j);
}

/* Water added before a step (rain, point sources and sinks: the continuity equation's source term, taken apart from
 * the step): a depth dz on cell (cell_i, cell_j), or on every owned cell where cell_i < 0. A dry cell fills from its
 * bed; a sink (dz < 0) takes at most the water there, down to the bed. The volume added is dz dx dy a cell, to the
 * rounding of the level. */
__kernel void add_water(__global REAL *restrict zeta, __global const REAL *restrict depth, GRID_ARGS, PHYSICS_ARGS,
                        const REAL dz, const int cell_i, const int cell_j) {
  const int i = cell_i < 0 ? (int)get_global_id(0) : cell_i, j = cell_i < 0 ? (int)get_global_id(1) : cell_j;
  if (OUTSIDE(i, j)) {
    return;
  }
  const REAL bed = -AT(depth, i, j);
  const REAL level = AT(zeta, i, j) > bed ? AT(zeta, i, j) : bed;
  const REAL raised = level + dz;
  AT(zeta, i, j) = raised > bed ? raised : bed;
}

/* The maxima as output, cell-centred without ghosts: NaN (missing in the files) where a cell was never wet. */
__kernel void maxima_output(__global const REAL *restrict zeta_max, __global const REAL *restrict h_max,
                            __global const REAL *restrict speed_max, __global const REAL *restrict t_wet,
                            __global REAL *restrict zeta_out, __global REAL *restrict h_out,
                            __global REAL *restrict speed_out, __global REAL *restrict t_wet_out, GRID_ARGS,
                            PHYSICS_ARGS) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const bool wet = AT(t_wet, i, j) >= 0;
  const int p = j * nx + i;
  zeta_out[p] = wet ? AT(zeta_max, i, j) : (REAL)NAN;
  h_out[p] = wet ? AT(h_max, i, j) : (REAL)NAN;
  speed_out[p] = wet ? AT(speed_max, i, j) : (REAL)NAN;
  t_wet_out[p] = wet ? AT(t_wet, i, j) : (REAL)NAN;
}

/* ---- the implicit scheme (thesis section 6.4 with theta as in 6.4.1; Stelling & Duinmeijer 2003) ----------------
 *
 * The level gradient in the momentum equations and the velocities in the continuity equation are taken at
 * theta n + 1 + (1 - theta) n, advection explicit, friction implicit per face. At each face (a, b the cells west
 * and east of it, or south and north)
 *   u^{n+1} = p - r (zeta^{n+1}_b - zeta^{n+1}_a),  p = B (u^n - dt (advection + (1 - theta) g dzeta^n/ds)),
 *   r = B theta g dt / ds,  B = h_mean / (h_mean + dt cf |u^n|)                                      (eq. 6.24)
 * and the flux F = h (theta u^{n+1} + (1 - theta) u^n) with h the face's upwinded depth at n. Substituting into
 * zeta^{n+1} = zeta^n - dt div F gives the pentadiagonal system of eqs. 6.27-6.29,
 *   (1 + sum a) zeta_c - sum a zeta_nb = zeta^n - dt div(h (theta p + (1 - theta) u^n)),  a = theta dt / ds h r,
 * symmetric and diagonally dominant: positive definite. The unknown solved for is the step's change
 * delta = zeta^{n+1} - zeta^n (the same matrix; the right-hand side b - A zeta^n formed term by term,
 *   b' = -dt div(h (theta p + (1 - theta) u^n)) - sum a (zeta^n_c - zeta^n_nb)),
 * so that its rounding is that of the change, not of the level, and the first guess delta = 0 is the last level:
 * at rest b' is 0 exactly and the solve ends at once. A dry face has h = r = p = 0 and drops out; a cell with all
 * faces dry is an identity row. A cell of a water-level side is a Dirichlet row (its level, side_value with u^n),
 * eliminated from its neighbours' rows so that the matrix stays symmetric. After the solve, level_update takes the
 * face velocities from the solved levels and the new levels from the fluxes in flux form, so that volume is
 * conserved to rounding whatever the solver's tolerance. The matrix fields (stencil5.h) have one ghost layer and
 * their own row pitch, spitch. */

#define AT1(a, i, j) (a)[((j) + 1) * spitch + (i) + 1]

/* The predictor p, the response r and the flux depth h of a face from its terms (zero on a dry face: a face is wet
 * where h > 0, since a wet face's upwinded depth exceeds dry_depth). g_rds = g / ds. */
INLINE void write_predictor(const FaceTerms t, const REAL g_rds, const REAL theta, const REAL dt,
                            __global REAL *restrict p, __global REAL *restrict r, __global REAL *restrict h) {
  const REAL predicted =
      momentum_update(t.w, (1 - theta) * t.slope, t.along_scaled, t.scale, t.cross, t.h_mean, t.friction, dt);
  const REAL response = theta * dt * g_rds * t.h_mean / (t.h_mean + dt * t.friction);
  *p = t.wet > 0 ? predicted : 0;
  *r = t.wet > 0 ? response : 0;
  *h = t.wet > 0 ? t.h_up : 0;
}

/* The predictors of the east and north faces of cell (i, j), both from the state at n. */
__kernel void face_predict(__global const REAL *restrict zeta, __global const REAL *restrict depth,
                           __global const REAL *restrict u, __global const REAL *restrict v, __global REAL *restrict pu,
                           __global REAL *restrict pv, __global REAL *restrict ru, __global REAL *restrict rv,
                           __global REAL *restrict hu, __global REAL *restrict hv, GRID_ARGS, PHYSICS_ARGS,
                           const REAL theta) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const FaceTerms tu = u_terms(i, j, zeta, depth, u, V_SOUTH(v, i, j), V_NORTH(v, i, j), GRID_PARAMS, PHYSICS_PARAMS);
  write_predictor(tu, g / dx, theta, dt, &AT(pu, i, j), &AT(ru, i, j), &AT(hu, i, j));
  const FaceTerms tv = v_terms(i, j, zeta, depth, v, U_WEST(u, i, j), U_EAST(u, i, j), GRID_PARAMS, PHYSICS_PARAMS);
  write_predictor(tv, g / dy, theta, dt, &AT(pv, i, j), &AT(rv, i, j), &AT(hv, i, j));
}

/* The flux predictor h (theta p + (1 - theta) w^n) of a face. */
INLINE REAL flux_predictor(const REAL h, const REAL p, const REAL w, const REAL theta) {
  return h * (theta * p + (1 - theta) * w);
}

/* The level of the water-level cell (i, j) of side `side` at n + 1, or 0 where side < 0 (side_value of the state at
 * n: it takes zeta, depth, u, v, g, dry_depth, side_type, side_level and side_reference from where it is used). */
#define SIDE_VALUE(side, i, j)                                                                                         \
  ((side) < 0 ? 0                                                                                                      \
              : side_value(side, AT(zeta, i, j), AT(depth, i, j), SIDE_FACE(side, u, v, i, j), g, dry_depth,           \
                           side_type, side_level, side_reference))

/* Whether the neighbour of an interior cell on side s_nb (-1: none) is a Dirichlet row: a level side's cell, or a
 * weakly reflecting side's whose normal face (the one they share, of flux depth h_shared) is dry. */
INLINE bool dirichlet_neighbour(const int s_nb, const REAL h_shared, const int4 side_type) {
  return s_nb >= 0 && !(side_int(side_type, s_nb) == SIDE_WEAK_LEVEL && h_shared > 0);
}

/* The normal face of a cell on water-level side `side` (its face towards the interior, whose flux depth is h_face),
 * and whether the cell takes its radiation condition with the level system (side_row): a weakly reflecting side's
 * cell whose normal face is wet and whose interior neighbour (gi + di, gj + dj) is not itself a side's cell. */
INLINE int side_di(const int side) {
  return side == 0 ? 1 : (side == 1 ? -1 : 0);
}
INLINE int side_dj(const int side) {
  return side == 2 ? 1 : (side == 3 ? -1 : 0);
}
#define NORMAL_FACE(a_u, a_v, side, i, j)                                                                              \
  ((side) < 2 ? AT(a_u, (side) == 1 ? (i)-1 : (i), j) : AT(a_v, i, (side) == 3 ? (j)-1 : (j)))
INLINE bool radiating_cell(const int side, const int gi, const int gj, const REAL h_face, const int global_nx,
                           const int global_ny, const int4 side_type) {
  return side_int(side_type, side) == SIDE_WEAK_LEVEL && h_face > 0 &&
         level_side(gi + side_di(side), gj + side_dj(side), global_nx, global_ny, side_type) < 0;
}

/* Row (i, j) of a cell on water-level side `side`. A weakly reflecting side's cell whose normal face is wet and whose
 * interior neighbour is not itself a side's cell takes its radiation condition at n + 1, zeta_b = R - s k u_face with
 * R = reference + 2 (level - reference), k = sqrt(h / g) and u_face = p - r (zeta_int - zeta_b) (west, south; east
 * and north the transpose): (1 + k r) zeta_b - k r zeta_int = R - s k p. Scaled by q = a / (k r) = theta dt / ds h / k
 * the row is (q + a) zeta_b - a zeta_int = q (R - s k p), whose coupling matches the interior row's: symmetric, and
 * solved with the interior, so that no step lags the outgoing wave. Every other side cell is a Dirichlet row, its
 * level side_value with u^n. The side cells' couplings along the side are 0. */
INLINE void side_row(const int i, const int j, const int side, __global const REAL *restrict zeta,
                     __global const REAL *restrict depth, __global const REAL *restrict u,
                     __global const REAL *restrict v, __global const REAL *restrict pu,
                     __global const REAL *restrict pv, __global const REAL *restrict ru,
                     __global const REAL *restrict rv, __global const REAL *restrict hu,
                     __global const REAL *restrict hv, __global REAL *restrict centre, __global REAL *restrict east,
                     __global REAL *restrict north, __global REAL *restrict rhs, __global REAL *restrict x, GRID_ARGS,
                     PHYSICS_ARGS, const REAL theta, const int spitch, const int4 side_type, const REAL4 side_level,
                     const REAL4 side_reference) {
  const bool along_x = side < 2;
  const REAL h = NORMAL_FACE(hu, hv, side, i, j), r = NORMAL_FACE(ru, rv, side, i, j);
  const REAL p = NORMAL_FACE(pu, pv, side, i, j);
  const REAL z = AT(zeta, i, j), z_inside = AT(zeta, i + side_di(side), j + side_dj(side));
  const bool radiating = radiating_cell(side, x0 + i, y0 + j, h, global_nx, global_ny, side_type);
  const REAL reference = side_real(side_reference, side);
  const REAL incoming = reference + 2 * (side_real(side_level, side) - reference);
  const REAL sign = side == 0 || side == 2 ? 1 : -1, k = sqrt(fmax(z + AT(depth, i, j), dry_depth) / g);
  const REAL step = theta * dt / (along_x ? dx : dy), a = step * h * r, q = step * h / k;
  const REAL change = radiating ? q * (incoming - sign * k * p - z) + a * (z_inside - z) : SIDE_VALUE(side, i, j) - z;
  AT1(centre, i, j) = radiating ? q + a : 1;
  AT1(east, i, j) = radiating && side == 0 ? -a : 0;
  AT1(north, i, j) = radiating && side == 2 ? -a : 0;
  AT1(rhs, i, j) = change;
  AT1(x, i, j) = radiating ? 0 : change;
}

/* Row (i, j) of the level system for the change delta: centre, the east and north couplings (0 where either cell is
 * a Dirichlet row), the right-hand side b', and the first guess 0 (a Dirichlet row: its change). */
__kernel void level_assemble(__global const REAL *restrict zeta, __global const REAL *restrict depth,
                             __global const REAL *restrict u, __global const REAL *restrict v,
                             __global const REAL *restrict pu, __global const REAL *restrict pv,
                             __global const REAL *restrict ru, __global const REAL *restrict rv,
                             __global const REAL *restrict hu, __global const REAL *restrict hv,
                             __global REAL *restrict centre, __global REAL *restrict east,
                             __global REAL *restrict north, __global REAL *restrict rhs, __global REAL *restrict x,
                             GRID_ARGS, PHYSICS_ARGS, const REAL theta, const int spitch, const int4 side_type,
                             const REAL4 side_level, const REAL4 side_reference) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const int gi = x0 + i, gj = y0 + j;
  const int side = level_side(gi, gj, global_nx, global_ny, side_type);
  if (side >= 0) {
    side_row(i, j, side, zeta, depth, u, v, pu, pv, ru, rv, hu, hv, centre, east, north, rhs, x, GRID_PARAMS,
             PHYSICS_PARAMS, theta, spitch, side_type, side_level, side_reference);
    return;
  }
  const REAL z = AT(zeta, i, j);
  const REAL kx = theta * dt / dx, ky = theta * dt / dy;
  const REAL a_east = kx * AT(hu, i, j) * AT(ru, i, j), a_west = kx * AT(hu, i - 1, j) * AT(ru, i - 1, j);
  const REAL a_north = ky * AT(hv, i, j) * AT(rv, i, j), a_south = ky * AT(hv, i, j - 1) * AT(rv, i, j - 1);
  const REAL divergence = (flux_predictor(AT(hu, i, j), AT(pu, i, j), AT(u, i, j), theta) -
                           flux_predictor(AT(hu, i - 1, j), AT(pu, i - 1, j), AT(u, i - 1, j), theta)) /
                              dx +
                          (flux_predictor(AT(hv, i, j), AT(pv, i, j), AT(v, i, j), theta) -
                           flux_predictor(AT(hv, i, j - 1), AT(pv, i, j - 1), AT(v, i, j - 1), theta)) /
                              dy;
  const REAL z_east = AT(zeta, i + 1, j), z_west = AT(zeta, i - 1, j);
  const REAL z_north = AT(zeta, i, j + 1), z_south = AT(zeta, i, j - 1);
  const REAL spread = a_east * (z - z_east) + a_west * (z - z_west) + a_north * (z - z_north) +
                      a_south * (z - z_south); /* A zeta^n - zeta^n */
  const int s_east = level_side(gi + 1, gj, global_nx, global_ny, side_type);
  const int s_west = level_side(gi - 1, gj, global_nx, global_ny, side_type);
  const int s_north = level_side(gi, gj + 1, global_nx, global_ny, side_type);
  const int s_south = level_side(gi, gj - 1, global_nx, global_ny, side_type);
  const bool d_east = dirichlet_neighbour(s_east, AT(hu, i, j), side_type);
  const bool d_west = dirichlet_neighbour(s_west, AT(hu, i - 1, j), side_type);
  const bool d_north = dirichlet_neighbour(s_north, AT(hv, i, j), side_type);
  const bool d_south = dirichlet_neighbour(s_south, AT(hv, i, j - 1), side_type);
  const REAL known = (d_east ? a_east * (SIDE_VALUE(s_east, i + 1, j) - z_east) : 0) +
                     (d_west ? a_west * (SIDE_VALUE(s_west, i - 1, j) - z_west) : 0) +
                     (d_north ? a_north * (SIDE_VALUE(s_north, i, j + 1) - z_north) : 0) +
                     (d_south ? a_south * (SIDE_VALUE(s_south, i, j - 1) - z_south) : 0);
  AT1(centre, i, j) = 1 + a_east + a_west + a_north + a_south;
  AT1(east, i, j) = d_east ? 0 : -a_east;
  AT1(north, i, j) = d_north ? 0 : -a_north;
  AT1(rhs, i, j) = known - dt * divergence - spread;
  AT1(x, i, j) = 0;
}

/* A face's velocity at n + 1 from the levels of its cells a and b at n and their changes (eq. 6.30), and its flux.
 * Both cells of a face evaluate exactly these expressions, so what leaves one enters the other bit for bit. */
INLINE REAL face_velocity(const REAL p, const REAL r, const REAL z_a, const REAL z_b, const REAL d_a, const REAL d_b) {
  return p - r * ((z_b - z_a) + (d_b - d_a));
}
INLINE REAL theta_flux(const REAL h, const REAL w_new, const REAL w_old, const REAL theta) {
  return h * (theta * w_new + (1 - theta) * w_old);
}

/* The state at n + 1 from the solved changes x: the east and north face velocities, the level in flux form, and the
 * total depth h_new for the check that none is negative. A side's cell takes its row's level: a radiating one's as
 * solved, a Dirichlet one's its value exactly (CG leaves a decoupled row exact only to its tolerance: the RRB
 * preconditioner's levels couple what A does not), never below the bed. */
__kernel void level_update(__global const REAL *restrict zeta, __global const REAL *restrict depth,
                           __global const REAL *restrict u, __global const REAL *restrict v,
                           __global const REAL *restrict pu, __global const REAL *restrict pv,
                           __global const REAL *restrict ru, __global const REAL *restrict rv,
                           __global const REAL *restrict hu, __global const REAL *restrict hv,
                           __global const REAL *restrict x, __global REAL *restrict u_new,
                           __global REAL *restrict v_new, __global REAL *restrict zeta_new,
                           __global REAL *restrict h_new, GRID_ARGS, PHYSICS_ARGS, const REAL theta, const int spitch,
                           const int4 side_type, const REAL4 side_level, const REAL4 side_reference) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const REAL z = AT(zeta, i, j), xc = AT1(x, i, j);
  const REAL u_east = face_velocity(AT(pu, i, j), AT(ru, i, j), z, AT(zeta, i + 1, j), xc, AT1(x, i + 1, j));
  const REAL u_west = face_velocity(AT(pu, i - 1, j), AT(ru, i - 1, j), AT(zeta, i - 1, j), z, AT1(x, i - 1, j), xc);
  const REAL v_north = face_velocity(AT(pv, i, j), AT(rv, i, j), z, AT(zeta, i, j + 1), xc, AT1(x, i, j + 1));
  const REAL v_south = face_velocity(AT(pv, i, j - 1), AT(rv, i, j - 1), AT(zeta, i, j - 1), z, AT1(x, i, j - 1), xc);
  const REAL divergence = (theta_flux(AT(hu, i, j), u_east, AT(u, i, j), theta) -
                           theta_flux(AT(hu, i - 1, j), u_west, AT(u, i - 1, j), theta)) /
                              dx +
                          (theta_flux(AT(hv, i, j), v_north, AT(v, i, j), theta) -
                           theta_flux(AT(hv, i, j - 1), v_south, AT(v, i, j - 1), theta)) /
                              dy;
  const int side = level_side(x0 + i, y0 + j, global_nx, global_ny, side_type);
  const bool radiating = side >= 0 && radiating_cell(side, x0 + i, y0 + j, NORMAL_FACE(hu, hv, side, i, j), global_nx,
                                                     global_ny, side_type);
  const REAL d = AT(depth, i, j);
  const REAL level = side < 0 ? z - dt * divergence : (radiating ? fmax(z + xc, -d) : SIDE_VALUE(side, i, j));
  AT(u_new, i, j) = stored_velocity(AT(hu, i, j) > 0, u_east); /* a dry face's velocity is 0: kept as dry */
  AT(v_new, i, j) = stored_velocity(AT(hv, i, j) > 0, v_north);
  AT(zeta_new, i, j) = level;
  AT(h_new, i, j) = level + d;
}

/* Drying within a step (Delft3D-FLOW's check): where a cell's new depth came out negative, its four faces are set dry
 * for this step (predictor, response and flux depth 0) and the step is solved again; the cell then keeps its level
 * and volume. Each work-item takes the east and north faces of its cell (h_new's ghosts exchanged). PHYSICS_ARGS:
 * unused, the arguments every kernel here takes. */
__kernel void dry_negative_faces(__global const REAL *restrict h_new, __global REAL *restrict pu,
                                 __global REAL *restrict pv, __global REAL *restrict ru, __global REAL *restrict rv,
                                 __global REAL *restrict hu, __global REAL *restrict hv, GRID_ARGS, PHYSICS_ARGS) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const bool negative = AT(h_new, i, j) < 0;
  if (negative || AT(h_new, i + 1, j) < 0) {
    AT(pu, i, j) = AT(ru, i, j) = AT(hu, i, j) = 0;
  }
  if (negative || AT(h_new, i, j + 1) < 0) {
    AT(pv, i, j) = AT(rv, i, j) = AT(hv, i, j) = 0;
  }
}
