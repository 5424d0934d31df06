// Classifier training: the guidance classifier's batches, loss and validation AUROC that the one
// trainer (trainer.cpp) runs (see classifier_training.hpp).
#include "gsflow/models/classifier_training.hpp"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "checkpoint.hpp"
#include "classifier_impl.hpp"
#include "gsflow/engine/classification_metrics.hpp"
#include "gsflow/engine/hash.hpp"
#include "trainer.hpp"

namespace gsflow::models {

using engine::fnv1a64;

std::string labelled_dataset_hash(const LabelledDataset& data) {
  std::uint64_t h = fnv1a64(&data.data.length, sizeof data.data.length);
  h = fnv1a64(data.data.letters.data(), data.data.letters.size() * sizeof(std::uint16_t), h);
  if (!data.data.lengths.empty())
    h = fnv1a64(data.data.lengths.data(), data.data.lengths.size() * sizeof(std::uint16_t), h);
  h = fnv1a64(data.labels.data(), data.labels.size(), h);
  if (!data.values.empty())  // regression targets (binary sets hash as they always did)
    h = fnv1a64(data.values.data(), data.values.size() * sizeof(double), h);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

namespace {
// Average ranks (1-based) of v, ties sharing the mean of their ranks.
std::vector<double> ranks(std::span<const double> v) {
  std::vector<std::size_t> order(v.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
    for (std::size_t t = i; t <= j; ++t) r[order[t]] = 0.5 * static_cast<double>(i + j) + 1.0;
    i = j + 1;
  }
  return r;
}
}  // namespace

double spearman(std::span<const double> a, std::span<const double> b) {
  if (a.size() != b.size() || a.size() < 2)
    throw ModelError("spearman: two series of the same length >= 2 needed");
  const auto ra = ranks(a), rb = ranks(b);
  const double n = static_cast<double>(a.size()), mean = (n + 1.0) / 2.0;
  double sab = 0.0, saa = 0.0, sbb = 0.0;
  for (std::size_t i = 0; i < ra.size(); ++i) {
    sab += (ra[i] - mean) * (rb[i] - mean);
    saa += (ra[i] - mean) * (ra[i] - mean);
    sbb += (rb[i] - mean) * (rb[i] - mean);
  }
  return saa > 0.0 && sbb > 0.0 ? sab / std::sqrt(saa * sbb) : 0.0;
}

namespace {

using torch::Tensor;

void check_data(const ClassifierInfo& info, const LabelledDataset& set, const char* what,
                bool regression = false) {
  const Dataset& d = set.data;
  const auto fail = [&](const std::string& msg) {
    throw ModelError(std::string(what) + " data: " + msg);
  };
  if (d.count() == 0) fail("no sequences");
  if (d.length < info.min_length || d.letters.size() % d.length != 0)
    fail("rows of " + std::to_string(d.length) + " letters do not fit lengths " +
         std::to_string(info.min_length) + ".." + std::to_string(info.max_length));
  if (d.length > info.max_length)
    fail("rows of " + std::to_string(d.length) + " letters exceed max_length " +
         std::to_string(info.max_length));
  if (regression) {
    if (set.values.size() != d.count())
      fail(std::to_string(set.values.size()) + " values for " + std::to_string(d.count()) +
           " sequences");
    for (const double v : set.values)
      if (!std::isfinite(v)) fail("regression values must be finite");
  } else if (set.labels.size() != d.count()) {
    fail(std::to_string(set.labels.size()) + " labels for " + std::to_string(d.count()) +
         " sequences");
  }
  if (!d.lengths.empty() && d.lengths.size() != d.count())
    fail(std::to_string(d.lengths.size()) + " lengths for " + std::to_string(d.count()) +
         " sequences");
  for (std::size_t i = 0; i < d.lengths.size(); ++i)
    if (d.lengths[i] < info.min_length || d.lengths[i] > info.max_length || d.lengths[i] > d.length)
      fail("sequence " + std::to_string(i) + " has length " + std::to_string(d.lengths[i]));
  if (d.lengths.empty() && d.length != info.max_length && info.min_length == info.max_length)
    fail("sequences of " + std::to_string(d.length) + " letters for a model of length " +
         std::to_string(info.max_length));
  for (std::size_t i = 0; i < d.letters.size(); ++i)
    if (d.letters[i] >= info.k)
      fail("sequence " + std::to_string(i / d.length) + " holds letter index " +
           std::to_string(d.letters[i]) + " outside the alphabet of " + std::to_string(info.k));
  if (regression) return;
  std::size_t positives = 0;
  for (const auto y : set.labels) {
    if (y > 1) fail("labels must be 0 or 1");
    positives += y;
  }
  if (positives == 0 || positives == set.labels.size())
    fail("both classes are needed (" + std::to_string(positives) + " positives of " +
         std::to_string(set.labels.size()) + ")");
}

// One-hot inputs [B, L, K] and the real-position mask [B, L] of the sequences `index`
// (undefined when all have the full length).
std::pair<Tensor, Tensor> gather(const Dataset& d, std::int64_t k, const Tensor& index) {
  const auto l = static_cast<std::int64_t>(d.length);
  auto all = torch::from_blob(const_cast<std::uint16_t*>(d.letters.data()),
                              {static_cast<std::int64_t>(d.count()), l}, torch::kInt16);
  auto x = torch::one_hot(all.index_select(0, index).to(torch::kLong), k).to(torch::kFloat);
  Tensor mask;  // undefined: every position real
  if (!d.lengths.empty()) {
    auto lens = torch::from_blob(const_cast<std::uint16_t*>(d.lengths.data()),
                                 {static_cast<std::int64_t>(d.count())}, torch::kInt16)
                    .index_select(0, index)
                    .to(torch::kLong);
    mask = torch::arange(l, torch::kLong).unsqueeze(0) < lens.unsqueeze(1);
  }
  return {x, mask};
}

// Outputs of `net` (eval mode, no gradients) for every sequence of `d`.
std::vector<double> network_scores(ClassifierCnn& net, const Dataset& d, std::int64_t k) {
  torch::NoGradGuard no_grad;
  const bool training = net->is_training();
  net->eval();
  std::vector<double> out;
  out.reserve(d.count());
  const auto n = static_cast<std::int64_t>(d.count());
  for (std::int64_t first = 0; first < n; first += 256) {
    auto index = torch::arange(first, std::min(n, first + 256), torch::kLong);
    auto [x, mask] = gather(d, k, index);
    auto s = net->forward(x, mask).to(torch::kDouble).contiguous();
    out.insert(out.end(), s.data_ptr<double>(), s.data_ptr<double>() + s.numel());
  }
  net->train(training);
  return out;
}

void copy_parameters(const ClassifierCnn& from, ClassifierCnn& to) {
  torch::NoGradGuard guard;
  const auto src = from->named_parameters();
  for (auto& p : to->named_parameters()) p.value().copy_(src[p.key()]);
}

nlohmann::json options_json(const ClassifierTrainOptions& o) {
  return {{"steps", o.steps},
          {"batch", o.batch},
          {"lr", o.lr},
          {"weight_decay", o.weight_decay},
          {"clip", o.clip},
          {"warmup", o.warmup},
          {"min_lr_ratio", o.min_lr_ratio},
          {"positive_weight", o.positive_weight},
          {"ema", o.ema},
          {"validate_every", o.validate_every},
          {"max_minutes", o.max_minutes},
          {"threads", o.threads},
          {"seed", o.seed}};
}

// Classifiers as a training task: a new CNN (initial weights and dropout from the seed), shuffled
// epochs, class-weighted binary cross-entropy, validation AUROC with the best weights kept in
// memory.
class ClassifierTask final : public TrainingTask {
 public:
  ClassifierTask(const LabelledDataset& train, const LabelledDataset& validation,
                 const ClassifierTrainOptions& o, std::int64_t k, double pos_weight,
                 ClassifierTrainResult& result)
      : train_(train),
        validation_(validation),
        k_(k),
        pos_weight_(pos_weight),
        result_(result),
        n_(static_cast<std::int64_t>(train.data.count())),
        batch_(std::min<std::int64_t>(static_cast<std::int64_t>(o.batch), n_)),
        regression_(o.regression),
        ties_by_loss_(o.ties_by_loss),
        augment_(o.augment_substitution),
        gen_(at::make_generator<at::CPUGeneratorImpl>(o.seed)),
        cursor_(n_) {
    // Initial weights, batch order and dropout all come from the seed.
    torch::manual_seed(o.seed);
    const auto length = static_cast<std::int64_t>(o.info.max_length);
    net_ = ClassifierCnn(o.network, k, length);
    if (o.ema > 0.0) {
      ema_ = ClassifierCnn(o.network, k, length);
      copy_parameters(net_, ema_);
    }
    best_ = ClassifierCnn(o.network, k, length);
    net_->train();
    if (regression_) {
      // Standardised targets: the network learns z = (y - mean) / sd.
      const std::vector<double>& v = train.values;
      double sum = 0.0, sq = 0.0;
      for (const double y : v) sum += y;
      target_mean_ = sum / static_cast<double>(v.size());
      for (const double y : v) sq += (y - target_mean_) * (y - target_mean_);
      target_sd_ = std::sqrt(sq / static_cast<double>(v.size()));
      if (!(target_sd_ > 0.0)) target_sd_ = 1.0;
      std::vector<float> z;
      for (const double y : v) z.push_back(static_cast<float>((y - target_mean_) / target_sd_));
      labels_ = torch::tensor(z);
    } else {
      labels_ = torch::from_blob(const_cast<std::uint8_t*>(train.labels.data()), {n_}, torch::kUInt8)
                    .to(torch::kFloat);
    }
  }

  torch::nn::Module& network() override { return *net_; }
  torch::nn::Module* ema() override { return ema_ ? ema_.get() : nullptr; }

  Tensor loss(std::int64_t) override {
    // Shuffled epochs: every sequence once per epoch; a short last batch is dropped.
    if (cursor_ + batch_ > n_) {
      order_ = torch::randperm(n_, gen_, torch::kLong);
      cursor_ = 0;
    }
    const auto index = order_.slice(0, cursor_, cursor_ + batch_);
    cursor_ += batch_;
    auto [x, mask] = gather(train_.data, k_, index);
    if (augment_ > 0.0) x = substitute(x);
    const auto y = labels_.index_select(0, index);
    const auto logits = net_->forward(x, mask);
    if (regression_) return torch::mse_loss(logits, y);
    // Class-weighted BCE: positives count pos_weight times.
    const auto weight = 1.0 + (pos_weight_ - 1.0) * y;
    return (weight *
            torch::binary_cross_entropy_with_logits(logits, y, {}, {}, at::Reduction::None))
               .sum() /
           weight.sum();
  }

  bool has_validation() const override { return true; }
  bool validate_when_stopped() const override { return true; }
  void validate(std::int64_t steps, TrainProgress& p) override {
    ClassifierCnn& judged = ema_ ? ema_ : net_;
    const auto scores = network_scores(judged, validation_.data, k_);
    if (regression_) {  // Spearman in the AUROC fields, RMSE (targets' units) in the accuracy ones
      p.val_auroc = spearman(scores, validation_.values);
      double sq = 0.0;
      for (std::size_t i = 0; i < scores.size(); ++i) {
        const double e = scores[i] * target_sd_ + target_mean_ - validation_.values[i];
        sq += e * e;
      }
      p.val_accuracy = std::sqrt(sq / static_cast<double>(scores.size()));
    } else {
      p.val_auroc = engine::auroc(scores, validation_.labels);
      p.val_accuracy = engine::accuracy(scores, validation_.labels, 0.0);
    }
    bool better = p.val_auroc > result_.best_val_auroc || result_.best_step == 0;
    if (ties_by_loss_) {
      double loss = 0.0;  // validation loss, to break ties of the metric
      for (std::size_t i = 0; i < scores.size(); ++i) {
        if (regression_) {
          const double e = scores[i] - (validation_.values[i] - target_mean_) / target_sd_;
          loss += e * e;
        } else {  // BCE with logits, stable form
          const double z = scores[i];
          loss += std::max(z, 0.0) - z * validation_.labels[i] + std::log1p(std::exp(-std::abs(z)));
        }
      }
      p.val_loss = loss / static_cast<double>(scores.size());
      if (p.val_auroc == result_.best_val_auroc && p.val_loss < best_loss_) better = true;
      if (better) best_loss_ = p.val_loss;
    }
    if (better) {
      result_.best_val_auroc = p.best_val_auroc = p.val_auroc;
      result_.best_val_accuracy = p.val_accuracy;
      result_.best_step = steps;
      copy_parameters(judged, best_);
    }
  }

  void save_checkpoint(const std::string&) override {
    throw ModelError("classifier training writes no checkpoints");
  }

  // The batch [B, L, K] with each sequence's positions replaced by uniform letters at a rate drawn
  // from [0, augment_] per sequence (augment_substitution); padded positions stay masked anyway.
  Tensor substitute(const Tensor& x) {
    const auto b = x.size(0), l = x.size(1);
    const auto rate = torch::rand({b, 1}, gen_) * augment_;
    const auto replace = torch::rand({b, l}, gen_) < rate;
    const auto letters = torch::randint(k_, {b, l}, gen_, torch::kLong);
    const auto noise = torch::one_hot(letters, k_).to(x.scalar_type());
    return torch::where(replace.unsqueeze(-1), noise, x);
  }

  // The weights of the best validation AUROC.
  ClassifierCnn& best() { return best_; }
  // Regression: the training targets' mean and standard deviation.
  double target_mean() const { return target_mean_; }
  double target_sd() const { return target_sd_; }

 private:
  const LabelledDataset& train_;
  const LabelledDataset& validation_;
  const std::int64_t k_;
  const double pos_weight_;
  ClassifierTrainResult& result_;
  const std::int64_t n_;
  const std::int64_t batch_;  // sequences per step (at most the training set)
  const bool regression_;
  const bool ties_by_loss_;
  const double augment_;  // ClassifierTrainOptions::augment_substitution
  double best_loss_ = 0.0;  // validation loss of the kept weights (ties_by_loss)
  double target_mean_ = 0.0, target_sd_ = 1.0;  // regression: targets' standardisation
  ClassifierCnn net_{nullptr}, ema_{nullptr}, best_{nullptr};
  at::Generator gen_;
  Tensor labels_;
  Tensor order_;         // this epoch's permutation of the training sequences
  std::int64_t cursor_;  // next position in order_ (n_: draw a new one)
};

}  // namespace

ClassifierTrainResult train_classifier(const LabelledDataset& train,
                                       const LabelledDataset& validation,
                                       const ClassifierTrainOptions& o,
                                       const TrainProgressSink& progress, std::int64_t report_every,
                                       const std::atomic<bool>* cancel) {
  ClassifierInfo info = o.info;
  info.output = o.regression ? "score" : "logit";
  info.kind = "cnn";
  info.differentiable = true;
  info.metrics.clear();
  const auto k = static_cast<std::int64_t>(info.k);
  check_classifier_options(o.network, k, static_cast<std::int64_t>(info.min_length),
                           static_cast<std::int64_t>(info.max_length),
                           "classifier '" + info.name + "'");
  if (info.alphabet == "dna" ? info.k != 4 : info.alphabet == "protein" ? info.k != 20 : true)
    throw ModelError("classifier '" + info.name +
                     "': alphabet must be dna (K 4) or protein (K 20)");
  if (o.batch < 1 || o.steps < 1 || !(o.lr > 0.0) || o.warmup < 1 || o.ema < 0.0 || o.ema >= 1.0 ||
      o.positive_weight < 0.0 || o.validate_every < 0 || o.threads < 1 ||
      !(o.augment_substitution >= 0.0 && o.augment_substitution <= 1.0))
    throw ModelError(
        "classifier training options: batch >= 1, steps >= 1, lr > 0, warmup >= 1, 0 <= ema < 1, "
        "positive_weight >= 0, validate_every >= 0, threads >= 1 and 0 <= augment_substitution <= 1 "
        "required");
  if (!o.checkpoint_file.empty())
    throw ModelError("classifier training options: no checkpoint_file (classifiers do not resume)");
  check_data(info, train, "training", o.regression);
  check_data(info, validation, "validation", o.regression);

  const Trainer trainer(o);
  std::size_t positives = 0;
  for (const auto y : train.labels) positives += y;
  const auto n = static_cast<std::int64_t>(train.data.count());
  const double pos_weight = o.regression ? 1.0
                            : o.positive_weight > 0.0
                                ? o.positive_weight
                                : static_cast<double>(n - static_cast<std::int64_t>(positives)) /
                                      static_cast<double>(positives);

  ClassifierTrainResult result{{}, Classifier(nullptr)};
  ClassifierTask task(train, validation, o, k, pos_weight, result);
  trainer.run(task, result, progress, report_every, cancel);
  if (result.steps_done == 0) throw ModelError("classifier training stopped before its first step");

  auto impl = std::make_unique<Classifier::Impl>();
  impl->options = o.network;
  impl->net = task.best();
  if (o.regression) {
    // Fold the standardisation into the last layer: the saved network outputs y = sd z + mean.
    torch::NoGradGuard no_grad;
    auto params = impl->net->named_parameters();
    params["head2.weight"].mul_(task.target_sd());
    params["head2.bias"].mul_(task.target_sd()).add_(task.target_mean());
  }
  freeze_for_inference(impl->net);
  nlohmann::json training = options_json(o);
  // Only when on, so that checkpoints trained without it stay byte for byte as they were.
  if (o.augment_substitution > 0.0) training["augment_substitution"] = o.augment_substitution;
  if (o.regression) training["task"] = "regression";  // binary checkpoints stay as they were
  impl->training = training.dump();
  info.data_hash = labelled_dataset_hash(train);
  info.metrics = {
      {"validation_auroc", result.best_val_auroc},
      {"validation_accuracy", result.best_val_accuracy},
      {"best_step", static_cast<double>(result.best_step)},
      {"train_steps", static_cast<double>(result.steps_done)},
      {"train_seconds", result.seconds},
      {"train_sequences", static_cast<double>(n)},
      {"train_positive_fraction", static_cast<double>(positives) / static_cast<double>(n)},
      {"positive_weight", pos_weight},
      {"validation_sequences", static_cast<double>(validation.data.count())}};
  if (o.regression) {
    for (const char* key : {"validation_auroc", "validation_accuracy", "train_positive_fraction",
                            "positive_weight"})
      info.metrics.erase(key);
    info.metrics["validation_spearman"] = result.best_val_auroc;
    info.metrics["validation_rmse"] = result.best_val_accuracy;
    info.metrics["target_mean"] = task.target_mean();
    info.metrics["target_sd"] = task.target_sd();
  }
  impl->info = info;
  result.classifier = Classifier(std::move(impl));
  return result;
}

std::vector<double> classifier_scores(const Classifier& classifier, const Dataset& data,
                                      std::size_t batch) {
  const std::size_t k = classifier.info().k, l = data.length, n = data.count();
  std::vector<double> scores(n);
  batch = std::max<std::size_t>(1, batch);
  std::vector<float> x;
  for (std::size_t first = 0; first < n; first += batch) {
    const std::size_t m = std::min(batch, n - first);
    x.assign(m * l * k, 0.0f);
    for (std::size_t r = 0; r < m * l; ++r) {
      const auto letter = data.letters[first * l + r];
      if (letter >= k) throw ModelError("classifier_scores: letter index outside the alphabet");
      x[r * k + letter] = 1.0f;
    }
    std::span<const std::uint16_t> lengths;
    if (!data.lengths.empty()) lengths = std::span(data.lengths).subspan(first, m);
    classifier.evaluate({x.data(), m * l, k, k}, m, l, lengths,
                        std::span(scores).subspan(first, m));
  }
  return scores;
}

}  // namespace gsflow::models
