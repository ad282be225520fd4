// clreduce._clreduce: the C++ side of clreduce's Python module (python/clreduce/__init__.py holds
// the NumPy-shaped functions). It binds the reduction descriptor (clreduce/reduction.hpp), device
// selection, and one entry point, Session.run, that reduces host arrays (copied to the device) or
// OpenCL buffers given by handle (PyOpenCL's int_ptr, used in place) over the whole array, rows,
// columns or segments, through the library's Reducer, AxisReducer and SegmentedReducer.
//
// Why one entry point: the family, the inputs' kind (host or device) and the result's place (a
// host array, or a device buffer behind an event) are independent, and the Python layer chooses
// each from NumPy's arguments; every combination goes through the same checks here.
//
// The GIL is released while OpenCL works (buffer copies, builds, launches, the read-back); the
// arrays whose memory is read stay referenced by the caller's frame for the call's duration.
// Thread-safety: a Session serialises its calls (its reducers serve one thread at a time).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "clreduce/clreduce.hpp"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace py = pybind11;
using namespace clreduce;

namespace {

// A device's context and in-order queue, with the three reducers made on first use.
class Session {
 public:
  // The device `spec` names (an index or a name's part, as clreduce --device; empty: CLREDUCE_DEVICE,
  // else the first GPU, else the first device), on a context and queue of its own.
  explicit Session(const std::string& spec) {
    DeviceSelector sel;
    if (!spec.empty()) sel.device = spec;
    info_ = select_device(sel);
    context_ = cl::Context(info_.device);
    queue_ = cl::CommandQueue(context_, info_.device);
  }
  // An application's queue (PyOpenCL's Queue.int_ptr): its context and device, retained.
  explicit Session(std::uintptr_t queue_handle) {
    if (queue_handle == 0) throw Error(Param::Queue, "the queue handle is 0: pass a live queue's int_ptr");
    queue_ = cl::CommandQueue(reinterpret_cast<cl_command_queue>(queue_handle), /*retainObject=*/true);
    context_ = queue_.getInfo<CL_QUEUE_CONTEXT>();
    info_ = describe_device(queue_.getInfo<CL_QUEUE_DEVICE>());
  }

  const DeviceInfo& info() const { return info_; }
  const cl::Context& context() const { return context_; }
  std::mutex& mutex() { return mutex_; }

  Reducer& whole() { return made(whole_, ReducerOptions{}); }
  AxisReducer& axis() { return made(axis_, AxisReducerOptions{}); }
  SegmentedReducer& segments() { return made(segments_, SegmentedReducerOptions{}); }
  const cl::CommandQueue& queue() const { return queue_; }

 private:
  DeviceInfo info_;
  cl::Context context_;
  cl::CommandQueue queue_;
  std::unique_ptr<Reducer> whole_;
  std::unique_ptr<AxisReducer> axis_;
  std::unique_ptr<SegmentedReducer> segments_;
  std::mutex mutex_;

  // The reducer of `slot`, made on first use on this queue with the device's facts.
  template <class R, class Options>
  R& made(std::unique_ptr<R>& slot, Options o) {
    if (!slot) {
      o.device = info_;
      slot = std::make_unique<R>(queue_, o);
    }
    return *slot;
  }
};

// An OpenCL buffer given by its handle (PyOpenCL's Buffer.int_ptr) and the element the input starts at.
struct DeviceInput {
  std::uintptr_t handle = 0;
  std::uint64_t offset = 0;
};

cl::Buffer buffer_of(std::uintptr_t handle, const char* what) {
  if (handle == 0) throw Error(Param::Buffer, std::string(what) + " handle is 0: pass a live buffer's int_ptr");
  return cl::Buffer(reinterpret_cast<cl_mem>(handle), /*retainObject=*/true);
}

Input input_of(const DeviceInput& d) { return {buffer_of(d.handle, "an input buffer"), d.offset}; }

// The host inputs' bytes (C-contiguous arrays the Python side prepared) copied to the device; the
// device inputs wrapped. Called without the GIL: `host` holds the pointers and sizes only.
struct HostSpan {
  const void* data = nullptr;
  std::size_t bytes = 0;
};

std::vector<Input> device_inputs(Session& s, const std::vector<std::variant<HostSpan, DeviceInput>>& ins) {
  std::vector<Input> out;
  for (const auto& in : ins) {
    if (const auto* h = std::get_if<HostSpan>(&in)) {
      if (h->bytes == 0) throw Error(Param::N, "an input array is empty: a reduction reads at least one element");
      out.push_back({upload(s.context(), s.queue(), s.info(), h->data, h->bytes), 0});
    } else {
      const auto& d = std::get<DeviceInput>(in);
      out.push_back(input_of(d));
    }
  }
  return out;
}

py::array_t<std::uint8_t> result_bytes(const std::vector<Result>& results, std::size_t bytes_each) {
  py::array_t<std::uint8_t> a(static_cast<py::ssize_t>(results.size() * bytes_each));
  auto* p = a.mutable_data();
  for (std::size_t k = 0; k < results.size(); ++k) std::memcpy(p + k * bytes_each, results[k].bytes.data(), bytes_each);
  return a;
}

// What Session.run reduces over.
struct Family {
  std::string kind;  // "whole", "rows", "cols", "segments"
  std::uint64_t n = 0;                       // whole, segments: elements of each input
  std::uint64_t rows = 0, cols = 0, ld = 0;  // rows, cols: the matrix (ld 0: cols)
  // segments: CSR offsets (S + 1) on the host, or a device buffer of `offsets_type` with `segments`
  // results; with begin_end, those are the S begins and host_ends / ends_handle the S ends (CUB's
  // begin and end arrays: segments may overlap, leave gaps or come in any order)
  std::vector<std::uint64_t> host_offsets;
  std::uintptr_t offsets_handle = 0;
  std::string offsets_type;
  std::uint64_t segments = 0;
  bool begin_end = false;
  std::vector<std::uint64_t> host_ends;
  std::uintptr_t ends_handle = 0;
};

cl::Buffer host_u64_buffer(Session& s, const std::vector<std::uint64_t>& v) {
  return cl::Buffer(s.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, v.size() * sizeof(std::uint64_t),
                    const_cast<std::uint64_t*>(v.data()));
}

// The one entry point: see the file comment. Returns the results' bytes (a uint8 array of
// count x r.out.bytes()), or, with `out_handle`, enqueues the results into that buffer from result
// index `out_index` and returns the event's handle (retained for the caller: PyOpenCL's
// Event.from_int_ptr(h, retain=False) takes it over).
py::object run(Session& s, const Reduction& r, const py::list& inputs, const Family& f,
               const std::vector<ScalarArg>& scalars, std::optional<std::uintptr_t> out_handle, std::uint64_t out_index) {
  std::vector<std::variant<HostSpan, DeviceInput>> ins;
  std::vector<py::array> keep;  // the host arrays, referenced while the GIL is released
  for (const py::handle& h : inputs) {
    if (py::isinstance<DeviceInput>(h)) {
      ins.emplace_back(h.cast<DeviceInput>());
    } else {
      py::array a = py::reinterpret_borrow<py::array>(h);
      if (!(a.flags() & py::array::c_style))
        throw Error(Param::Buffer, "a host input must be C-contiguous (clreduce's Python layer copies other layouts)");
      ins.emplace_back(HostSpan{a.data(), static_cast<std::size_t>(a.nbytes())});
      keep.push_back(a);
    }
  }
  const std::size_t each = r.out.bytes();
  std::vector<Result> results;
  cl::Event event;
  {
    py::gil_scoped_release nogil;
    std::lock_guard<std::mutex> lock(s.mutex());
    const std::vector<Input> dev = device_inputs(s, ins);
    std::optional<cl::Buffer> out;
    if (out_handle) out = buffer_of(*out_handle, "the output buffer");
    if (f.kind == "whole") {
      if (out)
        event = s.whole().reduce_to(r, dev, f.n, *out, out_index, scalars);
      else
        results.push_back(s.whole().reduce(r, dev, f.n, scalars));
    } else if (f.kind == "rows" || f.kind == "cols") {
      const Axis axis = f.kind == "rows" ? Axis::Rows : Axis::Cols;
      const MatrixShape shape{f.rows, f.cols, f.ld};
      if (out)
        event = s.axis().reduce_to(r, dev, axis, shape, *out, out_index, scalars);
      else
        results = s.axis().reduce(r, dev, axis, shape, scalars);
    } else if (f.kind == "segments") {
      Segments seg;
      const Segments::Kind kind = f.begin_end ? Segments::Kind::BeginEnd : Segments::Kind::Offsets;
      if (f.offsets_handle) {
        const Scalar t = parse_scalar(f.offsets_type);
        if (t != Scalar::U32 && t != Scalar::U64 && t != Scalar::I32 && t != Scalar::I64)
          throw Error(Param::Segments, "segment offsets of type " + f.offsets_type + ": they are uint32, uint64, int32 or int64",
                      "uint32, uint64, int32, int64");
        seg = {kind, buffer_of(f.offsets_handle, "the offsets buffer"),
               f.begin_end ? buffer_of(f.ends_handle, "the ends buffer") : cl::Buffer(), t, f.segments};
      } else if (f.begin_end) {
        // The kernel clamps each begin and end into [0, n] (an end below its begin: empty); the
        // Python side refuses values past n before this, so that a host mistake is named.
        if (f.host_offsets.empty() || f.host_offsets.size() != f.host_ends.size())
          throw Error(Param::Segments, "segment begins and ends: one of each per segment, at least one segment");
        seg = Segments::begin_end<std::uint64_t>(host_u64_buffer(s, f.host_offsets), host_u64_buffer(s, f.host_ends),
                                                 f.host_offsets.size());
      } else {
        validate_segment_offsets(f.host_offsets, f.n);
        seg = Segments::offsets<std::uint64_t>(host_u64_buffer(s, f.host_offsets), f.host_offsets.size() - 1);
      }
      if (out)
        event = s.segments().reduce_to(r, dev, f.n, seg, *out, out_index, scalars);
      else
        results = s.segments().reduce(r, dev, f.n, seg, scalars);
    } else {
      throw Error(Param::Axis, "the family '" + f.kind + "' is none of whole, rows, cols, segments",
                  "whole, rows, cols, segments");
    }
  }
  if (out_handle) {
    cl_event e = event();
    if (e) clRetainEvent(e);
    return py::int_(reinterpret_cast<std::uintptr_t>(e));
  }
  return result_bytes(results, each);
}

py::dict device_dict(const DeviceInfo& d) {
  py::dict o;
  o["name"] = d.name;
  o["platform"] = d.platform_name;
  o["platform_index"] = d.platform_index;
  o["device_index"] = d.device_index;
  o["type"] = d.type_name;
  o["vendor"] = d.vendor;
  o["driver"] = d.driver_version;
  o["compute_units"] = d.compute_units;
  o["global_mem_bytes"] = d.global_mem_bytes;
  o["max_alloc_bytes"] = d.max_alloc_bytes;
  o["fp64"] = d.fp64;
  o["label"] = d.label();
  return o;
}

}  // namespace

PYBIND11_MODULE(_clreduce, m) {
  m.doc() = "The C++ side of clreduce's Python module: use the functions of the clreduce package.";

  // clreduce::Error as clreduce.Error (a ValueError), carrying the parameter, its valid values and
  // the device; OpenCL's own failures come through the library as Error too.
  // The class is kept in an object never destroyed: a static py::object would be released after
  // the interpreter has finalised (pybind11 #4897). The translator is this module's own.
  static const py::object* error = new py::object(py::exception<Error>(m, "Error", PyExc_ValueError));
  py::register_local_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      const py::object type = *error;  // the exception class
      py::object value = type(e.what());
      value.attr("param") = py::str(std::string(name_of(e.param())));
      value.attr("valid") = py::str(e.valid());
      value.attr("device") = py::str(e.device());
      PyErr_SetObject(type.ptr(), value.ptr());
    }
  });

  py::enum_<ResultLayout::Kind>(m, "LayoutKind")
      .value("Value", ResultLayout::Kind::Value)
      .value("Arg", ResultLayout::Kind::Arg)
      .value("Pair", ResultLayout::Kind::Pair);

  py::class_<Reduction>(m, "Reduction", "A reduction descriptor (clreduce/reduction.hpp): what is reduced, independent of how.")
      .def(py::init<>())
      .def_readwrite("name", &Reduction::name)
      .def_property(
          "inputs", [](const Reduction& r) {
            std::vector<std::string> v;
            for (Scalar s : r.inputs) v.emplace_back(name_of(s));
            return v;
          },
          [](Reduction& r, const std::vector<std::string>& v) {
            r.inputs.clear();
            for (const auto& s : v) r.inputs.push_back(parse_scalar(s));
          })
      .def_property(
          "scalars", [](const Reduction& r) {
            std::vector<std::string> v;
            for (Scalar s : r.scalars) v.emplace_back(name_of(s));
            return v;
          },
          [](Reduction& r, const std::vector<std::string>& v) {
            r.scalars.clear();
            for (const auto& s : v) r.scalars.push_back(parse_scalar(s));
          })
      .def_readwrite("map_type", &Reduction::map_type)
      .def_readwrite("map", &Reduction::map)
      .def_readwrite("prelude", &Reduction::prelude)
      .def_readwrite("acc_type", &Reduction::acc_type)
      .def_readwrite("acc_bytes", &Reduction::acc_bytes)
      .def_readwrite("identity", &Reduction::identity)
      .def_readwrite("lift", &Reduction::lift)
      .def_readwrite("combine", &Reduction::combine)
      .def_readwrite("finish", &Reduction::finish)
      .def_readwrite("out_type", &Reduction::out_type)
      .def_readwrite("exact", &Reduction::exact)
      .def_property(
          "out_kind", [](const Reduction& r) { return r.out.kind; }, [](Reduction& r, ResultLayout::Kind k) { r.out.kind = k; })
      .def_property(
          "out_scalar", [](const Reduction& r) { return std::string(name_of(r.out.type)); },
          [](Reduction& r, const std::string& t) { r.out.type = parse_scalar(t); })
      .def_property_readonly("out_bytes", [](const Reduction& r) { return r.out.bytes(); })
      .def_property_readonly("layout", [](const Reduction& r) { return r.out.str(); })
      .def_property_readonly("summation", [](const Reduction& r) { return std::string(name_of(r.summation)); },
                             "'exact' where the sum is exact (Summation::Exact), rounded once; else 'default'.")
      .def_property_readonly("builtin",
                             [](const Reduction& r) -> py::object {
                               if (!r.builtin) return py::none();
                               return py::str(std::string(name_of(*r.builtin)));
                             })
      .def("source", [](const Reduction& r) { return reduction_source(r); },
           "The OpenCL C header the generic kernels include for this descriptor.")
      .def("__repr__", [](const Reduction& r) { return "<clreduce.Reduction " + r.name + " -> " + r.out.str() + ">"; });

  m.def(
      "builtin",
      [](const std::string& name, const std::string& type, std::optional<std::string> accumulate, bool exact) {
        std::optional<Scalar> acc;
        if (accumulate) acc = parse_scalar(*accumulate);
        return builtin(parse_builtin(name), parse_scalar(type), acc, exact ? Summation::Exact : Summation::Default);
      },
      py::arg("name"), py::arg("type"), py::arg("accumulate") = py::none(), py::arg("exact") = false,
      "The built-in reduction `name` over inputs of `type` (NumPy's or clreduce's type names); "
      "`accumulate` 'f64' takes sums, means, variances and norms in double; `exact` True sums exactly "
      "(sum, mean, dot, sumsq, l2 of f16, bf16, f32, f64: the exact sum rounded once, the same bits on "
      "every launch and device).");
  m.def("builtins", [] {
    std::vector<std::string> v;
    for (Builtin b : all_builtins()) v.emplace_back(name_of(b));
    return v;
  });
  m.def("reduction_from_text", &reduction_from_text, py::arg("name"), py::arg("text"),
        "A user descriptor from the text of a .clh file (clreduce/reduction.hpp says its #defines).");
  m.def(
      "load_reduction", [](const std::string& path) { return load_reduction(path); }, py::arg("path"),
      "A user descriptor from a .clh file.");
  m.def("type_name", [](const std::string& t) { return std::string(name_of(parse_scalar(t))); },
        "clreduce's name of a type given by NumPy's or clreduce's name; raises Error naming the valid ones.");

  m.def(
      "kernel_dir",
      [] {
        const KernelDir k = find_kernel_dir();
        return py::make_tuple(k.path.string(), k.origin);
      },
      "The directory the kernels are read from and where that came from (CLREDUCE_KERNEL_DIR, installed, build tree).");
  m.def("devices", [] {
    py::list out;
    for (const DeviceInfo& d : list_devices()) out.append(device_dict(d));
    return out;
  });

  py::class_<DeviceInput>(m, "DeviceInput", "An OpenCL buffer by handle (int_ptr) and the element an input starts at.")
      .def(py::init<std::uintptr_t, std::uint64_t>(), py::arg("handle"), py::arg("offset") = 0)
      .def_readonly("handle", &DeviceInput::handle)
      .def_readonly("offset", &DeviceInput::offset);

  py::class_<Family>(m, "Family")
      .def(py::init<>())
      .def_readwrite("kind", &Family::kind)
      .def_readwrite("n", &Family::n)
      .def_readwrite("rows", &Family::rows)
      .def_readwrite("cols", &Family::cols)
      .def_readwrite("ld", &Family::ld)
      .def_readwrite("host_offsets", &Family::host_offsets)
      .def_readwrite("offsets_handle", &Family::offsets_handle)
      .def_readwrite("offsets_type", &Family::offsets_type)
      .def_readwrite("segments", &Family::segments)
      .def_readwrite("begin_end", &Family::begin_end)
      .def_readwrite("host_ends", &Family::host_ends)
      .def_readwrite("ends_handle", &Family::ends_handle);

  // Several devices (clreduce/multi_device.hpp): host arrays split among them in proportion to
  // their measured bandwidth, each part copied and reduced on its device, the parts' accumulators
  // folded in device order.
  py::class_<MultiReducer, std::shared_ptr<MultiReducer>>(m, "MultiReducer")
      .def(py::init([](std::optional<std::size_t> platform, std::optional<std::vector<std::size_t>> indices) {
             py::gil_scoped_release nogil;
             std::vector<DeviceInfo> devs;
             if (indices) {
               devs = devices_at(platform.value_or(select_device({}).platform_index), *indices);
             } else {
               DeviceSelector sel;
               sel.platform = platform;
               devs = default_devices(sel);
             }
             return std::make_shared<MultiReducer>(std::move(devs));
           }),
           py::arg("platform") = py::none(), py::arg("indices") = py::none())
      .def_property_readonly("devices",
                             [](const MultiReducer& mr) {
                               py::list out;
                               for (const DeviceInfo& d : mr.devices()) out.append(device_dict(d));
                               return out;
                             })
      .def(
          "reduce",
          [](MultiReducer& mr, const Reduction& r, const std::vector<py::array>& inputs, std::uint64_t n,
             const std::vector<ScalarArg>& scalars) {
            std::vector<const void*> ptrs;
            for (const py::array& a : inputs) {
              if (!(a.flags() & py::array::c_style) || static_cast<std::uint64_t>(a.size()) != n)
                throw Error(Param::Buffer, "each input of a multi-device reduction is a C-contiguous array of n elements");
              ptrs.push_back(a.data());
            }
            MultiResult res;
            {
              py::gil_scoped_release nogil;
              res = mr.reduce(r, ptrs, n, scalars);
            }
            py::array_t<std::uint8_t> bytes(static_cast<py::ssize_t>(r.out.bytes()));
            std::memcpy(bytes.mutable_data(), res.result.bytes.data(), r.out.bytes());
            py::list shares;
            for (const DeviceShare& sh : res.shares) {
              py::dict d;
              d["device"] = sh.device;
              d["name"] = sh.name;
              d["offset"] = sh.offset;
              d["n"] = sh.n;
              d["us"] = sh.us;
              shares.append(d);
            }
            return py::make_tuple(bytes, shares);
          },
          py::arg("reduction"), py::arg("inputs"), py::arg("n"), py::arg("scalars") = std::vector<ScalarArg>{});

  py::class_<Session, std::shared_ptr<Session>>(m, "Session")
      .def(py::init([](const std::string& spec) {
             py::gil_scoped_release nogil;
             return std::make_shared<Session>(spec);
           }),
           py::arg("device") = "")
      .def_static(
          "from_queue", [](std::uintptr_t h) { return std::make_shared<Session>(h); }, py::arg("queue_int_ptr"))
      .def_property_readonly("device", [](const Session& s) { return device_dict(s.info()); })
      .def_property_readonly("fp64", [](const Session& s) { return s.info().fp64; })
      .def_property_readonly("context_int_ptr",
                             [](const Session& s) { return reinterpret_cast<std::uintptr_t>(s.context()()); })
      .def_property_readonly("queue_int_ptr",
                             [](const Session& s) { return reinterpret_cast<std::uintptr_t>(s.queue()()); })
      .def(
          "_time_whole",
          [](Session& s, const Reduction& r, const std::vector<DeviceInput>& inputs, std::uint64_t n, unsigned reps,
             const std::vector<ScalarArg>& scalars) {
            // The C++ library's own time for one blocking whole-array call (Reducer::reduce: the
            // launch and the read-back of the value), by the host clock, `reps` times: what the
            // Python call costs beyond it is the module's overhead (bench/python_bench.py).
            std::vector<double> seconds;
            py::gil_scoped_release nogil;
            std::lock_guard<std::mutex> lock(s.mutex());
            std::vector<Input> dev;
            for (const DeviceInput& d : inputs) dev.push_back(input_of(d));
            for (unsigned k = 0; k < reps; ++k) {
              const auto t0 = std::chrono::steady_clock::now();
              (void)s.whole().reduce(r, dev, n, scalars);
              seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            }
            return seconds;
          },
          py::arg("reduction"), py::arg("inputs"), py::arg("n"), py::arg("reps"), py::arg("scalars") = std::vector<ScalarArg>{},
          "Measuring hook: seconds of each of `reps` blocking whole-array calls made from C++.")
      .def(
          "whole_value",
          [](Session& s, const Reduction& r, std::uintptr_t handle, std::uintptr_t handle2, std::uint64_t offset,
             std::uint64_t n) -> py::object {
            // The short path of a whole-array call on device buffers (one input, or two at the same
            // offset): no Family, no list of inputs, and the result as Python numbers (a Value as
            // int or float; argvalue and pair as a tuple), the call's overhead over the C++ call
            // being the point (bench/python_bench.py, bench/NOTES.md session 18).
            Result res;
            {
              py::gil_scoped_release nogil;
              std::lock_guard<std::mutex> lock(s.mutex());
              std::vector<Input> dev{input_of({handle, offset})};
              if (handle2) dev.push_back(input_of({handle2, offset}));
              res = s.whole().reduce(r, dev, n);
            }
            const Scalar t = res.layout.type;
            switch (res.layout.kind) {
              case ResultLayout::Kind::Value:
                if (is_floating(t)) return py::float_(res.value());
                if (is_signed(t)) return py::int_(res.as_i64());
                return py::int_(res.as_u64());
              case ResultLayout::Kind::Arg:  // the fast paths read the index (and a float's value)
                return py::make_tuple(py::float_(res.value()), py::int_(res.index()));
              case ResultLayout::Kind::Pair:
                return py::make_tuple(py::float_(res.value()), py::float_(res.second()));
            }
            return py::none();
          },
          py::arg("reduction"), py::arg("handle"), py::arg("handle2"), py::arg("offset"), py::arg("n"))
      .def("run", &run, py::arg("reduction"), py::arg("inputs"), py::arg("family"), py::arg("scalars") = std::vector<ScalarArg>{},
           py::arg("out_handle") = py::none(), py::arg("out_index") = 0);
}
