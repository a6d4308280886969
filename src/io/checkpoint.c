/* SPDX-License-Identifier: BSD-3-Clause */
/* checkpoint.c: copies of the output files taken with each restart (see checkpoint.h). */
#define _GNU_SOURCE /* copy_file_range */
#include "checkpoint.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { CHECKPOINT_PATH_SIZE = 4200 };

/* path's folder ("." for a bare name) and its file name. */
static void split_path(const char *path, char *folder, size_t size, const char **name) {
  const char *slash = strrchr(path, '/');
  *name = slash ? slash + 1 : path;
  if (!slash) {
    snprintf(folder, size, ".");
  } else {
    snprintf(folder, size, "%.*s", slash == path ? 1 : (int)(slash - path), path);
  }
}

/* FOLDER/.NAME.STEP, and with a suffix (".tmp") its temporary copy; for step -1 FOLDER/.NAME and the suffix. */
static void checkpoint_path(const char *path, int64_t step, const char *suffix, char *out, size_t size) {
  const char *slash = strrchr(path, '/');
  int folder = slash ? (int)(slash - path + 1) : 0; /* with its slash */
  const char *name = slash ? slash + 1 : path;
  if (step < 0) {
    snprintf(out, size, "%.*s.%s%s", folder, path, name, suffix);
  } else {
    snprintf(out, size, "%.*s.%s.%" PRId64 "%s", folder, path, name, step, suffix);
  }
}

void hcl_checkpoint_temporary(const char *path, char *temporary, size_t size) {
  checkpoint_path(path, -1, ".tmp", temporary, size);
}

/* Copies count bytes from in to out: copy_file_range (a reflink where the file system has them, else a copy in the
 * kernel), or read and write where it cannot copy between these files at all. */
static int copy_bytes(int in, int out, off_t count) {
  static char buffer[1 << 16];
  bool kernel = true;
  while (count > 0) {
    ssize_t n = -1;
    if (kernel) {
      n = copy_file_range(in, NULL, out, NULL, (size_t)count, 0);
      if (n < 0 && (errno == ENOSYS || errno == EXDEV || errno == EINVAL || errno == EOPNOTSUPP)) {
        kernel = false;
        continue;
      }
    } else {
      n = read(in, buffer, sizeof buffer);
      for (ssize_t done = 0; n > 0 && done < n;) {
        ssize_t w = write(out, buffer + done, (size_t)(n - done));
        if (w < 0 && errno != EINTR) {
          return -1;
        }
        done += w > 0 ? w : 0;
      }
    }
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return n == 0 ? (errno = EIO, -1) : -1; /* 0: the file shrank under the copy */
    }
    count -= n;
  }
  return 0;
}

/* Copies from (a regular file; with nofollow a symbolic link is refused) to a new file at to, flushed to the disk:
 * HCL_EIO naming both, and nothing left at to, when that fails. */
static HclStatus copy_file(const char *from, const char *to, bool nofollow) {
  HclStatus status = HCL_OK;
  struct stat info;
  int out = -1, error = 0;
  int in = open(from, O_RDONLY | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));
  REQUIRE(in >= 0, HCL_EIO, "cannot open '%s' to copy it: %s", from, strerror(errno));
  REQUIRE(fstat(in, &info) == 0 && S_ISREG(info.st_mode), HCL_EIO, "cannot copy '%s': it is not a regular file", from);
  /* A name a killed run left, or a link planted there: removed, so the new file never writes through it. */
  REQUIRE(unlink(to) == 0 || errno == ENOENT, HCL_EIO, "cannot remove '%s' before writing it: %s", to, strerror(errno));
  out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  REQUIRE(out >= 0, HCL_EIO, "cannot create '%s': %s", to, strerror(errno));
  if (copy_bytes(in, out, info.st_size) != 0 || fsync(out) != 0) {
    error = errno;
  }
  if (close(out) != 0 && error == 0) {
    error = errno;
  }
  out = -1;
  if (error) {
    unlink(to);
    FAIL(HCL_EIO, "cannot copy '%s' to '%s': %s", from, to, strerror(error));
  }
cleanup:
  if (in >= 0) {
    close(in);
  }
  if (out >= 0) {
    close(out);
    unlink(to);
  }
  return status;
}

HclStatus hcl_checkpoint_take(const char *path, int64_t step) {
  HclStatus status = HCL_OK;
  char copy[CHECKPOINT_PATH_SIZE], temporary[CHECKPOINT_PATH_SIZE];
  checkpoint_path(path, step, "", copy, sizeof copy);
  checkpoint_path(path, step, ".tmp", temporary, sizeof temporary);
  TRY(copy_file(path, temporary, false)); /* the run's own file: read through a link if it is one */
  if (rename(temporary, copy) != 0) {
    int error = errno;
    unlink(temporary);
    FAIL(HCL_EIO, "cannot rename '%s' to '%s': %s", temporary, copy, strerror(error));
  }
cleanup:
  return status;
}

void hcl_checkpoint_source(const char *path, int64_t step, char *source, size_t size) {
  struct stat info;
  checkpoint_path(path, step, "", source, size);
  if (lstat(source, &info) != 0 || !S_ISREG(info.st_mode)) {
    snprintf(source, size, "%s", path);
  }
}

HclStatus hcl_checkpoint_restore(const char *path, int64_t step, bool *restored) {
  HclStatus status = HCL_OK;
  char copy[CHECKPOINT_PATH_SIZE], temporary[CHECKPOINT_PATH_SIZE];
  struct stat info;
  *restored = false;
  checkpoint_path(path, step, "", copy, sizeof copy);
  hcl_checkpoint_temporary(path, temporary, sizeof temporary);
  if (lstat(copy, &info) != 0 || !S_ISREG(info.st_mode)) { /* none, or not one of ours */
    goto cleanup;
  }
  TRY(copy_file(copy, temporary, true));
  /* rename replaces the name: a link at path is replaced, never written through. */
  if (rename(temporary, path) != 0) {
    int error = errno;
    unlink(temporary);
    FAIL(HCL_EIO, "cannot rename '%s' to '%s': %s", temporary, path, strerror(error));
  }
  *restored = true;
cleanup:
  return status;
}

/* The step of a checkpoint (or of its temporary copy) of name in a folder entry, or -1 when entry is none; a
 * temporary copy also sets *temporary. */
static int64_t step_of(const char *entry, const char *name, bool *temporary) {
  size_t n = strlen(name);
  char *end = NULL;
  *temporary = false;
  if (entry[0] != '.' || strncmp(entry + 1, name, n) != 0 || entry[n + 1] != '.') {
    return -1;
  }
  const char *digits = entry + n + 2;
  if (strcmp(digits, "tmp") == 0) { /* .NAME.tmp: a restored or rewritten file a killed run left */
    *temporary = true;
    return 0;
  }
  if (*digits < '0' || *digits > '9') {
    return -1;
  }
  long long step = strtoll(digits, &end, 10);
  *temporary = strcmp(end, ".tmp") == 0;
  return *temporary || *end == '\0' ? (int64_t)step : -1;
}

HclStatus hcl_checkpoint_discard(const char *path, int64_t keep) {
  HclStatus status = HCL_OK;
  char folder[CHECKPOINT_PATH_SIZE], entry_path[CHECKPOINT_PATH_SIZE * 2];
  const char *name = NULL;
  split_path(path, folder, sizeof folder, &name);
  DIR *dir = opendir(folder);
  if (!dir && errno == ENOENT) {
    goto cleanup;
  }
  REQUIRE(dir != NULL, HCL_EIO, "cannot read folder '%s': %s", folder, strerror(errno));
  for (struct dirent *entry = readdir(dir); entry; entry = readdir(dir)) {
    bool temporary = false;
    int64_t step = step_of(entry->d_name, name, &temporary);
    if (step < 0 || (step == keep && !temporary)) {
      continue;
    }
    snprintf(entry_path, sizeof entry_path, "%s/%s", folder, entry->d_name);
    REQUIRE(unlink(entry_path) == 0 || errno == ENOENT, HCL_EIO, "cannot remove checkpoint '%s': %s", entry_path,
            strerror(errno));
  }
cleanup:
  if (dir) {
    closedir(dir);
  }
  return status;
}
