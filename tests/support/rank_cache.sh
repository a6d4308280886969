# SPDX-License-Identifier: BSD-3-Clause
# rank_cache.sh: PoCL kernel caches for the ranks of the MPI test scripts (sourced).
# Ranks building the same program into one cache at once race on it (a build failing with an empty log), so each
# rank has a cache of its own. Each starts as a copy of the suite's cache (POCL_CACHE_DIR, else PoCL's default
# folder), where the one-rank tests have built most programs already: a cold PoCL build is most of a small run's
# time (laplace_history's defect correction on one rank, on the 2-core machine: 38 s cold, 2 s from the cache). The
# copies are copies, not hard links, so that no process can write through to another's file (the suite's cache is
# some 40 MB: under a second a copy).
# rank_cache_init DIR: the caches live in DIR/rankK, for ranks_run.
# ranks_run N CMD...: mpirun -n N CMD with each rank's cache, stopped after 10 minutes ($mpirun must be set); rank
#   K's cache takes what rank 0's has built before the run, so a program is built once per script at most.
# rank_cache_for_hydrocl DIR: for the hydrocl command under a plain mpirun, which gives each node-local rank K the
#   cache $TMPDIR/hydrocl-pocl-cache-UID-rankK (src/cli/cli_main.c): TMPDIR becomes DIR, and ranks 0 to 3 start there
#   with the suite's cache.
rank_cache_suite=${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pocl/kcache}

# rank_cache_copy FROM TO: what TO lacks of FROM
rank_cache_copy() {
  mkdir -p "$2"
  [ -d "$1" ] || return 0
  cp -Rn "$1/." "$2/"
}

rank_cache_init() {
  rank_cache_root=$1
  rank_cache_copy "$rank_cache_suite" "$rank_cache_root/rank0"
}

ranks_run() {
  local n=$1 k
  shift
  for ((k = 1; k < n; k++)); do
    rank_cache_copy "$rank_cache_root/rank0" "$rank_cache_root/rank$k"
  done
  timeout 600 "$mpirun" -n "$n" sh -c 'POCL_CACHE_DIR="$0/rank${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}" exec "$@"' \
    "$rank_cache_root" "$@"
}

rank_cache_for_hydrocl() {
  local k
  export TMPDIR=$1
  for k in 0 1 2 3; do
    rank_cache_copy "$rank_cache_suite" "$TMPDIR/hydrocl-pocl-cache-$(id -u)-rank$k"
  done
}
