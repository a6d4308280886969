/* SPDX-License-Identifier: BSD-3-Clause */
/* shapes.c: the validation cases' still-water depths (wave_shapes.h). */
#include "wave_shapes.h"

#include <math.h>

const double HCL_WAVE_BAR_GAUGES[WAVE_BAR_NGAUGES] = {4.0, 10.5, 12.5, 13.5, 14.5, 15.7, 17.3, 19.0, 21.0};

double hcl_wave_bar_depth(double x) {
  if (x <= 6 || x >= 17) {
    return 0.4;
  }
  if (x < 12) {
    return 0.4 - (x - 6) / 20;
  }
  return x <= 14 ? 0.1 : 0.1 + (x - 14) / 10;
}

double hcl_wave_whalin_depth(double x, double y) {
  double G = sqrt(fmax(y * (WAVE_WHALIN_WIDTH - y), 0));
  if (x <= 10.67 - G) {
    return 0.4572;
  }
  return x < 18.29 - G ? 0.4572 + (10.67 - G - x) / 25 : 0.1524;
}
