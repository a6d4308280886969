/* halo.c: ghost-layer exchange (see halo.h): direct messages to all eight neighbours, so corners need no second
 * pass; box copies on the device pack and unpack; pinned host buffers stage the messages. */
#include "halo.h"

#include <stdlib.h>
#include <string.h>

#include "clerror.h"
#include "par.h"
#include "program.h"

enum { NDIRECTIONS = 9 }; /* (dx, dy) in {-1, 0, 1}^2, the centre unused */

/* A box of a field or staging buffer, in 32-bit words (box_copy in kernels_cl/halo.cl). */
typedef struct {
  cl_ulong offset;
  cl_uint row_pitch;
  cl_ulong plane_pitch;
  cl_uint width, height, depth;
} Box;

typedef struct {
  int dx, dy;
  int rank;
  size_t bytes;
  cl_mem send_dev, recv_dev;       /* contiguous staging on the device */
  cl_mem send_pinned, recv_pinned; /* host-allocated (pinned) buffers, mapped for the whole life of the halo */
  void *send_host, *recv_host;
  cl_event recv_written; /* the last host-to-device copy of recv_host; must end before recv_host is reused */
#ifdef HYDROCL_HAVE_MPI
  MPI_Request send_request, recv_request;
#endif
} Neighbour;

struct Halo {
  Runtime *rt;
  const Decomp *decomp;
  Field **fields;
  int nfields;
  cl_program program;
  cl_kernel box_copy;
  Neighbour remote[NDIRECTIONS];
  int nremote;
  int self_dx[NDIRECTIONS], self_dy[NDIRECTIONS];
  int nself;
  bool in_flight;
};

static int direction_index(int dx, int dy) {
  return (dy + 1) * 3 + (dx + 1);
}

/* The start and extent along one axis of the owned strip sent towards d (ghost == false) or of the ghost strip
 * received from d (ghost == true), in ghosted coordinates: owned points are [g, g + n). */
static void strip(int n, int g, int d, bool ghost, int *start, int *extent) {
  *extent = d == 0 ? n : g;
  if (d == 0) {
    *start = g;
  } else if (d < 0) {
    *start = ghost ? 0 : g;
  } else {
    *start = ghost ? g + n : n;
  }
}

static Box field_box(const Field *f, int dx, int dy, bool ghost) {
  int x0, y0, w, h;
  cl_uint words = (cl_uint)(precision_bytes(field_precision(f)) / 4);
  strip(field_nx(f), field_ghost(f), dx, ghost, &x0, &w);
  strip(field_ny(f), field_ghost(f), dy, ghost, &y0, &h);
  Box b;
  b.row_pitch = (cl_uint)field_pitch(f) * words;
  b.plane_pitch = (cl_ulong)field_rows(f) * b.row_pitch;
  b.offset = (cl_ulong)y0 * b.row_pitch + (cl_ulong)x0 * words;
  b.width = (cl_uint)w * words;
  b.height = (cl_uint)h;
  b.depth = (cl_uint)field_nz(f);
  return b;
}

/* The same box laid out contiguously at offset words of a staging buffer. */
static Box staged(Box b, cl_ulong offset) {
  Box s = b;
  s.offset = offset;
  s.row_pitch = b.width;
  s.plane_pitch = (cl_ulong)b.width * b.height;
  return s;
}

static cl_ulong box_words(const Box *b) {
  return (cl_ulong)b->width * b->height * b->depth;
}

static HclStatus copy_box(Halo *h, cl_mem dst, Box d, cl_mem src, Box s) {
  HclStatus status = HCL_OK;
  cl_kernel k = h->box_copy;
  size_t global[3] = {d.width, d.height, d.depth};
  if (box_words(&d) == 0) {
    goto cleanup;
  }
  TRY_CL(clSetKernelArg(k, 0, sizeof dst, &dst));
  TRY_CL(clSetKernelArg(k, 1, sizeof d.offset, &d.offset));
  TRY_CL(clSetKernelArg(k, 2, sizeof d.row_pitch, &d.row_pitch));
  TRY_CL(clSetKernelArg(k, 3, sizeof d.plane_pitch, &d.plane_pitch));
  TRY_CL(clSetKernelArg(k, 4, sizeof src, &src));
  TRY_CL(clSetKernelArg(k, 5, sizeof s.offset, &s.offset));
  TRY_CL(clSetKernelArg(k, 6, sizeof s.row_pitch, &s.row_pitch));
  TRY_CL(clSetKernelArg(k, 7, sizeof s.plane_pitch, &s.plane_pitch));
  TRY_CL(clSetKernelArg(k, 8, sizeof d.width, &d.width));
  TRY(runtime_launch(h->rt, k, 3, global, NULL, 8.0 * (double)box_words(&d), NULL));
cleanup:
  return status;
}

static HclStatus pinned_buffer(Runtime *rt, size_t bytes, cl_mem *buffer, void **host) {
  HclStatus status = HCL_OK;
  cl_int err = CL_SUCCESS;
  *buffer = clCreateBuffer(runtime_context(rt), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
  TRY_CL(err);
  *host = clEnqueueMapBuffer(runtime_queue(rt), *buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL,
                             NULL, &err);
  TRY_CL(err);
cleanup:
  return status;
}

static HclStatus neighbour_setup(Halo *h, Neighbour *n) {
  HclStatus status = HCL_OK;
  n->bytes = 0;
  for (int i = 0; i < h->nfields; i++) {
    Box b = field_box(h->fields[i], n->dx, n->dy, false);
    n->bytes += 4 * box_words(&b);
  }
  if (n->bytes == 0) {
    goto cleanup;
  }
  TRY(runtime_buffer(h->rt, n->bytes, "halo send staging", &n->send_dev));
  TRY(runtime_buffer(h->rt, n->bytes, "halo receive staging", &n->recv_dev));
  TRY(pinned_buffer(h->rt, n->bytes, &n->send_pinned, &n->send_host));
  TRY(pinned_buffer(h->rt, n->bytes, &n->recv_pinned, &n->recv_host));
cleanup:
  return status;
}

HclStatus halo_create(Field *const *fields, int nfields, Halo **out) {
  HclStatus status = HCL_OK;
  Halo *h = NULL;
  *out = NULL;
  ASSERT(nfields > 0);
  const Decomp *decomp = field_decomp(fields[0]);
  const DecompLocal *local = decomp_local(decomp);
  TRY_ALLOC(h, 1);
  h->rt = field_runtime(fields[0]);
  h->decomp = decomp;
  TRY_ALLOC(h->fields, nfields);
  for (int i = 0; i < nfields; i++) {
    ASSERT(field_decomp(fields[i]) == decomp && field_runtime(fields[i]) == h->rt);
    h->fields[i] = fields[i];
  }
  h->nfields = nfields;
  KernelConfig config = {.precision = PRECISION_SINGLE, .wg_x = 1, .wg_y = 1};
  TRY(program_build(h->rt, "halo", &config, &h->program));
  TRY(program_kernel(h->program, "box_copy", &h->box_copy));
  for (int dy = -1; dy <= 1; dy++) {
    for (int dx = -1; dx <= 1; dx++) {
      int rank = local->neighbor[dy + 1][dx + 1];
      if ((dx == 0 && dy == 0) || rank < 0) {
        continue;
      }
      if (rank == local->rank) {
        h->self_dx[h->nself] = dx;
        h->self_dy[h->nself++] = dy;
        continue;
      }
      Neighbour *n = &h->remote[h->nremote];
      n->dx = dx;
      n->dy = dy;
      n->rank = rank;
      TRY(neighbour_setup(h, n));
      if (n->bytes > 0) { /* fields without ghosts in this direction send nothing */
        h->nremote++;
      }
    }
  }
  *out = h;
  h = NULL;
cleanup:
  halo_destroy(&h);
  return status;
}

static void release_pinned(Runtime *rt, cl_mem buffer, void *host) {
  if (host) {
    clEnqueueUnmapMemObject(runtime_queue(rt), buffer, host, 0, NULL, NULL);
  }
  if (buffer) {
    clReleaseMemObject(buffer);
  }
}

void halo_destroy(Halo **halo) {
  if (!halo || !*halo) {
    return;
  }
  Halo *h = *halo;
  clFinish(runtime_queue(h->rt));
  for (int i = 0; i < h->nremote; i++) {
    Neighbour *n = &h->remote[i];
    if (n->recv_written) {
      clReleaseEvent(n->recv_written);
    }
    release_pinned(h->rt, n->send_pinned, n->send_host);
    release_pinned(h->rt, n->recv_pinned, n->recv_host);
    if (n->send_dev) {
      clReleaseMemObject(n->send_dev);
    }
    if (n->recv_dev) {
      clReleaseMemObject(n->recv_dev);
    }
  }
  clFinish(runtime_queue(h->rt));
  if (h->box_copy) {
    clReleaseKernel(h->box_copy);
  }
  if (h->program) {
    clReleaseProgram(h->program);
  }
  free(h->fields);
  free(h);
  *halo = NULL;
}

/* Packs (to_staging) or unpacks every field's strip for neighbour n, one after another in the staging buffer. */
static HclStatus pack_all(Halo *h, const Neighbour *n, bool to_staging) {
  HclStatus status = HCL_OK;
  cl_ulong offset = 0;
  for (int i = 0; i < h->nfields; i++) {
    Field *f = h->fields[i];
    Box owned = field_box(f, n->dx, n->dy, false);
    Box ghost = field_box(f, n->dx, n->dy, true);
    if (to_staging) {
      TRY(copy_box(h, n->send_dev, staged(owned, offset), field_buffer(f), owned));
    } else {
      TRY(copy_box(h, field_buffer(f), ghost, n->recv_dev, staged(ghost, offset)));
    }
    offset += box_words(&owned);
  }
cleanup:
  return status;
}

/* Across a periodic side owned by this rank alone: the ghosts towards d are its own owned strip towards -d. */
static HclStatus copy_self(Halo *h, int dx, int dy) {
  HclStatus status = HCL_OK;
  for (int i = 0; i < h->nfields; i++) {
    Field *f = h->fields[i];
    TRY(copy_box(h, field_buffer(f), field_box(f, dx, dy, true), field_buffer(f), field_box(f, -dx, -dy, false)));
  }
cleanup:
  return status;
}

HclStatus halo_begin(Halo *h) {
  HclStatus status = HCL_OK;
  cl_event read_done[NDIRECTIONS] = {NULL};
  cl_command_queue queue = runtime_queue(h->rt);
  ASSERT(!h->in_flight);
  for (int i = 0; i < h->nremote; i++) {
    Neighbour *n = &h->remote[i];
    if (n->recv_written) {
      TRY_CL(clWaitForEvents(1, &n->recv_written));
      clReleaseEvent(n->recv_written);
      n->recv_written = NULL;
    }
#ifdef HYDROCL_HAVE_MPI
    /* The tag is the direction as the sender sees it: the neighbour at -d sends towards +d. */
    TRY_MPI(MPI_Irecv(n->recv_host, (int)n->bytes, MPI_BYTE, n->rank, direction_index(-n->dx, -n->dy),
                      decomp_comm(h->decomp), &n->recv_request));
#endif
  }
  for (int i = 0; i < h->nremote; i++) {
    Neighbour *n = &h->remote[i];
    TRY(pack_all(h, n, true));
    TRY_CL(clEnqueueReadBuffer(queue, n->send_dev, CL_FALSE, 0, n->bytes, n->send_host, 0, NULL, &read_done[i]));
  }
  for (int i = 0; i < h->nself; i++) {
    TRY(copy_self(h, h->self_dx[i], h->self_dy[i]));
  }
  TRY_CL(clFlush(queue));
  for (int i = 0; i < h->nremote; i++) {
    Neighbour *n = &h->remote[i];
    TRY_CL(clWaitForEvents(1, &read_done[i]));
#ifdef HYDROCL_HAVE_MPI
    TRY_MPI(MPI_Isend(n->send_host, (int)n->bytes, MPI_BYTE, n->rank, direction_index(n->dx, n->dy),
                      decomp_comm(h->decomp), &n->send_request));
#endif
  }
  h->in_flight = true;
cleanup:
  for (int i = 0; i < NDIRECTIONS; i++) {
    if (read_done[i]) {
      clReleaseEvent(read_done[i]);
    }
  }
  return status;
}

HclStatus halo_end(Halo *h) {
  HclStatus status = HCL_OK;
  ASSERT(h->in_flight);
  for (int i = 0; i < h->nremote; i++) {
    Neighbour *n = &h->remote[i];
#ifdef HYDROCL_HAVE_MPI
    TRY_MPI(MPI_Wait(&n->recv_request, MPI_STATUS_IGNORE));
#endif
    TRY_CL(clEnqueueWriteBuffer(runtime_queue(h->rt), n->recv_dev, CL_FALSE, 0, n->bytes, n->recv_host, 0, NULL,
                                &n->recv_written));
    TRY(pack_all(h, n, false));
  }
  for (int i = 0; i < h->nremote; i++) {
#ifdef HYDROCL_HAVE_MPI
    TRY_MPI(MPI_Wait(&h->remote[i].send_request, MPI_STATUS_IGNORE));
#endif
  }
  h->in_flight = false;
cleanup:
  return status;
}

HclStatus halo_exchange(Halo *h) {
  HclStatus status = HCL_OK;
  TRY(halo_begin(h));
  TRY(halo_end(h));
cleanup:
  return status;
}

size_t halo_message_bytes(const Halo *h) {
  size_t total = 0;
  for (int i = 0; i < h->nremote; i++) {
    total += h->remote[i].bytes;
  }
  return total;
}
