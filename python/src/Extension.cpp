//===- Extension.cpp - tc._tc, the Python binding of the runtime C API ----===//
//
// A nanobind module over tc-runtime/runtime.h. Tensors cross it through
// DLPack (nanobind's ndarray): an input array or tensor, in host memory or
// in the memory of the model's GPU, is wrapped in a tc_tensor without a
// copy, and an output tc_tensor (in host memory, or left on the GPU) is
// handed to numpy or torch without a copy, its buffer released with the
// last array that views it. Everything Python-specific beyond that (argument
// binding by name, torch, the compiler) lives in the pure-Python package.
//
//===----------------------------------------------------------------------===//

#include "tc-runtime/runtime.h"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace nb = nanobind;

namespace {

/// Raised as tc.TcError.
struct TcError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(tc_status status) {
  if (!status)
    return;
  std::string message = tc_status_message(status);
  tc_status_free(status);
  throw TcError(message);
}

using Dl = nb::dlpack::dtype_code;

/// The DLPack type of a tc dtype. Types DLPack has no code for travel as
/// their stand-ins of module_abi.h: bf16 as uint16 bit patterns where the
/// consumer (numpy) has no bfloat16, the 8-, 4- and 2-bit types as one byte
/// per element.
nb::dlpack::dtype dlpackType(tc_dtype_t dtype, bool hasBfloat16) {
  auto make = [](Dl code, int bits) {
    return nb::dlpack::dtype{static_cast<uint8_t>(code),
                             static_cast<uint8_t>(bits), 1};
  };
  switch (dtype) {
  case TC_DTYPE_F16: return make(Dl::Float, 16);
  case TC_DTYPE_BF16:
    return hasBfloat16 ? make(Dl::Bfloat, 16) : make(Dl::UInt, 16);
  case TC_DTYPE_F32: return make(Dl::Float, 32);
  case TC_DTYPE_F64: return make(Dl::Float, 64);
  case TC_DTYPE_I8: return make(Dl::Int, 8);
  case TC_DTYPE_I16: return make(Dl::Int, 16);
  case TC_DTYPE_I32: return make(Dl::Int, 32);
  case TC_DTYPE_I64: return make(Dl::Int, 64);
  case TC_DTYPE_U8: return make(Dl::UInt, 8);
  case TC_DTYPE_U16: return make(Dl::UInt, 16);
  case TC_DTYPE_U32: return make(Dl::UInt, 32);
  case TC_DTYPE_U64: return make(Dl::UInt, 64);
  case TC_DTYPE_BOOL: return make(Dl::Bool, 8);
  case TC_DTYPE_I4:
  case TC_DTYPE_I2: return make(Dl::Int, 8);
  default: return make(Dl::UInt, 8); // the float8/float4 and u4/u2 types
  }
}

/// The tc dtype an array of DLPack type `type` is, given that the model
/// expects `expected` there: an exact match, or the stand-in of a type the
/// producer cannot express. TC_DTYPE_INVALID when neither.
tc_dtype_t tcType(nb::dlpack::dtype type, tc_dtype_t expected) {
  if (type.lanes != 1)
    return TC_DTYPE_INVALID;
  for (tc_dtype_t candidate :
       {TC_DTYPE_F16, TC_DTYPE_BF16, TC_DTYPE_F32, TC_DTYPE_F64, TC_DTYPE_I8,
        TC_DTYPE_I16, TC_DTYPE_I32, TC_DTYPE_I64, TC_DTYPE_U8, TC_DTYPE_U16,
        TC_DTYPE_U32, TC_DTYPE_U64, TC_DTYPE_BOOL})
    if (dlpackType(candidate, /*hasBfloat16=*/true) == type)
      return candidate == TC_DTYPE_U16 && expected == TC_DTYPE_BF16
                 ? TC_DTYPE_BF16
                 : candidate;
  // float8 / float4 in DLPack's own codes, or a one-byte stand-in.
  if (type.bits == 8 && expected >= TC_DTYPE_F8E4M3FN &&
      dlpackType(expected, false) == type)
    return expected;
  auto code = static_cast<Dl>(type.code);
  struct Narrow {
    Dl code;
    tc_dtype_t dtype;
  };
  for (Narrow narrow : {Narrow{Dl::Float8_E4M3FN, TC_DTYPE_F8E4M3FN},
                        Narrow{Dl::Float8_E4M3FNUZ, TC_DTYPE_F8E4M3FNUZ},
                        Narrow{Dl::Float8_E5M2, TC_DTYPE_F8E5M2},
                        Narrow{Dl::Float8_E5M2FNUZ, TC_DTYPE_F8E5M2FNUZ},
                        Narrow{Dl::Float8_E8M0FNU, TC_DTYPE_F8E8M0FNU}})
    if (code == narrow.code && type.bits == 8)
      return narrow.dtype;
  return TC_DTYPE_INVALID;
}

/// How a DLPack type is spelled in an error ("float32", "complex64").
std::string typeName(nb::dlpack::dtype type) {
  const char *kinds[] = {"int",  "uint",  "float", "?",
                         "bfloat", "complex", "bool"};
  std::string kind = type.code < 7 ? kinds[type.code]
                                   : "dlpack code " + std::to_string(type.code);
  return kind == "bool" ? kind : kind + std::to_string(type.bits);
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

const char *deviceName(int type) {
  switch (type) {
  case nb::device::cuda::value: return "cuda";
  case nb::device::cuda_host::value: return "cuda_host";
  case nb::device::cuda_managed::value: return "cuda_managed";
  case nb::device::rocm::value: return "rocm";
  case nb::device::rocm_host::value: return "rocm_host";
  default: return "a non-host device";
  }
}

/// Element strides of a dense row-major array of `shape`.
std::vector<int64_t> denseStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i > 1; --i)
    strides[i - 2] = strides[i - 1] * shape[i - 1];
  return strides;
}

using InArray = nb::ndarray<nb::ro>;
using OutArray = nb::ndarray<>;

/// Whether DLPack device `type` is host memory.
bool isHost(int type) {
  return type == nb::device::cpu::value || type == nb::device::cuda_host::value ||
         type == nb::device::rocm_host::value;
}

/// The DLPack device of a runtime device spec: "cuda:N" is (kDLCUDA, N),
/// "hip:N" (kDLROCM, N), anything else the host.
std::pair<int, int> dlpackDevice(const std::string &spec) {
  auto ordinal = [&](size_t prefix) { return std::stoi(spec.substr(prefix)); };
  if (spec.rfind("cuda:", 0) == 0)
    return {nb::device::cuda::value, ordinal(5)};
  if (spec.rfind("hip:", 0) == 0)
    return {nb::device::rocm::value, ordinal(4)};
  return {nb::device::cpu::value, 0};
}

/// Checks that `array` is in row-major order (extents of 1 may carry any
/// stride) and in host memory or that of `gpu` (the model's GPU spec, "" for
/// none), and returns its shape. `what` names it in errors.
template <typename Array>
std::vector<int64_t> placedShape(const Array &array, const std::string &what,
                                 const std::string &gpu) {
  std::vector<int64_t> shape(array.ndim());
  for (size_t d = 0; d < array.ndim(); ++d)
    shape[d] = static_cast<int64_t>(array.shape(d));
  int device = array.device_type();
  std::string place =
      std::string(deviceName(device)) + ":" + std::to_string(array.device_id());
  if (!isHost(device) &&
      std::make_pair(device, static_cast<int>(array.device_id())) !=
          dlpackDevice(gpu))
    throw TcError(what + " is on " + place + " but the model runs on " +
                  (gpu.empty() ? std::string("the CPU") : gpu) +
                  (gpu.empty() ? ": move it to the CPU (tensor.cpu()) or "
                                 "load the model on that GPU"
                               : ": move it to " + gpu + " or to the CPU"));
  if (!array.stride_ptr())
    return shape;
  std::vector<int64_t> dense = denseStrides(shape);
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1 || array.stride(d) == dense[d])
      continue;
    std::vector<int64_t> strides(array.stride_ptr(),
                                 array.stride_ptr() + shape.size());
    throw TcError(what + " is not contiguous (shape " + shapeText(shape) +
                  ", strides " + shapeText(strides) +
                  " in elements): pass numpy.ascontiguousarray(x) or "
                  "x.contiguous()");
  }
  return shape;
}

struct ArgInfo {
  std::string name;
  std::string dtype;
  std::vector<std::optional<int64_t>> shape; // nullopt: dynamic
  std::vector<std::string> symbols;          // "" for static or anonymous
};

/// An output of a run, owned by Python until the last view goes.
void releaseTensor(void *tensor) noexcept {
  tc_tensor_release(static_cast<tc_tensor *>(tensor));
}

/// A loaded model.so with the runtime and device it runs on.
class Model {
public:
  /// gpuGraphs: tc_runtime_options.gpu_graphs (-1: as the module's mode
  /// asks); gpuTuning: tc_runtime_options.gpu_tuning (likewise).
  Model(const std::string &path, const std::string &device, int64_t threads,
        int32_t gpuGraphs, int32_t gpuTuning) {
    if (threads < 0 || threads > TC_MAX_THREADS)
      throw TcError("threads=" + std::to_string(threads) +
                    ": expected an integer from 0 (all cores) to " +
                    std::to_string(TC_MAX_THREADS));
    tc_runtime_options options;
    tc_runtime_options_init(&options);
    options.num_threads = static_cast<int32_t>(threads);
    options.gpu_graphs = gpuGraphs;
    options.gpu_tuning = gpuTuning;
    try {
      check(tc_runtime_create(&options, &runtime));
      check(tc_device_create(runtime, device.c_str(), &this->device));
      check(tc_module_load(runtime, path.c_str(), &module));
      for (size_t i = 0, e = tc_module_num_inputs(module); i < e; ++i)
        inputs.push_back(describe(tc_module_input_info, i));
      for (size_t i = 0, e = tc_module_num_outputs(module); i < e; ++i)
        outputs.push_back(describe(tc_module_output_info, i));
    } catch (...) {
      release();
      throw;
    }
  }
  Model(const Model &) = delete;
  Model &operator=(const Model &) = delete;
  ~Model() { release(); }

  /// The inputs as arrays, in order: each must have a DLPack or buffer
  /// view of its memory.
  std::vector<InArray> inArrays(const std::vector<nb::object> &values) {
    if (values.size() != inputs.size())
      throw TcError(std::to_string(values.size()) + " inputs given but the "
                    "model has " + std::to_string(inputs.size()));
    std::vector<InArray> arrays(values.size());
    for (size_t i = 0; i < values.size(); ++i)
      if (!nb::try_cast(values[i], arrays[i]))
        throw TcError("input '" + inputs[i].name + "' is a " +
                      nb::cast<std::string>(nb::str(nb::handle(
                          reinterpret_cast<PyObject *>(Py_TYPE(values[i].ptr())))
                          .attr("__name__"))) +
                      " that has no DLPack or buffer-protocol view of its "
                      "memory");
    return arrays;
  }

  /// tc_module_tune_gpu on `values`: its report as a dict.
  nb::dict tuneGpu(const std::vector<nb::object> &values, double budgetSeconds,
                   int32_t rounds, bool retune, bool useTable) {
    std::vector<InArray> arrays = inArrays(values);
    std::vector<tc_tensor *> wrapped(arrays.size(), nullptr);
    auto cleanup = [&] {
      for (tc_tensor *tensor : wrapped)
        tc_tensor_release(tensor);
    };
    tc_gpu_tune_report report;
    try {
      for (size_t i = 0; i < arrays.size(); ++i)
        wrapped[i] = wrap(arrays[i], i);
      tc_gpu_tune_options options;
      tc_gpu_tune_options_init(&options);
      options.budget_seconds = budgetSeconds;
      options.rounds = rounds;
      options.retune = retune ? 1 : 0;
      options.use_table = useTable ? 1 : 0;
      tc_status status;
      {
        nb::gil_scoped_release released;
        status = tc_module_tune_gpu(module, device, wrapped.data(),
                                    wrapped.size(), &options, &report);
      }
      check(status);
      cleanup();
    } catch (...) {
      cleanup();
      throw;
    }
    nb::dict result;
    result["sites"] = report.sites;
    result["keys"] = report.keys;
    result["keys_from_table"] = report.keys_from_table;
    result["keys_tuned"] = report.keys_tuned;
    result["keys_changed"] = report.keys_changed;
    result["runs"] = report.runs;
    result["heuristic_ms"] = report.heuristic_ms;
    result["tuned_ms"] = report.tuned_ms;
    result["seconds"] = report.seconds;
    result["budget_exhausted"] = report.budget_exhausted != 0;
    return result;
  }

  /// The alternative each tunable GPU kernel runs (-1: heuristic).
  std::vector<int32_t> gpuChoices() const {
    std::vector<int32_t> choices;
    for (size_t site = 0, e = tc_module_num_gpu_sites(module); site < e; ++site)
      choices.push_back(tc_device_gpu_choice(device, module, site));
    return choices;
  }
  std::string gpuTuningTable() const {
    return tc_device_gpu_tuning_table(device);
  }

  /// Runs on `arrays` (the inputs in order); returns the outputs for
  /// `framework` ("numpy", "torch" or "dlpack"), or None for each output
  /// written into the matching array of `out` instead.
  nb::list run(const std::vector<nb::object> &values,
               const std::string &framework,
               const std::optional<std::vector<std::optional<OutArray>>> &out,
               bool outputsOnDevice) {
    if (values.size() != inputs.size())
      throw TcError(std::to_string(values.size()) +
                    " inputs given but the "
                    "model has " +
                    std::to_string(inputs.size()));
    std::vector<InArray> arrays = inArrays(values);
    if (out && out->size() != outputs.size())
      throw TcError("out= has " + std::to_string(out->size()) +
                    " entries but the model has " +
                    std::to_string(outputs.size()) + " outputs");
    if (framework != "numpy" && framework != "torch" && framework != "dlpack")
      throw TcError("output type '" + framework +
                    "': expected numpy, torch or dlpack");
    std::vector<tc_tensor *> wrapped(arrays.size(), nullptr);
    std::vector<tc_tensor *> results(outputs.size(), nullptr);
    auto cleanup = [&] {
      for (tc_tensor *tensor : wrapped)
        tc_tensor_release(tensor);
      for (tc_tensor *tensor : results)
        tc_tensor_release(tensor);
    };
    try {
      for (size_t i = 0; i < arrays.size(); ++i)
        wrapped[i] = wrap(arrays[i], i);
      if (out)
        for (size_t k = 0; k < out->size(); ++k)
          if ((*out)[k])
            placedShape(*(*out)[k],
                        "out[" + std::to_string(k) + "] ('" + outputs[k].name +
                            "')",
                        gpuSpec());
      tc_run_options options;
      tc_run_options_init(&options);
      options.outputs_on_device = outputsOnDevice ? 1 : 0;
      tc_status status;
      {
        nb::gil_scoped_release released;
        status = tc_module_run_with_options(module, device, &options,
                                            wrapped.data(), wrapped.size(),
                                            results.data(), results.size());
      }
      check(status);
      nb::list values;
      for (size_t k = 0; k < results.size(); ++k) {
        if (out && (*out)[k]) {
          copyInto(results[k], *(*out)[k], k);
          values.append(nb::none());
          continue;
        }
        values.append(take(results[k], framework));
        results[k] = nullptr; // owned by the array now
      }
      cleanup();
      return values;
    } catch (...) {
      cleanup();
      throw;
    }
  }

  std::vector<ArgInfo> inputs, outputs;

  std::string deviceSpec() const { return tc_device_spec(device); }
  int64_t numThreads() const { return tc_device_num_threads(device); }
  int64_t graphRuns() const { return tc_device_graph_runs(device); }
  std::string compiler() const { return tc_module_compiler(module); }
  std::string mode() const { return tc_module_mode(module); }
  std::vector<std::string> shapeBuckets() const {
    std::vector<std::string> buckets;
    for (size_t i = 0, e = tc_module_num_shape_buckets(module); i < e; ++i)
      buckets.push_back(tc_module_shape_bucket(module, i));
    return buckets;
  }
  std::vector<std::string> targets() const {
    std::vector<std::string> names;
    for (size_t i = 0, e = tc_module_num_targets(module); i < e; ++i)
      names.push_back(tc_module_target(module, i));
    return names;
  }

private:
  ArgInfo describe(tc_status (*query)(const tc_module *, size_t,
                                      tc_arg_info *),
                   size_t index) {
    tc_arg_info info;
    check(query(module, index, &info));
    ArgInfo arg{info.name, tc_dtype_name(info.dtype), {}, {}};
    for (int32_t d = 0; d < info.rank; ++d) {
      arg.shape.push_back(info.dims[d] < 0 ? std::nullopt
                                           : std::optional(info.dims[d]));
      arg.symbols.push_back(info.dim_symbols ? info.dim_symbols[d] : "");
    }
    codes.push_back(info.dtype);
    return arg;
  }

  tc_dtype_t inputCode(size_t index) const { return codes[index]; }

  /// The spec of the model's GPU ("cuda:0"), "" when it runs on the CPU.
  std::string gpuSpec() const {
    std::string spec = tc_device_spec(device);
    return spec == "cpu" ? std::string() : spec;
  }

  tc_tensor *wrap(const InArray &array, size_t index) {
    std::string what = "input '" + inputs[index].name + "'";
    std::vector<int64_t> shape = placedShape(array, what, gpuSpec());
    tc_dtype_t expected = inputCode(index);
    tc_dtype_t dtype = tcType(array.dtype(), expected);
    if (dtype == TC_DTYPE_INVALID)
      throw TcError(what + " has dtype " + typeName(array.dtype()) +
                    ", which tc has no type for (the module expects " +
                    inputs[index].dtype + ")");
    tc_tensor *tensor = nullptr;
    // The run only reads inputs: the const_cast never leads to a write.
    void *data = const_cast<void *>(array.data());
    int32_t rank = static_cast<int32_t>(shape.size());
    if (isHost(array.device_type()))
      check(tc_tensor_wrap(dtype, rank, shape.data(), data, array.nbytes(),
                           nullptr, nullptr, &tensor));
    else
      check(tc_tensor_wrap_device(device, dtype, rank, shape.data(), data,
                                  array.nbytes(), nullptr, nullptr, &tensor));
    return tensor;
  }

  nb::object take(tc_tensor *tensor, const std::string &framework) {
    int32_t rank = tc_tensor_rank(tensor);
    std::vector<size_t> shape(rank);
    for (int32_t d = 0; d < rank; ++d)
      shape[d] = static_cast<size_t>(tc_tensor_dims(tensor)[d]);
    void *data = tc_tensor_data(tensor);
    static char empty[64];
    auto [deviceType, deviceId] = dlpackDevice(tc_tensor_device(tensor));
    if (deviceType != nb::device::cpu::value && framework == "numpy")
      throw TcError("numpy cannot hold GPU memory: ask for torch or dlpack "
                    "outputs, or for outputs on the host");
    nb::capsule owner(tensor, releaseTensor);
    nb::ndarray<> array(data ? data : empty, shape.size(), shape.data(), owner,
                        nullptr,
                        dlpackType(tc_tensor_dtype(tensor),
                                   /*hasBfloat16=*/framework != "numpy"),
                        deviceType, deviceId);
    if (framework == "numpy")
      return nb::ndarray<nb::numpy>(array).cast();
    if (framework == "torch")
      return nb::ndarray<nb::pytorch>(array).cast();
    return nb::ndarray<nb::array_api>(array).cast();
  }

  void copyInto(tc_tensor *result, const OutArray &target, size_t index) {
    std::string what =
        "out[" + std::to_string(index) + "] ('" + outputs[index].name + "')";
    std::vector<int64_t> shape(tc_tensor_dims(result),
                               tc_tensor_dims(result) + tc_tensor_rank(result));
    std::vector<int64_t> given(target.ndim());
    for (size_t d = 0; d < target.ndim(); ++d)
      given[d] = static_cast<int64_t>(target.shape(d));
    if (given != shape)
      throw TcError(what + " has shape " + shapeText(given) +
                    " but the output has shape " + shapeText(shape));
    tc_dtype_t dtype = tc_tensor_dtype(result);
    if (tcType(target.dtype(), dtype) != dtype)
      throw TcError(what + " has dtype " + typeName(target.dtype()) +
                    " but the output is " + tc_dtype_name(dtype));
    // Host or GPU memory on either side: the runtime copies.
    tc_tensor *wrapped = nullptr;
    int32_t rank = static_cast<int32_t>(shape.size());
    size_t bytes = tc_tensor_byte_size(result);
    check(isHost(target.device_type())
              ? tc_tensor_wrap(dtype, rank, shape.data(), target.data(), bytes,
                               nullptr, nullptr, &wrapped)
              : tc_tensor_wrap_device(device, dtype, rank, shape.data(),
                                      target.data(), bytes, nullptr, nullptr,
                                      &wrapped));
    tc_status status = tc_tensor_copy(wrapped, result);
    tc_tensor_release(wrapped);
    check(status);
  }

  void release() {
    tc_module_release(module);
    tc_device_release(device);
    tc_runtime_release(runtime);
    module = nullptr;
    device = nullptr;
    runtime = nullptr;
  }

  tc_runtime *runtime = nullptr;
  tc_device *device = nullptr;
  tc_module *module = nullptr;
  std::vector<tc_dtype_t> codes; // inputs' then outputs' dtypes
};

} // namespace

NB_MODULE(_tc, m) {
  m.doc() = "The runtime C API of tc (tc-runtime/runtime.h), for the tc "
            "package; use tc.load / tc.compile rather than this module.";
  nb::exception<TcError>(m, "TcError", PyExc_RuntimeError);
  // A model still referenced at interpreter exit (by torch.compile's caches,
  // say) is released after this module's types: harmless, and not worth a
  // warning to every user.
  nb::set_leak_warnings(false);

  m.def("version", [] { return std::string(tc_version()); },
        "tc's version, as the runtime reports it (tc_version).");
  m.def("available_devices",
        [] { return std::string(tc_runtime_available_devices()); },
        "The device kinds this runtime can create, comma separated.");
  m.def("dtype_names", [] {
    std::vector<std::string> names;
    for (int code = TC_DTYPE_F16; code <= TC_DTYPE_U2; ++code)
      names.push_back(tc_dtype_name(static_cast<tc_dtype_t>(code)));
    return names;
  }, "The element type names of module_abi.h, in the order of tc_dtype_t.");

  nb::class_<ArgInfo>(m, "ArgInfo")
      .def_ro("name", &ArgInfo::name)
      .def_ro("dtype", &ArgInfo::dtype, "module_abi.h's name (\"f32\")")
      .def_ro("shape", &ArgInfo::shape, "extents; None where dynamic")
      .def_ro("symbols", &ArgInfo::symbols,
              "each extent's symbol; equal symbols mean equal extents");

  nb::class_<Model>(m, "Model")
      .def(nb::init<const std::string &, const std::string &, int64_t, int32_t,
                    int32_t>(),
           nb::arg("path"), nb::arg("device") = "cpu", nb::arg("threads") = 0,
           nb::arg("gpu_graphs") = -1, nb::arg("gpu_tuning") = -1)
      .def("tune_gpu", &Model::tuneGpu, nb::arg("inputs"),
           nb::arg("budget_seconds") = 60.0, nb::arg("rounds") = 5,
           nb::arg("retune") = false, nb::arg("use_table") = true)
      .def_prop_ro("gpu_choices", &Model::gpuChoices)
      .def_prop_ro("gpu_tuning_table", &Model::gpuTuningTable)
      .def_ro("inputs", &Model::inputs)
      .def_ro("outputs", &Model::outputs)
      .def_prop_ro("device", &Model::deviceSpec)
      .def_prop_ro("num_threads", &Model::numThreads)
      .def_prop_ro("graph_runs", &Model::graphRuns)
      .def_prop_ro("compiler", &Model::compiler)
      .def_prop_ro("mode", &Model::mode)
      .def_prop_ro("targets", &Model::targets)
      .def_prop_ro("shape_buckets", &Model::shapeBuckets)
      .def("run", &Model::run, nb::arg("inputs"), nb::arg("framework"),
           nb::arg("out") = nb::none(), nb::arg("outputs_on_device") = false);
}
