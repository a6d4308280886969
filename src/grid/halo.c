/* SPDX-License-Identifier: BSD-3-Clause */
/* halo.c: ghost-layer exchange (see halo.h). Every neighbour, diagonal ones included, is sent its strips directly,
 * so corners need no second pass. All strips for one neighbouring rank (every field, every direction in which that
 * rank is the neighbour) travel in one message. The messages to all neighbours lie one after another in one staging
 * buffer: each field's strips for every neighbour are packed and unpacked by one launch driven by a table of boxes,
 * and the buffer crosses between device and host in one copy each way, so a rank with eight neighbours pays the
 * device's latencies once, not eight times (bench/perf-model: 41 us a further neighbour when each had its own
 * launches and copies). The periodic copies within a rank take one launch more. */
#include "halo.h"

#include <stdlib.h>
#include <string.h>

#include "clerror.h"
#include "env.h"
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
  size_t first, bytes;                            /* its message's place in the staging buffers */
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
  size_t bytes;           /* every peer's message */
  BoxList *pack, *unpack; /* per field: its strips of every message */
  cl_mem send_dev, recv_dev;
  cl_mem send_pinned, recv_pinned; /* host-allocated (pinned) buffers, mapped for the life of the halo */
  void *send_host, *recv_host;
  cl_event read_done;    /* the copy of the packed strips to send_host, between hcl_halo_begin and hcl_halo_end */
  cl_event recv_written; /* the last copy of recv_host to the device: it must end before recv_host is reused */
  BoxList *self;         /* per field: ghosts copied from this rank's own owned strips */
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
  cl_ulong words = hcl_precision_bytes(hcl_field_precision(f)) / 4;
  strip(hcl_field_nx(f), hcl_field_ghost(f), dx, ghost, &x0, &w);
  strip(hcl_field_ny(f), hcl_field_ghost(f), dy, ghost, &y0, &h);
  row[BOX_ROW] = (cl_ulong)hcl_field_pitch(f) * words;
  row[BOX_PLANE] = (cl_ulong)hcl_field_rows(f) * row[BOX_ROW];
  row[BOX_FIELD] = (cl_ulong)y0 * row[BOX_ROW] + (cl_ulong)x0 * words;
  row[BOX_WIDTH] = (cl_ulong)w * words;
  row[BOX_HEIGHT] = (cl_ulong)h;
  return row[BOX_WIDTH] * row[BOX_HEIGHT] * (cl_ulong)hcl_field_nz(f);
}

/* The device table of n boxes (rows of table, of words[b] words each; their BOX_PREFIX set here). */
static HclStatus upload_list(Halo *h, cl_ulong *table, const cl_ulong *words, int n, BoxList *list) {
  HclStatus status = HCL_OK;
  cl_ulong prefix = 0;
  for (int b = 0; b < n; b++) {
    table[b * BOX_WORDS + BOX_PREFIX] = prefix;
    prefix += words[b];
  }
  list->nboxes = (cl_uint)n;
  list->words = prefix;
  if (prefix == 0) {
    goto cleanup; /* no ghosts (width 0): nothing to launch */
  }
  TRY(hcl_runtime_buffer(h->rt, (size_t)n * BOX_WORDS * sizeof(cl_ulong), "halo box table", &list->table));
  TRY_CL(clEnqueueWriteBuffer(hcl_runtime_queue(h->rt), list->table, CL_TRUE, 0,
                              (size_t)n * BOX_WORDS * sizeof(cl_ulong), table, 0, NULL, NULL));
cleanup:
  return status;
}

/* The periodic copies of field f within this rank: the ghost strips of directions dx, dy, each with BOX_OTHER the
 * owned strip opposite. */
static HclStatus self_list(Halo *h, const Field *f, int n, const int *dx, const int *dy, BoxList *list) {
  cl_ulong table[NDIRECTIONS * BOX_WORDS] = {0}, words[NDIRECTIONS];
  for (int b = 0; b < n; b++) {
    cl_ulong *row = table + b * BOX_WORDS, source[BOX_WORDS];
    words[b] = describe(f, dx[b], dy[b], true, row);
    describe(f, -dx[b], -dy[b], false, source);
    row[BOX_OTHER] = source[BOX_FIELD];
  }
  return upload_list(h, table, words, n, list);
}

/* The words of field f's strips in a peer's message: its owned strips towards the peer, or (ghost) the ghost strips
 * the peer fills; the same count either way. */
static cl_ulong message_words(const Field *f, const Peer *p, bool ghost) {
  cl_ulong row[BOX_WORDS], words = 0;
  for (int b = 0; b < p->ndirections; b++) {
    words += describe(f, ghost ? p->recv_dx[b] : p->send_dx[b], ghost ? p->recv_dy[b] : p->send_dy[b], ghost, row);
  }
  return words;
}

/* Field `field`'s strips of every message (owned strips to pack, or ghost strips to unpack), each box's BOX_OTHER
 * its place in the staging buffer: a peer's message from its first byte, field after field. */
static HclStatus staging_list(Halo *h, int field, bool ghost, BoxList *list) {
  cl_ulong table[NDIRECTIONS * BOX_WORDS] = {0}, words[NDIRECTIONS];
  int n = 0;
  for (int i = 0; i < h->npeers; i++) {
    const Peer *p = &h->peers[i];
    cl_ulong at = p->first / 4;
    for (int f = 0; f < field; f++) {
      at += message_words(h->fields[f], p, ghost);
    }
    for (int b = 0; b < p->ndirections; b++, n++) {
      cl_ulong *row = table + n * BOX_WORDS;
      words[n] = describe(h->fields[field], ghost ? p->recv_dx[b] : p->send_dx[b],
                          ghost ? p->recv_dy[b] : p->send_dy[b], ghost, row);
      row[BOX_OTHER] = at;
      at += words[n];
    }
  }
  return upload_list(h, table, words, n, list);
}

static HclStatus launch_boxes(Halo *h, const BoxList *list, cl_mem field, cl_mem staging, int unpack) {
  KernelArgs a = hcl_kernel_args(staging ? h->pack_boxes : h->copy_boxes);
  if (staging) {
    hcl_arg_mem(&a, staging);
  }
  hcl_arg_mem(&a, field);
  hcl_arg_mem(&a, list->table);
  hcl_arg_uint(&a, list->nboxes);
  hcl_arg_ulong(&a, list->words);
  if (staging) {
    hcl_arg_int(&a, unpack);
  }
  return hcl_kernel_launch(h->rt, &a, hcl_kernel_range(h->rt, list->words, WORK_GROUP), 8.0 * (double)list->words);
}

static HclStatus pinned_buffer(Runtime *rt, size_t bytes, cl_mem *buffer, void **host) {
  HclStatus status = HCL_OK;
  cl_int err = CL_SUCCESS;
  *buffer = clCreateBuffer(hcl_runtime_context(rt), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
  TRY_CL(err);
  *host = clEnqueueMapBuffer(hcl_runtime_queue(rt), *buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL,
                             NULL, &err);
  TRY_CL(err);
cleanup:
  return status;
}

/* The messages' places in the staging buffers, the tables and the buffers; the peers' directions are filled in. */
static HclStatus staging_setup(Halo *h) {
  HclStatus status = HCL_OK;
  for (int i = 0; i < h->npeers; i++) {
    Peer *p = &h->peers[i];
    cl_ulong send_words = 0, recv_words = 0;
    for (int f = 0; f < h->nfields; f++) {
      send_words += message_words(h->fields[f], p, false);
      recv_words += message_words(h->fields[f], p, true);
    }
    ASSERT(send_words == recv_words); /* the strips exchanged with a rank mirror each other */
    p->first = h->bytes;
    p->bytes = 4 * (size_t)send_words;
    h->bytes += p->bytes;
  }
  if (h->npeers == 0) {
    goto cleanup;
  }
  TRY_ALLOC(h->pack, h->nfields);
  TRY_ALLOC(h->unpack, h->nfields);
  for (int f = 0; f < h->nfields; f++) {
    TRY(staging_list(h, f, false, &h->pack[f]));
    TRY(staging_list(h, f, true, &h->unpack[f]));
  }
  if (h->bytes == 0) {
    goto cleanup;
  }
  TRY(hcl_runtime_buffer(h->rt, h->bytes, "halo send staging", &h->send_dev));
  TRY(hcl_runtime_buffer(h->rt, h->bytes, "halo receive staging", &h->recv_dev));
  TRY(pinned_buffer(h->rt, h->bytes, &h->send_pinned, &h->send_host));
  TRY(pinned_buffer(h->rt, h->bytes, &h->recv_pinned, &h->recv_host));
cleanup:
  return status;
}

/* Groups the neighbour directions by rank: directions towards a rank in index order, and the ghost directions it
 * fills in the order it sends them (index of the opposite direction), so sender and receiver agree. */
static HclStatus find_peers(Halo *h, int self_dx[], int self_dy[], int *nself) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(h->decomp);
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
      TRY(hcl_par_request_create(&p->send_request));
      TRY(hcl_par_request_create(&p->recv_request));
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

/* This rank's part of hcl_halo_create: building the program and allocating can fail on some ranks only, so
 * hcl_halo_create agrees on the outcome afterwards. */
static HclStatus create_local(Field *const *fields, int nfields, int tag, Halo **out) {
  HclStatus status = HCL_OK;
  Halo *h = NULL;
  int self_dx[NDIRECTIONS], self_dy[NDIRECTIONS], nself = 0;
  ASSERT(nfields > 0);
  TRY_ALLOC(h, 1);
  h->rt = hcl_field_runtime(fields[0]);
  h->decomp = hcl_field_decomp(fields[0]);
  h->tag = tag;
  TRY_ALLOC(h->fields, nfields);
  for (int i = 0; i < nfields; i++) {
    ASSERT(hcl_field_decomp(fields[i]) == h->decomp && hcl_field_runtime(fields[i]) == h->rt);
    h->fields[i] = fields[i];
  }
  h->nfields = nfields;
  KernelConfig config = {.precision = PRECISION_SINGLE, .wg_x = WORK_GROUP, .wg_y = 1};
  TRY(hcl_program_build(h->rt, "halo", &config, &h->program));
  TRY(hcl_program_kernel(h->program, "pack_boxes", &h->pack_boxes));
  TRY(hcl_program_kernel(h->program, "copy_boxes", &h->copy_boxes));
  TRY(find_peers(h, self_dx, self_dy, &nself));
  TRY_ALLOC(h->self, nfields);
  for (int i = 0; i < nfields; i++) {
    TRY(self_list(h, fields[i], nself, self_dx, self_dy, &h->self[i]));
  }
  TRY(staging_setup(h));
  *out = h;
  h = NULL;
cleanup:
  hcl_halo_destroy(&h);
  return status;
}

HclStatus hcl_halo_create(Field *const *fields, int nfields, Halo **out) {
  HclStatus status = HCL_OK;
  Halo *h = NULL;
  static int halos_created = 0; /* the same sequence on every rank, so tags match */
  *out = NULL;
  TRY(hcl_par_agree(create_local(fields, nfields, halos_created++ % 32768, &h)));
  *out = h;
  h = NULL;
cleanup:
  hcl_halo_destroy(&h);
  return status;
}

static void release_list(BoxList *list) {
  if (list->table) {
    clReleaseMemObject(list->table);
  }
}

static void release_pinned(Runtime *rt, cl_mem buffer, void *host) {
  if (host) {
    clEnqueueUnmapMemObject(hcl_runtime_queue(rt), buffer, host, 0, NULL, NULL);
  }
  if (buffer) {
    clReleaseMemObject(buffer);
  }
}

/* Cancels and completes every posted receive and send of this rank, so no request outlives the staging buffers it
 * points at (a failed hcl_halo_begin or hcl_halo_end, or a halo destroyed in flight). A send already matched completes once
 * its peer, which posts its receives first, takes it. */
static void cancel_requests(Halo *h) {
  if (h->read_done) {
    clReleaseEvent(h->read_done);
    h->read_done = NULL;
  }
  for (int i = 0; i < h->npeers; i++) {
    hcl_par_cancel(h->peers[i].recv_request);
    hcl_par_cancel(h->peers[i].send_request);
  }
  h->in_flight = false;
}

void hcl_halo_destroy(Halo **halo) {
  if (!halo || !*halo) {
    return;
  }
  Halo *h = *halo;
  cancel_requests(h);
  clFinish(hcl_runtime_queue_of(h->rt, QUEUE_TRANSFER));
  clFinish(hcl_runtime_queue(h->rt));
  for (int i = 0; i < h->npeers; i++) {
    hcl_par_request_destroy(&h->peers[i].send_request);
    hcl_par_request_destroy(&h->peers[i].recv_request);
  }
  if (h->recv_written) {
    clReleaseEvent(h->recv_written);
  }
  for (int f = 0; f < h->nfields; f++) {
    if (h->pack) {
      release_list(&h->pack[f]);
    }
    if (h->unpack) {
      release_list(&h->unpack[f]);
    }
  }
  free(h->pack);
  free(h->unpack);
  release_pinned(h->rt, h->send_pinned, h->send_host);
  release_pinned(h->rt, h->recv_pinned, h->recv_host);
  cl_mem staging[] = {h->send_dev, h->recv_dev};
  for (int k = 0; k < 2; k++) {
    if (staging[k]) {
      clReleaseMemObject(staging[k]);
    }
  }
  for (int f = 0; h->self && f < h->nfields; f++) {
    release_list(&h->self[f]);
  }
  clFinish(hcl_runtime_queue(h->rt));
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

/* The periodic copies within this rank. */
static HclStatus copy_own_ghosts(Halo *h) {
  HclStatus status = HCL_OK;
  for (int f = 0; f < h->nfields; f++) {
    TRY(launch_boxes(h, &h->self[f], hcl_field_buffer(h->fields[f]), NULL, 0));
  }
cleanup:
  return status;
}

/* Makes `later` wait, before its next command, for everything enqueued on `earlier` so far. */
static HclStatus order_queues(Halo *h, RuntimeQueue earlier, RuntimeQueue later) {
  HclStatus status = HCL_OK;
  cl_event done = NULL;
  TRY_CL(clEnqueueMarkerWithWaitList(hcl_runtime_queue_of(h->rt, earlier), 0, NULL, &done));
  TRY_CL(clFlush(hcl_runtime_queue_of(h->rt, earlier)));
  TRY_CL(clEnqueueBarrierWithWaitList(hcl_runtime_queue_of(h->rt, later), 1, &done, NULL));
cleanup:
  if (done) {
    clReleaseEvent(done);
  }
  return status;
}

/* Posts the receives into recv_host, once the previous exchange's copy out of it has ended. */
static HclStatus post_receives(Halo *h) {
  HclStatus status = HCL_OK;
  hcl_par_count_exchange(); /* called once an exchange with another rank */
  if (h->recv_written) {
    TRY_CL(clWaitForEvents(1, &h->recv_written));
    hcl_runtime_count_wait(h->rt);
    clReleaseEvent(h->recv_written);
    h->recv_written = NULL;
  }
  for (int i = 0; i < h->npeers; i++) {
    Peer *p = &h->peers[i];
    if (p->bytes > 0) {
      TRY(hcl_par_irecv(hcl_decomp_comm(h->decomp), (char *)h->recv_host + p->first, (int)p->bytes, p->rank, h->tag,
                        p->recv_request));
    }
  }
cleanup:
  return status;
}

/* The steps of an exchange with other ranks. Packing and unpacking are kernels and run on the compute queue, in
 * order with the others, where they cannot wait for a kernel of another queue to free the device; the copies between
 * device and host run on whichever queue the caller gives. */
static HclStatus launch_strips(Halo *h, bool unpack) {
  HclStatus status = HCL_OK;
  for (int f = 0; f < h->nfields && h->bytes > 0; f++) {
    TRY(launch_boxes(h, unpack ? &h->unpack[f] : &h->pack[f], hcl_field_buffer(h->fields[f]),
                     unpack ? h->recv_dev : h->send_dev, unpack));
  }
cleanup:
  return status;
}

static HclStatus copy_to_host(Halo *h, RuntimeQueue queue) {
  HclStatus status = HCL_OK;
  if (h->bytes > 0) {
    TRY_CL(clEnqueueReadBuffer(hcl_runtime_queue_of(h->rt, queue), h->send_dev, CL_FALSE, 0, h->bytes, h->send_host, 0,
                               NULL, &h->read_done));
  }
  TRY_CL(clFlush(hcl_runtime_queue_of(h->rt, queue)));
cleanup:
  return status;
}

/* Sends each peer its strips once they are on the host. */
static HclStatus send_when_read(Halo *h) {
  HclStatus status = HCL_OK;
  if (h->read_done) {
    TRY_CL(clWaitForEvents(1, &h->read_done));
    hcl_runtime_count_wait(h->rt);
    clReleaseEvent(h->read_done);
    h->read_done = NULL;
  }
  for (int i = 0; i < h->npeers; i++) {
    Peer *p = &h->peers[i];
    if (p->bytes > 0) {
      TRY(hcl_par_isend(hcl_decomp_comm(h->decomp), (char *)h->send_host + p->first, (int)p->bytes, p->rank, h->tag,
                        p->send_request));
    }
  }
cleanup:
  return status;
}

/* Copies the strips to the device once every peer's have arrived. */
static HclStatus copy_received(Halo *h, RuntimeQueue queue) {
  HclStatus status = HCL_OK;
  for (int i = 0; i < h->npeers; i++) {
    TRY(hcl_par_wait(h->peers[i].recv_request));
  }
  if (h->bytes > 0) {
    TRY_CL(clEnqueueWriteBuffer(hcl_runtime_queue_of(h->rt, queue), h->recv_dev, CL_FALSE, 0, h->bytes, h->recv_host, 0,
                                NULL, &h->recv_written));
  }
cleanup:
  return status;
}

static HclStatus wait_sends(Halo *h) {
  HclStatus status = HCL_OK;
  for (int i = 0; i < h->npeers; i++) {
    TRY(hcl_par_wait(h->peers[i].send_request));
  }
cleanup:
  return status;
}

/* With other ranks to exchange with: hcl_halo_begin posts the receives, packs behind the compute queue's work, starts
 * the copies to the host on the transfer queue (runtime.h) and returns; hcl_halo_end sends each peer its strips as soon
 * as they are on the host, receives them, copies them to the device on the transfer queue and unpacks them. Kernels
 * enqueued in between run while the strips travel: the copies beside them on the device's copy engines, the
 * messages on the host. Without other ranks the periodic copies are all there is. */
HclStatus hcl_halo_begin(Halo *h) {
  HclStatus status = HCL_OK;
  ASSERT(!h->in_flight);
  if (h->npeers > 0) {
    TRY(post_receives(h));
    TRY(launch_strips(h, false));
    TRY(order_queues(h, QUEUE_COMPUTE, QUEUE_TRANSFER));
    TRY(copy_to_host(h, QUEUE_TRANSFER));
  }
  TRY(copy_own_ghosts(h));
  h->in_flight = true;
cleanup:
  if (status != HCL_OK) {
    cancel_requests(h);
  }
  return status;
}

HclStatus hcl_halo_end(Halo *h) {
  HclStatus status = HCL_OK;
  ASSERT(h->in_flight);
  if (h->npeers > 0) {
    TRY(send_when_read(h));
    TRY(copy_received(h, QUEUE_TRANSFER));
    TRY(order_queues(h, QUEUE_TRANSFER, QUEUE_COMPUTE));
    TRY(launch_strips(h, true));
    TRY(wait_sends(h));
  }
  h->in_flight = false;
cleanup:
  if (status != HCL_OK) {
    cancel_requests(h);
  }
  return status;
}

void hcl_halo_cancel(Halo *h) {
  if (h->in_flight) {
    cancel_requests(h);
  }
}

/* An exchange with nothing to overlap, all on the compute queue: no events between queues, which on a GPU cost
 * more than they would hide (bench/README.md, halo). */
static HclStatus exchange_in_order(Halo *h) {
  HclStatus status = HCL_OK;
  TRY(post_receives(h));
  TRY(launch_strips(h, false));
  TRY(copy_to_host(h, QUEUE_COMPUTE));
  TRY(copy_own_ghosts(h));
  h->in_flight = true;
  TRY(send_when_read(h));
  TRY(copy_received(h, QUEUE_COMPUTE));
  TRY(launch_strips(h, true));
  TRY(wait_sends(h));
  h->in_flight = false;
cleanup:
  if (status != HCL_OK) {
    cancel_requests(h);
  }
  return status;
}

HclStatus hcl_halo_exchange(Halo *h) {
  HclStatus status = HCL_OK;
  ASSERT(!h->in_flight);
  if (h->npeers == 0) {
    TRY(copy_own_ghosts(h));
  } else {
    TRY(exchange_in_order(h));
  }
cleanup:
  return status;
}

size_t hcl_halo_message_bytes(const Halo *h) {
  size_t total = 0;
  for (int i = 0; i < h->npeers; i++) {
    total += h->peers[i].bytes;
  }
  return total;
}

/* The sides of this rank whose ghosts come from another rank. */
static int remote_sides(const Halo *h) {
  const DecompLocal *l = hcl_decomp_local(h->decomp);
  int sides = 0;
  const int bit[4] = {HALO_WEST, HALO_EAST, HALO_SOUTH, HALO_NORTH};
  const int dx[4] = {-1, 1, 0, 0}, dy[4] = {0, 0, -1, 1};
  for (int side = 0; side < 4; side++) {
    int rank = l->neighbor[dy[side] + 1][dx[side] + 1];
    sides |= rank >= 0 && rank != l->rank ? bit[side] : 0;
  }
  return sides;
}

static int smaller(int a, int b) {
  return a < b ? a : b;
}

/* The least interior cells worth overlapping: HALO_OVERLAP_CELLS, or the environment's HYDROCL_OVERLAP_CELLS (0:
 * wherever there is an interior, as the rank tests run; a number above every grid: never). */
static double overlap_cells(void) {
  static double cells = -1;
  if (cells < 0) {
    cells = hcl_env_count("HYDROCL_OVERLAP_CELLS", HALO_OVERLAP_CELLS);
  }
  return cells;
}

int hcl_halo_parts(const Halo *h, int reach, int late_sides, CellBox parts[HALO_PARTS_MOST]) {
  const DecompLocal *l = hcl_decomp_local(h->decomp);
  int nx = l->nx, ny = l->ny;
  int late = remote_sides(h) | late_sides;
  /* The interior's ends: reach cells in from each late side, never past the other end. */
  int west = late & HALO_WEST ? smaller(reach, nx) : 0, south = late & HALO_SOUTH ? smaller(reach, ny) : 0;
  int east = late & HALO_EAST ? nx - smaller(reach, nx - west) : nx;
  int north = late & HALO_NORTH ? ny - smaller(reach, ny - south) : ny;
  double interior = (double)(east - west) * (north - south);
  if (h->npeers == 0 || interior == 0 || interior < overlap_cells()) {
    parts[0] = (CellBox){0, 0, 0, 0};
    parts[1] = (CellBox){0, 0, nx, ny};
    return 2;
  }
  parts[0] = (CellBox){west, south, east - west, north - south};
  parts[1] = (CellBox){0, 0, nx, south};                       /* the south strip, corners included */
  parts[2] = (CellBox){0, north, nx, ny - north};              /* the north strip */
  parts[3] = (CellBox){0, south, west, north - south};         /* the west strip between them */
  parts[4] = (CellBox){east, south, nx - east, north - south}; /* the east strip */
  return 5;
}

HclStatus hcl_halo_launch_box(void *box_kernel, CellBox box) {
  BoxKernel *k = box_kernel;
  KernelShape shape = hcl_kernel_grid_at(k->rt, box.x0, box.y0, box.nx, box.ny, k->wg_x, k->wg_y, 1);
  return hcl_kernel_launch(k->rt, &k->args, shape, k->bytes_per_cell * box.nx * box.ny);
}

HclStatus hcl_halo_overlap(Halo *h, HaloOverlap how, CellBoxLaunch launch, void *context) {
  HclStatus status = HCL_OK;
  CellBox parts[HALO_PARTS_MOST];
  int n = hcl_halo_parts(h, how.reach, how.late_sides, parts);
  bool overlap = parts[0].nx > 0 && parts[0].ny > 0;
  TRY(overlap ? hcl_halo_begin(h) : hcl_halo_exchange(h));
  for (int k = 0; k < n; k++) {
    if (k == 1 && overlap) {
      TRY(hcl_halo_end(h));
    }
    if (k == 1 && how.then) {
      TRY(how.then(how.then_context));
    }
    if (parts[k].nx > 0 && parts[k].ny > 0) {
      TRY(launch(context, parts[k]));
    }
  }
cleanup:
  if (status != HCL_OK) {
    hcl_halo_cancel(h);
  }
  return status;
}
