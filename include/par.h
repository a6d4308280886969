/* par.h: the process layer. With MPI, one rank per device; without it (or without mpirun), one rank.
 * Functions marked "collective" must be called by every rank of the world communicator. */
#ifndef HYDROCL_PAR_H
#define HYDROCL_PAR_H

#include "status.h"

#include <stdbool.h>

#ifdef HYDROCL_HAVE_MPI
#include <mpi.h>

/* Calls an MPI function; on failure records its error string and jumps to cleanup. */
#define TRY_MPI(call)                                                                                        \
  do {                                                                                                       \
    int mpi_err_ = (call);                                                                                   \
    if (mpi_err_ != MPI_SUCCESS) {                                                                           \
      FAIL(HCL_EMPI, "%s failed: %s", #call, par_mpi_error_string(mpi_err_));                             \
    }                                                                                                        \
  } while (0)

const char *par_mpi_error_string(int mpi_error); /* borrowed, valid until the next call */
MPI_Comm par_comm_world(void);
#endif

/* Starts MPI when compiled in (a lone process needs no mpirun) and finds the node-local rank through
 * MPI_COMM_TYPE_SHARED. Collective. */
HclStatus par_init(int *argc, char ***argv);
void par_finalize(void);

bool par_have_mpi(void);
int par_rank(void);
int par_size(void);
int par_node_rank(void); /* rank among the processes on this host */
int par_node_size(void); /* processes on this host */
const char *par_hostname(void);

/* Every rank learns the first failure (lowest failing rank) and returns its status; HCL_OK when all succeeded. The
 * other ranks record "rank R failed: <its message>". Call it after every check that can fail on some ranks only
 * (device, memory, this rank's block) and before the next collective, so no rank waits for one that gave up.
 * Collective. */
HclStatus par_agree(HclStatus local);

/* The largest *value over the ranks, on every rank. Collective. */
HclStatus par_max_double(double *value);

/* The sum of *value over the ranks, on every rank (order fixed by MPI for a given run). Collective. */
HclStatus par_sum_double(double *value);

/* The element-wise sums of values[0..count) over the ranks, on every rank. Collective. */
HclStatus par_sum_doubles(double *values, int count);

/* Rank 0's *value on every rank. Collective. */
HclStatus par_broadcast_int(int *value);

/* Gathers one NUL-terminated line of at most width-1 characters from every rank onto rank 0: *all_out holds
 * par_size() rows of width bytes there (caller frees), NULL elsewhere. Collective. */
HclStatus par_gather_lines(const char *mine, int width, char **all_out);

#endif
