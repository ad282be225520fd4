#!/usr/bin/env bash
# Every kernel of clreduce under Oclgrind's checks: each reduction variant that runs on Oclgrind's
# device x uint/int/float/double x sum/min/max at an odd n (1001), single_pass's two other paths
# (the slot finish, and the emulated warp shuffle that warp_shuffle uses on NVIDIA), every transpose
# variant x float/uint/double at 17x33, every axis variant at shapes with partial tiles, the segmented
# reduction over empty, short and long segments, and the access study (its two kernels also launched alone by
# oclgrind-kernel, see run_kernel_case); each run also checks the read-peak
# and timer-probe kernels it launches. Runs with --data-races --uninitialized; where Oclgrind itself
# crashes with --uninitialized (a crash of the simulator, not a report), that case runs again with
# --data-races alone and the job says so. Where this Oclgrind misreads 16-lane vectors (lanes16.cl
# shows it on a kernel whose every value is defined), the cases loading them run with --data-races
# alone and their twins at VEC 8 with both checks. Any report not explained in suppressions.txt
# fails the job.
#
# Usage: oclgrind_job.sh CLREDUCE [--kernel-dir DIR] [--only CASE] [--expect-reports] [--shard I/N]
#                        [--sample M]
#   CASE: one line of the case list (e.g. "reduce --variant naive --type uint --op sum"); with
#   --expect-reports the job succeeds only if that case IS reported (a planted bug must be caught).
#   --shard I/N runs the cases k with k % N == I (scripts/test_oclgrind.sh runs one shard per core).
#   --sample M runs a seeded one-in-M sample of the matrices' cases (the loops over variant x type x
#   operator x shape, marked "matrix:" below; every other case always runs). The seed is
#   CLREDUCE_TEST_SAMPLE_SEED, else the day (days since 1970, UTC), as in the doctest suite, and is
#   printed, so CI covers another part each day and a failing sample can be repeated.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cli=$1
shift
kdir=() only="" expect=0 shard=0 shards=1 sample=1
while [ $# -gt 0 ]; do
  case $1 in
    --kernel-dir) kdir=(--kernel-dir "$2"); shift 2 ;;
    --shard)
      [[ $2 =~ ^([0-9]+)/([1-9][0-9]*)$ ]] && [ "${BASH_REMATCH[1]}" -lt "${BASH_REMATCH[2]}" ] ||
        { echo "oclgrind_job.sh: --shard '$2': expected I/N with 0 <= I < N" >&2; exit 2; }
      shard=${BASH_REMATCH[1]} shards=${BASH_REMATCH[2]}; shift 2 ;;
    --sample)
      [[ $2 =~ ^[1-9][0-9]*$ ]] || { echo "oclgrind_job.sh: --sample '$2': expected M >= 1 (one case in M)" >&2; exit 2; }
      sample=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --expect-reports) expect=1; shift ;;
    *) echo "oclgrind_job.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
command -v oclgrind >/dev/null || { echo "oclgrind_job.sh: oclgrind is not installed (Debian: oclgrind)" >&2; exit 2; }

cases=()
if [ -n "$only" ]; then
  cases=("$only")
else
  for v in naive interleaved divergence_free first_add last_wavefront_unroll complete_unroll \
           stride_global stride_local vector single_pass; do
    for t in uint int float double; do
      for o in sum min max; do cases+=("matrix: reduce --variant $v --type $t --op $o"); done
    done
  done
  # contiguous_blocks loads 16-lane vectors by default, which Oclgrind 21.10 misreads (lanes16.cl):
  # its logic at VEC 8 under both checks, and at its default VEC 16 under the lanes16 rule below.
  for t in uint int float double; do
    for o in sum min max; do
      cases+=("matrix: reduce --variant contiguous_blocks --type $t --op $o --vec 8")
      cases+=("matrix: lanes16: reduce --variant contiguous_blocks --type $t --op $o")
    done
  done
  for t in uint int float; do
    cases+=("reduce --variant single_pass --type $t --op sum -D SP_FINISH=1")
  done
  cases+=("reduce --variant single_pass --type float --op max -D SP_SHUFFLE=1")
  for v in naive naive_write_coalesced local_tile local_tile_padded register_tile2 register_tile4 local_tile_multi; do
    for t in float uint double; do cases+=("matrix: transpose --variant $v --type $t --shape 17x33"); done
  done
  # local_tile_vector's vector path needs whole tiles: 16-wide tiles of a 68x132 matrix (rows on
  # whole vectors: pointer loads and stores), of a 66x70 one (off them at VEC 4: vload4/vstore4;
  # on them at VEC 2), each with the edge tiles element by element.
  for t in float uint double; do
    cases+=("matrix: transpose --variant local_tile_vector --type $t --shape 17x33")
    cases+=("matrix: transpose --variant local_tile_vector --type $t --shape 68x132 --tile 16 --rows 4")
  done
  cases+=("matrix: transpose --variant local_tile_vector --type float --shape 66x70 --tile 16 --rows 4")
  cases+=("matrix: transpose --variant local_tile_vector --type float --shape 66x70 --tile 16 --rows 4 --vec 2")
  # Tiles taken in bands (BAND; double's default is 16): a band of 2 over 9 tile columns.
  cases+=("matrix: transpose --variant local_tile_vector --type float --shape 68x132 --tile 16 --rows 4 --band 2")
  # The axis reductions (rows and columns of a matrix), each variant at a shape that leaves every
  # tile, slice and chunk partial, and cols_tile split into chunks (its second pass included);
  # argmax's (value, index) pairs through every tree and second pass.
  for t in uint float double; do
    for o in sum max argmax; do
      cases+=("matrix: reduce --axis rows --variant rows_group --shape 17x333 --type $t --op $o --wg 64")
      cases+=("matrix: reduce --axis rows --variant rows_sliced --shape 37x29 --type $t --op $o --wg 64 --row-width 8")
      cases+=("matrix: reduce --axis rows --variant rows_tile --shape 131x37 --type $t --op $o --wg 64")
      cases+=("matrix: reduce --axis rows --variant rows_split --shape 5x3001 --type $t --op $o --wg 64 --chunks 7")
      # rows_split_fused: 7 parts of each of 5 rows meeting at the row's ticket, the last part short.
      cases+=("matrix: reduce --axis rows --variant rows_split_fused --shape 5x3001 --type $t --op $o --wg 64 --chunks 7")
      cases+=("matrix: reduce --axis cols --variant cols_item --shape 29x37 --type $t --op $o --wg 32")
      cases+=("matrix: reduce --axis cols --variant cols_tile --shape 301x37 --type $t --op $o --chunks 3")
      cases+=("matrix: reduce --axis cols --variant cols_fused --shape 301x37 --type $t --op $o --chunks 3")
      # rows_vector at VEC 4 (2 for doubles) and at VEC 1 (29 columns); cols_stream with 37
      # columns (a step of 4 rows, the matrix's last 1 element by the lane-by-lane tail) and 36,
      # its groups' partial rows folded by cols_tile.
      cases+=("matrix: reduce --axis rows --variant rows_vector --shape 131x36 --type $t --op $o --wg 64")
      cases+=("matrix: reduce --axis rows --variant rows_vector --shape 37x29 --type $t --op $o --wg 64")
      cases+=("matrix: reduce --axis cols --variant cols_stream --shape 301x37 --type $t --op $o --wg 64 --chunks 3")
      cases+=("matrix: reduce --axis cols --variant cols_stream --shape 301x36 --type $t --op $o --wg 64 --chunks 2")
      # rows_warp: 8 lanes per row of 36 (VEC 4: 9 vectors, lane 0 takes two), 4 rows per trip; 29
      # columns at VEC 1; its shuffle emulated through local memory (NV_PTX 0 off NVIDIA).
      cases+=("matrix: reduce --axis rows --variant rows_warp --shape 131x36 --type $t --op $o --wg 64 --row-width 8")
      cases+=("matrix: reduce --axis rows --variant rows_warp --shape 37x29 --type $t --op $o --wg 32")
      # cols_stream_fused (sums, min and max): 3 groups meeting at the ticket; 37 columns stream the
      # finish in steps of 4 rows; 3000 columns with VEC 1 fold the partials by columns.
      if [ "$o" != argmax ]; then
        cases+=("matrix: reduce --axis cols --variant cols_stream_fused --shape 301x37 --type $t --op $o --wg 64 --chunks 3")
        cases+=("matrix: reduce --axis cols --variant cols_stream_fused --shape 40x3000 --type $t --op $o --wg 32 --chunks 2 -D VEC=1")
      fi
    done
  done
  # The segmented reduction: empty segments first, between and last, one-element segments, a
  # segment longer than the group (the offsets file is written below, in $work).
  for t in uint float double; do
    for o in sum min max argmin; do cases+=("matrix: reduce --segments SEGMENTS_FILE --type $t --op $o --wg 64"); done
    # segments_split: 3 parts per segment (empty parts included), then its finish kernel.
    for o in sum argmax; do cases+=("matrix: reduce --segments SEGMENTS_FILE --type $t --op $o --wg 64 --chunks 3"); done
    # segments_sliced: 4 work-items per segment, 16 segments per group (the 9 segments leave 7 slices idle).
    for o in sum argmin; do cases+=("matrix: reduce --segments SEGMENTS_FILE --type $t --op $o --wg 64 --row-width 4"); done
  done
  # A user operator (--op-file): the product through a tree variant, a vector variant, the
  # single-pass finish, an axis and a split segmented reduction, and its in-order reference kernel.
  for v in stride_local vector single_pass; do cases+=("reduce --variant $v --type uint --op-file OPS_DIR/product.clh"); done
  cases+=("reduce --axis cols --variant cols_tile --shape 301x37 --type float --op-file OPS_DIR/sum_of_squares.clh --chunks 3")
  cases+=("reduce --segments SEGMENTS_FILE --type float --op-file OPS_DIR/sum_of_squares.clh --wg 64 --chunks 3")
  # The reduction descriptors' one kernel: every accumulator kind (scalar, pair, Welford, scaled
  # l2, the struct of a nanmean), every input type, two inputs, VEC 1 and the default VEC, the
  # 8- and 16-bit sums' vectors added in 32 bits, count_nonzero's 32-bit words (u8 at the default
  # VEC and at 2, one 16-bit word).
  for c in "var_pop --type f16" "argmax --type u8 --wg 32" "dot --type bf16" "l2 --type f64" \
           "minmax --type i16 --groups-per-cu 3" "nanmean --type f32 --vec 1" "sum --type i64" \
           "count_nonzero --type u16" "sum_wrap --type i8" "std_sample --type u32" "linf --type i32" \
           "argmin --type u64" "sum --type u8" "mean --type i16 --vec 2" "sumsq --type f16" \
           "nanmean --type f16" "argmin --type i8" "var_pop --type i8" "l2 --type u16" "l1 --type i8" \
           "count_nonzero --type u8" "count_nonzero --type i8 --vec 2"; do
    case $c in *--wg*) cases+=("reduce --op $c") ;; *) cases+=("reduce --op $c --wg 64") ;; esac
  done
  # The descriptor's lines and columns: rows (padded, a line of 1, 4 and 32 work-items), rows cut
  # into parts (a ticket per row), columns in one chunk and in row chunks (a ticket per tile),
  # VEC-wide column loads with a tail, segments (empty ones included) with parts.
  cases+=("reduce --op var_pop --type f16 --axis rows --shape 37x45 --ld 48 --wg 64")
  cases+=("reduce --op argmax --type i16 --axis rows --shape 5x301 --wg 64 --row-width 32")
  cases+=("reduce --op count_nonzero --type u8 --axis rows --shape 5x301 --ld 305 --wg 64")
  cases+=("reduce --op sum --type f32 --axis rows --shape 3x2001 --wg 64 --chunks 3")
  cases+=("reduce --op mean --type u8 --axis cols --shape 33x7 --wg 64")
  cases+=("reduce --op argmin --type f32 --axis cols --shape 301x37 --wg 64 --chunks 3")
  cases+=("reduce --op l2 --type f32 --axis cols --shape 41x13 --wg 64 --vec 4 --chunks 2")
  # Structs in the VEC-wide column path (its whole and part loops): argmax's bitwise order, Welford.
  cases+=("reduce --op argmax --type f16 --axis cols --shape 33x19 --wg 64 --vec 2 --chunks 2")
  cases+=("reduce --op var_sample --type bf16 --axis cols --shape 29x11 --wg 64 --vec 4")
  # BLOCK (a column's ITEMS consecutive rows lifted at once; the planner's choice where VEC is 1
  # and the descriptor has a lift_vector): Welford in chunks with a tail of rows, argmax of bytes.
  cases+=("reduce --op var_pop --type f16 --axis cols --shape 37x13 --wg 64 -D ITEMS=2 --chunks 2")
  cases+=("reduce --op argmax --type u8 --axis cols --shape 19x5 --wg 64")
  cases+=("reduce --op nanmean --type f32 --axis cols --shape 37x13 --wg 64 --chunks 2")
  cases+=("reduce --op std_sample --type u16 --axis cols --shape 29x6 --wg 64 -D ITEMS=4")
  # BLOCK with VEC columns a work-item (each block row one VEC-wide load, a column tail element by
  # element), and one row slice (ROWS_Y 1: no tree, no barrier) in chunks.
  cases+=("reduce --op sum --type u8 --axis cols --shape 29x37 --wg 64 -D BLOCK=1 --vec 4 -D ITEMS=4")
  cases+=("reduce --op argmax --type f16 --axis cols --shape 23x19 -D TILE_X=8 -D ROWS_Y=1 --chunks 3 -D BLOCK=1 --vec 2 -D ITEMS=2")
  # The CPU shapes (planned where the device is no GPU; Oclgrind's device takes the GPU ones, so
  # given here): the whole array in contiguous runs (BLOCKED 1), a row per work-item, one work-item
  # per part of a few long rows, eight work-items across the columns.
  cases+=("reduce --op argmax --type f32 -D BLOCKED=1 --wg 8 --vec 4")
  cases+=("reduce --op var_pop --type f16 -D BLOCKED=1 --wg 8 --vec 8")
  cases+=("reduce --op argmax --type f32 --axis rows --shape 37x301 --wg 8 --row-width 1 --vec 4")
  # Runs of consecutive rows and segments per work-item (lines' BLOCKED 1), the last runs short.
  cases+=("reduce --op argmax --type f32 --axis rows --shape 37x301 --wg 8 --row-width 1 --vec 4 -D BLOCKED=1")
  cases+=("reduce --op nanmean --type f32 --segments SEGMENTS_FILE --wg 8 --row-width 1 -D BLOCKED=1")
  cases+=("reduce --op sum --type f32 --axis rows --shape 3x2001 --wg 1 --row-width 1 --chunks 3 --vec 4")
  # LANES (a vector's elements into VEC accumulators, met at the run's or line's end): the whole
  # array's runs, rows a grid apart and in runs (no tree: a line of one work-item writes its value),
  # segments, and a line cut in parts (SPLIT, its ticket).
  cases+=("reduce --op sum --type f32 -D BLOCKED=1 -D LANES=1 --wg 8 --vec 4")
  cases+=("reduce --op dot --type f64 -D BLOCKED=1 -D LANES=1 --wg 8 --vec 8")
  cases+=("reduce --op max --type i32 --axis rows --shape 37x301 --wg 8 --row-width 1 --vec 4 -D LANES=1")
  cases+=("reduce --op sum --type f64 --axis rows --shape 37x301 --wg 8 --row-width 1 --vec 2 -D BLOCKED=1 -D LANES=1")
  cases+=("reduce --op sum --type i32 --segments SEGMENTS_FILE --wg 8 --row-width 1 --vec 4 -D LANES=1")
  cases+=("reduce --op sum --type f32 --axis rows --shape 3x2001 --wg 1 --row-width 1 --chunks 3 --vec 4 -D LANES=1")
  cases+=("reduce --op var_pop --type f32 --axis cols --shape 37x301 -D TILE_X=8 -D ROWS_Y=1 -D VEC=4")
  # The lanes of a struct in an array met in a tree (minmax's uint2), and the columns' SPAN (a CPU's
  # run of SPAN VEC-wide loads a row: the last work-items' spans cut by the matrix, row chunks).
  cases+=("reduce --op minmax --type u32 --axis rows --shape 37x301 --wg 8 --row-width 1 --vec 4 -D LANES=1")
  cases+=("reduce --op sum --type f32 --axis cols --shape 37x301 -D TILE_X=8 -D ROWS_Y=1 -D VEC=4 -D SPAN=2")
  # One row slice: a work-item's whole run of columns written at once, and the chunks' partial rows
  # read a row at a time by the last group (a scalar and a struct accumulator; the last work-items'
  # columns cut by the matrix go column by column).
  cases+=("reduce --op sum --type f32 --axis cols --shape 37x301 --chunks 3 -D TILE_X=8 -D ROWS_Y=1 -D VEC=4 -D SPAN=2")
  cases+=("reduce --op var_pop --type f32 --axis cols --shape 37x301 --chunks 4 -D TILE_X=8 -D ROWS_Y=1 -D VEC=4")
  # Rows of whole vectors in runs, VEC rows' lanes met at once (DESC_VLANES_MEET_T), the runs'
  # remainders row by row, the last run cut by the matrix: a padded ld, and 16-lane vectors.
  cases+=("reduce --op sum --type f32 --axis rows --shape 301x8 --ld 12 --wg 8 --row-width 1 --vec 4 -D BLOCKED=1 -D LANES=1")
  cases+=("reduce --op max --type u16 --axis rows --shape 1001x32 --wg 4 --row-width 1 --vec 16 -D BLOCKED=1 -D LANES=1")
  cases+=("reduce --op max --type i32 --axis cols --shape 37x301 --chunks 3 -D TILE_X=4 -D ROWS_Y=2 -D VEC=2 -D SPAN=4")
  # The columns' lanes as vectors (argmax's values and indices compared lane-wise, unpacked at the
  # end): spans cut by the matrix, row chunks with two row slices; integers; rows' and the whole
  # array's lanes, met on vectors.
  cases+=("reduce --op argmax --type f32 --axis cols --shape 37x301 --chunks 3 -D TILE_X=4 -D ROWS_Y=2 -D VEC=4 -D SPAN=2 -D BLOCK=0 -D LANES=1")
  cases+=("reduce --op argmin --type i16 --axis cols --shape 29x45 -D TILE_X=8 -D ROWS_Y=1 -D VEC=8 -D ITEMS=2 -D BLOCK=0 -D LANES=1")
  cases+=("reduce --op argmax --type f32 --axis rows --shape 5x301 --wg 8 --row-width 1 --vec 4 -D LANES=1")
  cases+=("reduce --op argmin --type u16 -D BLOCKED=1 -D LANES=1 --wg 8 --vec 8")
  cases+=("reduce --op dot --type bf16 --segments SEGMENTS_FILE --wg 64")
  cases+=("reduce --op nanmean --type f32 --segments SEGMENTS_FILE --wg 64 --chunks 3")
  # Exact summation (kernels_cl/exact_sum.clh): the expansion and the integer digits (-D
  # EXACT_EXPANSION=0), each term kind (float, double, products of each), each finish (sum, mean,
  # square root), each rounding (the last group, or a launch of its own: EXACT_LAST_GROUP_ROUNDS),
  # rows, columns, segments and the several-device parts.
  cases+=("reduce --op sum --type f32 --exact --wg 64")
  cases+=("reduce --op sum --type f32 --exact --wg 64 -D EXACT_LAST_GROUP_ROUNDS=0")
  cases+=("reduce --op dot --type f32 --exact --wg 32 -D EXACT_LAST_GROUP_ROUNDS=1")
  cases+=("reduce --op sum --type f64 --exact --wg 16 -D EXACT_WHOLE_TRIPS=0")
  # A double's 68 digits taken to and from global memory by a group of 16 (four digits a work-item).
  cases+=("reduce --op sum --type f64 --exact --wg 16 -D EXACT_LAST_GROUP_ROUNDS=1")
  cases+=("reduce --op sum --type f32 --exact --wg 64 -D EXACT_GROUP=0")
  cases+=("reduce --op mean --type f16 --exact --wg 64 -D EXACT_EXPANSION=0")
  cases+=("reduce --op dot --type f64 --exact --wg 16")
  cases+=("reduce --op dot --type f64 --exact --wg 16 -D EXACT_GROUP=0")
  cases+=("reduce --op l2 --type bf16 --exact --wg 64 --vec 2")
  cases+=("reduce --op sum --type f64 --exact --wg 16 -D EXACT_EXPANSION=0")
  cases+=("reduce --op dot --type f32 --exact --axis rows --shape 5x301 --wg 64")
  cases+=("reduce --op mean --type f32 --exact --axis cols --shape 37x13 --wg 64 --chunks 2")
  cases+=("reduce --op sum --type f32 --exact --segments SEGMENTS_FILE --wg 64")
  cases+=("bench multi --op sum --type f32 --exact --n 1001 --chunk 300")
  # User descriptor files: a struct accumulator over the whole array, two inputs and a run-time
  # scalar over rows; each run's device reference (descriptor_reference.cl) runs with it.
  cases+=("reduce --op-file OPS_DIR/iamax.clh --wg 64")
  cases+=("reduce --op-file OPS_DIR/huber_loss.clh --scalar 0.5 --axis rows --shape 5x301 --wg 64")
  # The several-device path's descriptor kernels (on the one Oclgrind device): each chunk's
  # unfinished accumulator (PARTIAL 1, the whole input's indices) and their in-order fold.
  cases+=("bench multi --op argmax --type f32 --n 1001 --chunk 300")
  cases+=("bench multi --op mean --type f16 --n 1001 --chunk 300")
  cases+=("bench multi --op-file OPS_DIR/huber_loss.clh --scalar 0.5 --n 1001 --resident")
  cases+=("bench access --n 1001")
  # bench access first measures the read peak (its run-time estimate), whose vector loads crash
  # this Oclgrind under --uninitialized, so that case falls back to --data-races alone; the access
  # kernels themselves run here once more with both checks, launched directly (4 groups of 256
  # over n = 5003: chunks of 5, the last ones short or empty), their partials summed and checked.
  cases+=("kernel: sum_of_cubes_contiguous" "kernel: sum_of_cubes_interleaved")
  # The read peak's two kernels (grid-stride and contiguous blocks: both run on a CPU device).
  cases+=("lanes16: bench --n 1001 --variants contiguous_blocks")
fi

work=$(mktemp -d /tmp/clreduce-oclgrind-XXXXXX)
trap 'rm -rf "$work"' EXIT
# No kernel watchdog: Oclgrind interprets a kernel on the thread that waits for it, so its minutes
# are no hang, and the watcher's polls of its events from another thread are not what is checked.
export CLREDUCE_KERNEL_TIMEOUT=0
common=(--iterations 1 --warmup 0 --batch 1)
# The segmented cases' offsets: 9 segments over 1001 elements, lengths 0 0 1 1 4 295 0 700 0.
echo "0 0 0 1 2 6 301 301 1001 1001" >"$work/segments.txt"

# Reports of one run's stderr not explained by the suppressions, one line each (clreduce's own
# warning, chart and progress lines are not reports).
unexplained() {
  awk -v supp="$here/suppressions.txt" '
    BEGIN { FS = "\t"; while ((getline line < supp) > 0) { if (line ~ /^#/ || line == "") continue;
              split(line, f, "\t"); ok[f[1] "\t" f[2]] = 1 } }
    function flush() {
      if (head == "") return
      explained = (kernel != "" && nlines > 0)
      for (i = 1; i <= nlines; i++) if (!((kernel "\t" code[i]) in ok)) explained = 0
      if (!explained) { n = ""; for (i = 1; i <= nlines; i++) n = n " | " code[i]; print head " [" kernel "]" n }
      head = ""; kernel = ""; nlines = 0
    }
    /^[^ \t]/ && $0 !~ /^clreduce: (warning|chart|progress)/ { flush(); head = $0; next }
    /^\tKernel: / { sub(/^\tKernel: /, ""); kernel = $0; next }
    /^\tAt line / { want = 1; next }
    want == 1 { line = $0; gsub(/^[ \t]+|[ \t]+$/, "", line); code[++nlines] = line; want = 0; next }
    END { flush() }' "$1"
}

# Oclgrind 21.10 marks lanes 8-15 of a 16-lane vector uninitialised (lanes16.cl, every value in it
# defined). While its reproducer is reported, the cases marked "lanes16:" (16-lane loads) run with
# --data-races alone, their logic being checked for uninitialised reads at VEC 8 by their twins;
# an Oclgrind that gets this right runs them with both checks.
lanes16_misread=0
lanes16_out=$(cd "$here" && oclgrind-kernel --uninitialized lanes16.sim 2>&1)
if grep -q "uninitialized value" <<<"$lanes16_out"; then
  lanes16_misread=1
  echo "note: this Oclgrind misreads the upper lanes of 16-lane vectors (tests/oclgrind/lanes16.cl):" \
       "16-lane cases run with --data-races alone"
fi

# One access kernel launched by oclgrind-kernel with both checks: no report, and its partials
# summing to the sum of x^3 for x = 1..5003 modulo 2^32.
kernel_source_dir=$here/../../kernels_cl
[ ${#kdir[@]} -gt 0 ] && kernel_source_dir=${kdir[1]}
run_kernel_case() {
  local name=$1 n=5003
  printf '%s\n%s\n1024 1 1\n256 1 1\n<size=%d range=1:1:%d uint>\n<size=16 fill=0 uint dump>\n<size=8 ulong>%d\n' \
    "$kernel_source_dir/sum_of_cubes.cl" "$name" $((4 * n)) $n $n >"$work/$name.sim"
  local out code want got
  out=$(OCLGRIND_BUILD_OPTIONS="-I $kernel_source_dir" oclgrind-kernel --max-errors 100000000 --data-races \
        --uninitialized "$work/$name.sim" 2>"$work/err")
  code=$?
  want=$(( (n * (n + 1) / 2) * (n * (n + 1) / 2) & 0xFFFFFFFF ))
  got=0
  while read -r v; do got=$(( (got + v) & 0xFFFFFFFF )); done < <(sed -n 's/^ *out\[[0-9]*\] = //p' <<<"$out")
  reports=$(unexplained "$work/err")
  if [ -n "$reports" ]; then
    caught=1
    [ $expect = 1 ] || { echo "REPORTED: kernel $name"; echo "$reports" | sort | uniq -c | head -20; }
    [ $expect = 1 ]
    return
  fi
  [ $code -eq 0 ] && [ "$got" = "$want" ] && return 0
  [ $expect = 1 ] && return 0
  echo "FAILED (exit $code): kernel $name: partials sum to '$got', want $want"
  tail -n 5 "$work/err"
  return 1
}

# The sample (--sample M): a matrix case k runs when a hash of (seed, k) is 0 modulo M.
seed=${CLREDUCE_TEST_SAMPLE_SEED:-$(( $(date -u +%s) / 86400 ))}
[[ $seed =~ ^[0-9]+$ ]] || { echo "oclgrind_job.sh: CLREDUCE_TEST_SAMPLE_SEED='$seed': expected an unsigned integer" >&2; exit 2; }
selected=() matrix=0 k=0
for c in "${cases[@]}"; do
  if [ "${c#matrix: }" != "$c" ]; then
    c=${c#matrix: } matrix=$((matrix + 1)) k=$((k + 1))
    h=$(( ((seed % 1000003) * 2654435761 + k * 40503 + 12345) & 0xFFFFFFFF ))
    h=$(( ((h ^ (h >> 13)) * 2246822519) & 0xFFFFFFFF ))
    [ $(( (h ^ (h >> 16)) % sample )) -eq 0 ] || continue
  fi
  selected+=("$c")
done
[ "$sample" -gt 1 ] && echo "oclgrind job: a seeded one-in-$sample sample of the $matrix matrix cases, seed $seed" \
  "(repeat it with CLREDUCE_TEST_SAMPLE_SEED=$seed --sample $sample; --sample 1 runs all)"

failed=0 caught=0 fallback=0 lanes16=0 i=0 ran=0
for c in "${selected[@]}"; do
  i=$((i + 1))
  [ $(( (i - 1) % shards )) -eq "$shard" ] || continue
  ran=$((ran + 1))
  flags=(--max-errors 100000000 --data-races --uninitialized)
  if [ "${c#lanes16: }" != "$c" ]; then
    c=${c#lanes16: }
    [ $lanes16_misread = 1 ] && { flags=(--max-errors 100000000 --data-races); lanes16=$((lanes16 + 1)); }
  fi
  if [ "${c#kernel: }" != "$c" ]; then
    run_kernel_case "${c#kernel: }" || failed=1
    continue
  fi
  c=${c//OPS_DIR/$here/../../kernels_cl/examples}
  read -r -a args <<<"${c//SEGMENTS_FILE/$work/segments.txt}"
  extra=("${common[@]}")
  # Whole-array reductions at an odd n; axis reductions (--axis) carry their --shape, segmented
  # ones (--segments) their offsets file.
  [ "${args[0]}" = reduce ] && [[ " ${args[*]} " != *" --axis "* && " ${args[*]} " != *" --segments "* ]] &&
    extra+=(--n 1001 --no-tuning)
  # bench multi times whole calls: no batches.
  [ "${args[0]} ${args[1]}" = "bench multi" ] && extra=(--iterations 1 --warmup 0)
  (oclgrind "${flags[@]}" "$cli" "${kdir[@]}" "${args[@]}" "${extra[@]}" >"$work/out" 2>"$work/err")
  code=$?
  if [ $code -ge 128 ] && [[ " ${flags[*]} " == *" --uninitialized "* ]]; then  # Oclgrind crashed with --uninitialized: the data-race check alone
    fallback=$((fallback + 1))
    echo "note: Oclgrind crashed (signal $((code - 128))) with --uninitialized on: $c; ran with --data-races alone"
    flags=(--max-errors 100000000 --data-races)
    (oclgrind "${flags[@]}" "$cli" "${kdir[@]}" "${args[@]}" "${extra[@]}" >"$work/out" 2>"$work/err")
    code=$?
  fi
  reports=$(unexplained "$work/err")
  if [ -n "$reports" ]; then
    caught=1
    [ $expect = 1 ] || { failed=1; echo "REPORTED: $c (${flags[*]})"; echo "$reports" | sort | uniq -c | head -20; }
  fi
  if [ $code -ne 0 ] && [ $expect = 0 ]; then
    failed=1
    echo "FAILED (exit $code): $c"
    tail -n 5 "$work/out" "$work/err"
  fi
done
echo "oclgrind job: $ran of ${#selected[@]} cases (shard $shard/$shards; ${#cases[@]} in the list); with --data-races alone: $fallback where Oclgrind crashed with" \
     "--uninitialized, $lanes16 with 16-lane vectors (lanes16.cl)"
if [ $expect = 1 ]; then
  [ $caught = 1 ] && { echo "the planted bug was reported, as it must be"; exit 0; }
  echo "the planted bug was NOT reported"; exit 1
fi
[ $failed = 0 ] && echo "no report the design does not explain" || echo "oclgrind job FAILED"
exit $failed
