/* SPDX-License-Identifier: BSD-3-Clause */
/* fullfs.c: an LD_PRELOAD shim that makes one file's disk fill up, for the tests of a run that meets a full disk.
 * Writes to files whose path ends in $FULLFS_FILE succeed until $FULLFS_BYTES bytes have been written to them (all
 * such files of the process together), then fail with ENOSPC as a full file system's would. Other files are left
 * alone. Covers write, pwrite and pwrite64, the calls HDF5's default (sec2) driver makes. With $FULLFS_FREE set,
 * statvfs of a path ending in $FULLFS_FOLDER says that many bytes are free (the room a run checks before it writes);
 * with $FULLFS_READONLY set too, that the file system is mounted read-only (as a full image mounted read-only says,
 * with no block free). */
/* meson builds with 64-bit file offsets, which makes pwrite an alias of pwrite64; this shim defines both. */
#undef _FILE_OFFSET_BITS
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <unistd.h>

static long long written_so_far = 0;

/* Whether fd is one of the files that fill up. */
static int is_target(int fd) {
  const char *suffix = getenv("FULLFS_FILE");
  char link[64], path[4096];
  if (!suffix || !*suffix) {
    return 0;
  }
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path - 1);
  if (n <= 0) {
    return 0;
  }
  path[n] = '\0';
  size_t length = strlen(suffix);
  return (size_t)n >= length && strcmp(path + n - length, suffix) == 0;
}

/* Whether count more bytes fit; counts them when they do. */
static int fits(size_t count) {
  const char *limit = getenv("FULLFS_BYTES");
  long long budget = limit ? atoll(limit) : 0;
  if (written_so_far + (long long)count > budget) {
    errno = ENOSPC;
    return 0;
  }
  written_so_far += (long long)count;
  return 1;
}

ssize_t write(int fd, const void *buf, size_t count) {
  static ssize_t (*real)(int, const void *, size_t);
  if (!real) {
    real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
  }
  if (is_target(fd) && !fits(count)) {
    return -1;
  }
  return real(fd, buf, count);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
  static ssize_t (*real)(int, const void *, size_t, off_t);
  if (!real) {
    real = (ssize_t(*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
  }
  if (is_target(fd) && !fits(count)) {
    return -1;
  }
  return real(fd, buf, count, offset);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t offset) {
  static ssize_t (*real)(int, const void *, size_t, off64_t);
  if (!real) {
    real = (ssize_t(*)(int, const void *, size_t, off64_t))dlsym(RTLD_NEXT, "pwrite64");
  }
  if (is_target(fd) && !fits(count)) {
    return -1;
  }
  return real(fd, buf, count, offset);
}

/* Whether path is the folder whose free space the shim reports. */
static int is_target_folder(const char *path) {
  const char *suffix = getenv("FULLFS_FOLDER"), *free_bytes = getenv("FULLFS_FREE");
  size_t n = strlen(path), length = suffix ? strlen(suffix) : 0;
  return suffix && *suffix && free_bytes && n >= length && strcmp(path + n - length, suffix) == 0;
}

/* $FULLFS_FREE in blocks of block bytes. */
static unsigned long long free_blocks(unsigned long block) {
  return (unsigned long long)(atoll(getenv("FULLFS_FREE")) / (long long)(block ? block : 1));
}

int statvfs(const char *path, struct statvfs *info) {
  static int (*real)(const char *, struct statvfs *);
  if (!real) {
    real = (int (*)(const char *, struct statvfs *))dlsym(RTLD_NEXT, "statvfs");
  }
  int result = real(path, info);
  if (result == 0 && is_target_folder(path)) {
    info->f_bavail = info->f_bfree = (fsblkcnt_t)free_blocks(info->f_frsize);
    info->f_flag |= getenv("FULLFS_READONLY") ? ST_RDONLY : 0;
  }
  return result;
}

int statvfs64(const char *path, struct statvfs64 *info) {
  static int (*real)(const char *, struct statvfs64 *);
  if (!real) {
    real = (int (*)(const char *, struct statvfs64 *))dlsym(RTLD_NEXT, "statvfs64");
  }
  int result = real(path, info);
  if (result == 0 && is_target_folder(path)) {
    info->f_bavail = info->f_bfree = (fsblkcnt64_t)free_blocks(info->f_frsize);
    info->f_flag |= getenv("FULLFS_READONLY") ? ST_RDONLY : 0;
  }
  return result;
}
