/* SPDX-License-Identifier: BSD-3-Clause */
/* par.h: the process layer. With MPI, one rank per device; without it (or without mpirun), one rank.
 * Functions marked "collective" must be called by every rank of the world communicator. */
#ifndef HYDROCL_PAR_H
#define HYDROCL_PAR_H

#include "status.h"

#include <stdbool.h>

/* A communicator over the world's ranks, in the world's order: a decomposition's process grid (decomp.h). */
typedef struct ParComm ParComm;

#ifdef HYDROCL_HAVE_MPI
#include <mpi.h>

/* Calls an MPI function; on failure records its error string and jumps to cleanup. */
#define TRY_MPI(call)                                                                                                  \
  do {                                                                                                                 \
    int mpi_err_ = (call);                                                                                             \
    if (mpi_err_ != MPI_SUCCESS) {                                                                                     \
      FAIL(HCL_EMPI, "%s failed: %s", #call, hcl_par_mpi_error_string(mpi_err_));                                      \
    }                                                                                                                  \
  } while (0)

const char *hcl_par_mpi_error_string(int mpi_error); /* borrowed, valid until the next call */
MPI_Comm hcl_par_comm_world(void);
MPI_Comm hcl_par_comm_mpi(const ParComm *comm); /* the MPI communicator under comm (tests that probe messages) */
#endif

/* Starts MPI when compiled in (a lone process needs no mpirun) and finds the node-local rank through
 * MPI_COMM_TYPE_SHARED. Collective. */
HclStatus hcl_par_init(int *argc, char ***argv);
void hcl_par_finalize(void);

bool hcl_par_have_mpi(void);
int hcl_par_rank(void);
int hcl_par_size(void);
int hcl_par_node_rank(void); /* rank among the processes on this host */
int hcl_par_node_size(void); /* processes on this host */
const char *hcl_par_hostname(void);

/* Every rank learns the first failure (lowest failing rank) and returns its status; HCL_OK when all succeeded. The
 * other ranks record "rank R failed: <its message>". Call it after every check that can fail on some ranks only
 * (device, memory, this rank's block) and before the next collective, so no rank waits for one that gave up.
 * Collective. */
HclStatus hcl_par_agree(HclStatus local);

/* The largest *value over the ranks, on every rank. Collective. */
HclStatus hcl_par_max_double(double *value);

/* The sum of *value over the ranks, on every rank (order fixed by MPI for a given run). Collective. */
HclStatus hcl_par_sum_double(double *value);

/* The element-wise sums of values[0..count) over the ranks, on every rank. Collective. */
HclStatus hcl_par_sum_doubles(double *values, int count);

/* Rank 0's *value on every rank. Collective. */
HclStatus hcl_par_broadcast_int(int *value);
/* A copy of rank 0's text (NUL-terminated; NULL on rank 0 is taken for "") on every rank, in *copy, which the caller
 * frees. Collective. */
HclStatus hcl_par_broadcast_text(const char *text, char **copy);

/* The largest *value over the ranks, on every rank. Collective. */
HclStatus hcl_par_max_int(int *value);
HclStatus hcl_par_barrier(void);

/* The Cartesian grid of px x py ranks (rank = cy px + cx), periodic as given; this rank's coordinates. Collective. */
HclStatus hcl_par_comm_create_grid(int px, int py, bool periodic_x, bool periodic_y, ParComm **out, int *cx, int *cy);
HclStatus hcl_par_comm_dup(const ParComm *comm, ParComm **out); /* Collective. */
void hcl_par_comm_destroy(ParComm **comm);

/* Collectives over comm (collective over its ranks; byte counts and displacements per rank as MPI's): every rank's
 * bytes to every rank in rank order; of differing sizes; doubles to rank 0; sums of doubles on rank 0. */
HclStatus hcl_par_allgather(const ParComm *comm, const void *mine, int bytes, void *all);
HclStatus hcl_par_allgatherv(const ParComm *comm, const void *mine, int bytes, void *all, const int *counts,
                             const int *displs);
HclStatus hcl_par_gatherv_doubles(const ParComm *comm, const double *mine, int count, double *all, const int *counts,
                                  const int *displs);
HclStatus hcl_par_reduce_sum_doubles(const ParComm *comm, const double *values, double *sums, int count);
/* The allgathers this process has started (hcl_par_allgather, hcl_par_iallgather): every reduction of reduce.h is one, so
 * benchmarks report a solver's reductions between ranks per iteration from it. */
long hcl_par_gathers(void);
/* The rounds of messages this process has begun to exchange a grid's values: every halo exchange with another rank
 * (halo.h, which counts it with hcl_par_count_exchange) and every hcl_par_allgatherv (a level gathered onto every rank), so
 * benchmarks report a solver's exchanges per iteration from it. */
long hcl_par_exchanges(void);
void hcl_par_count_exchange(void);

/* Messages of bytes between two ranks of comm, and hcl_par_allgather, without blocking: a request is created once and
 * used for one operation at a time; hcl_par_wait completes it (nothing when none is in flight), hcl_par_cancel abandons a
 * message (a gather, which MPI cannot cancel, it completes), destroy cancels one in flight. The gather is collective:
 * every rank starts it in the same order among the collectives of comm. */
typedef struct ParRequest ParRequest;
HclStatus hcl_par_request_create(ParRequest **out);
void hcl_par_request_destroy(ParRequest **req);
HclStatus hcl_par_isend(const ParComm *comm, const void *buf, int bytes, int rank, int tag, ParRequest *req);
HclStatus hcl_par_irecv(const ParComm *comm, void *buf, int bytes, int rank, int tag, ParRequest *req);
HclStatus hcl_par_iallgather(const ParComm *comm, const void *mine, int bytes, void *all, ParRequest *req);
HclStatus hcl_par_wait(ParRequest *req);
void hcl_par_cancel(ParRequest *req);

/* Gathers one NUL-terminated line of at most width-1 characters from every rank onto rank 0: *all_out holds
 * hcl_par_size() rows of width bytes there (caller frees), NULL elsewhere. Collective. */
HclStatus hcl_par_gather_lines(const char *mine, int width, char **all_out);

#endif
