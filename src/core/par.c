/* SPDX-License-Identifier: BSD-3-Clause */
/* par.c: MPI start-up, node-local ranks, agreement on failures, and gathering lines for rank 0's reports. */
#include "par.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int world_rank = 0;
static int world_size = 1;
static int node_rank = 0;
static int node_size = 1;
static char hostname[256] = "localhost";

#ifdef HYDROCL_HAVE_MPI
static bool mpi_started_here = false;

const char *hcl_par_mpi_error_string(int mpi_error) {
  static char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(mpi_error, text, &length) != MPI_SUCCESS) {
    snprintf(text, sizeof text, "MPI error %d", mpi_error);
  }
  return text;
}

MPI_Comm hcl_par_comm_world(void) {
  return MPI_COMM_WORLD;
}
#endif

HclStatus hcl_par_init(int *argc, char ***argv) {
  HclStatus status = HCL_OK;
  if (gethostname(hostname, sizeof hostname - 1) != 0) {
    snprintf(hostname, sizeof hostname, "localhost");
  }
#ifdef HYDROCL_HAVE_MPI
  MPI_Comm node_comm = MPI_COMM_NULL;
  int initialized = 0;
  TRY_MPI(MPI_Initialized(&initialized));
  if (!initialized) {
    /* Started without mpirun, Open MPI 4 forks a daemon (orted) for the one process, in case it spawns others;
     * hydrocl never does, and the daemon cost every such command a few tenths of a second. Under a launcher the
     * setting does nothing; one set by the user is kept. */
    setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
    TRY_MPI(MPI_Init(argc, argv));
    mpi_started_here = true;
  }
  /* Failures come back as codes, never as aborts, so every rank can report and agree. */
  TRY_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  TRY_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &world_rank));
  TRY_MPI(MPI_Comm_size(MPI_COMM_WORLD, &world_size));
  TRY_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_rank, MPI_INFO_NULL, &node_comm));
  TRY_MPI(MPI_Comm_rank(node_comm, &node_rank));
  TRY_MPI(MPI_Comm_size(node_comm, &node_size));
cleanup:
  if (node_comm != MPI_COMM_NULL) {
    MPI_Comm_free(&node_comm);
  }
#else
  (void)argc;
  (void)argv;
#endif
  return status;
}

void hcl_par_finalize(void) {
#ifdef HYDROCL_HAVE_MPI
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (mpi_started_here && !finalized) {
    MPI_Finalize();
  }
#endif
}

bool hcl_par_have_mpi(void) {
#ifdef HYDROCL_HAVE_MPI
  return true;
#else
  return false;
#endif
}

int hcl_par_rank(void) {
  return world_rank;
}

int hcl_par_size(void) {
  return world_size;
}

int hcl_par_node_rank(void) {
  return node_rank;
}

int hcl_par_node_size(void) {
  return node_size;
}

const char *hcl_par_hostname(void) {
  return hostname;
}

#ifdef HYDROCL_HAVE_MPI
/* What the first failing rank tells the others: its status and its message (a long build log is cut). */
typedef struct {
  int code;
  char message[4096];
} Failure;
#endif

HclStatus hcl_par_agree(HclStatus local) {
#ifdef HYDROCL_HAVE_MPI
  if (world_size == 1) {
    return local;
  }
  int my_failing_rank = local == HCL_OK ? world_size : world_rank;
  int first_failing_rank = world_size;
  Failure failure = {.code = (int)local};
  if (MPI_Allreduce(&my_failing_rank, &first_failing_rank, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS) {
    return hcl_status_set(HCL_EMPI, __FILE__, __LINE__, "ranks could not agree on the outcome (MPI_Allreduce)");
  }
  if (first_failing_rank == world_size) {
    return HCL_OK;
  }
  if (world_rank == first_failing_rank) {
    snprintf(failure.message, sizeof failure.message, "%s", hcl_status_message());
  }
  if (MPI_Bcast(&failure, sizeof failure, MPI_BYTE, first_failing_rank, MPI_COMM_WORLD) != MPI_SUCCESS) {
    return hcl_status_set(HCL_EMPI, __FILE__, __LINE__, "ranks could not agree on the outcome (MPI_Bcast)");
  }
  if (local == HCL_OK) {
    hcl_status_set((HclStatus)failure.code, __FILE__, __LINE__, "rank %d failed: %s", first_failing_rank,
                   failure.message[0] ? failure.message : hcl_status_summary((HclStatus)failure.code));
  }
  return (HclStatus)failure.code;
#else
  return local;
#endif
}

HclStatus hcl_par_max_double(double *value) {
#ifdef HYDROCL_HAVE_MPI
  double mine = *value;
  if (world_size > 1 && MPI_Allreduce(&mine, value, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS) {
    return hcl_status_set(HCL_EMPI, __FILE__, __LINE__, "MPI_Allreduce of a maximum failed");
  }
#else
  (void)value;
#endif
  return HCL_OK;
}

HclStatus hcl_par_sum_double(double *value) {
#ifdef HYDROCL_HAVE_MPI
  double mine = *value;
  if (world_size > 1 && MPI_Allreduce(&mine, value, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS) {
    return hcl_status_set(HCL_EMPI, __FILE__, __LINE__, "MPI_Allreduce of a sum failed");
  }
#else
  (void)value;
#endif
  return HCL_OK;
}

HclStatus hcl_par_sum_doubles(double *values, int count) {
#ifdef HYDROCL_HAVE_MPI
  if (world_size > 1 &&
      MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS) {
    return hcl_status_set(HCL_EMPI, __FILE__, __LINE__, "MPI_Allreduce of %d sums failed", count);
  }
#else
  (void)values;
  (void)count;
#endif
  return HCL_OK;
}

HclStatus hcl_par_broadcast_int(int *value) {
#ifdef HYDROCL_HAVE_MPI
  if (world_size > 1 && MPI_Bcast(value, 1, MPI_INT, 0, MPI_COMM_WORLD) != MPI_SUCCESS) {
    return hcl_status_set(HCL_EMPI, __FILE__, __LINE__, "MPI_Bcast of an int from rank 0 failed");
  }
#else
  (void)value;
#endif
  return HCL_OK;
}

HclStatus hcl_par_broadcast_text(const char *text, char **copy) {
  HclStatus status = HCL_OK;
  int length = hcl_par_rank() == 0 && text ? (int)strlen(text) : 0;
  *copy = NULL;
  TRY(hcl_par_broadcast_int(&length));
  *copy = malloc((size_t)length + 1);
  TRY(hcl_par_agree(*copy ? HCL_OK
                          : hcl_status_set(HCL_ENOMEM, __FILE__, __LINE__, "cannot hold %d bytes of text", length)));
  if (hcl_par_rank() == 0 && length > 0) {
    memcpy(*copy, text, (size_t)length);
  }
  (*copy)[length] = '\0';
#ifdef HYDROCL_HAVE_MPI
  if (world_size > 1 && length > 0) {
    TRY_MPI(MPI_Bcast(*copy, length, MPI_CHAR, 0, MPI_COMM_WORLD));
  }
#endif
cleanup:
  return status;
}

/* The row of this rank and, on rank 0, the rows of all. */
static HclStatus allocate_lines(int width, char **row, char **all) {
  HclStatus status = HCL_OK;
  TRY_ALLOC(*row, width);
  if (world_rank == 0) {
    TRY_ALLOC(*all, (size_t)width * (size_t)world_size);
  }
cleanup:
  return status;
}

HclStatus hcl_par_gather_lines(const char *mine, int width, char **all_out) {
  HclStatus status = HCL_OK;
  char *row = NULL;
  char *all = NULL;
  *all_out = NULL;
  /* A rank that cannot allocate must not leave the others waiting in the gather. */
  TRY(hcl_par_agree(allocate_lines(width, &row, &all)));
  snprintf(row, (size_t)width, "%s", mine);
#ifdef HYDROCL_HAVE_MPI
  TRY_MPI(MPI_Gather(row, width, MPI_CHAR, all, width, MPI_CHAR, 0, MPI_COMM_WORLD));
#else
  memcpy(all, row, (size_t)width);
#endif
  *all_out = all;
  all = NULL;
cleanup:
  free(row);
  free(all);
  return status;
}

/* ---- communicators and messages: the only MPI calls outside start-up ---- */

struct ParComm {
#ifdef HYDROCL_HAVE_MPI
  MPI_Comm comm;
#else
  int unused;
#endif
};

struct ParRequest {
#ifdef HYDROCL_HAVE_MPI
  MPI_Request request;
  bool collective; /* MPI cannot cancel a collective: it is waited for */
#else
  int unused;
#endif
};

static HclStatus comm_alloc(ParComm **out) {
  HclStatus status = HCL_OK;
  TRY_ALLOC(*out, 1);
#ifdef HYDROCL_HAVE_MPI
  (*out)->comm = MPI_COMM_NULL;
#endif
cleanup:
  return status;
}

HclStatus hcl_par_comm_create_grid(int px, int py, bool periodic_x, bool periodic_y, ParComm **out, int *cx, int *cy) {
  HclStatus status = HCL_OK;
  ParComm *c = NULL;
  *out = NULL;
  *cx = *cy = 0;
  TRY(comm_alloc(&c));
#ifdef HYDROCL_HAVE_MPI
  int dims[2] = {py, px}; /* MPI order: slowest (y) first */
  int periods[2] = {periodic_y, periodic_x};
  int coords[2];
  /* No reordering: rank r is the same process in the world and here, so device and log tables agree. */
  TRY_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c->comm));
  TRY_MPI(MPI_Cart_coords(c->comm, world_rank, 2, coords));
  *cy = coords[0];
  *cx = coords[1];
#else
  (void)px;
  (void)py;
  (void)periodic_x;
  (void)periodic_y;
#endif
  *out = c;
  c = NULL;
cleanup:
  hcl_par_comm_destroy(&c);
  return status;
}

HclStatus hcl_par_comm_dup(const ParComm *comm, ParComm **out) {
  HclStatus status = HCL_OK;
  ParComm *c = NULL;
  *out = NULL;
  TRY(comm_alloc(&c));
#ifdef HYDROCL_HAVE_MPI
  TRY_MPI(MPI_Comm_dup(comm->comm, &c->comm));
#else
  (void)comm;
#endif
  *out = c;
  c = NULL;
cleanup:
  hcl_par_comm_destroy(&c);
  return status;
}

void hcl_par_comm_destroy(ParComm **comm) {
  if (!comm || !*comm) {
    return;
  }
#ifdef HYDROCL_HAVE_MPI
  if ((*comm)->comm != MPI_COMM_NULL) {
    MPI_Comm_free(&(*comm)->comm);
  }
#endif
  free(*comm);
  *comm = NULL;
}

/* The gathers so far (hcl_par_gathers). */
static long gathers = 0;

long hcl_par_gathers(void) {
  return gathers;
}

HclStatus hcl_par_allgather(const ParComm *comm, const void *mine, int bytes, void *all) {
  HclStatus status = HCL_OK;
  gathers++;
#ifdef HYDROCL_HAVE_MPI
  TRY_MPI(MPI_Allgather(mine, bytes, MPI_BYTE, all, bytes, MPI_BYTE, comm->comm));
#else
  (void)comm;
  memcpy(all, mine, (size_t)bytes);
  goto cleanup;
#endif
cleanup:
  return status;
}

/* The exchanges so far (hcl_par_exchanges). */
static long exchanges = 0;

long hcl_par_exchanges(void) {
  return exchanges;
}

void hcl_par_count_exchange(void) {
  exchanges++;
}

HclStatus hcl_par_allgatherv(const ParComm *comm, const void *mine, int bytes, void *all, const int *counts,
                             const int *displs) {
  HclStatus status = HCL_OK;
  exchanges++;
#ifdef HYDROCL_HAVE_MPI
  TRY_MPI(MPI_Allgatherv(mine, bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, comm->comm));
#else
  (void)comm;
  (void)counts;
  memcpy((char *)all + displs[0], mine, (size_t)bytes);
  goto cleanup;
#endif
cleanup:
  return status;
}

HclStatus hcl_par_gatherv_doubles(const ParComm *comm, const double *mine, int count, double *all, const int *counts,
                                  const int *displs) {
  HclStatus status = HCL_OK;
#ifdef HYDROCL_HAVE_MPI
  TRY_MPI(MPI_Gatherv(mine, count, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0, comm->comm));
#else
  (void)comm;
  (void)counts;
  memcpy(all + displs[0], mine, sizeof *mine * (size_t)count);
  goto cleanup;
#endif
cleanup:
  return status;
}

HclStatus hcl_par_reduce_sum_doubles(const ParComm *comm, const double *values, double *sums, int count) {
  HclStatus status = HCL_OK;
#ifdef HYDROCL_HAVE_MPI
  TRY_MPI(MPI_Reduce(values, sums, count, MPI_DOUBLE, MPI_SUM, 0, comm->comm));
#else
  (void)comm;
  memcpy(sums, values, sizeof *values * (size_t)count);
  goto cleanup;
#endif
cleanup:
  return status;
}

HclStatus hcl_par_max_int(int *value) {
  HclStatus status = HCL_OK;
#ifdef HYDROCL_HAVE_MPI
  int mine = *value;
  if (world_size > 1) {
    TRY_MPI(MPI_Allreduce(&mine, value, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
  }
#else
  (void)value;
  goto cleanup;
#endif
cleanup:
  return status;
}

HclStatus hcl_par_barrier(void) {
  HclStatus status = HCL_OK;
#ifdef HYDROCL_HAVE_MPI
  TRY_MPI(MPI_Barrier(MPI_COMM_WORLD));
#else
  goto cleanup;
#endif
cleanup:
  return status;
}

HclStatus hcl_par_request_create(ParRequest **out) {
  HclStatus status = HCL_OK;
  TRY_ALLOC(*out, 1);
#ifdef HYDROCL_HAVE_MPI
  (*out)->request = MPI_REQUEST_NULL;
#endif
cleanup:
  return status;
}

void hcl_par_cancel(ParRequest *req) {
#ifdef HYDROCL_HAVE_MPI
  if (req && req->request != MPI_REQUEST_NULL) {
    if (!req->collective) {
      MPI_Cancel(&req->request);
    }
    MPI_Wait(&req->request, MPI_STATUS_IGNORE);
  }
#else
  (void)req;
#endif
}

void hcl_par_request_destroy(ParRequest **req) {
  if (!req || !*req) {
    return;
  }
  hcl_par_cancel(*req);
  free(*req);
  *req = NULL;
}

/* Without MPI there is one rank and no other to exchange messages with: a message is an internal error. */
#ifndef HYDROCL_HAVE_MPI
static HclStatus no_messages(void) {
  return hcl_status_set(HCL_EINTERNAL, __FILE__, __LINE__,
                        "a message between ranks in a build without MPI (please report)");
}
#endif

HclStatus hcl_par_isend(const ParComm *comm, const void *buf, int bytes, int rank, int tag, ParRequest *req) {
#ifdef HYDROCL_HAVE_MPI
  HclStatus status = HCL_OK;
  req->collective = false;
  TRY_MPI(MPI_Isend(buf, bytes, MPI_BYTE, rank, tag, comm->comm, &req->request));
cleanup:
  return status;
#else
  (void)comm, (void)buf, (void)bytes, (void)rank, (void)tag, (void)req;
  return no_messages();
#endif
}

HclStatus hcl_par_irecv(const ParComm *comm, void *buf, int bytes, int rank, int tag, ParRequest *req) {
#ifdef HYDROCL_HAVE_MPI
  HclStatus status = HCL_OK;
  req->collective = false;
  TRY_MPI(MPI_Irecv(buf, bytes, MPI_BYTE, rank, tag, comm->comm, &req->request));
cleanup:
  return status;
#else
  (void)comm, (void)buf, (void)bytes, (void)rank, (void)tag, (void)req;
  return no_messages();
#endif
}

HclStatus hcl_par_iallgather(const ParComm *comm, const void *mine, int bytes, void *all, ParRequest *req) {
  HclStatus status = HCL_OK;
  gathers++;
#ifdef HYDROCL_HAVE_MPI
  req->collective = true;
  TRY_MPI(MPI_Iallgather(mine, bytes, MPI_BYTE, all, bytes, MPI_BYTE, comm->comm, &req->request));
#else
  (void)comm, (void)req;
  memcpy(all, mine, (size_t)bytes);
  goto cleanup;
#endif
cleanup:
  return status;
}

HclStatus hcl_par_wait(ParRequest *req) {
  HclStatus status = HCL_OK;
#ifdef HYDROCL_HAVE_MPI
  if (req->request != MPI_REQUEST_NULL) {
    TRY_MPI(MPI_Wait(&req->request, MPI_STATUS_IGNORE));
  }
#else
  (void)req;
  goto cleanup;
#endif
cleanup:
  return status;
}

#ifdef HYDROCL_HAVE_MPI
MPI_Comm hcl_par_comm_mpi(const ParComm *comm) {
  return comm->comm;
}
#endif
