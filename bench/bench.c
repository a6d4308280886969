/* SPDX-License-Identifier: BSD-3-Clause */
/* bench.c: the benchmark registry and the fields common to every benchmark's JSON lines. */
#include "bench.h"

#include <string.h>
#include <time.h>

#include "log.h"
#include "par.h"

static const BenchEntry benchmarks[] = {
    {"bandwidth", "copy and triad rates for several sizes in float and double (the yardstick of all others)",
     "elements per array", bench_bandwidth},
    {"launch", "the host's and the device's time per kernel launch and per read-back, and RRB-CG's iteration's floor",
     "REALs the launched kernel adds 1 to, 1 to 2^26 (default 65536)", bench_launch},
    {"output", "one frame of the shallow-water map file, gathered to rank 0 and written by every rank in parallel",
     "cells per side, 3 to 65536 (default 4096)", bench_output},
    {"halo", "one ghost-layer exchange of a size x size x 9 field, ghost width 3, over the run's ranks",
     "points per side, 3 to 65536 (default 1025)", bench_halo},
    {"swe", "the thesis' Table 9.1: 1000 explicit shallow-water steps of test case 1 per grid size",
     "cells per side, 3 to 65536 (default: 100 to 12292 as memory allows; 100 and 1000 on CPUs)", bench_swe},
    {"swe-implicit",
     "the thesis' Tables 10.1-10.3, 10.6: implicit steps of test case 1: time, iterations, RRB setup, parity",
     "cells per side, 3 to 65536 (default: 96 to 3072 as memory allows, 1536 and 3072 for parity; 96 to 384 on CPUs)",
     bench_swe_implicit},
    {"rrb", "the RRB solver on the paper's model problem: its Tables 2 and 3, the setup and the time to solution",
     "interior points per side, 3 to 65536 (default 1024, 2048, 4096; 1024 and 2048 on CPUs)", bench_rrb},
    {"poisson-peers",
     "the Poisson problem to ||r||_2 <= 1e-5 ||b||_2 by RRB-CG, multigrid-CG (double and mixed) and hypre's PFMG- and "
     "SMG-PCG, with the true residual and the error",
     "interior points per side, 3 to 65536 (default 1024, 2048 and 4096)", bench_poisson_peers},
    {"laplace", "the potential-flow Laplace solver: its iteration's breakdown, the K sweep and iterations per aspect",
     "horizontal points per side of an N x N x 9 basin (default 129 to 2049; 129 and 257 on CPUs)", bench_laplace},
    {"wave", "the wave model's time step: solve, rates, relaxation, output, iterations, real-time ratio, bandwidth",
     "horizontal points per side of an N x N x 9 tank (default 129 to 1025; 129 and 257 on CPUs)", bench_wave},
    {"scaling",
     "weak and strong scaling over the run's ranks (one per GPU): a defect-correction iteration, a wave step, a "
     "shallow-water step, an RRB-CG solve",
     "points or cells per side: per rank for weak scaling, in all for strong (default: the issue's sizes on GPUs, "
     "129 to 2048 on CPUs)",
     bench_scaling},
    {"vbm",
     "the variational Boussinesq model's frame with a moving ship: time, frames per second, CG iterations, parts",
     "cells per side of the basin, more than 44 (default 1024, 2048, 4096; 256 and 512 on CPUs)", bench_vbm},
    {"wave-table4", "the paper's Table 4: iterations per Laplace solve of the evolving Gaussian hump, per K and aspect",
     "horizontal points per side of the N x N x 9 basin, at least 129 (default 257)", bench_wave_table4},
};

const BenchEntry *bench_find(const char *name) {
  for (size_t i = 0; i < sizeof benchmarks / sizeof benchmarks[0]; i++) {
    if (strcmp(benchmarks[i].name, name) == 0) {
      return &benchmarks[i];
    }
  }
  return NULL;
}

void bench_print_list(FILE *out) {
  for (size_t i = 0; i < sizeof benchmarks / sizeof benchmarks[0]; i++) {
    fprintf(out, "%-12s %s (--size: %s)\n", benchmarks[i].name, benchmarks[i].summary, benchmarks[i].size_meaning);
  }
}

void bench_json_begin(JsonObject *j, const BenchRequest *request, const char *bench, const char *name,
                      Precision precision) {
  const DeviceInfo *dev = hcl_runtime_device(request->rt);
  char device_id[32], date[32];
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  snprintf(device_id, sizeof device_id, "%d:%d", dev->platform_index, dev->device_index);
  hcl_json_begin(j);
  hcl_json_string(j, "bench", bench);
  hcl_json_string(j, "name", name);
  hcl_json_integer(j, "rank", hcl_par_rank());
  hcl_json_string(j, "device", dev->device_name);
  hcl_json_string(j, "device_id", device_id);
  hcl_json_string(j, "vendor", hcl_device_vendor_name(dev->vendor));
  hcl_json_string(j, "driver", dev->driver_version);
  hcl_json_string(j, "precision", hcl_precision_name(precision));
  hcl_json_string(j, "date", date);
}

HclStatus bench_each_precision(const BenchRequest *request, const char *bench, BenchPrecisionRun run) {
  HclStatus status = HCL_OK;
  const DeviceInfo *dev = hcl_runtime_device(request->rt);
  if (request->precision_given) {
    TRY(run(request, request->precision));
    goto cleanup;
  }
  TRY(run(request, PRECISION_SINGLE));
  if (dev->fp64) {
    TRY(run(request, PRECISION_DOUBLE));
  } else {
    hcl_log_info("%s: '%s' has no fp64; double skipped", bench, dev->device_name);
  }
cleanup:
  return status;
}

HclStatus bench_side(const BenchRequest *request, const char *bench, int *side) {
  HclStatus status = HCL_OK;
  REQUIRE(request->size >= BENCH_MIN_SIDE && request->size <= BENCH_MAX_SIDE, HCL_EUSAGE,
          "bench %s --size %zu: the side of the grid must be %d to %d points", bench, request->size, BENCH_MIN_SIDE,
          BENCH_MAX_SIDE);
  *side = (int)request->size;
cleanup:
  return status;
}

RuntimeCounts bench_counts_since(const Runtime *rt, RuntimeCounts before) {
  RuntimeCounts now = hcl_runtime_counts(rt);
  return (RuntimeCounts){.launches = now.launches - before.launches, .waits = now.waits - before.waits};
}

void bench_json_counts(JsonObject *j, const char *per, RuntimeCounts used, double units) {
  char key[64];
  snprintf(key, sizeof key, "launches_per_%s", per);
  hcl_json_number(j, key, (double)used.launches / units);
  snprintf(key, sizeof key, "waits_per_%s", per);
  hcl_json_number(j, key, (double)used.waits / units);
}
