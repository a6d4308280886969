/* SPDX-License-Identifier: BSD-3-Clause */
/* ship_simulator.c: a simulator's loop over the ship-wave model through the installed library.
 *   cc ship_simulator.c $(pkg-config --cflags --libs hydrocl) -lm */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <hydrocl/decomp.h>
#include <hydrocl/device.h>
#include <hydrocl/par.h>
#include <hydrocl/runtime.h>
#include <hydrocl/vbm.h>

#define CHECK(call)                                                                                                    \
  if ((call) != HCL_OK) {                                                                                              \
    fprintf(stderr, "%s\n", hcl_status_message());                                                                     \
    return 1;                                                                                                          \
  }

/* The simulator's own ship: the helm moves it between frames, the model asks where it is at every stage. */
typedef struct {
  double x, y, heading, speed;
} OwnShip;

static void where(void *own_ship, double t, VbmShip *ships) {
  const OwnShip *own = own_ship; /* where the helm put it; its 2 m draft pressed in over the first 10 s */
  ships[0] = (VbmShip){
      .x = own->x, .y = own->y, .heading = own->heading, .length = 60, .beam = 10, .peak = 9.81 * 2 * fmin(t / 10, 1)};
}

int main(int argc, char **argv) {
  enum { N = 160 }; /* a 800 m square basin of 5 m cells, 15 m deep */
  DeviceInfo *devices = NULL;
  int count = 0, chosen = 0;
  bool shared = false;
  Runtime *rt = NULL;
  Decomp *decomp = NULL;
  Vbm *vbm = NULL;
  CHECK(hcl_par_init(&argc, &argv));
  CHECK(hcl_device_list(&devices, &count));
  CHECK(hcl_device_select(devices, count, "auto", &(DeviceNeeds){0}, 0, 1, &chosen, &shared));
  CHECK(hcl_runtime_create(&devices[chosen], &(RuntimeOptions){0}, &rt));
  CHECK(hcl_decomp_create(&(DecompSpec){.nx = N, .ny = N}, &decomp));
  VbmConfig config = {.dx = 5,
                      .dy = 5,
                      .g = 9.81,
                      .sponge = {20, 20, 20, 20},
                      .sponge_strength = 1,
                      .precision = PRECISION_SINGLE,
                      .krylov = hcl_vbm_krylov_defaults()};
  CHECK(hcl_vbm_create(rt, decomp, &config, &vbm));
  static double depth[N * N], still[N * N], zeta[N * N];
  for (int p = 0; p < N * N; p++) {
    depth[p] = 15;
  }
  CHECK(hcl_vbm_set_state(vbm, depth, still, still, NULL, NULL));
  OwnShip own = {.x = 200, .y = 300, .heading = 0, .speed = 6};
  CHECK(hcl_vbm_set_ships(vbm, 1, where, &own));
  const double frame = 0.1; /* s: a 10 Hz simulator */
  for (int f = 1; f <= 600; f++) {
    CHECK(hcl_vbm_step(vbm, (f - 1) * frame, frame));
    own.heading += f > 200 ? 0.003 : 0; /* the helm: a turn to port after 20 s */
    own.x += own.speed * frame * cos(own.heading);
    own.y += own.speed * frame * sin(own.heading);
    if (f % 200 == 0) { /* the view: the lowest water, under the hull */
      CHECK(hcl_field_read_owned(hcl_vbm_zeta(vbm), zeta));
      double lowest = 0;
      for (int p = 0; p < N * N; p++) {
        lowest = fmin(lowest, zeta[p]);
      }
      printf("t = %2.0f s: ship at (%.0f, %.0f) m, lowest water %.2f m, %d CG iterations\n", f * frame, own.x, own.y,
             lowest, hcl_vbm_solve_stats(vbm).iterations);
    }
  }
  hcl_vbm_destroy(&vbm);
  hcl_decomp_destroy(&decomp);
  hcl_runtime_destroy(&rt);
  free(devices);
  hcl_par_finalize();
  return 0;
}
