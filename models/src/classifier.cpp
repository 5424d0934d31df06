// Classifier: gsflow classifier checkpoints, user TorchScript classifiers with a JSON descriptor,
// and evaluate() with input gradients by autograd (see classifier.hpp).
#include "gsflow/models/classifier.hpp"
#include "gsflow/models/strict_json.hpp"

#include <torch/script.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "checkpoint.hpp"
#include "classifier_impl.hpp"
#include "module_io.hpp"

namespace gsflow::models {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kCheckpointKind = "gsflow-classifier";
constexpr const char* kDescriptorFormat = "gsflow-classifier-1";

std::string first_line(const c10::Error& e) {
  const std::string msg = e.what_without_backtrace();
  return msg.substr(0, msg.find('\n'));
}

// Descriptors and checkpoint metadata: the shared strict reader, naming file fields.
class Fields : public StrictJson<ModelError> {
 public:
  Fields(const json& j, const std::string& file, const std::string& what)
      : StrictJson<ModelError>(object_or_fail(j, file, what), file, "", JsonNaming::field) {}

 private:
  static const json& object_or_fail(const json& j, const std::string& file, const std::string& what) {
    if (!j.is_object()) throw ModelError(file + ": " + what + " is not a JSON object");
    return j;
  }
};

std::size_t alphabet_size(const std::string& alphabet, Fields& f) {
  if (alphabet == "dna") return 4;
  if (alphabet == "protein") return 20;
  f.fail("alphabet", "is '" + alphabet + "' (expected dna or protein)");
}

void read_common(Fields& f, ClassifierInfo& info) {
  info.alphabet = f.get<std::string>("alphabet");
  const std::size_t k = alphabet_size(info.alphabet, f);
  info.k = f.get<std::size_t>("k", k);
  if (info.k != k)
    f.fail("k", "is " + std::to_string(info.k) + " but alphabet '" + info.alphabet + "' has " +
                    std::to_string(k) + " letters");
  info.min_length = f.get<std::size_t>("min_length");
  info.max_length = f.get<std::size_t>("max_length");
  if (info.min_length < 1) f.fail("min_length", "must be >= 1");
  if (info.max_length < info.min_length || info.max_length > 65535)
    f.fail("max_length", "must be in min_length..65535");
}

nlohmann::json network_json(const ClassifierNetworkOptions& o) {
  return {{"width", o.width},        {"blocks", o.blocks}, {"kernel", o.kernel},
          {"hidden", o.hidden},      {"pool", o.pool},     {"dropout", o.dropout},
          {"positions", o.positions}};
}

ClassifierNetworkOptions network_from_json(const json& j, const std::string& file) {
  Fields f(j, file, "network");
  ClassifierNetworkOptions o;
  o.width = f.get<int>("width");
  o.blocks = f.get<int>("blocks");
  o.kernel = f.get<int>("kernel");
  o.hidden = f.get<int>("hidden");
  o.pool = f.get<int>("pool", 1);  // absent in files written before pooling existed
  o.dropout = f.get<double>("dropout");
  o.positions = f.get<bool>("positions");
  f.finish();
  return o;
}

std::int64_t count_parameters(const ClassifierCnn& net) {
  std::int64_t n = 0;
  for (const auto& p : net->parameters()) n += p.numel();
  return n;
}

std::unique_ptr<Classifier::Impl> load_checkpoint(const std::string& file) {
  CheckpointData data = read_checkpoint(file);
  json meta;
  try {
    meta = json::parse(data.metadata);
  } catch (const json::exception& e) {
    throw ModelError(file + ": metadata is not valid JSON (" + e.what() + ")");
  }
  if (!meta.is_object() || !meta.contains("kind"))
    throw ModelError(file +
                     ": not a classifier checkpoint (metadata field 'kind' missing; a "
                     "generator model?)");
  auto impl = std::make_unique<Classifier::Impl>();
  ClassifierInfo& info = impl->info;
  Fields f(meta, file, "metadata");
  if (f.get<std::string>("kind") != kCheckpointKind)
    f.fail("kind", "is not '" + std::string(kCheckpointKind) + "'");
  f.get<std::uint32_t>("format");  // the container's version, checked by read_checkpoint()
  info.name = f.get<std::string>("name");
  read_common(f, info);
  info.output = f.get<std::string>("output");
  if (info.output != "logit" && info.output != "score")  // score: a regression model's value
    f.fail("output", "must be 'logit' or 'score' in a gsflow classifier");
  info.positive = f.get<std::string>("positive");
  info.metrics = f.get<std::map<std::string, double>>("metrics");
  info.data_hash = f.get<std::string>("data_hash");
  info.kind = "cnn";
  impl->options = network_from_json(f.get<json>("network"), file);
  impl->training = f.get<json>("training").dump();
  f.finish();
  check_classifier_options(impl->options, static_cast<std::int64_t>(info.k),
                           static_cast<std::int64_t>(info.min_length),
                           static_cast<std::int64_t>(info.max_length), file);
  impl->net = ClassifierCnn(impl->options, static_cast<std::int64_t>(info.k),
                            static_cast<std::int64_t>(info.max_length));
  if (!data.sections.count("weights")) throw ModelError(file + ": section 'weights' missing");
  load_module(*impl->net, data.sections["weights"], file, "weights");
  freeze_for_inference(impl->net);
  impl->file = file;
  return impl;
}

std::unique_ptr<Classifier::Impl> load_descriptor(const std::string& file) {
  const json j = read_json_file<ModelError>(file, "the classifier descriptor");
  auto impl = std::make_unique<Classifier::Impl>();
  ClassifierInfo& info = impl->info;
  Fields f(j, file, "the descriptor");
  const auto format = f.get<std::string>("format");
  if (format != kDescriptorFormat)
    f.fail("format", "is '" + format + "' (expected '" + kDescriptorFormat + "')");
  const auto script = f.get<std::string>("torchscript");
  info.name = f.get<std::string>("name", fs::path(file).stem().string());
  read_common(f, info);
  info.output = f.get<std::string>("output");
  if (info.output != "logit" && info.output != "probability" && info.output != "score")
    f.fail("output", "is '" + info.output + "' (expected logit, probability or score)");
  info.positive = f.get<std::string>("positive", "");
  info.differentiable = f.get<bool>("differentiable", true);
  info.metrics = f.get<std::map<std::string, double>>("metrics", {});
  f.finish();
  info.kind = "torchscript";

  const fs::path path = fs::path(script).is_absolute()
                            ? fs::path(script)
                            : fs::absolute(file).parent_path() / fs::path(script);
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    f.fail("torchscript", "names " + path.string() + ", which does not exist");
  impl->file = file;
  try {
    impl->script = std::make_shared<torch::jit::Module>(torch::jit::load(path.string()));
  } catch (const c10::Error& e) {
    f.fail("torchscript",
           "names " + path.string() + ", which is not a TorchScript file (" + first_line(e) + ")");
  }
  if (!impl->script->find_method("forward"))
    f.fail("torchscript", "names " + path.string() + ", whose module has no forward()");
  impl->script->eval();
  for (auto p : impl->script->parameters()) {
    p.set_requires_grad(false);
    info.parameters += p.numel();
  }
  return impl;
}

// Outputs [n] of the TorchScript module for x [n, L, K] (float), checked.
torch::Tensor run_script(Classifier::Impl& impl, const torch::Tensor& x) {
  auto value = impl.script->forward({x});
  if (!value.isTensor())
    throw ModelError(impl.file + ": field 'torchscript': forward() did not return a tensor");
  auto out = value.toTensor();
  const auto n = x.size(0);
  if (!(out.dim() == 1 && out.size(0) == n) &&
      !(out.dim() == 2 && out.size(0) == n && out.size(1) == 1))
    throw ModelError(impl.file + ": field 'torchscript': forward() returned shape " +
                     c10::str(out.sizes()) + " for " + std::to_string(n) + " sequences ([" +
                     std::to_string(n) + "] or [" + std::to_string(n) + ", 1] expected)");
  if (!out.is_floating_point())
    throw ModelError(impl.file + ": field 'torchscript': forward() returned a non-float tensor");
  return out.reshape({n});
}

}  // namespace

void freeze_for_inference(ClassifierCnn& net) {
  net->eval();
  for (auto& p : net->parameters()) p.set_requires_grad(false);
}

Classifier::Classifier(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {
  if (impl_ && impl_->net) impl_->info.parameters = count_parameters(impl_->net);
}
Classifier::~Classifier() = default;
Classifier::Classifier(Classifier&&) noexcept = default;
Classifier& Classifier::operator=(Classifier&&) noexcept = default;

const ClassifierInfo& Classifier::info() const { return impl_->info; }
void Classifier::set_threads(int threads) {
  impl_->shards = std::make_shared<BatchShards>(std::max(1, threads), Impl::kShardPositions);
}
void Classifier::set_metric(const std::string& name, double value) {
  impl_->info.metrics[name] = value;
}

Classifier Classifier::load(const std::string& file) {
  std::unique_ptr<Impl> impl;
  if (fs::path(file).extension() == ".json") {
    impl = load_descriptor(file);
    Classifier c(std::move(impl));
    // One sequence of min_length through the module: a wrong output shape or an input the module
    // cannot take is reported now, naming the file, not in the middle of a generation.
    const ClassifierInfo& info = c.info();
    std::vector<float> x(info.min_length * info.k, 0.0f);
    for (std::size_t p = 0; p < info.min_length; ++p) x[p * info.k] = 1.0f;
    double out = 0.0;
    c.evaluate({x.data(), info.min_length, info.k, info.k}, 1, info.min_length, {},
               std::span<double>(&out, 1));
    return c;
  }
  try {
    impl = load_checkpoint(file);
  } catch (const c10::Error& e) {
    throw ModelError(file + ": " + first_line(e));
  }
  return Classifier(std::move(impl));
}

void Classifier::save(const std::string& file) const {
  if (!impl_->net)
    throw ModelError(file + ": a TorchScript classifier is not saved as a gsflow checkpoint (" +
                     impl_->file + " stays the user's file)");
  const ClassifierInfo& info = impl_->info;
  json meta = {
      {"kind", kCheckpointKind},
      {"format", kCheckpointFormat},
      {"name", info.name},
      {"alphabet", info.alphabet},
      {"k", info.k},
      {"min_length", info.min_length},
      {"max_length", info.max_length},
      {"output", info.output},
      {"positive", info.positive},
      {"metrics", info.metrics},
      {"data_hash", info.data_hash},
      {"network", network_json(impl_->options)},
      {"training", impl_->training.empty() ? json::object() : json::parse(impl_->training)}};
  CheckpointData data;
  data.metadata = meta.dump(2);
  data.sections["weights"] = save_module(*impl_->net);
  write_checkpoint(file, data);
}

void Classifier::evaluate(engine::ConstRows x, std::size_t n, std::size_t length,
                          std::span<const std::uint16_t> lengths, std::span<double> outputs,
                          const engine::Rows* grad) const {
  const ClassifierInfo& info = impl_->info;
  const std::string who = (impl_->file.empty() ? "classifier '" + info.name + "'" : impl_->file);
  const auto fail = [&](const std::string& what) { throw ModelError(who + ": " + what); };
  if (x.k != info.k || x.stride < x.k)
    fail("input rows have " + std::to_string(x.k) +
         " columns; the classifier takes K = " + std::to_string(info.k));
  if (x.rows != n * length)
    fail(std::to_string(x.rows) + " input rows for " + std::to_string(n) + " sequences of " +
         std::to_string(length));
  if (outputs.size() != n)
    fail(std::to_string(outputs.size()) + " outputs for " + std::to_string(n) + " sequences");
  if (!lengths.empty() && lengths.size() != n)
    fail(std::to_string(lengths.size()) + " lengths for " + std::to_string(n) + " sequences");
  const auto range = std::to_string(info.min_length) + ".." + std::to_string(info.max_length);
  if (length > info.max_length || (lengths.empty() && length < info.min_length))
    fail("sequence length " + std::to_string(length) + " is outside the accepted " + range);
  for (std::size_t i = 0; i < lengths.size(); ++i)
    if (lengths[i] < info.min_length || lengths[i] > info.max_length || lengths[i] > length)
      fail("sequence " + std::to_string(i) + " has length " + std::to_string(lengths[i]) +
           " (accepted " + range + ", at most the padded length " + std::to_string(length) + ")");
  if (grad) {
    if (!info.differentiable)
      fail("the classifier is marked \"differentiable\": false; gradients are not available");
    if (grad->rows != x.rows || grad->k != x.k || grad->stride < grad->k)
      fail("the gradient rows do not have the input's shape");
  }
  if (n == 0) return;

  try {
    const auto li = static_cast<std::int64_t>(length), ki = static_cast<std::int64_t>(info.k),
               si = static_cast<std::int64_t>(x.stride);
    Impl& m = *impl_;
    // Shards of about Impl::kShardPositions positions, side by side on the threads.
    m.shards->run(n, length, [&](std::size_t first, std::size_t count) {
      const auto ci = static_cast<std::int64_t>(count);
      // A view of the caller's rows (no copy unless the rows are strided).
      auto xs = torch::from_blob(const_cast<float*>(x.data + first * length * x.stride),
                                 {ci, li, ki}, {li * si, si, 1}, torch::kFloat)
                    .contiguous();
      // Undefined mask: every position is real (the network then skips its masking passes).
      torch::Tensor mask;
      const bool full = lengths.empty() ||
                        std::all_of(lengths.begin() + static_cast<std::ptrdiff_t>(first),
                                    lengths.begin() + static_cast<std::ptrdiff_t>(first + count),
                                    [&](std::uint16_t len) { return len == length; });
      if (!full) {
        auto lens = torch::from_blob(const_cast<std::uint16_t*>(lengths.data() + first), {ci},
                                     torch::kInt16)
                        .to(torch::kLong);
        mask = torch::arange(li, torch::kLong).unsqueeze(0) < lens.unsqueeze(1);
      }
      const auto forward = [&](const torch::Tensor& input) {
        if (m.net) return m.net->forward(input, mask);
        // TorchScript modules get padded positions as zeros, as the descriptor format promises.
        return run_script(m, mask.defined() ? input.masked_fill(~mask.unsqueeze(-1), 0.0) : input);
      };
      torch::Tensor out;
      if (grad) {
        torch::AutoGradMode enable(true);
        xs = xs.clone().set_requires_grad(true);  // an autograd leaf of our own
        out = forward(xs);
        if (!out.requires_grad())
          fail(
              "the output does not depend differentiably on the input; mark the descriptor "
              "\"differentiable\": false");
        // Sequences are independent, so the gradient of the sum holds each d output_i / d x_i.
        auto g = torch::autograd::grad({out.sum()}, {xs}, {}, false, false, true)[0];
        if (!g.defined()) g = torch::zeros_like(xs);
        if (mask.defined()) g = g.masked_fill(~mask.unsqueeze(-1), 0.0);
        g = g.contiguous();
        const float* src = g.data_ptr<float>();
        float* dst = grad->data + first * length * grad->stride;
        for (std::size_t r = 0; r < count * length; ++r)
          std::copy(src + r * info.k, src + (r + 1) * info.k, dst + r * grad->stride);
        out = out.detach();
      } else {
        torch::NoGradGuard no_grad;
        out = forward(xs);
      }
      out = out.to(torch::kDouble).contiguous();
      std::copy(out.data_ptr<double>(), out.data_ptr<double>() + count,
                outputs.begin() + static_cast<std::ptrdiff_t>(first));
    });
  } catch (const ModelError&) {
    throw;
  } catch (const c10::Error& e) {
    fail(first_line(e));
  } catch (const std::exception& e) {
    // TorchScript's interpreter throws its own std::runtime_error subclass (JITException) whose
    // message is a traceback ending in the error itself, e.g. "RuntimeError: mat1 and mat2 ...".
    const std::string msg = e.what();
    const auto at = msg.rfind("Error: ");
    const auto from = at == std::string::npos ? 0 : msg.rfind('\n', at) + 1;
    fail(msg.substr(from, msg.find('\n', from) - from));
  }
}

}  // namespace gsflow::models
