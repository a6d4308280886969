# setup.sh: the set-up shared by tools/demo and tools/check (sourced): install what is missing from the
# distribution's packages (as root) or print the one apt line to run, then configure and build in build/.
# Works on Debian 12 and Ubuntu 24.04; nothing is vendored or downloaded at build time.

hydrocl_packages="gcc meson ninja-build pkg-config python3 ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd
  clinfo libopenmpi-dev openmpi-bin libnetcdf-dev libyaml-dev python3-netcdf4 python3-matplotlib clang-format"

hydrocl_install_missing() {
  local missing="" p
  for p in $hydrocl_packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "hydrocl needs these packages; run:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends$missing" >&2
    return 1
  fi
  echo "installing:$missing" >&2
  apt-get update -q >&2 &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >&2
}

# Configures build/ on first use (meson setup with the defaults of meson_options.txt) and builds.
hydrocl_build() {
  if [ ! -f build/build.ninja ]; then
    meson setup build >&2 || return 1
  fi
  ninja -C build >&2
}
