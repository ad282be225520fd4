// What is reduced, independent of how: a reduction descriptor. Its inputs (1 to 4 buffers, each of
// its own element type), a map over the inputs' elements at one index (and the index itself, and
// run-time scalar arguments), an accumulator (a scalar or a small struct) with its identity and
// combine, and a finish applied to the accumulated value (mean = sum / n, sqrt for a norm). The
// built-in reductions (sum, mean, var_pop, dot, argmax, ...) are descriptors made by builtin();
// a user's own is a Reduction filled in by hand.
//
// The descriptor is OpenCL C text plus types: reduction_source() turns it into the header the
// generic kernels include (kernels_cl/descriptor.clh stands in for it), so each descriptor is one
// program per launch configuration, and changing a scalar argument does not rebuild anything.
//
// Semantics of the built-ins (each for every input type, unless it says otherwise):
//   sum            integers in 64 bits (u8..u64 into u64, i8..i64 into i64: exact for any n below
//                  2^32 of 32-bit elements; u64/i64 wrap modulo 2^64); f16, bf16 and f32 in f32;
//                  f64 in f64; accumulate F64 takes f32 (or any type) into f64
//   sum_wrap       in the element's own type: integers wrap modulo 2^bits (the teaching family's
//                  and the Op::Sum API's uint/int sums); floats as sum
//   min, max       the element's value (f16/bf16 results as f32, exactly); floats by fmin/fmax: a
//                  NaN loses to a number, all NaN gives NaN (as Op::Min/Op::Max always have); of
//                  nothing (an empty segment) the highest (lowest) value, +inf (-inf) for floats,
//                  as the Op path's segments give it
//   nanmin, nanmax the same as min and max (which already skip NaN)
//   argmin, argmax the value and the index of its first occurrence (ArgValue layout, 16 bytes);
//                  the first NaN wins (NumPy's and PyTorch's rule); of nothing (an empty
//                  segment) min's (max's) value of nothing and the index UINT64_MAX (str(): "none")
//   minmax         the pair (min, max), each as min and max give it
//   mean           sum / n in f32 (f64 for f64 inputs or with accumulate F64): 8- to 32-bit
//                  integers from their exact 64-bit sum, 64-bit integers summed in the float type
//   nanmean        the mean of the elements that are not NaN (NaN when all are)
//   var_pop, var_sample, std_pop, std_sample
//                  one pass: Welford's (count, mean, M2) per work-item, combined by Chan's
//                  formula; var = M2 / n (pop) or M2 / (n - 1) (sample; NaN for n = 1), std its
//                  square root; f32 (f64 as mean; integers of 32 and 64 bits whose squares pass
//                  f32's range overflow to inf: accumulate them in F64)
//   count_nonzero  u64: elements != 0 (a NaN counts, as in NumPy)
//   any, all       u8: 1 when any (all) element is != 0
//   nansum         sum with NaN elements skipped (integers: sum)
//   l1             sum of |x| (integers in u64, modulo 2^64 as sum)
//   l2             the Euclidean norm, overflow-safe (a scaled sum of squares, as LAPACK's nrm2):
//                  f32 (f64 as mean)
//   linf           max |x| (integers: the unsigned type of the element's width; NaN loses; 0 of
//                  nothing, as l1 and l2)
//   dot            two inputs of one type: sum of x0 * x1 (integers: products and sum modulo 2^64)
//   sqdist         two inputs of one type: sum of (x0 - x1)^2, the squared Euclidean distance
//   sumsq          sum of x^2, the squared norm in one read (dot of x with itself: integers in u64,
//                  modulo 2^64, signed ones too; floats in the float type or F64)
//
// Thread-safety: plain values and pure functions.
// Errors: Error (Param::Type, Param::Op) naming the valid choices.
#pragma once

#include "clreduce/types.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace clreduce {

// The element types of a descriptor's inputs and results. F16 and BF16 are storage types: the
// kernels read them into float.
enum class Scalar { U8, I8, U16, I16, U32, I32, U64, I64, F16, BF16, F32, F64 };

const std::vector<Scalar>& all_scalars();
std::string_view name_of(Scalar s);  // "u8", "i8", ..., "f16", "bf16", "f32", "f64"
// The name, NumPy's (uint8 .. float64, float16, bfloat16) or the old ElemType names (uint, int,
// float, double). Throws Error (Param::Type) listing the valid names.
Scalar parse_scalar(std::string_view text);
std::size_t size_of(Scalar s);  // bytes: 1, 2, 4 or 8
bool is_floating(Scalar s);     // F16, BF16, F32, F64
bool is_signed(Scalar s);       // I8..I64 and the floats
Scalar to_scalar(ElemType t);   // Uint -> U32, Int -> I32, Float -> F32, Double -> F64
std::optional<ElemType> to_elem_type(Scalar s);  // the reverse, where there is one
// The OpenCL C type a kernel reads the element into ("uchar", ..., "float" for F16 and BF16).
std::string_view compute_type(Scalar s);

// IEEE binary16 and bfloat16 from and to float, by their bit layout (round to nearest even;
// NaN stays NaN). For hosts preparing and checking such data.
float f16_to_float(std::uint16_t bits);
std::uint16_t float_to_f16(float f);
float bf16_to_float(std::uint16_t bits);
std::uint16_t float_to_bf16(float f);

// How a result lies in memory (the buffer the user gets, and Result's bytes).
struct ResultLayout {
  enum class Kind {
    Value,  // one value of `type`
    Arg,    // ArgValue: the value of `type` at offset 0, its u64 index at offset 8 (16 bytes)
    Pair,   // two values of `type`: (min, max)
  };
  Kind kind = Kind::Value;
  Scalar type = Scalar::F32;
  std::size_t bytes() const;
  std::string str() const;  // "f32", "argvalue<f32>", "pair<f32>"
  bool operator==(const ResultLayout& o) const { return kind == o.kind && type == o.type; }
  bool operator!=(const ResultLayout& o) const { return !(*this == o); }
};

// One result of a descriptor, as its bytes and their layout.
struct Result {
  ResultLayout layout;
  std::array<unsigned char, 16> bytes{};

  // The value (Arg: the value; Pair: the first, min) as a double (u64/i64 above 2^53 round).
  double value() const;
  double second() const;          // Pair: the second value (max); throws Error otherwise
  std::uint64_t index() const;    // Arg: the index; throws Error otherwise
  std::uint64_t as_u64() const;   // Value of an integer type: its exact value (i64 as two's complement bits)
  std::int64_t as_i64() const;
  std::string str() const;        // exact for integers, shortest round-trip for floats; "v @ i" ("v @ none"
                                  // for an empty segment's UINT64_MAX), "(lo, hi)"
  template <class T>
  T get() const {                 // the first value's bits as T (T's size must be the type's)
    check_size(sizeof(T));
    T x;
    std::memcpy(&x, bytes.data(), sizeof(T));
    return x;
  }
  static Result from_bytes(const ResultLayout& layout, const void* p);

 private:
  void check_size(std::size_t bytes) const;
};

// How a descriptor's sum is taken. Default: in the accumulator's float type, in the order the
// launch folds (so the last bits of a float sum depend on the launch, the device and the split of
// the input). Exact: the exact mathematical sum of every term (product, square), rounded once to
// the result's type, round to nearest even: the same bits for every launch, work-group size,
// device, chunking and number of devices (kernels_cl/exact_sum.clh says how).
enum class Summation { Default, Exact };
std::string_view name_of(Summation s);  // "default", "exact"

// A run-time scalar argument of a descriptor (s0..s3 in its map): converted to the declared type
// when a launch sets its arguments, so changing one never rebuilds a program.
using ScalarArg = std::variant<std::int64_t, std::uint64_t, double>;

// The built-in reductions (see the file comment for what each computes).
enum class Builtin {
  Sum, SumWrap, Min, Max, ArgMin, ArgMax, MinMax, Mean, NanMean, VarPop, VarSample, StdPop,
  StdSample, CountNonzero, Any, All, NanSum, NanMin, NanMax, L1, L2, LInf, Dot, SqDist, SumSq
};
const std::vector<Builtin>& all_builtins();
std::string_view name_of(Builtin b);  // "sum", "sum_wrap", ..., "sqdist", "sumsq"
// Throws Error (Param::Op) naming the valid built-ins.
Builtin parse_builtin(std::string_view text);
unsigned builtin_inputs(Builtin b);  // 2 for dot and sqdist, else 1

// A reduction descriptor. Every text field is OpenCL C; the generated header declares the
// functions named in each comment, so a field may use the others' names.
struct Reduction {
  std::string name;                   // for messages and reports: "sum", "dot", a user's name
  std::vector<Scalar> inputs;         // 1 to 4 element types; the kernel's in0..in3
  std::vector<Scalar> scalars;        // 0 to 4 run-time scalar types; the map's s0..s3
  // map: an expression of x0..x3 (each input's element at one index, read into compute_type()),
  // i (ulong: the index from the first element reduced) and s0..s3, of type map_type.
  std::string map_type;
  std::string map;
  // The accumulator: acc_type (an OpenCL C type; a struct is typedef'd in `prelude`), `identity`
  // (an expression), lift (v, i) -> acc (an expression of v, the mapped value, and i), combine
  // (a, b) -> acc (associative and commutative up to rounding: the kernels fold in any order).
  std::string prelude;                // typedefs and helper functions, placed before the rest
  std::string acc_type;
  std::size_t acc_bytes = 0;          // sizeof(acc_type) on the device (partials' storage)
  std::string identity;
  std::string lift;
  std::string combine;
  // Optional: lift_vector (v, i) -> acc, the accumulator of VEC mapped values at once (v: a
  // vector of VEC map_type values, elements i .. i + VEC - 1 in order), where that is cheaper than
  // VEC lifts and combines (a Welford block's mean and M2 in registers). It may use desc_vec_u
  // (a union of v and map_type a[VEC]) and must hold for VEC 2, 4, 8 and 16; map_type must be a
  // scalar type. Empty: each element is lifted and combined.
  std::string lift_vector;
  // Optional, for one input: lift_input_vector (x, i) -> acc, the accumulator of VEC elements read
  // straight from the input (x: elements i .. i + VEC - 1 as loaded, a vector of the input's
  // compute type), map and lift skipped, where the elements' bits give a cheaper reading than
  // VEC maps (count_nonzero of 8- and 16-bit integers: the zero tests of a 32-bit word's bytes
  // in five operations). It must equal the fold of map, lift and combine over those elements for
  // VEC 2, 4, 8 and 16. The whole-array and row kernels' vector reads use it; columns map each
  // element (and use lift_vector, if any). Empty: the elements are mapped.
  std::string lift_input_vector;
  // Optional, where acc_type is one of OpenCL C's scalar types: combine_vector (a, b), the same
  // combine of two vectors of acc_type component by component, written so that it holds for
  // OpenCL C's vectors of 2 to 16 acc_type and for acc_type itself; a CPU's kernels meet their
  // vector lanes with it (a row's lanes, or 16 rows' at once) where the scalar combine applied to
  // each component stays scalar code. It must equal combine in every component. Empty: a combine
  // that reads exactly a + b, a | b, a & b, min(a, b), max(a, b), fmin(a, b) or fmax(a, b) serves
  // as its own (vector_combine_of), any other goes component by component.
  std::string combine_vector;
  // Optional, all four or none, for an accumulator that is no scalar type (argmin/argmax's pair):
  // the accumulators of VEC lanes held as one value of vectors (a structure of arrays), which a
  // CPU's compiler keeps in SIMD registers where an array of VEC structs stays scalar code (f32
  // argmax columns on PoCL: bench/NOTES.md, struct lanes on a CPU). They must hold for VEC 2, 4,
  // 8 and 16 (they may use VEC, DESC_CAT(type, VEC) and the prelude's names); map_type must be a
  // scalar type.
  //   lanes_type: the lanes' type, for VEC lanes (a struct of the prelude);
  //   lanes_identity: an expression of lanes_type, every lane the identity;
  //   lanes_fold: statements that fold v (DESC_MAPV: VEC mapped values) into *L (a private
  //     pointer), lane c taking v.sc at index iv.sc (iv: a ulong vector of VEC indices), each lane
  //     exactly as *a = combine(*a, lift(v.sc, iv.sc)) would;
  //   lanes_unpack: statements that write lane c of *L to acc[c] for c < VEC (acc: a private
  //     DESC_ACC pointer).
  // And, optional with them, lanes_meet: an expression of L (a private pointer to lanes_type) of
  // type acc_type, its VEC lanes met in a tree of halves (lane c with lane c + VEC / 2, then
  // c + VEC / 4, ...: the pairs the kernels' tree over the unpacked lanes combines), where whole
  // vectors at a time are cheaper than VEC - 1 combines of unpacked lanes (a CPU's short rows).
  std::string lanes_type;
  std::string lanes_identity;
  std::string lanes_fold;
  std::string lanes_unpack;
  std::string lanes_meet;
  // Optional: fold, statements that add one more mapped value v (index i) to the accumulator *a
  // in place (a: a private pointer), where that is cheaper than *a = combine(*a, lift(v, i)) (the
  // exact accumulator adds one term to its digits, copying nothing). It must equal that. Empty:
  // *a = combine(*a, lift(v, i));
  std::string fold;
  // finish: an expression of a (the accumulated value) and n (ulong: the elements reduced), of
  // out_type: the OpenCL C type laid out as `out` says (a scalar, or a struct of the prelude).
  std::string finish;
  std::string out_type;
  ResultLayout out;
  // True when the result is exact in the integers (the check compares bits); false for float
  // results, which a check bounds by the reduction's depth.
  bool exact = false;
  // For the checks: the built-in this descriptor is, if one.
  std::optional<Builtin> builtin;
  // Summation::Exact for the exact built-ins (builtin(..., Summation::Exact)).
  Summation summation = Summation::Default;
  // Where `prelude` came from, for build logs: a user descriptor file's path (each line of a
  // compiler message in the prelude, or in a macro it defines, then names that file and line);
  // empty: the generated header's own lines.
  std::string origin;
  bool needs_fp64() const;  // an input, scalar, accumulator or result of f64
  // Every field equal: the same descriptor (the same generated header and checks).
  bool operator==(const Reduction& o) const;
  bool operator!=(const Reduction& o) const { return !(*this == o); }
};

// The built-in `b` over inputs of `type` (dot and sqdist: two inputs of `type`). `accumulate`
// overrides the accumulator where the built-in has a choice: F64 for sums, means, variances and
// norms (of any type; the device then needs fp64). Throws Error (Param::Op) for a built-in that
// does not take `type` or `accumulate`.
//
// Summation::Exact (sum, mean, dot, sumsq and l2 of f16, bf16, f32 and f64): the exact sum of the
// elements (dot: of the exact products; sumsq and l2: of the exact squares), rounded once to the
// result type (f32 for f16, bf16 and f32, f64 for f64 or with accumulate F64); mean: the exact sum
// divided by n, rounded once; l2: the square root of the exact sum of squares, rounded once. IEEE
// 754's rules for infinities, NaN (a NaN result is the quiet NaN without payload) and signed zeros
// (+0 unless every term is -0), an infinity where the rounded result overflows. Needs no fp64 for
// f16, bf16 and f32 with an f32 result. Throws Error (Param::Op) for another built-in or an
// integer type (whose sums are exact already), naming the valid ones.
Reduction builtin(Builtin b, Scalar type, std::optional<Scalar> accumulate = std::nullopt,
                  Summation summation = Summation::Default);
// The built-in an operator of the Op API computes, over elements of `type`: Op::Sum is sum_wrap
// (integers wrap modulo 2^32, as that API's sums always have), Min, Max, ArgMin and ArgMax the
// built-ins of those names (same results, same ArgValue layout). Throws Error (Param::Op) for
// Op::User, whose file is an operator of the variants' kernels, not a descriptor.
Reduction builtin_of(Op op, ElemType type);
// The built-ins that take Summation::Exact, and whether `b` of `type` does.
bool exact_available(Builtin b, Scalar type);
// The accumulator as reports print it: acc_type, or for exact summation "exact (a fixed point of
// 11 32-bit digits from 2^-149)".
std::string accumulator_str(const Reduction& r);
// The 32-bit digits of an exact built-in's accumulator (11 for sums of f16, bf16 and f32, 68 for
// f64, 20 and 134 for their products); 0 where the summation is not exact.
unsigned exact_digits(const Reduction& r);

// A user's reduction descriptor: a small OpenCL C file (clreduce --op-file FILE) that #defines
//   INPUTS t0 [t1 ..]      required: 1 to 4 element types (u8 .. f64, or NumPy's names), by spaces
//                          or commas
//   RESULT layout          required: what a result's bytes are: t, argvalue<t> or pair<t> (t one of
//                          u8 .. i64, f32, f64)
//   ACC_TYPE type          required: the accumulator's OpenCL C type (a struct: typedef it in the file)
//   IDENTITY expr          required: the accumulator's identity
//   COMBINE(a, b) expr     required: two accumulators combined (associative and commutative up to
//                          rounding: the kernels fold in any order)
//   SCALARS t0 [..]        0 to 4 run-time scalar types, the map's s0 .. s3 (a new value rebuilds
//                          nothing)
//   MAP_TYPE type          the mapped value's type (default: input 0's compute type; float for f16)
//   MAP(x0, .., i, s0, ..) the map: one argument per input, then the index i (ulong), then one per
//                          scalar (default, for one input: x0)
//   LIFT(v, i)             a mapped value (and its index) as an accumulator (default: v, converted)
//   FINISH(a, n)           the result of the accumulator and the count n (default: a, converted)
//   OUT_TYPE type          the result's OpenCL C type, laid out as RESULT says (default for a
//                          value: its type's; required for argvalue and pair)
//   ACC_BYTES n            sizeof(ACC_TYPE) on the device (required unless ACC_TYPE is a built-in
//                          scalar or vector type)
// The host reads INPUTS, SCALARS, RESULT, ACC_TYPE and ACC_BYTES, each from its own one-line
// #define (a comment after it allowed); the compiler checks the rest, and every kernel checks that
// sizeof(ACC_TYPE) is ACC_BYTES and sizeof(OUT_TYPE) RESULT's size. The rest of the file
// (typedefs, helper functions) comes before the generated code. A build error shows the
// compiler's log with each place mapped to the file's own lines. Results of an integer RESULT are
// checked exactly, float ones within a bound (the tools compute the reference on the device: one
// work-item per result folds its elements in index order). Examples: kernels_cl/examples/.
// The host reads the #define lines as text, without the preprocessor: each name once, not inside
// an #if. The file's macros are seen by the whole kernel, so name them in capitals (a macro named
// n, s or out would rewrite the kernel's own names).
// Throws Error (Param::OpFile) naming the file and what is wrong (as the user operator's checks:
// readable, at most 64 KiB, no #include; a function-like macro with other parameters than it is
// called with).
Reduction load_reduction(const std::filesystem::path& file);
// The same from text given in code; `name` names it.
Reduction reduction_from_text(const std::string& name, const std::string& text);
// Whether `file` is a reduction descriptor (it #defines INPUTS, RESULT, ACC_TYPE or COMBINE) rather than a user operator
// (clreduce/user_operator.hpp). Throws Error (Param::OpFile) when it cannot be read.
bool is_reduction_file(const std::filesystem::path& file);

// The OpenCL C header that stands for kernels_cl/descriptor.clh when a generic kernel is built
// for `r`: the types, the argument lists (DESC_INPUT_PARAMS, DESC_INPUT_ARGS, DESC_SCALAR_PARAMS),
// DESC_ELEMENT(k) (the map at element k) and the functions desc_identity, desc_lift,
// desc_combine, desc_finish. The macros name the kernel's arguments in0..in3, off0..off3 and
// s0..s3, so a kernel that includes the header declares no other variable of those names (a loop
// counter named s0 once hid a descriptor's scalar). Throws Error (Param::Op) for a descriptor with no input, more than
// four inputs or scalars, or an empty field.
std::string reduction_source(const Reduction& r);
// Whether that header gives the kernels' LANES as one vector of accumulators (DESC_LANES_VECTOR:
// acc_type one of OpenCL C's scalar arithmetic types, and no fold of its own), which a CPU's
// compiler keeps in SIMD registers; else the lanes are an array.
bool lanes_vector(const Reduction& r);
// Whether the descriptor gives its lanes as a structure of arrays (lanes_type and the three others
// set): the header then declares desc_lanes_s and DESC_HAS_LANES_STATE is 1.
bool lanes_state(const Reduction& r);
// The combine the generated header applies to vectors of the accumulator: combine_vector, or the
// combine itself where its text is one that holds for vectors (see combine_vector), else "".
std::string vector_combine_of(const Reduction& r);
// The comment line that starts (with " LINE PATH") and ends (with " -") a span of the generated
// header whose lines are PATH's from LINE on; the kernel loader maps build logs by it.
inline constexpr const char* kOriginMarker = "//@clreduce-origin";

}  // namespace clreduce
