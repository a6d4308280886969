/* SPDX-License-Identifier: BSD-3-Clause */
/* checkpoint.h: the copies of a run's output files (map, history, series) taken with each restart, so that a run
 * continued from that restart finds its files exactly as they were when the restart was written, whatever happened
 * to them after: a SIGKILL in the middle of an HDF5 metadata update (HDF5 files are not journaled, and such a file
 * may never open again), a disk that filled in the middle of a frame, frames of a run that went on and was then
 * abandoned. A file is copied right after it was synced, when the file on disk is whole.
 *
 * The checkpoint of FOLDER/NAME at step STEP is FOLDER/.NAME.STEP, copied to FOLDER/.NAME.STEP.tmp and renamed, so
 * that it exists whole or not at all; a file restored from it is copied to FOLDER/.NAME.tmp and renamed over
 * FOLDER/NAME. Copies go through copy_file_range, which a file system with reflinks (Btrfs, XFS) makes without
 * copying a byte. Nothing here writes through a symbolic link: a checkpoint that is not a regular file is not
 * used, and removing one removes the link. Rank 0 only, plain files: no netCDF, no MPI. */
#ifndef HYDROCL_CHECKPOINT_H
#define HYDROCL_CHECKPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"

/* Copies the file at path (which must exist) to its checkpoint of step, flushed to the disk: HCL_EIO naming both
 * (a full disk among the reasons); nothing is left under the checkpoint's name then. */
HclStatus hcl_checkpoint_take(const char *path, int64_t step);

/* Where path has a checkpoint of step, replaces path by a copy of it (the checkpoint stays, for a continuation that
 * is itself cut short) and sets *restored; otherwise leaves path alone and clears *restored. HCL_EIO naming the
 * files when the copy fails (path is then unchanged). */
HclStatus hcl_checkpoint_restore(const char *path, int64_t step, bool *restored);

/* What a continuation from step will read for path: its checkpoint of step where that is a regular file, else path
 * itself; for the checks made before any file is touched. */
void hcl_checkpoint_source(const char *path, int64_t step, char *source, size_t size);

/* Removes the checkpoints of path other than that of step keep (-1: all of them) and the temporary copies a killed
 * run left. HCL_EIO naming the file that cannot be removed. */
HclStatus hcl_checkpoint_discard(const char *path, int64_t keep);

/* The temporary name a file's new content is written under before it is renamed over path (FOLDER/.NAME.tmp), which
 * hcl_checkpoint_discard removes when a killed run left it. */
void hcl_checkpoint_temporary(const char *path, char *temporary, size_t size);

#endif
