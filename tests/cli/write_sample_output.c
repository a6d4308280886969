/* SPDX-License-Identifier: BSD-3-Clause */
/* write_sample_output.c: writes DIR/map.nc and DIR/history.nc through the output layer, with fields known in closed
 * form, for the tests of tools/hydrocl-plot: zeta = 0.01 x - 0.02 y + 0.001 t at cell centres x = 5 + 10 i,
 * y = 5 + 10 j on a 20 x 12 grid, frames every 60 s from 0 to 240 s; gauges g1 (55, 35) and g2 (105, 65).
 * Usage: write_sample_output DIR */
#include <stdio.h>
#include <stdlib.h>

#include "history.h"
#include "mapfile.h"
#include "../support/support.h"

enum { NX = 20, NY = 12, FRAMES = 5 };

static HclStatus write_outputs(const char *folder) {
  HclStatus status = HCL_OK;
  Runtime *rt = NULL;
  Decomp *decomp = NULL;
  Field *zeta = NULL;
  MapFile *map = NULL;
  HistoryFile *history = NULL;
  double *host = NULL;
  char map_path[512], history_path[512];
  snprintf(map_path, sizeof map_path, "%s/map.nc", folder);
  snprintf(history_path, sizeof history_path, "%s/history.nc", folder);
  DecompSpec grid = {.nx = NX, .ny = NY};
  FieldSpec fs = {.name = "zeta", .nz = 1, .ghost = 1, .precision = PRECISION_DOUBLE};
  OutputSpec spec = {.path = map_path,
                     .frame = {.title = "sample",
                               .source = "write_sample_output",
                               .time_units = "seconds since 2000-01-01 00:00:00",
                               .x0 = 5,
                               .dx = 10,
                               .y0 = 5,
                               .dy = 10},
                     .overwrite = true,
                     .history = "write_sample_output",
                     .case_yaml = ""};
  OutputVariable var = {"zeta", "sea_surface_height_above_geoid", "water level", "m", NULL, false};
  Gauge gauges[2] = {{.name = "g1", .x = 55, .y = 35, .origin = "sample"},
                     {.name = "g2", .x = 105, .y = 65, .origin = "sample"}};
  TRY(test_open_runtime(false, &rt));
  TRY(hcl_decomp_create(&grid, &decomp));
  TRY(hcl_field_create(rt, decomp, &fs, &zeta));
  TRY(hcl_map_create(decomp, &spec, &var, 1, &map));
  spec.path = history_path;
  TRY(hcl_history_create(rt, decomp, &spec, gauges, 2, &var, 1, &history));
  TRY_ALLOC(host, NX * NY);
  for (int frame = 0; frame < FRAMES; frame++) {
    double t = 60.0 * frame;
    for (int j = 0; j < NY; j++) {
      for (int i = 0; i < NX; i++) {
        host[j * NX + i] = 0.01 * (5 + 10 * i) - 0.02 * (5 + 10 * j) + 0.001 * t;
      }
    }
    TRY(hcl_field_write_owned(zeta, host));
    TRY(hcl_map_write(map, t, &zeta));
    TRY(hcl_history_write(history, t, &zeta));
  }
cleanup:
  free(host);
  hcl_history_close(&history);
  hcl_map_close(&map);
  hcl_field_destroy(&zeta);
  hcl_decomp_destroy(&decomp);
  hcl_runtime_destroy(&rt);
  return status;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 64;
  }
  HclStatus status = hcl_par_init(&argc, &argv);
  if (status == HCL_OK) {
    status = write_outputs(argv[1]);
  }
  if (status != HCL_OK) {
    fprintf(stderr, "write_sample_output: %s\n", hcl_status_message());
  }
  hcl_par_finalize();
  return hcl_status_exit_code(status);
}
