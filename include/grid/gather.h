/* SPDX-License-Identifier: BSD-3-Clause */
/* gather.h: a coarse multigrid level gathered onto every rank (hcl_decomp_create_replicated). Below a level split over
 * the ranks, each rank computes the coarse points of its own block of the finer level (a restriction, a Galerkin
 * product), and one MPI_Allgatherv assembles the whole level on every rank, which then runs the levels below alone:
 * one message a visit where the split levels would exchange several (hcl_par_allgatherv, counted by hcl_par_exchanges).
 *
 * The coarse points of a fine block follow decomp.h's rules: a halved direction keeps fine point 2 I (even: the
 * Laplace solver's vertex grids) or 2 I + 1 (odd: the 5-point multigrid's interior points) as coarse point I. Every
 * call is collective over the split level's ranks. */
#ifndef HYDROCL_GATHER_H
#define HYDROCL_GATHER_H

#include <stdbool.h>
#include <stddef.h>

#include "decomp.h"
#include "field.h"
#include "status.h"

typedef struct Gather Gather;

/* The assembly of the nx x ny coarse level below the split decomposition fine (halve_x, halve_y: the directions
 * halved; odd: the rule) for up to bytes_most bytes a gather (planes x points x value bytes). */
HclStatus hcl_gather_create(const Decomp *fine, bool halve_x, bool halve_y, bool odd, int nx, int ny, size_t bytes_most,
                            Gather **out);
void hcl_gather_destroy(Gather **gather);

/* This rank's block of the coarse level: global x0, y0, nx, ny. */
void hcl_gather_block(const Gather *g, int block[4]);

/* Host values: this rank's block (x fastest, planes apart) into hcl_gather_mine, then hcl_gather_assemble puts every rank's
 * into hcl_gather_image, the whole level (nx x ny a plane, planes apart). */
void *hcl_gather_mine(Gather *g);
const void *hcl_gather_image(const Gather *g);
HclStatus hcl_gather_assemble(Gather *g, int planes, size_t value_bytes);

/* Device values: the owned points of fields, on the coarse level's replicated decomposition, from every rank's
 * blocks of them (every plane of each, all in one gather; the values outside this rank's block are overwritten).
 * Blocks until done. */
HclStatus hcl_gather_fields(Gather *g, Field *const *fields, int count);

#endif
