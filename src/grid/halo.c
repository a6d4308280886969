/* SPDX-License-Identifier: BSD-3-Clause */
/* halo.c: ghost-layer exchange (see halo.h). Every neighbour, diagonal ones included, is sent its strips directly,
 * so corners need no second pass. All strips for one neighbouring rank (every field, every direction in which that
 * rank is the neighbour) travel in one message; on the device each field's strips of a message are packed and
 * unpacked by one launch driven by a table of boxes, and the periodic copies within a rank by one more. */
#include "halo.h"

#include <stdlib.h>
#include <string.h>

#include "clerror.h"
#include "kernel.h"
#include "par.h"
#include "program.h"

enum { NDIRECTIONS = 8, BOX_WORDS = 8, WORK_GROUP = 64 };
enum { BOX_FIELD, BOX_ROW, BOX_PLANE, BOX_OTHER, BOX_WIDTH, BOX_HEIGHT, BOX_PREFIX }; /* as kernels_cl/halo.cl */

/* The launches of one field for one message (or for the periodic copies): a table of boxes on the device. */
typedef struct {
  cl_mem table;
  cl_uint nboxes;
  cl_ulong words;
} BoxList;

/* Another rank that is the neighbour in one or more directions. */
typedef struct {
  int rank;
  int ndirections;
  int send_dx[NDIRECTIONS], send_dy[NDIRECTIONS]; /* directions towards it, by direction index */
  int recv_dx[NDIRECTIONS], recv_dy[NDIRECTIONS]; /* ghost directions filled by it, in the order it sends them */
  size_t bytes;
  BoxList *pack, *unpack; /* per field */
  cl_mem send_dev, recv_dev;
  cl_mem send_pinned, recv_pinned; /* host-allocated (pinned) buffers, mapped for the life of the halo */
  void *send_host, *recv_host;
  cl_event recv_written; /* the last copy of recv_host to the device: it must end before recv_host is reused */
  ParRequest *send_request, *recv_request;
} Peer;

struct Halo {
  Runtime *rt;
  const Decomp *decomp;
  Field **fields;
  int nfields;
  int tag; /* one per halo, so several halos may be in flight at once */
  cl_program program;
  cl_kernel pack_boxes, copy_boxes;
  Peer peers[NDIRECTIONS];
  int npeers;
  BoxList *self; /* per field: ghosts copied from this rank's own owned strips */
  bool in_flight;
};

/* Start and extent along one axis of the owned strip sent towards d (ghost == false) or of the ghost strip filled
 * from d (ghost == true), in ghosted coordinates: owned points are [g, g + n). */
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

/* Writes box (field offset, pitches, width, height) of f's strip into row[BOX_WORDS]; returns its words. */
static cl_ulong describe(const Field *f, int dx, int dy, bool ghost, cl_ulong *row) {
  int x0, y0, w, h;
  cl_ulong words = precision_bytes(field_precision(f)) / 4;
  strip(field_nx(f), field_ghost(f), dx, ghost, &x0, &w);
  strip(field_ny(f), field_ghost(f), dy, ghost, &y0, &h);
  row[BOX_ROW] = (cl_ulong)field_pitch(f) * words;
  row[BOX_PLANE] = (cl_ulong)field_rows(f) * row[BOX_ROW];
  row[BOX_FIELD] = (cl_ulong)y0 * row[BOX_ROW] + (cl_ulong)x0 * words;
  row[BOX_WIDTH] = (cl_ulong)w * words;
  row[BOX_HEIGHT] = (cl_ulong)h;
  return row[BOX_WIDTH] * row[BOX_HEIGHT] * (cl_ulong)field_nz(f);
}

/* Builds the device table of n boxes of field f in directions dx, dy. With staging (offset *staging_words, advanced),
 * the boxes are the owned (ghost == false) or ghost strips and BOX_OTHER their staging offset; without, they are the
 * ghost strips and BOX_OTHER the owned strip opposite. */
static HclStatus box_list(Halo *h, const Field *f, int n, const int *dx, const int *dy, bool ghost,
                          cl_ulong *staging_words, BoxList *list) {
  HclStatus status = HCL_OK;
  cl_ulong table[NDIRECTIONS * BOX_WORDS] = {0};
  cl_ulong prefix = 0;
  for (int b = 0; b < n; b++) {
    cl_ulong *row = table + b * BOX_WORDS;
    cl_ulong words = describe(f, dx[b], dy[b], ghost || !staging_words, row);
    if (staging_words) {
      row[BOX_OTHER] = *staging_words + prefix;
    } else {
      cl_ulong source[BOX_WORDS];
      describe(f, -dx[b], -dy[b], false, source);
      row[BOX_OTHER] = source[BOX_FIELD];
    }
    row[BOX_PREFIX] = prefix;
    prefix += words;
  }
  if (staging_words) {
    *staging_words += prefix;
  }
  list->nboxes = (cl_uint)n;
  list->words = prefix;
  if (prefix == 0) {
    goto cleanup; /* no ghosts (width 0): nothing to launch */
  }
  TRY(runtime_buffer(h->rt, (size_t)n * BOX_WORDS * sizeof(cl_ulong), "halo box table", &list->table));
  TRY_CL(clEnqueueWriteBuffer(runtime_queue(h->rt), list->table, CL_TRUE, 0, (size_t)n * BOX_WORDS * sizeof(cl_ulong),
                              table, 0, NULL, NULL));
cleanup:
  return status;
}

static HclStatus launch_boxes(Halo *h, const BoxList *list, cl_mem field, cl_mem staging, int unpack) {
  KernelArgs a = kernel_args(staging ? h->pack_boxes : h->copy_boxes);
  if (staging) {
    arg_mem(&a, staging);
  }
  arg_mem(&a, field);
  arg_mem(&a, list->table);
  arg_uint(&a, list->nboxes);
  arg_ulong(&a, list->words);
  if (staging) {
    arg_int(&a, unpack);
  }
  return kernel_launch(h->rt, &a, kernel_range(h->rt, list->words, WORK_GROUP), 8.0 * (double)list->words);
}

static HclStatus pinned_buffer(Runtime *rt, size_t bytes, cl_mem *buffer, void **host) {
  HclStatus status = HCL_OK;
  cl_int err = CL_SUCCESS;
  *buffer = clCreateBuffer(runtime_context(rt), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
  TRY_CL(err);
  *host = clEnqueueMapBuffer(runtime_queue(rt), *buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL,
                             &err);
  TRY_CL(err);
cleanup:
  return status;
}

/* The tables and buffers of one peer, whose directions are filled in. */
static HclStatus peer_setup(Halo *h, Peer *p) {
  HclStatus status = HCL_OK;
  cl_ulong send_words = 0, recv_words = 0;
  TRY_ALLOC(p->pack, h->nfields);
  TRY_ALLOC(p->unpack, h->nfields);
  for (int i = 0; i < h->nfields; i++) {
    TRY(box_list(h, h->fields[i], p->ndirections, p->send_dx, p->send_dy, false, &send_words, &p->pack[i]));
    TRY(box_list(h, h->fields[i], p->ndirections, p->recv_dx, p->recv_dy, true, &recv_words, &p->unpack[i]));
  }
  ASSERT(send_words == recv_words); /* the strips exchanged with a rank mirror each other */
  p->bytes = 4 * (size_t)send_words;
  if (p->bytes == 0) {
    goto cleanup;
  }
  TRY(runtime_buffer(h->rt, p->bytes, "halo send staging", &p->send_dev));
  TRY(runtime_buffer(h->rt, p->bytes, "halo receive staging", &p->recv_dev));
  TRY(pinned_buffer(h->rt, p->bytes, &p->send_pinned, &p->send_host));
  TRY(pinned_buffer(h->rt, p->bytes, &p->recv_pinned, &p->recv_host));
cleanup:
  return status;
}

/* Groups the neighbour directions by rank: directions towards a rank in index order, and the ghost directions it
 * fills in the order it sends them (index of the opposite direction), so sender and receiver agree. */
static HclStatus find_peers(Halo *h, int self_dx[], int self_dy[], int *nself) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = decomp_local(h->decomp);
  *nself = 0;
  for (int index = 0; index < 9; index++) {
    int dx = index % 3 - 1, dy = index / 3 - 1;
    int rank = l->neighbor[dy + 1][dx + 1];
    if ((dx == 0 && dy == 0) || rank < 0) {
      continue;
    }
    if (rank == l->rank) {
      self_dx[*nself] = dx;
      self_dy[(*nself)++] = dy;
      continue;
    }
    Peer *p = NULL;
    for (int i = 0; i < h->npeers && !p; i++) {
      p = h->peers[i].rank == rank ? &h->peers[i] : NULL;
    }
    if (!p) {
      p = &h->peers[h->npeers++];
      p->rank = rank;
      TRY(par_request_create(&p->send_request));
      TRY(par_request_create(&p->recv_request));
    }
    p->send_dx[p->ndirections] = dx;
    p->send_dy[p->ndirections++] = dy;
  }
  for (int i = 0; i < h->npeers; i++) {
    Peer *p = &h->peers[i];
    for (int k = 0; k < p->ndirections; k++) {
      /* The peer sends, in its index order, the directions pointing at us: the opposites of ours, reversed. */
      p->recv_dx[k] = p->send_dx[p->ndirections - 1 - k];
      p->recv_dy[k] = p->send_dy[p->ndirections - 1 - k];
    }
    ASSERT(p->ndirections <= NDIRECTIONS);
  }
cleanup:
  return status;
}

/* This rank's part of halo_create: building the program and allocating can fail on some ranks only, so
 * halo_create agrees on the outcome afterwards. */
static HclStatus create_local(Field *const *fields, int nfields, int tag, Halo **out) {
  HclStatus status = HCL_OK;
  Halo *h = NULL;
  int self_dx[NDIRECTIONS], self_dy[NDIRECTIONS], nself = 0;
  ASSERT(nfields > 0);
  TRY_ALLOC(h, 1);
  h->rt = field_runtime(fields[0]);
  h->decomp = field_decomp(fields[0]);
  h->tag = tag;
  TRY_ALLOC(h->fields, nfields);
  for (int i = 0; i < nfields; i++) {
    ASSERT(field_decomp(fields[i]) == h->decomp && field_runtime(fields[i]) == h->rt);
    h->fields[i] = fields[i];
  }
  h->nfields = nfields;
  KernelConfig config = {.precision = PRECISION_SINGLE, .wg_x = WORK_GROUP, .wg_y = 1};
  TRY(program_build(h->rt, "halo", &config, &h->program));
  TRY(program_kernel(h->program, "pack_boxes", &h->pack_boxes));
  TRY(program_kernel(h->program, "copy_boxes", &h->copy_boxes));
  TRY(find_peers(h, self_dx, self_dy, &nself));
  TRY_ALLOC(h->self, nfields);
  for (int i = 0; i < nfields; i++) {
    TRY(box_list(h, fields[i], nself, self_dx, self_dy, true, NULL, &h->self[i]));
  }
  for (int i = 0; i < h->npeers; i++) {
    TRY(peer_setup(h, &h->peers[i]));
  }
  *out = h;
  h = NULL;
cleanup:
  halo_destroy(&h);
  return status;
}

HclStatus halo_create(Field *const *fields, int nfields, Halo **out) {
  HclStatus status = HCL_OK;
  Halo *h = NULL;
  static int halos_created = 0; /* the same sequence on every rank, so tags match */
  *out = NULL;
  TRY(par_agree(create_local(fields, nfields, halos_created++ % 32768, &h)));
  *out = h;
  h = NULL;
cleanup:
  halo_destroy(&h);
  return status;
}

static void release_list(BoxList *list) {
  if (list->table) {
    clReleaseMemObject(list->table);
  }
}

static void release_pinned(Runtime *rt, cl_mem buffer, void *host) {
  if (host) {
    clEnqueueUnmapMemObject(runtime_queue(rt), buffer, host, 0, NULL, NULL);
  }
  if (buffer) {
    clReleaseMemObject(buffer);
  }
}

/* Cancels and completes every posted receive and send of this rank, so no request outlives the staging buffers it
 * points at (a failed halo_begin or halo_end, or a halo destroyed in flight). A send already matched completes once
 * its peer, which posts its receives first, takes it. */
static void cancel_requests(Halo *h) {
  for (int i = 0; i < h->npeers; i++) {
    par_cancel(h->peers[i].recv_request);
    par_cancel(h->peers[i].send_request);
  }
  h->in_flight = false;
}

void halo_destroy(Halo **halo) {
  if (!halo || !*halo) {
    return;
  }
  Halo *h = *halo;
  cancel_requests(h);
  clFinish(runtime_queue(h->rt));
  for (int i = 0; i < h->npeers; i++) {
    Peer *p = &h->peers[i];
    if (p->recv_written) {
      clReleaseEvent(p->recv_written);
    }
    for (int f = 0; f < h->nfields; f++) {
      if (p->pack) {
        release_list(&p->pack[f]);
      }
      if (p->unpack) {
        release_list(&p->unpack[f]);
      }
    }
    free(p->pack);
    free(p->unpack);
    par_request_destroy(&p->send_request);
    par_request_destroy(&p->recv_request);
    release_pinned(h->rt, p->send_pinned, p->send_host);
    release_pinned(h->rt, p->recv_pinned, p->recv_host);
    if (p->send_dev) {
      clReleaseMemObject(p->send_dev);
    }
    if (p->recv_dev) {
      clReleaseMemObject(p->recv_dev);
    }
  }
  for (int f = 0; h->self && f < h->nfields; f++) {
    release_list(&h->self[f]);
  }
  clFinish(runtime_queue(h->rt));
  if (h->pack_boxes) {
    clReleaseKernel(h->pack_boxes);
  }
  if (h->copy_boxes) {
    clReleaseKernel(h->copy_boxes);
  }
  if (h->program) {
    clReleaseProgram(h->program);
  }
  free(h->self);
  free(h->fields);
  free(h);
  *halo = NULL;
}

HclStatus halo_begin(Halo *h) {
  HclStatus status = HCL_OK;
  cl_event read_done[NDIRECTIONS] = {NULL};
  cl_command_queue queue = runtime_queue(h->rt);
  ASSERT(!h->in_flight);
  for (int i = 0; i < h->npeers; i++) {
    Peer *p = &h->peers[i];
    if (p->bytes == 0) {
      continue;
    }
    if (p->recv_written) {
      TRY_CL(clWaitForEvents(1, &p->recv_written));
      runtime_count_wait(h->rt);
      clReleaseEvent(p->recv_written);
      p->recv_written = NULL;
    }
    TRY(par_irecv(decomp_comm(h->decomp), p->recv_host, (int)p->bytes, p->rank, h->tag, p->recv_request));
  }
  for (int i = 0; i < h->npeers; i++) {
    Peer *p = &h->peers[i];
    if (p->bytes == 0) {
      continue;
    }
    for (int f = 0; f < h->nfields; f++) {
      TRY(launch_boxes(h, &p->pack[f], field_buffer(h->fields[f]), p->send_dev, 0));
    }
    TRY_CL(clEnqueueReadBuffer(queue, p->send_dev, CL_FALSE, 0, p->bytes, p->send_host, 0, NULL, &read_done[i]));
  }
  for (int f = 0; f < h->nfields; f++) {
    TRY(launch_boxes(h, &h->self[f], field_buffer(h->fields[f]), NULL, 0));
  }
  TRY_CL(clFlush(queue));
  for (int i = 0; i < h->npeers; i++) {
    Peer *p = &h->peers[i];
    if (p->bytes == 0) {
      continue;
    }
    TRY_CL(clWaitForEvents(1, &read_done[i]));
    runtime_count_wait(h->rt);
    TRY(par_isend(decomp_comm(h->decomp), p->send_host, (int)p->bytes, p->rank, h->tag, p->send_request));
  }
  h->in_flight = true;
cleanup:
  if (status != HCL_OK) {
    cancel_requests(h);
  }
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
  for (int i = 0; i < h->npeers; i++) {
    Peer *p = &h->peers[i];
    if (p->bytes == 0) {
      continue;
    }
    TRY(par_wait(p->recv_request));
    TRY_CL(clEnqueueWriteBuffer(runtime_queue(h->rt), p->recv_dev, CL_FALSE, 0, p->bytes, p->recv_host, 0, NULL,
                                &p->recv_written));
    for (int f = 0; f < h->nfields; f++) {
      TRY(launch_boxes(h, &p->unpack[f], field_buffer(h->fields[f]), p->recv_dev, 1));
    }
  }
  for (int i = 0; i < h->npeers; i++) {
    TRY(par_wait(h->peers[i].send_request));
  }
  h->in_flight = false;
cleanup:
  if (status != HCL_OK) {
    cancel_requests(h);
  }
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
  for (int i = 0; i < h->npeers; i++) {
    total += h->peers[i].bytes;
  }
  return total;
}
