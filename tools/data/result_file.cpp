// Results to a file (data/result_file.hpp).
#include "data/result_file.hpp"

#include "data/output_file.hpp"


namespace clreduce {

namespace {
bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string npy_type(Scalar t) {
  switch (t) {
    case Scalar::U8: return "|u1";
    case Scalar::I8: return "|i1";
    case Scalar::U16: return "<u2";
    case Scalar::I16: return "<i2";
    case Scalar::U32: return "<u4";
    case Scalar::I32: return "<i4";
    case Scalar::U64: return "<u8";
    case Scalar::I64: return "<i8";
    case Scalar::F16: return "<f2";
    case Scalar::BF16: return "<u2";  // no NumPy type: the bits
    case Scalar::F32: return "<f4";
    case Scalar::F64: return "<f8";
  }
  return "|u1";
}
}  // namespace

std::string npy_header(const ResultLayout& layout, std::uint64_t count) {
  std::string descr, shape = "(" + std::to_string(count) + ",)";
  const std::string t = npy_type(layout.type);
  switch (layout.kind) {
    case ResultLayout::Kind::Value: descr = "'" + t + "'"; break;
    case ResultLayout::Kind::Pair:
      descr = "'" + t + "'";
      shape = "(" + std::to_string(count) + ", 2)";
      break;
    case ResultLayout::Kind::Arg: {
      const std::size_t vb = size_of(layout.type);
      descr = "[('value', '" + t + "'), " + (vb < 8 ? "('', '|V" + std::to_string(8 - vb) + "'), " : "") +
              "('index', '<u8')]";
      break;
    }
  }
  std::string dict = "{'descr': " + descr + ", 'fortran_order': False, 'shape': " + shape + ", }";
  // magic (6) + version (2) + length (2) + dict + padding + '\n': a multiple of 64 bytes.
  const std::size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string h = "\x93NUMPY";
  h += '\x01';
  h += '\x00';
  h += static_cast<char>(dict.size() & 0xff);
  h += static_cast<char>((dict.size() >> 8) & 0xff);
  return h + dict;
}

void write_results(const std::string& path, const ResultLayout& layout, const std::vector<Result>& results,
                   bool force) {
  std::string bytes = ends_with(path, ".npy") ? npy_header(layout, results.size()) : std::string();
  const std::size_t rb = layout.bytes();
  for (const Result& r : results) bytes.append(reinterpret_cast<const char*>(r.bytes.data()), rb);
  write_output_file({"--output", path}, bytes, force);
}

}  // namespace clreduce
