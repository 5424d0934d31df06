// Generator training: the per-method losses, batches and validation loss that the one trainer
// (trainer.cpp) runs (see training.hpp and docs/method.md).
#include "gsflow/models/training.hpp"

#include <ATen/CPUGeneratorImpl.h>

#include <cmath>

#include "checkpoint.hpp"
#include "gsflow/engine/hash.hpp"
#include "model_impl.hpp"
#include "trainer.hpp"

namespace gsflow::models {

using engine::fnv1a64;

std::string dataset_hash(const Dataset& data) {
  std::uint64_t h = fnv1a64(&data.length, sizeof data.length);
  h = fnv1a64(data.letters.data(), data.letters.size() * sizeof(std::uint16_t), h);
  if (!data.lengths.empty())
    h = fnv1a64(data.lengths.data(), data.lengths.size() * sizeof(std::uint16_t), h);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

const char* time_sampling_name(TimeSampling sampling) { return kTimeSamplingNames.name(sampling); }
TimeSampling parse_time_sampling(const std::string& text, const std::string& field) {
  return kTimeSamplingNames.parse<ModelError>(text, field);
}

namespace {

using torch::Tensor;

void check_data(const ModelSpec& spec, const Dataset& data, const char* what) {
  if (data.letters.empty()) return;
  if (data.length != spec.length || data.letters.size() % data.length != 0)
    throw ModelError(std::string(what) + " data: sequences of length " +
                     std::to_string(data.length) + " do not fit a model of length " +
                     std::to_string(spec.length));
  if (!data.lengths.empty()) {
    if (data.lengths.size() != data.count())
      throw ModelError(std::string(what) + " data: " + std::to_string(data.lengths.size()) +
                       " lengths for " + std::to_string(data.count()) + " sequences");
    if (!spec.variable_length())
      throw ModelError(std::string(what) +
                       " data: sequences of different lengths need a transformer network");
    for (std::size_t i = 0; i < data.lengths.size(); ++i)
      if (data.lengths[i] < 1 || data.lengths[i] > data.length)
        throw ModelError(std::string(what) + " data: sequence " + std::to_string(i) +
                         " has length " + std::to_string(data.lengths[i]) + " outside 1.." +
                         std::to_string(data.length));
  }
  for (std::size_t i = 0; i < data.letters.size(); ++i)
    if (data.letters[i] >= spec.k)
      throw ModelError(std::string(what) + " data: sequence " + std::to_string(i / data.length) +
                       " holds letter index " + std::to_string(data.letters[i]) +
                       " outside the model's alphabet of " + std::to_string(spec.k));
}

Tensor uniform_open(at::IntArrayRef shape, at::Generator& gen) {
  return torch::rand(shape, gen).clamp(1e-7, 1.0 - 1e-7);
}

Tensor sample_times(std::int64_t batch, TimeSampling sampling, at::Generator& gen) {
  auto u = torch::rand({batch}, gen);
  if (sampling == TimeSampling::uniform) return u;
  auto strata = torch::randperm(batch, gen, torch::kLong).to(torch::kFloat);
  return (strata + u) / static_cast<double>(batch);
}

// Mean of per-position losses [B, L] over the real positions (mask [B, L] bool, or undefined),
// weighted by `weights` [L] when defined: sum(w * loss) / sum(w).
Tensor masked_mean(const Tensor& per_position, const Tensor& mask, const Tensor& weights) {
  if (!mask.defined() && !weights.defined()) return per_position.mean();
  if (!mask.defined()) {
    const auto w = weights.unsqueeze(0);  // [1, L], broadcast over the batch
    return (per_position * w).sum() / (w.sum() * per_position.size(0));
  }
  auto w = mask.to(per_position.dtype());
  if (weights.defined()) w = w * weights.unsqueeze(0);
  return (per_position * w).sum() / w.sum();
}

Tensor cross_entropy(const Tensor& logits, const Tensor& letters, const Tensor& mask,
                     const Tensor& weights) {
  auto nll = -torch::log_softmax(logits, -1).gather(-1, letters.unsqueeze(-1)).squeeze(-1);
  return masked_mean(nll, mask, weights);
}

// Loss of one batch of letters [B, L] (real positions: mask, or all when undefined) for the
// model's method, with per-position weights [L] when defined.
Tensor batch_loss(const ModelSpec& spec, Network& net, const Tensor& letters, const Tensor& mask,
                  const Tensor& weights, const Tensor& t, at::Generator& gen) {
  const auto k = static_cast<std::int64_t>(spec.k);
  auto x1 = torch::one_hot(letters, k).to(torch::kFloat);
  const auto shape = x1.sizes();
  if (spec.method == engine::Method::linear) {
    auto e = -torch::log(uniform_open(shape, gen));
    auto x0 = e / e.sum(-1, true);
    auto tt = t.reshape({-1, 1, 1});
    auto xt = tt * x1 + (1.0 - tt) * x0;
    return cross_entropy(net->forward(xt, t, mask), letters, mask, weights);
  }
  auto g = -torch::log(-torch::log(uniform_open(shape, gen)));
  auto [a, s] = path_tensors(engine::Path(spec.path).options(), t);
  auto xt = torch::softmax(a * x1 + s * g, -1);
  auto logits = net->forward(xt, t, mask);
  if (spec.method == engine::Method::gsfm) return cross_entropy(logits, letters, mask, weights);
  // GSSM: denoising score matching in log coordinates, weighted by 1/lam_c^2 and divided by K.
  // The conditional score is K lam_c (softmax(-g) - 1/K) (method.md section 3 with
  // y = log x_t): the model's q is regressed on q = softmax(-g).
  // The network's logits are a posterior; score_q turns it into the score it implies.
  auto q = torch::softmax(-g, -1);
  auto q_model = net->score_q(torch::softmax(logits, -1), xt, t);
  return masked_mean((q_model - q).pow(2).sum(-1), mask, weights) * static_cast<double>(k);
}

Tensor gather_batch(const Dataset& data, const Tensor& index) {
  const auto l = static_cast<std::int64_t>(data.length);
  auto all = torch::from_blob(const_cast<std::uint16_t*>(data.letters.data()),
                              {static_cast<std::int64_t>(data.count()), l}, torch::kInt16);
  return all.index_select(0, index).to(torch::kLong);
}

// Real positions [B, L] of the sequences `index`, or undefined when all have the full length.
Tensor gather_mask(const Dataset& data, const Tensor& index) {
  if (data.lengths.empty()) return {};
  auto lengths = torch::from_blob(const_cast<std::uint16_t*>(data.lengths.data()),
                                  {static_cast<std::int64_t>(data.lengths.size())}, torch::kInt16)
                     .index_select(0, index)
                     .to(torch::kLong);
  return torch::arange(static_cast<std::int64_t>(data.length), torch::kLong).unsqueeze(0) <
         lengths.unsqueeze(1);
}

// Per-position loss weights [L] (see TrainOptions::position_weights), undefined when empty.
Tensor weight_tensor(const ModelSpec& spec, const std::vector<float>& position_weights) {
  if (position_weights.empty()) return {};
  if (position_weights.size() != spec.length)
    throw ModelError("position weights: " + std::to_string(position_weights.size()) +
                     " entries, the model length is " + std::to_string(spec.length));
  double sum = 0.0;
  for (const float w : position_weights) {
    if (!(w >= 0.0f) || !std::isfinite(w))
      throw ModelError("position weights must be finite and >= 0");
    sum += w;
  }
  if (!(sum > 0.0)) throw ModelError("position weights are all zero");
  return torch::tensor(position_weights, torch::kFloat);
}

// Generators as a training task: random batches and times reseeded per step (so a resumed run draws
// what an uninterrupted one would), the method's loss, the validation loss on fixed noise, the best
// model kept as FILE.best, and the model's checkpoint for resume.
class GeneratorTask final : public TrainingTask {
 public:
  GeneratorTask(Model& model, const Dataset& train, const Dataset& validation,
                const TrainOptions& o, Tensor weights, TrainResult& result)
      : model_(model),
        m_(model.impl()),
        train_(train),
        validation_(validation),
        o_(o),
        weights_(std::move(weights)),
        result_(result),
        gen_(at::make_generator<at::CPUGeneratorImpl>(o.seed)),
        n_(static_cast<std::int64_t>(train.count())) {
    m_.record.data_hash = dataset_hash(train);
    m_.record.length_counts.clear();
    if (train.lengths.empty())
      m_.record.length_counts[train.length] = train.count();
    else
      for (const auto len : train.lengths) ++m_.record.length_counts[len];
    m_.net->train();
    if (o.ema > 0.0 && !m_.ema) {
      m_.ema = make_network(m_.spec);
      copy_weights(m_.net, m_.ema);
    }
  }

  torch::nn::Module& network() override { return *m_.net; }
  // A checkpoint's EMA is kept up even when options.ema is 0 (it then follows the weights).
  torch::nn::Module* ema() override { return m_.ema ? m_.ema.get() : nullptr; }
  std::int64_t steps_taken() const override { return m_.record.train_steps; }
  std::string optimizer_state() const override { return m_.optimizer_state; }
  void step_taken(std::int64_t steps) override { m_.record.train_steps = steps; }

  Tensor loss(std::int64_t step) override {
    gen_.set_current_seed(o_.seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(step));
    auto index = torch::randint(n_, {static_cast<std::int64_t>(o_.batch)}, gen_, torch::kLong);
    auto t = sample_times(static_cast<std::int64_t>(o_.batch), o_.time_sampling, gen_);
    return batch_loss(m_.spec, m_.net, gather_batch(train_, index), gather_mask(train_, index),
                      weights_, t, gen_);
  }

  bool has_validation() const override { return !validation_.letters.empty(); }
  bool validate_first() const override { return true; }
  void validate(std::int64_t, TrainProgress& p) override {
    const double v =
        validation_loss(model_, validation_, o_.validation_batches, o_.batch, o_.seed ^ 0x5eedULL);
    p.val_loss = v;
    if (v < 0.0) return;
    if (result_.first_val_loss < 0.0) result_.first_val_loss = v;
    result_.last_val_loss = v;
    m_.record.metrics["val_loss"] = v;
    if (result_.best_val_loss < 0.0 || v < result_.best_val_loss) {
      result_.best_val_loss = v;
      m_.record.metrics["best_val_loss"] = v;
      if (!o_.checkpoint_file.empty()) model_.save(o_.checkpoint_file + ".best");
    }
  }

  void save_checkpoint(const std::string& optimizer_state) override {
    m_.optimizer_state = optimizer_state;
    model_.save(o_.checkpoint_file);
  }
  void finish(double seconds) override {
    m_.record.metrics["train_seconds"] =
        seconds +
        (m_.record.metrics.count("train_seconds") ? m_.record.metrics["train_seconds"] : 0.0);
  }

 private:
  Model& model_;
  Model::Impl& m_;
  const Dataset& train_;
  const Dataset& validation_;
  const TrainOptions& o_;
  const Tensor weights_;
  TrainResult& result_;
  at::Generator gen_;
  const std::int64_t n_;
};

}  // namespace

double validation_loss(const Model& model, const Dataset& data, std::size_t batches,
                       std::size_t batch, std::uint64_t seed,
                       const std::vector<float>& position_weights) {
  const ModelSpec& spec = model.spec();
  check_data(spec, data, "validation");
  const Tensor weights = weight_tensor(spec, position_weights);
  if (data.count() == 0) return -1.0;
  torch::NoGradGuard no_grad;
  Network& net = const_cast<Model&>(model).impl().inference();
  net->eval();
  auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  double total = 0.0;
  std::size_t used = 0;
  const std::size_t n = data.count();
  for (std::size_t b = 0; b < batches; ++b) {
    const std::size_t first = (b * batch) % n;
    const std::size_t size = std::min(batch, n - first);
    auto index = torch::arange(static_cast<std::int64_t>(first),
                               static_cast<std::int64_t>(first + size), torch::kLong);
    auto t = sample_times(static_cast<std::int64_t>(size), TimeSampling::stratified, gen);
    total +=
        batch_loss(spec, net, gather_batch(data, index), gather_mask(data, index), weights, t, gen)
            .item<double>() *
        static_cast<double>(size);
    used += size;
  }
  net->train();
  return total / static_cast<double>(used);
}

TrainResult train(Model& model, const Dataset& train_data, const Dataset& validation,
                  const TrainOptions& o, const TrainProgressSink& progress,
                  std::int64_t report_every, const std::atomic<bool>* cancel) {
  const ModelSpec& spec = model.spec();
  check_data(spec, train_data, "training");
  check_data(spec, validation, "validation");
  if (train_data.count() == 0) throw ModelError("training data is empty");
  if (o.batch < 1 || o.steps < 0 || !(o.lr > 0.0) || o.warmup < 1 || o.ema < 0.0 || o.ema >= 1.0)
    throw ModelError("training options: batch >= 1, steps >= 0, lr > 0, warmup >= 1, 0 <= ema < 1");
  Tensor weights = weight_tensor(spec, o.position_weights);
  const Trainer trainer(o);
  TrainResult result;
  GeneratorTask task(model, train_data, validation, o, std::move(weights), result);
  trainer.run(task, result, progress, report_every, cancel);
  return result;
}

}  // namespace gsflow::models
