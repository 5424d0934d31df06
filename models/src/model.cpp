// Model: construction, checkpoint metadata, loading with checks, and the inference denoiser.
#include <nlohmann/json.hpp>
#include <sstream>

#include "batch_shards.hpp"
#include "checkpoint.hpp"
#include "gsflow/engine/kernels.hpp"
#include "gsflow/models/strict_json.hpp"
#include "model_impl.hpp"
#include "module_io.hpp"

namespace gsflow::models {

const char* network_input_name(NetworkInput input) { return kNetworkInputNames.name(input); }
NetworkInput parse_network_input(const std::string& text, const std::string& field) {
  return kNetworkInputNames.parse<ModelError>(text, field);
}
const char* network_type_name(NetworkType type) { return kNetworkTypeNames.name(type); }
NetworkType parse_network_type(const std::string& text, const std::string& field) {
  return kNetworkTypeNames.parse<ModelError>(text, field);
}

void copy_weights(const Network& from, Network& to, bool keep_missing) {
  torch::NoGradGuard guard;
  const auto src = from->named_parameters(), src_b = from->named_buffers();
  for (auto& p : to->named_parameters())
    if (!keep_missing || src.contains(p.key())) p.value().copy_(src[p.key()]);
  for (auto& b : to->named_buffers())
    if (!keep_missing || src_b.contains(b.key())) b.value().copy_(src_b[b.key()]);
}

namespace {

nlohmann::json spec_to_json(const ModelSpec& s) {
  return {{"method", engine::method_name(s.method)},
          {"length", s.length},
          {"k", s.k},
          {"alphabet", s.alphabet},
          {"path",
           {{"interpolant", engine::interpolant_name(s.path.interpolant)},
            {"tau_max", s.path.tau_max},
            {"lambda", s.path.lambda},
            {"beta", s.path.beta},
            {"signal_max", s.path.signal_max}}},
          {"network",
           {{"type", network_type_name(s.network.type)},
            {"width", s.network.width},
            {"blocks", s.network.blocks},
            {"time_features", s.network.time_features},
            {"kernel", s.network.kernel},
            {"heads", s.network.heads},
            {"input", network_input_name(s.network.input)},
            {"likelihood_skip", s.network.likelihood_skip},
            {"block_positions", s.network.block_positions}}}};
}

ModelSpec spec_from_json(const nlohmann::json& j, const std::string& file) {
  ModelSpec s;
  try {
    // Checkpoint metadata: the strict reader (unknown keys are allowed: the record sits beside).
    StrictJson<ModelError> m(j, file, "", JsonNaming::field);
    s.method = engine::parse_method(m.get<std::string>("method"), file + ": method");
    s.length = m.get<std::size_t>("length");
    s.k = m.get<std::size_t>("k");
    s.alphabet = m.get<std::string>("alphabet");
    auto p = m.sub("path");
    s.path.interpolant =
        engine::parse_interpolant(p.get<std::string>("interpolant"), file + ": path.interpolant");
    s.path.tau_max = p.get<double>("tau_max");
    s.path.lambda = p.get<double>("lambda");
    s.path.beta = p.get<double>("beta");
    s.path.signal_max = p.get<double>("signal_max");
    if (!m.has("network")) m.fail("network", "is missing");
    auto n = m.sub("network");
    s.network.type = parse_network_type(n.get<std::string>("type"), file + ": network.type");
    s.network.width = n.get<int>("width");
    s.network.blocks = n.get<int>("blocks");
    s.network.time_features = n.get<int>("time_features");
    s.network.kernel = n.get<int>("kernel");
    s.network.heads = n.get<int>("heads");
    s.network.input = parse_network_input(n.get<std::string>("input"), file + ": network.input");
    s.network.likelihood_skip = n.get<bool>("likelihood_skip");
    // Added after the first bundled models: absent means the network has none.
    s.network.block_positions = n.get<bool>("block_positions", false);
    // Written (as 0 unless used) between 2026-12-07 05:00 and the option's removal the same day:
    // a network that had the layers cannot be rebuilt without them.
    if (n.get<int>("attention", 0) != 0)
      n.fail("attention", "is not 0: CNN self-attention layers are no longer supported");
    (void)n.get<int>("attention_span", 0);
  } catch (const std::invalid_argument& e) {
    throw ModelError(e.what());
  }
  return s;
}

}  // namespace

std::string save_module(torch::nn::Module& net) {
  torch::serialize::OutputArchive archive;
  net.save(archive);
  std::ostringstream out;
  archive.save_to(out);
  return out.str();
}

void load_module(torch::nn::Module& net, const std::string& bytes, const std::string& file,
                 const std::string& section) {
  // Module::load replaces tensors wholesale, shapes included, so the shapes are checked here.
  std::map<std::string, std::vector<std::int64_t>> expected;
  for (const auto& p : net.named_parameters()) expected[p.key()] = p.value().sizes().vec();
  try {
    std::istringstream in(bytes);
    torch::serialize::InputArchive archive;
    archive.load_from(in);
    net.load(archive);
    for (const auto& p : net.named_parameters()) {
      const auto have = p.value().sizes().vec();
      if (have != expected[p.key()])
        throw ModelError(file + ": section '" + section +
                         "' does not fit the network its metadata describes (" + p.key() + " is " +
                         c10::str(c10::IntArrayRef(have)) + " in the file, " +
                         c10::str(c10::IntArrayRef(expected[p.key()])) + " expected)");
    }
  } catch (const c10::Error& e) {
    std::string msg = e.what_without_backtrace();
    throw ModelError(file + ": section '" + section +
                     "' does not fit the network its metadata describes (" +
                     msg.substr(0, msg.find('\n')) + ")");
  }
}

Model::Model(const ModelSpec& spec, std::uint64_t seed) : impl_(std::make_unique<Impl>()) {
  try {
    engine::Path check(spec.path);  // validates the path settings
  } catch (const std::invalid_argument& e) {
    throw ModelError(std::string("model path: ") + e.what());
  }
  impl_->spec = spec;
  torch::manual_seed(seed);
  impl_->net = make_network(spec);
}

Model::Model(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Model::~Model() = default;
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;

const ModelSpec& Model::spec() const { return impl_->spec; }
const ModelRecord& Model::record() const { return impl_->record; }
ModelRecord& Model::record() { return impl_->record; }

std::int64_t Model::parameter_count() const {
  std::int64_t n = 0;
  for (const auto& p : impl_->net->parameters()) n += p.numel();
  return n;
}

namespace {
nlohmann::json record_json(const ModelSpec& spec, const ModelRecord& record, bool ema) {
  nlohmann::json meta = spec_to_json(spec);
  meta["format"] = kCheckpointFormat;
  meta["train_steps"] = record.train_steps;
  meta["data_hash"] = record.data_hash;
  meta["metrics"] = record.metrics;
  nlohmann::json lengths = nlohmann::json::object();
  for (const auto& [len, count] : record.length_counts) lengths[std::to_string(len)] = count;
  meta["length_counts"] = lengths;
  meta["ema"] = ema;
  return meta;
}
}  // namespace

void Model::save_for_inference(const std::string& file) const {
  CheckpointData data;
  data.metadata = record_json(impl_->spec, impl_->record, false).dump(2);
  data.sections["weights"] = save_module(*const_cast<Impl&>(*impl_).inference());
  write_checkpoint(file, data);
}

void Model::save(const std::string& file) const {
  const nlohmann::json meta =
      record_json(impl_->spec, impl_->record, static_cast<bool>(impl_->ema));
  CheckpointData data;
  data.metadata = meta.dump(2);
  data.sections["weights"] = save_module(*impl_->net);
  if (impl_->ema) data.sections["ema_weights"] = save_module(*impl_->ema);
  if (!impl_->optimizer_state.empty()) data.sections["optimizer"] = impl_->optimizer_state;
  write_checkpoint(file, data);
}

Model Model::load(const std::string& file) {
  CheckpointData data = read_checkpoint(file);
  nlohmann::json meta;
  try {
    meta = nlohmann::json::parse(data.metadata);
  } catch (const nlohmann::json::exception& e) {
    throw ModelError(file + ": metadata is not valid JSON (" + e.what() + ")");
  }
  auto impl = std::make_unique<Impl>();
  impl->spec = spec_from_json(meta, file);
  try {
    engine::Path check(impl->spec.path);
    (void)check;
  } catch (const std::invalid_argument& e) {
    throw ModelError(file + ": metadata field 'path': " + e.what());
  }
  StrictJson<ModelError> m(meta, file, "", JsonNaming::field);
  impl->record.train_steps = m.get<std::int64_t>("train_steps");
  impl->record.data_hash = m.get<std::string>("data_hash");
  impl->record.metrics = m.get<std::map<std::string, double>>("metrics");
  for (const auto& [len, count] : m.get<std::map<std::string, std::size_t>>("length_counts"))
    impl->record.length_counts[std::stoul(len)] = count;
  impl->net = make_network(impl->spec);
  if (!data.sections.count("weights")) throw ModelError(file + ": section 'weights' missing");
  load_module(*impl->net, data.sections["weights"], file, "weights");
  if (m.get<bool>("ema")) {
    if (!data.sections.count("ema_weights"))
      throw ModelError(file + ": section 'ema_weights' missing");
    impl->ema = make_network(impl->spec);
    load_module(*impl->ema, data.sections["ema_weights"], file, "ema_weights");
  }
  if (data.sections.count("optimizer")) impl->optimizer_state = data.sections["optimizer"];
  return Model(std::move(impl));
}

void Model::init_weights_from(const Model& other, const std::string& what) {
  const ModelSpec &a = impl_->spec, &b = other.spec();
  if (a.k != b.k || a.length != b.length || a.alphabet != b.alphabet ||
      a.network.type != b.network.type || a.network.width != b.network.width ||
      a.network.blocks != b.network.blocks || a.network.kernel != b.network.kernel ||
      a.network.heads != b.network.heads || a.network.time_features != b.network.time_features ||
      a.network.input != b.network.input ||
      a.network.likelihood_skip != b.network.likelihood_skip ||
      (b.network.block_positions && !a.network.block_positions))
    throw ModelError(what + ": its network, K, L or alphabet differ from the model being trained");
  Network& from = const_cast<Impl&>(*other.impl_).inference();
  copy_weights(from, impl_->net, true);
  if (impl_->ema) copy_weights(from, impl_->ema, true);
}

void Model::check_matches(const ModelSpec& expected, const std::string& what) const {
  const ModelSpec& s = impl_->spec;
  const auto fail = [&](const std::string& f, const std::string& have, const std::string& want) {
    throw ModelError(what + ": field '" + f + "' is " + have + " but " + want + " is required");
  };
  if (s.method != expected.method)
    fail("method", engine::method_name(s.method), engine::method_name(expected.method));
  if (s.k != expected.k) fail("k", std::to_string(s.k), std::to_string(expected.k));
  if (s.length != expected.length)
    fail("length", std::to_string(s.length), std::to_string(expected.length));
  if (s.alphabet != expected.alphabet)
    fail("alphabet", "'" + s.alphabet + "'", "'" + expected.alphabet + "'");
}

namespace {
struct Shard {
  torch::Tensor x, t, mask, out;
};

engine::Denoiser make_denoiser(const Model::Impl* impl, const engine::Kernels& kernels, int threads,
                               const std::vector<std::uint16_t>* lengths, Precision precision) {
  if (precision == Precision::automatic)
    throw std::invalid_argument("model denoiser: resolve the precision first");
  // The network runs on shards of the batch, side by side on `threads` threads (batch_shards.hpp).
  auto shards = std::make_shared<BatchShards>(threads);
  Network& net = const_cast<Model::Impl*>(impl)->inference(precision);
  net->eval();
  return [impl, &kernels, shards, lengths, net](engine::ConstRows x, std::size_t sequences,
                                                double t, engine::Rows out) {
    const auto k = static_cast<std::int64_t>(impl->spec.k);
    const std::size_t len = sequences ? x.rows / sequences : 0;
    const bool any_length = impl->spec.variable_length();
    if (x.rows != sequences * len ||
        (any_length ? len > impl->spec.length : len != impl->spec.length) || x.k != impl->spec.k ||
        x.stride != x.k || out.rows != x.rows || out.k != x.k || out.stride != out.k ||
        (lengths && (lengths->size() != sequences || !any_length)))
      throw std::invalid_argument("model denoiser: state shape does not match the model");
    const auto l = static_cast<std::int64_t>(len);
    // Views of shard [first, first + count) of the batch: x, t, mask and the output.
    const auto shard = [&](std::size_t first, std::size_t count) {
      const auto n = static_cast<std::int64_t>(count);
      const std::size_t row0 = first * len;
      Shard s{
          torch::from_blob(const_cast<float*>(x.data + row0 * x.stride), {n, l, k}, torch::kFloat),
          torch::full({n}, static_cast<float>(t)),
          {},
          torch::from_blob(out.data + row0 * out.stride, {n, l, k}, torch::kFloat)};
      if (lengths)
        s.mask = torch::arange(l, torch::kLong).unsqueeze(0) <
                 torch::from_blob(const_cast<std::uint16_t*>(lengths->data() + first), {n},
                                  torch::kInt16)
                     .to(torch::kLong)
                     .unsqueeze(1);
      return s;
    };
    shards->run(sequences, len, [&](std::size_t first, std::size_t count) {
      const torch::NoGradGuard no_grad;
      const Shard s = shard(first, count);
      s.out.copy_(net->forward(s.x, s.t, s.mask));
    });
    kernels.softmax(engine::ConstRows{out.data, out.rows, out.k, out.stride}, out);
    if (impl->spec.method == engine::Method::gssm)
      shards->run(sequences, len, [&](std::size_t first, std::size_t count) {
        const torch::NoGradGuard no_grad;
        const Shard s = shard(first, count);
        s.out.copy_(net->score_q(s.out.clone(), s.x, s.t));
      });
  };
}
}  // namespace

engine::Denoiser Model::denoiser(const engine::Kernels& kernels, int threads,
                                 Precision precision) const {
  return make_denoiser(impl_.get(), kernels, threads, nullptr, precision);
}

engine::Denoiser Model::denoiser(const engine::Kernels& kernels, int threads,
                                 const std::vector<std::uint16_t>& lengths,
                                 Precision precision) const {
  return make_denoiser(impl_.get(), kernels, threads, &lengths, precision);
}

Network& Model::Impl::inference(Precision precision) {
  if (precision != Precision::bfloat16) return inference();
  const std::lock_guard<std::mutex> lock(bf16_mutex);
  if (!bf16) {
    // A copy of the inference weights with every parameter (not the buffers: the time
    // frequencies stay float32) in bfloat16; NetworkImpl::forward casts at the body's edges.
    bf16 = make_network(spec);
    copy_weights(inference(), bf16);
    const torch::NoGradGuard no_grad;
    for (auto& p : bf16->parameters()) p.set_data(p.to(torch::kBFloat16));
    bf16->eval();
  }
  return bf16;
}

}  // namespace gsflow::models
