/* SPDX-License-Identifier: BSD-3-Clause */
/* vbm.cl: the linearized variational Boussinesq model (VBM; Klopman; ../shared/papers/rrb-pcg-gpu.txt, section 2,
 * eqs. 1a-1c), with currents U and ships as moving pressure pulses Ps:
 *
 *   d zeta / dt + div(zeta U + h grad phi - h D grad psi) = 0                        (1a)
 *   d phi / dt + U . grad phi + g zeta = -Ps                                         (1b)
 *   M psi + div(h D grad phi - N grad psi) = 0                                       (1c)
 *
 * zeta is the surface elevation, phi the velocity potential at the surface, psi the amplitude of the vertical shape
 * function, h the still-water depth, Ps the surface pressure over the density (m^2/s^2).
 *
 * The model parameters. The potential is phi(x, t) + f(z) psi(x, t) with f(0) = 0, linearized about z = 0
 * (Klopman, van Groesen & Dingemans, J. Fluid Mech. 657, 2010, section 3; the linear case as in Klopman's report to
 * MARIN, ref. [3] of the paper). The kinetic energy of the column, integrated from -h to 0, is
 *   1/2 h |grad phi|^2 + (int f) grad phi . grad psi + 1/2 (int f^2) |grad psi|^2 + 1/2 (int f'^2) psi^2
 * (the slope of h neglected, as in eqs. 1a-1c), and the variations of the Lagrangian int (phi d zeta / dt - H) dt
 * with respect to phi, zeta and psi give eqs. 1a-1c with
 *   h D = -int f,   M = int f'^2,   N = int f^2.
 * Two shape functions (Klopman et al.'s two):
 *   parabolic   f = z + z^2 / (2 h):  h D = h^2 / 3,  M = h / 3,  N = 2 h^3 / 15; psi is the surface's vertical
 *               velocity (f'(0) = 1);
 *   cosh        f = cosh(kappa (z + h)) / cosh(kappa h) - 1, with a = kappa h, T = tanh a:
 *               h D = h - T / kappa,  M = kappa (T - a sech^2 a) / 2,  N = h (1 + sech^2 a / 2) - 3 T / (2 kappa);
 *               the vertical velocity is kappa T psi. For a -> 0 it is the parabolic shape times kappa^2 h.
 * The dispersion relation of a flat bed (plane waves in 1a-1c, U = 0):
 *   omega^2 = g k^2 (h - (h D)^2 k^2 / (M + N k^2)),
 * for the parabolic shape g h k^2 (15 + (k h)^2) / (15 + 6 (k h)^2), the [2/2] Pade approximant of Airy's
 * g k tanh(k h); for the cosh shape exact at k = kappa (vbm.h states the ranges).
 *
 * Discretization (finite volumes on a Cartesian grid, as the paper's section 2): zeta, phi, psi and h at cell
 * centres; fluxes through the faces by central differences, a face's depth the mean of its cells' depths and zero
 * where either cell is land (h <= 0) or outside the grid (walls: the ghosts beyond a side hold depth 0), so land
 * and walls pass no flux; a face's h D and N are the shape's at the face's depth. The current's flux zeta U uses the
 * face's mean of zeta and U, and U . grad phi in (1b) the mean of the two faces' U (Delta phi / Delta x): the two are
 * each other's adjoint, so the discrete system keeps the continuous one's energy (neutral stability of the leapfrog
 * scheme for subcritical currents). Time: leapfrog, q^{n+1} = q^{n-1} + 2 dt L(q^n, psi^n), with psi^n from (1c)
 * for phi^n every frame (vbm.c).
 *
 * Kernels: vbm_coefficients (h D of the east and north faces and the system of (1c), once: h does not change),
 * vbm_rhs (the system's right-hand side for phi), vbm_update (one stage of the time step: q_base = (alpha q_base +
 * beta q_src + gamma_dt L(q_src, psi)) / (1 + gamma_dt sigma), sigma the sponge's damping), vbm_pressure (the
 * ships' pressure), vbm_incident (the incident waves' target), vbm_energy (the energy density) and vbm_extremes (the highest and lowest elevation so far). Macros: REAL, ACC, WG_X, WG_Y, EXACT_GRID
 * (common.clh). Layout: ghost width 1, a[j + 1][i + 1] with row pitch `pitch`, one work-item per owned cell. */

#define AT(a, i, j) (a)[((j) + 1) * pitch + (i) + 1]
#define GRID_ARGS const int nx, const int ny, const int pitch, const REAL dx, const REAL dy

/* Per ship in the ships buffer: centre x, y (m), cos and sin of the heading, one_half length, one_half beam (m) and peak
 * pressure over density (m^2/s^2). */
enum { SHIP_X, SHIP_Y, SHIP_COS, SHIP_SIN, SHIP_HALF_LENGTH, SHIP_HALF_BEAM, SHIP_PEAK, SHIP_REALS };

INLINE bool is_wet(const REAL h) {
  return h > (REAL)0;
}

/* The depth of the face between cells of depths a and b: their mean, 0 where either is land. */
INLINE REAL face_depth(const REAL a, const REAL b) {
  return is_wet(a) && is_wet(b) ? (REAL)0.5 * (a + b) : (REAL)0;
}

/* The shape's h D, M and N at depth h (0 on land), in ACC (double where the device has it): the cosh shape's
 * closed forms cancel to a^2 (h D) and a^4 (N) of their terms, so below a = 0.1 their series to a^8 stand in. */
typedef struct {
  ACC hd, m, n;
} Shape;

INLINE Shape shape_at(const ACC h, const ACC kappa) {
  Shape s = {0, 0, 0};
  if (h <= 0) {
    return s;
  }
  const ACC a = kappa * h, a2 = a * a;
  if (kappa == 0) {
    s.hd = h * h / 3;
    s.m = h / 3;
    s.n = 2 * h * h * h / 15;
  } else if (a < (ACC)0.1) {
    s.hd = h * a2 * ((ACC)1 / 3 - a2 * ((ACC)2 / 15 - a2 * (ACC)17 / 315));
    s.m = kappa * a * a2 * ((ACC)1 / 3 - a2 * ((ACC)4 / 15 - a2 * (ACC)17 / 105));
    s.n = h * a2 * a2 * ((ACC)2 / 15 - a2 * ((ACC)34 / 315 - a2 * (ACC)62 / 945));
  } else {
    const ACC t = tanh(a), e = exp(-2 * a), sech2 = 4 * e / ((1 + e) * (1 + e));
    s.hd = h - t / kappa;
    s.m = kappa * (t - a * sech2) / 2;
    s.n = h * (1 + sech2 / 2) - 3 * t / (2 * kappa);
  }
  return s;
}

/* Once, after the depth's ghosts are exchanged: h D of each cell's east and north faces, and the system of (1c),
 * M psi - div(N grad psi) = -div(h D grad phi): centre M + sum N_f / d^2, couplings -N_f / d^2 east and north (zero
 * towards land and beyond the grid); a land cell's row is psi = 0. */
__kernel void vbm_coefficients(__global const REAL *restrict depth, __global REAL *restrict hd_east,
                               __global REAL *restrict hd_north, __global REAL *restrict centre,
                               __global REAL *restrict east, __global REAL *restrict north, GRID_ARGS,
                               const REAL kappa) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const REAL h = AT(depth, i, j);
  const Shape cell = shape_at(h, kappa);
  const Shape e = shape_at(face_depth(h, AT(depth, i + 1, j)), kappa);
  const Shape w = shape_at(face_depth(h, AT(depth, i - 1, j)), kappa);
  const Shape n = shape_at(face_depth(h, AT(depth, i, j + 1)), kappa);
  const Shape s = shape_at(face_depth(h, AT(depth, i, j - 1)), kappa);
  const ACC rx = (ACC)1 / ((ACC)dx * dx), ry = (ACC)1 / ((ACC)dy * dy);
  AT(hd_east, i, j) = (REAL)e.hd;
  AT(hd_north, i, j) = (REAL)n.hd;
  AT(centre, i, j) = is_wet(h) ? (REAL)(cell.m + (e.n + w.n) * rx + (n.n + s.n) * ry) : (REAL)1;
  AT(east, i, j) = (REAL)(-e.n * rx);
  AT(north, i, j) = (REAL)(-n.n * ry);
}

/* b = -div(h D grad phi) (phi's and h D's ghosts exchanged); 0 on land, whose faces' h D are 0. */
__kernel void vbm_rhs(__global const REAL *restrict hd_east, __global const REAL *restrict hd_north,
                      __global const REAL *restrict phi, __global REAL *restrict b, GRID_ARGS) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const REAL p = AT(phi, i, j);
  const REAL div_x =
      (AT(hd_east, i, j) * (AT(phi, i + 1, j) - p) - AT(hd_east, i - 1, j) * (p - AT(phi, i - 1, j))) / (dx * dx);
  const REAL div_y =
      (AT(hd_north, i, j) * (AT(phi, i, j + 1) - p) - AT(hd_north, i, j - 1) * (p - AT(phi, i, j - 1))) / (dy * dy);
  AT(b, i, j) = -(div_x + div_y);
}

/* The pressure pulses at (x, y): each ship's peak times cos^2 along and across its hull within its length and
 * beam (a smooth hull, zero slope at its edges; OceanWave3D's moving pressure patch). */
INLINE REAL ship_pressure(__constant const REAL *ships, const int nships, const REAL x, const REAL y) {
  const REAL half_pi = (REAL)1.5707963267948966;
  REAL p = 0;
  for (int s = 0; s < nships; s++) {
    __constant const REAL *ship = ships + s * SHIP_REALS;
    const REAL rx = x - ship[SHIP_X], ry = y - ship[SHIP_Y];
    const REAL along = (rx * ship[SHIP_COS] + ry * ship[SHIP_SIN]) / ship[SHIP_HALF_LENGTH];
    const REAL across = (ry * ship[SHIP_COS] - rx * ship[SHIP_SIN]) / ship[SHIP_HALF_BEAM];
    if (fabs(along) < (REAL)1 && fabs(across) < (REAL)1) {
      const REAL ca = cos(half_pi * along), cb = cos(half_pi * across);
      p += ship[SHIP_PEAK] * ca * ca * cb * cb;
    }
  }
  return p;
}

/* Ps over the density at the cells of the box [get_global_offset, (i_end, j_end)) of this block (which starts at
 * global cell (i0, j0); cell centres at x0 + (i0 + i + 1/2) dx, y0 + (j0 + j + 1/2) dy): the ships' hulls where they
 * are now, launched over the box that holds them and where they were (vbm.c), so that it leaves no old hull behind. */
__kernel void vbm_pressure(__global REAL *restrict pressure, __constant const REAL *ships, const int nships,
                           const int i_end, const int j_end, GRID_ARGS, const int i0, const int j0, const REAL x0,
                           const REAL y0) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (i >= i_end || j >= j_end) {
    return;
  }
  const REAL x = x0 + ((REAL)(i0 + i) + (REAL)0.5) * dx, y = y0 + ((REAL)(j0 + j) + (REAL)0.5) * dy;
  AT(pressure, i, j) = ship_pressure(ships, nships, x, y);
}

/* The incident waves at the cells of the box [get_global_offset, (i_end, j_end)) (the generating side's sponge in this
 * block): zeta = sum a cos(kx x + ky y + e), phi = sum (g a / omega) sin(kx x + ky y + e), a linear wave of the model
 * when omega and k obey its dispersion relation (phi_t = -g zeta). Per wave in the table: a, kx, ky, g a / omega,
 * and e = phase - omega t for the stage's time (vbm.c sets them, in double, every stage). */
enum { WAVE_AMPLITUDE, WAVE_KX, WAVE_KY, WAVE_PHI_AMPLITUDE, WAVE_PHASE, WAVE_REALS };
__kernel void vbm_incident(__global REAL *restrict zeta_target, __global REAL *restrict phi_target,
                           __constant const REAL *waves, const int nwaves, const int i_end, const int j_end, GRID_ARGS,
                           const int i0, const int j0, const REAL x0, const REAL y0) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (i >= i_end || j >= j_end) {
    return;
  }
  const REAL x = x0 + ((REAL)(i0 + i) + (REAL)0.5) * dx, y = y0 + ((REAL)(j0 + j) + (REAL)0.5) * dy;
  REAL z = 0, p = 0;
  for (int w = 0; w < nwaves; w++) {
    __constant const REAL *wave = waves + w * WAVE_REALS;
    const REAL theta = wave[WAVE_KX] * x + wave[WAVE_KY] * y + wave[WAVE_PHASE];
    z += wave[WAVE_AMPLITUDE] * cos(theta);
    p += wave[WAVE_PHI_AMPLITUDE] * sin(theta);
  }
  AT(zeta_target, i, j) = z;
  AT(phi_target, i, j) = p;
}

/* One stage of the time step over the owned cells:
 *   zeta_base = (alpha zeta_base + beta zeta_src + gamma_dt (Lzeta + sigma zeta_target)) / (1 + gamma_dt sigma),
 *   phi_base the same,
 * where Lzeta, Lphi are the right-hand sides of (1a), (1b) at the source level (zeta_src, phi_src, psi, the ships
 * placed for its time by vbm_pressure) and sigma the sponges' damping rate (vbm.c computes it once): a sponge
 * relaxes the state towards the targets, 0 but where incident waves enter (vbm_incident). Ps and sigma are
 * fields: computed here, the ships' hulls and the sponges' four distances kept PoCL from vectorizing the kernel (4
 * times slower). alpha 0 leaves the base unread (a stage into scratch). zeta_src, phi_src and psi have their ghosts
 * exchanged; base and source are different buffers. A land cell keeps 0. */
__kernel void vbm_update(__global REAL *zeta_base, __global REAL *phi_base, __global const REAL *restrict zeta_src,
                         __global const REAL *restrict phi_src, __global const REAL *restrict psi,
                         __global const REAL *restrict depth, __global const REAL *restrict hd_east,
                         __global const REAL *restrict hd_north, __global const REAL *restrict u_current,
                         __global const REAL *restrict v_current, __global const REAL *restrict sponge,
                         __global const REAL *restrict pressure, __global const REAL *restrict zeta_target,
                         __global const REAL *restrict phi_target, const REAL alpha, const REAL beta,
                         const REAL gamma_dt, const REAL g, GRID_ARGS) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const REAL h = AT(depth, i, j);
  if (!is_wet(h)) {
    AT(zeta_base, i, j) = 0;
    AT(phi_base, i, j) = 0;
    return;
  }
  const REAL h_e = face_depth(h, AT(depth, i + 1, j)), h_w = face_depth(h, AT(depth, i - 1, j));
  const REAL h_n = face_depth(h, AT(depth, i, j + 1)), h_s = face_depth(h, AT(depth, i, j - 1));
  const REAL z = AT(zeta_src, i, j), p = AT(phi_src, i, j), s = AT(psi, i, j);
  /* Differences towards each neighbour, over the spacing: gradients at the faces. */
  const REAL dp_e = (AT(phi_src, i + 1, j) - p) / dx, dp_w = (p - AT(phi_src, i - 1, j)) / dx;
  const REAL dp_n = (AT(phi_src, i, j + 1) - p) / dy, dp_s = (p - AT(phi_src, i, j - 1)) / dy;
  const REAL ds_e = (AT(psi, i + 1, j) - s) / dx, ds_w = (s - AT(psi, i - 1, j)) / dx;
  const REAL ds_n = (AT(psi, i, j + 1) - s) / dy, ds_s = (s - AT(psi, i, j - 1)) / dy;
  /* The currents at the faces, zero where no water passes. */
  const REAL uc = AT(u_current, i, j), vc = AT(v_current, i, j), one_half = (REAL)0.5;
  const REAL u_e = h_e > 0 ? one_half * (uc + AT(u_current, i + 1, j)) : 0;
  const REAL u_w = h_w > 0 ? one_half * (uc + AT(u_current, i - 1, j)) : 0;
  const REAL v_n = h_n > 0 ? one_half * (vc + AT(v_current, i, j + 1)) : 0;
  const REAL v_s = h_s > 0 ? one_half * (vc + AT(v_current, i, j - 1)) : 0;
  /* (1a): the fluxes zeta U + h grad phi - h D grad psi through the faces. */
  const REAL f_e = u_e * one_half * (z + AT(zeta_src, i + 1, j)) + h_e * dp_e - AT(hd_east, i, j) * ds_e;
  const REAL f_w = u_w * one_half * (z + AT(zeta_src, i - 1, j)) + h_w * dp_w - AT(hd_east, i - 1, j) * ds_w;
  const REAL f_n = v_n * one_half * (z + AT(zeta_src, i, j + 1)) + h_n * dp_n - AT(hd_north, i, j) * ds_n;
  const REAL f_s = v_s * one_half * (z + AT(zeta_src, i, j - 1)) + h_s * dp_s - AT(hd_north, i, j - 1) * ds_s;
  const REAL l_zeta = -((f_e - f_w) / dx + (f_n - f_s) / dy);
  /* (1b): U . grad phi as the mean over each direction's two faces. */
  const REAL advection = one_half * (u_e * dp_e + u_w * dp_w + v_n * dp_n + v_s * dp_s);
  const REAL l_phi = -(advection + g * z + AT(pressure, i, j));
  const REAL relax = gamma_dt * AT(sponge, i, j), damping = (REAL)1 / ((REAL)1 + relax);
  const REAL zeta_old = alpha != (REAL)0 ? alpha * AT(zeta_base, i, j) : (REAL)0;
  const REAL phi_old = alpha != (REAL)0 ? alpha * AT(phi_base, i, j) : (REAL)0;
  AT(zeta_base, i, j) = (zeta_old + beta * z + gamma_dt * l_zeta + relax * AT(zeta_target, i, j)) * damping;
  AT(phi_base, i, j) = (phi_old + beta * p + gamma_dt * l_phi + relax * AT(phi_target, i, j)) * damping;
}

/* The energy per unit area of the cell and of its east and north faces (phi's and psi's ghosts exchanged), J/m^2
 * over the density:
 *   1/2 g zeta^2 + 1/2 M psi^2 + sum over the faces of 1/2 h |d phi|^2 - h D d phi d psi + 1/2 N |d psi|^2,
 * the Hamiltonian of eqs. 1a-1c without currents and pressure, which leapfrog keeps up to an oscillation of
 * O(dt^2) (tests/regression/test_vbm.c). Summed over the cells and multiplied by the cell's area, it is the
 * model's energy. N and M come from the system of (1c) (vbm_coefficients): N_f = -coupling d^2, M = centre +
 * the four couplings (the matrix's ghosts exchanged). */
__kernel void vbm_energy(__global const REAL *restrict zeta, __global const REAL *restrict phi,
                         __global const REAL *restrict psi, __global const REAL *restrict depth,
                         __global const REAL *restrict hd_east, __global const REAL *restrict hd_north,
                         __global const REAL *restrict centre, __global const REAL *restrict east,
                         __global const REAL *restrict north, __global REAL *restrict energy, const REAL g, GRID_ARGS) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const REAL h = AT(depth, i, j), one_half = (REAL)0.5;
  const REAL z = AT(zeta, i, j), p = AT(phi, i, j), s = AT(psi, i, j);
  const REAL h_e = face_depth(h, AT(depth, i + 1, j)), h_n = face_depth(h, AT(depth, i, j + 1));
  const REAL n_e = -AT(east, i, j) * dx * dx, n_n = -AT(north, i, j) * dy * dy;
  const REAL m = AT(centre, i, j) + AT(east, i, j) + AT(east, i - 1, j) + AT(north, i, j) + AT(north, i, j - 1);
  const REAL dp_e = (AT(phi, i + 1, j) - p) / dx, ds_e = (AT(psi, i + 1, j) - s) / dx;
  const REAL dp_n = (AT(phi, i, j + 1) - p) / dy, ds_n = (AT(psi, i, j + 1) - s) / dy;
  const REAL faces = one_half * h_e * dp_e * dp_e - AT(hd_east, i, j) * dp_e * ds_e + one_half * n_e * ds_e * ds_e +
                     one_half * h_n * dp_n * dp_n - AT(hd_north, i, j) * dp_n * ds_n + one_half * n_n * ds_n * ds_n;
  const REAL cell = is_wet(h) ? one_half * g * z * z + one_half * m * s * s : (REAL)0;
  AT(energy, i, j) = cell + faces;
}

/* The highest and lowest surface elevation so far: zeta_max = max(zeta_max, zeta), zeta_min = min(zeta_min, zeta)
 * (land stays 0). */
__kernel void vbm_extremes(__global const REAL *restrict zeta, __global REAL *restrict zeta_max,
                           __global REAL *restrict zeta_min, GRID_ARGS) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const REAL z = AT(zeta, i, j);
  AT(zeta_max, i, j) = fmax(AT(zeta_max, i, j), z);
  AT(zeta_min, i, j) = fmin(AT(zeta_min, i, j), z);
}
