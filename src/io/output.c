/* SPDX-License-Identifier: BSD-3-Clause */
/* output.c: what the output files share (see output.h). */
#include "output.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "ncutil.h"
#include "par.h"

#ifdef HYDROCL_HAVE_HDF5
#include <hdf5.h>
#endif

void hcl_output_library_init(void) {
#ifdef HYDROCL_HAVE_HDF5
  H5dont_atexit();
  /* HDF5 built for MPI, started after MPI_Init, hangs its clean-up on MPI_Finalize instead (an attribute of
   * MPI_COMM_SELF), where it crashes alike: started here, before hcl_par_init, it has none. */
  H5open();
#endif
}

bool hcl_output_continues_collectively(const char *path, const char *variable) {
  bool early = true;
#ifdef HYDROCL_HAVE_HDF5
  hid_t file = H5I_INVALID_HID, data = H5I_INVALID_HID, plist = H5I_INVALID_HID;
  H5D_alloc_time_t when = H5D_ALLOC_TIME_ERROR;
  H5E_BEGIN_TRY { /* a file HDF5 cannot read is refused by netCDF after this, with a message */
    file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    data = file >= 0 ? H5Dopen2(file, variable, H5P_DEFAULT) : H5I_INVALID_HID;
    plist = data >= 0 ? H5Dget_create_plist(data) : H5I_INVALID_HID;
    if (plist >= 0 && H5Pget_alloc_time(plist, &when) >= 0) {
      early = when == H5D_ALLOC_TIME_EARLY;
    }
    if (plist >= 0) {
      H5Pclose(plist);
    }
    if (data >= 0) {
      H5Dclose(data);
    }
    if (file >= 0) {
      H5Fclose(file);
    }
  }
  H5E_END_TRY;
#else
  (void)path;
  (void)variable;
#endif
  return early;
}

HclStatus hcl_output_make_folders(const char *path) {
  HclStatus local = HCL_OK;
  char partial[1024];
  if (hcl_par_rank() == 0) {
    size_t n = strlen(path);
    for (size_t i = 1; i <= n && local == HCL_OK; i++) {
      if (path[i] != '/' && path[i] != '\0') {
        continue;
      }
      snprintf(partial, sizeof partial, "%.*s", (int)i, path);
      struct stat info;
      if (mkdir(partial, 0777) != 0 && (errno != EEXIST || stat(partial, &info) != 0 || !S_ISDIR(info.st_mode))) {
        local = hcl_status_set(HCL_ECANTCREAT, __FILE__, __LINE__, "cannot create output folder '%s': %s", partial,
                               errno == EEXIST ? "a file of that name is in the way" : strerror(errno));
      }
    }
  }
  return hcl_par_agree(local);
}

HclStatus hcl_output_trim(const char *path, double t, int *dropped) {
#ifdef HYDROCL_HAVE_NETCDF
  return nc_output_trim(path, t, dropped);
#else
  (void)path;
  (void)t;
  *dropped = 0; /* no file of frames without netCDF */
  return HCL_OK;
#endif
}
