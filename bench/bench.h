/* SPDX-License-Identifier: BSD-3-Clause */
/* bench.h: the benchmarks users run as `hydrocl bench NAME`. Each prints one JSON object per result on stdout
 * and reports its effective bandwidth as a fraction of the copy rate measured on the same device in the same
 * run (bench_copy_rate), so ratios hold on noisy shared machines. Sources and README in bench/. */
#ifndef HYDROCL_BENCH_H
#define HYDROCL_BENCH_H

#include "json.h"
#include "precision.h"
#include "runtime.h"
#include "status.h"
#include "swe.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
  Runtime *rt;          /* borrowed */
  bool precision_given; /* false: the benchmark picks (usually both float and double) */
  Precision precision;
  size_t size; /* the benchmark's size parameter from --size, 0 for its default sweep */
  FILE *out;   /* JSON lines go here */
} BenchRequest;

typedef struct {
  const char *name;
  const char *summary;
  const char *size_meaning; /* what --size means for it */
  HclStatus (*run)(const BenchRequest *request);
} BenchEntry;

const BenchEntry *bench_find(const char *name); /* NULL when unknown */
void bench_print_list(FILE *out);

/* Starts a result line with the fields every benchmark prints: bench, name, rank, device, device_id, vendor,
 * driver, precision, date. */
void bench_json_begin(JsonObject *j, const BenchRequest *request, const char *bench, const char *name,
                      Precision precision);

/* The launches and waits (hcl_runtime_counts) from before to after, per unit of work (units of it, e.g. 12 iterations):
 * "launches_per_PER" and "waits_per_PER", PER naming the unit ("iteration", "step"). What the launch floor of a
 * solver is made of, next to its time (issue 30). */
RuntimeCounts bench_counts_since(const Runtime *rt, RuntimeCounts before);
void bench_json_counts(JsonObject *j, const char *per, RuntimeCounts used, double units);

/* Sides of the square grids of the halo and swe benchmarks. Beyond 65536 the fields need more memory than any
 * device has (16 GiB a float plane) and point counts leave int. */
enum { BENCH_MIN_SIDE = 3, BENCH_MAX_SIDE = 65536 };

/* The side --size asks of benchmark bench; HCL_EUSAGE naming the size and the range unless it is within
 * [BENCH_MIN_SIDE, BENCH_MAX_SIDE]. */
HclStatus bench_side(const BenchRequest *request, const char *bench, int *side);

/* Runs run for the precision asked, or else for float and then double where the device has fp64 (the log says
 * when double is skipped): every benchmark's precision sweep. */
typedef HclStatus (*BenchPrecisionRun)(const BenchRequest *request, Precision precision);
HclStatus bench_each_precision(const BenchRequest *request, const char *bench, BenchPrecisionRun run);

/* The copy benchmark's best rate (GB/s, read + write) on a large array in precision: the denominator of every
 * benchmark's "fraction_of_copy". */
HclStatus bench_copy_rate(Runtime *rt, Precision precision, double *gbs);

/* The benchmarks (bench/NAME.c). */
HclStatus bench_bandwidth(const BenchRequest *request);
HclStatus bench_launch(const BenchRequest *request);
HclStatus bench_poisson_peers(const BenchRequest *request);
HclStatus bench_halo(const BenchRequest *request);
HclStatus bench_swe(const BenchRequest *request);
/* The thesis' test case 1 (section 8.2) as the state of swe on its decomposition, cells of dx: a 200 m basin 1 m
 * deep, a Gaussian island 3 cm above the water, a Gaussian drop of 10 cm (bench/swe.c). */
HclStatus bench_swe_case1(Swe *swe, const Decomp *decomp, double dx);
/* Its physics (momentum advection, Chezy 60, dry depth 1 mm, g 9.81) on cells of dx, the explicit scheme. */
SweConfig bench_swe_case1_config(double dx, Precision precision, SweOrdering ordering);
HclStatus bench_swe_implicit(const BenchRequest *request);
HclStatus bench_rrb(const BenchRequest *request);
HclStatus bench_laplace(const BenchRequest *request);
HclStatus bench_wave(const BenchRequest *request);
HclStatus bench_wave_table4(const BenchRequest *request);
HclStatus bench_scaling(const BenchRequest *request);
HclStatus bench_output(const BenchRequest *request);
HclStatus bench_vbm(const BenchRequest *request);

#endif
