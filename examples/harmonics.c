/* SPDX-License-Identifier: BSD-3-Clause */
/* harmonics.c: lists the OpenCL devices and fits the harmonics of a sampled wave through the installed library.
 *   cc harmonics.c $(pkg-config --cflags --libs hydrocl) -lm */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <hydrocl/device.h>
#include <hydrocl/harmonics.h>

int main(void) {
  DeviceInfo *devices = NULL;
  int count = 0;
  if (hcl_device_list(&devices, &count) != HCL_OK) {
    fprintf(stderr, "%s\n", hcl_status_message());
    return 1;
  }
  for (int i = 0; i < count; i++) {
    printf("device %d: %s\n", i, devices[i].device_name);
  }
  free(devices);
  double t[400], y[400], omega = 2 * 3.14159265358979 / 2.0; /* a 2 s wave, sampled every 0.05 s */
  for (int k = 0; k < 400; k++) {
    t[k] = 0.05 * k;
    y[k] = 0.03 * cos(omega * t[k] - 0.5) + 0.004 * cos(2 * omega * t[k] - 1.0);
  }
  Harmonics fit;
  if (hcl_harmonics_fit(t, y, 400, omega, 2, &fit) != HCL_OK) {
    fprintf(stderr, "%s\n", hcl_status_message());
    return 1;
  }
  printf("A1 = %.6f m at %.4f rad, A2 = %.6f m at %.4f rad\n", fit.amplitude[1], fit.phase[1], fit.amplitude[2],
         fit.phase[2]);
  return 0;
}
