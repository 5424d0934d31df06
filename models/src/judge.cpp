// k-mer logistic-regression judges: features, the exact Newton fit, cross-validation, the
// "gsflow-judge-1" file and lookup by name (see judge.hpp).
#include "gsflow/models/judge.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "gsflow/engine/classification_metrics.hpp"
#include "gsflow/engine/errors.hpp"
#include "gsflow/engine/philox.hpp"
#include "gsflow/models/catalog.hpp"

namespace gsflow::models {

namespace {

constexpr const char* kFormat = "gsflow-judge-1";

void check_features(const JudgeFeatures& f) {
  if (f.k < 2 || f.k > 255) throw std::invalid_argument("judge features: K must be 2..255");
  if (f.kmax == 0) throw std::invalid_argument("judge features: kmax must be at least 1");
  double space = 1.0;
  for (std::size_t j = 0; j < f.kmax; ++j) space *= static_cast<double>(f.k);
  if (space > double(1 << 24)) throw std::invalid_argument("judge features: K^kmax > 2^24");
  if (!(f.length_scale > 0.0) || !std::isfinite(f.length_scale))
    throw std::invalid_argument("judge features: length_scale must be positive");
}

// log(1 + exp(z)) without overflow.
double softplus(double z) { return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z)); }

double sigmoid(double z) {
  if (z >= 0) return 1.0 / (1.0 + std::exp(-z));
  const double e = std::exp(z);
  return e / (1.0 + e);
}

// (1/n) sum softplus(z) - y z + (lambda/2)|w|^2.
double objective(const Eigen::VectorXd& z, const Eigen::VectorXd& y, const Eigen::VectorXd& w,
                 double lambda) {
  double loss = 0.0;
  for (Eigen::Index i = 0; i < z.size(); ++i) loss += softplus(z[i]) - y[i] * z[i];
  return loss / static_cast<double>(z.size()) + 0.5 * lambda * w.squaredNorm();
}

// Mean and population standard deviation per column; columns without spread (constant in this
// training part) get scale 1, so they stay ~0 after standardising and their weight ~0.
void standardisation(const Eigen::MatrixXd& x, Eigen::VectorXd& mean, Eigen::VectorXd& scale) {
  const double n = static_cast<double>(x.rows());
  mean = x.colwise().sum().transpose() / n;
  scale.resize(x.cols());
  for (Eigen::Index j = 0; j < x.cols(); ++j) {
    const double s = std::sqrt((x.col(j).array() - mean[j]).square().sum() / n);
    scale[j] = s > 1e-12 ? s : 1.0;
  }
}

void standardise(Eigen::MatrixXd& x, const Eigen::VectorXd& mean, const Eigen::VectorXd& scale) {
  x.rowwise() -= mean.transpose();
  x.array().rowwise() /= scale.transpose().array();
}

// Folds 0..folds-1 for each sequence: whole groups per fold, groups with positives dealt first to
// the fold with the fewest positives, the rest to the fold with the fewest sequences, each in an
// order drawn from Philox(seed) so the folds are random yet balanced.
std::vector<std::size_t> assign_folds(std::span<const std::uint8_t> labels,
                                      std::span<const std::uint32_t> groups, std::size_t folds,
                                      std::uint64_t seed) {
  const std::size_t n = labels.size();
  std::map<std::uint64_t, std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < n; ++i) members[groups.empty() ? i : groups[i]].push_back(i);
  if (members.size() < folds)
    throw std::invalid_argument("judge: " + std::to_string(members.size()) +
                                " groups of sequences cannot fill " + std::to_string(folds) +
                                " folds");
  struct Group {
    std::size_t positives, size;
    float key;
    std::uint64_t id;
    const std::vector<std::size_t>* rows;
  };
  std::vector<Group> order;
  for (const auto& [id, rows] : members) {
    std::size_t pos = 0;
    for (auto i : rows) pos += labels[i];
    order.push_back(
        {pos, rows.size(),
         engine::noise_uniform(seed, 0x6a756467, static_cast<std::uint32_t>(id), id >> 32), id,
         &rows});
  }
  std::sort(order.begin(), order.end(), [](const Group& a, const Group& b) {
    if ((a.positives > 0) != (b.positives > 0)) return a.positives > 0;
    return a.key != b.key ? a.key < b.key : a.id < b.id;
  });
  std::vector<std::size_t> fold_pos(folds, 0), fold_size(folds, 0), fold(n, 0);
  for (const auto& g : order) {
    std::size_t best = 0;
    for (std::size_t f = 1; f < folds; ++f) {
      const bool better = g.positives > 0 ? std::pair(fold_pos[f], fold_size[f]) <
                                                std::pair(fold_pos[best], fold_size[best])
                                          : fold_size[f] < fold_size[best];
      if (better) best = f;
    }
    fold_pos[best] += g.positives;
    fold_size[best] += g.size;
    for (auto i : *g.rows) fold[i] = best;
  }
  return fold;
}

std::string data_hash(const engine::SequenceSet& sequences, std::span<const std::uint8_t> labels) {
  std::string bytes;
  for (std::size_t i = 0; i < sequences.size(); ++i) {
    const auto length = static_cast<std::uint32_t>(sequences[i].size());
    for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<char>((length >> (8 * b)) & 0xff));
    bytes.append(sequences[i].begin(), sequences[i].end());
    bytes.push_back(static_cast<char>(labels[i]));
  }
  return models::content_hash(bytes);
}

// ---- reading the file: every failure names the file and the field ----
using nlohmann::json;

[[noreturn]] void bad_field(const std::string& path, const std::string& field,
                            const std::string& why) {
  throw engine::InputError(path, 0, "field '" + field + "': " + why);
}

const json& need(const json& j, const std::string& path, const std::string& parent,
                 const char* key) {
  const std::string field = parent.empty() ? key : parent + "." + key;
  if (!j.is_object()) bad_field(path, parent, "expected a JSON object");
  const auto it = j.find(key);
  if (it == j.end()) bad_field(path, field, "missing");
  return *it;
}

std::string need_string(const json& j, const std::string& path, const std::string& parent,
                        const char* key) {
  const json& v = need(j, path, parent, key);
  if (!v.is_string())
    bad_field(path, parent.empty() ? key : parent + "." + key, "expected a string");
  return v.get<std::string>();
}

double need_number(const json& j, const std::string& path, const std::string& parent,
                   const char* key) {
  const json& v = need(j, path, parent, key);
  if (!v.is_number())
    bad_field(path, parent.empty() ? key : parent + "." + key, "expected a number");
  return v.get<double>();
}

std::size_t need_count(const json& j, const std::string& path, const std::string& parent,
                       const char* key) {
  const json& v = need(j, path, parent, key);
  if (!v.is_number_unsigned())
    bad_field(path, parent.empty() ? key : parent + "." + key, "expected a non-negative integer");
  return v.get<std::size_t>();
}

Eigen::VectorXd need_vector(const json& j, const std::string& path, const std::string& parent,
                            const char* key, std::size_t size) {
  const std::string field = parent.empty() ? key : parent + "." + key;
  const json& v = need(j, path, parent, key);
  if (!v.is_array()) bad_field(path, field, "expected an array of numbers");
  if (v.size() != size)
    bad_field(path, field,
              "expected " + std::to_string(size) + " numbers, found " + std::to_string(v.size()));
  Eigen::VectorXd out(static_cast<Eigen::Index>(size));
  for (std::size_t i = 0; i < size; ++i) {
    if (!v[i].is_number() || !std::isfinite(v[i].get<double>()))
      bad_field(path, field, "element " + std::to_string(i) + " is not a finite number");
    out[static_cast<Eigen::Index>(i)] = v[i].get<double>();
  }
  return out;
}

json to_json(const Eigen::VectorXd& v) {
  json a = json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(v[i]);
  return a;
}

}  // namespace

// ---- features ----

std::size_t JudgeFeatures::size() const {
  std::size_t total = length ? 1 : 0, block = 1;
  for (std::size_t j = 1; j <= kmax; ++j) total += (block *= k);
  return total;
}

void judge_features(const JudgeFeatures& f, std::span<const std::uint8_t> s,
                    std::span<double> out) {
  check_features(f);
  if (out.size() != f.size()) throw std::invalid_argument("judge_features: wrong output size");
  if (s.empty()) throw std::invalid_argument("judge_features: empty sequence");
  for (auto letter : s)
    if (letter >= f.k)
      throw std::invalid_argument("judge_features: letter " + std::to_string(letter) +
                                  " outside the alphabet of " + std::to_string(f.k));
  std::fill(out.begin(), out.end(), 0.0);
  std::size_t offset = 0;
  if (f.length) out[offset++] = static_cast<double>(s.size()) / f.length_scale;
  std::size_t block = 1;
  for (std::size_t k = 1; k <= f.kmax; ++k) {
    block *= f.k;
    if (s.size() >= k) {
      // Rolling index of the k-mer ending at position i, first letter most significant.
      std::size_t index = 0;
      for (std::size_t i = 0; i < s.size(); ++i) {
        index = (index * f.k + s[i]) % block;
        if (i + 1 >= k) out[offset + index] += 1.0;
      }
      const double windows = static_cast<double>(s.size() - k + 1);
      for (std::size_t j = 0; j < block; ++j) out[offset + j] /= windows;
    }
    offset += block;
  }
}

Eigen::MatrixXd judge_feature_matrix(const JudgeFeatures& f, const engine::SequenceSet& seqs) {
  check_features(f);
  const std::size_t p = f.size();
  Eigen::MatrixXd x(static_cast<Eigen::Index>(seqs.size()), static_cast<Eigen::Index>(p));
  Eigen::VectorXd row(static_cast<Eigen::Index>(p));
  for (std::size_t i = 0; i < seqs.size(); ++i) {
    judge_features(f, seqs[i], std::span<double>(row.data(), p));
    x.row(static_cast<Eigen::Index>(i)) = row.transpose();
  }
  return x;
}

// ---- the fit ----

LogisticFit fit_logistic_l2(const Eigen::MatrixXd& x, std::span<const std::uint8_t> labels,
                            double lambda, const LogisticOptions& options,
                            const LogisticFit* start) {
  const Eigen::Index n = x.rows(), p = x.cols();
  if (n == 0) throw std::invalid_argument("fit_logistic_l2: no rows");
  if (labels.size() != static_cast<std::size_t>(n))
    throw std::invalid_argument("fit_logistic_l2: labels and rows differ in number");
  if (!(lambda > 0.0) || !std::isfinite(lambda))
    throw std::invalid_argument("fit_logistic_l2: lambda must be positive");
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (labels[i] > 1) throw std::invalid_argument("fit_logistic_l2: labels must be 0 or 1");
    y[i] = labels[i];
  }
  LogisticFit fit;
  if (start && start->weights.size() == p) {
    fit.weights = start->weights;
    fit.intercept = start->intercept;
  } else {
    fit.weights = Eigen::VectorXd::Zero(p);
    const double mean_y = std::clamp(y.mean(), 1e-6, 1.0 - 1e-6);
    fit.intercept = std::log(mean_y / (1.0 - mean_y));  // the optimum when w = 0
  }
  const double inv_n = 1.0 / static_cast<double>(n);
  Eigen::VectorXd z = (x * fit.weights).array() + fit.intercept;
  double obj = objective(z, y, fit.weights, lambda);
  Eigen::VectorXd prob(n), d(n), g(p + 1), step(p + 1), z_step(n), z_new(n);
  Eigen::MatrixXd h(p + 1, p + 1), xs(n, p);
  for (int iteration = 0;; ++iteration) {
    for (Eigen::Index i = 0; i < n; ++i) prob[i] = sigmoid(z[i]);
    g[0] = (prob - y).sum() * inv_n;
    g.tail(p) = x.transpose() * (prob - y) * inv_n + lambda * fit.weights;
    fit.gradient_norm = g.cwiseAbs().maxCoeff();
    fit.iterations = iteration;
    if (fit.gradient_norm <= options.tolerance) return fit;
    if (iteration >= options.max_iterations)
      throw std::runtime_error("fit_logistic_l2: no convergence after " +
                               std::to_string(iteration) + " Newton steps (max |gradient| " +
                               std::to_string(fit.gradient_norm) + ")");
    // Exact Hessian of J over (b, w), lower triangle: [sum d, (X^T d)^T; X^T d, X^T D X] / n +
    // lambda on the w block. d = p (1 - p) never underflows to an all-zero row set in practice;
    // the lambda term keeps the w block positive definite regardless.
    d = prob.array() * (1.0 - prob.array());
    xs = x.array().colwise() * d.array().sqrt();
    h.setZero();
    h(0, 0) = std::max(d.sum() * inv_n, 1e-300);
    h.col(0).tail(p) = x.transpose() * d * inv_n;
    h.bottomRightCorner(p, p).selfadjointView<Eigen::Lower>().rankUpdate(xs.transpose(), inv_n);
    h.bottomRightCorner(p, p).diagonal().array() += lambda;
    Eigen::LLT<Eigen::MatrixXd, Eigen::Lower> llt(h);
    if (llt.info() != Eigen::Success)
      throw std::runtime_error("fit_logistic_l2: Hessian not positive definite");
    step = -llt.solve(g);
    z_step = (x * step.tail(p)).array() + step[0];
    // Armijo backtracking. Near the optimum the decrease falls below double resolution of J, so
    // a few ulps of slack let the full Newton step through; the gradient test decides the end.
    const double slope = g.dot(step);
    const double slack = 8 * std::numeric_limits<double>::epsilon() * std::abs(obj);
    double t = 1.0, obj_new = obj;
    for (int halvings = 0;; ++halvings) {
      z_new = z + t * z_step;
      obj_new = objective(z_new, y, fit.weights + t * step.tail(p), lambda);
      if (obj_new <= obj + 1e-4 * t * slope + slack) break;
      if (halvings == 60)
        throw std::runtime_error("fit_logistic_l2: line search failed (max |gradient| " +
                                 std::to_string(fit.gradient_norm) + ")");
      t *= 0.5;
    }
    fit.weights += t * step.tail(p);
    fit.intercept += t * step[0];
    z = z_new;
    obj = obj_new;
  }
}

std::vector<double> default_judge_lambdas() {
  std::vector<double> out;
  for (int e = -10; e <= 4; ++e) out.push_back(std::pow(10.0, 0.5 * e));
  return out;
}

// ---- training ----

KmerJudge KmerJudge::train(const engine::SequenceSet& sequences,
                           std::span<const std::uint8_t> labels, const JudgeOptions& options,
                           std::span<const std::uint32_t> groups) {
  const auto start_time = std::chrono::steady_clock::now();
  const std::size_t n = sequences.size();
  if (n == 0) throw std::invalid_argument("judge: no training sequences");
  if (labels.size() != n)
    throw std::invalid_argument("judge: sequences and labels differ in number");
  if (!groups.empty() && groups.size() != n)
    throw std::invalid_argument("judge: sequences and groups differ in number");
  if (options.folds < 2) throw std::invalid_argument("judge: at least 2 folds are needed");
  if (options.kmax_candidates.empty() || options.lambdas.empty())
    throw std::invalid_argument("judge: no kmax or lambda to choose from");
  for (double l : options.lambdas)
    if (!(l > 0.0) || !std::isfinite(l)) throw std::invalid_argument("judge: lambdas must be > 0");
  std::size_t positives = 0;
  for (auto l : labels) {
    if (l > 1) throw std::invalid_argument("judge: labels must be 0 or 1");
    positives += l;
  }
  if (positives == 0 || positives == n)
    throw std::invalid_argument("judge: the training set needs both labels");

  std::vector<std::size_t> kmaxes = options.kmax_candidates;
  std::sort(kmaxes.begin(), kmaxes.end());
  kmaxes.erase(std::unique(kmaxes.begin(), kmaxes.end()), kmaxes.end());
  std::vector<double> lambdas = options.lambdas;
  std::sort(lambdas.begin(), lambdas.end(), std::greater<>());  // warm starts: strong to weak
  lambdas.erase(std::unique(lambdas.begin(), lambdas.end()), lambdas.end());

  JudgeFeatures features{.k = options.k,
                         .kmax = kmaxes.back(),
                         .length = options.length_feature,
                         .length_scale = options.length_scale};
  // Features of smaller kmax are a prefix of these columns (length first, then k = 1, 2, ...).
  const Eigen::MatrixXd all = judge_feature_matrix(features, sequences);
  auto columns = [&](std::size_t kmax) {
    JudgeFeatures f = features;
    f.kmax = kmax;
    return static_cast<Eigen::Index>(f.size());
  };

  // Out-of-fold probabilities per (kmax, lambda) cell.
  const auto fold = assign_folds(labels, groups, options.folds, options.seed);
  std::vector<std::vector<double>> oof(kmaxes.size() * lambdas.size(), std::vector<double>(n));
  for (std::size_t f = 0; f < options.folds; ++f) {
    std::vector<Eigen::Index> train_rows, test_rows;
    std::vector<std::uint8_t> train_labels;
    for (std::size_t i = 0; i < n; ++i) {
      if (fold[i] == f) {
        test_rows.push_back(static_cast<Eigen::Index>(i));
      } else {
        train_rows.push_back(static_cast<Eigen::Index>(i));
        train_labels.push_back(labels[i]);
      }
    }
    for (std::size_t c = 0; c < kmaxes.size(); ++c) {
      const Eigen::Index p = columns(kmaxes[c]);
      Eigen::MatrixXd xtr = all(train_rows, Eigen::seqN(0, p));
      Eigen::MatrixXd xte = all(test_rows, Eigen::seqN(0, p));
      Eigen::VectorXd mean, scale;
      standardisation(xtr, mean, scale);
      standardise(xtr, mean, scale);
      standardise(xte, mean, scale);
      LogisticFit fit;
      for (std::size_t l = 0; l < lambdas.size(); ++l) {
        fit = fit_logistic_l2(xtr, train_labels, lambdas[l], options.fit, l ? &fit : nullptr);
        const Eigen::VectorXd z = (xte * fit.weights).array() + fit.intercept;
        auto& out = oof[c * lambdas.size() + l];
        for (std::size_t r = 0; r < test_rows.size(); ++r)
          out[static_cast<std::size_t>(test_rows[r])] = sigmoid(z[static_cast<Eigen::Index>(r)]);
      }
    }
  }

  KmerJudge judge;
  JudgeInfo& info = judge.info_;
  std::size_t best = 0;
  for (std::size_t c = 0; c < kmaxes.size(); ++c) {
    for (std::size_t l = 0; l < lambdas.size(); ++l) {
      const auto& probs = oof[c * lambdas.size() + l];
      double loss = 0.0;
      for (std::size_t i = 0; i < n; ++i) {
        // Clamped so that one certain mistake gives a large, finite loss.
        const double q = std::clamp(labels[i] ? probs[i] : 1.0 - probs[i], 1e-300, 1.0);
        loss -= std::log(q);
      }
      info.cv.push_back({.kmax = kmaxes[c],
                         .lambda = lambdas[l],
                         .log_loss = loss / static_cast<double>(n),
                         .auroc = engine::auroc(probs, labels),
                         .accuracy = engine::accuracy(probs, labels, 0.5)});
      // Strictly better only: ties keep the stronger lambda, then the smaller kmax.
      if (info.cv.back().log_loss < info.cv[best].log_loss) best = info.cv.size() - 1;
    }
  }
  const JudgeCvPoint chosen = info.cv[best];

  features.kmax = chosen.kmax;
  Eigen::MatrixXd x = all.leftCols(columns(chosen.kmax));
  standardisation(x, judge.mean_, judge.scale_);
  standardise(x, judge.mean_, judge.scale_);
  const LogisticFit fit = fit_logistic_l2(x, labels, chosen.lambda, options.fit);
  judge.weights_ = fit.weights;
  judge.intercept_ = fit.intercept;

  info.name = options.name;
  info.alphabet = options.alphabet;
  info.positive = options.positive;
  info.features = features;
  info.lambda = chosen.lambda;
  info.folds = options.folds;
  info.split = options.split;
  info.data_file = options.data_file;
  info.data_hash = data_hash(sequences, labels);
  info.sequences = n;
  info.positives = positives;
  info.metrics["cv_log_loss"] = chosen.log_loss;
  info.metrics["cv_auroc"] = chosen.auroc;
  info.metrics["cv_accuracy"] = chosen.accuracy;
  const auto fitted = judge.probabilities(sequences);
  info.metrics["fit_auroc"] = engine::auroc(fitted, labels);
  info.metrics["fit_accuracy"] = engine::accuracy(fitted, labels, 0.5);
  info.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return judge;
}

// ---- scoring ----

double KmerJudge::probability(std::span<const std::uint8_t> sequence) const {
  const std::size_t p = static_cast<std::size_t>(weights_.size());
  Eigen::VectorXd x(weights_.size());
  judge_features(info_.features, sequence, std::span<double>(x.data(), p));
  const double z = intercept_ + ((x - mean_).array() / scale_.array()).matrix().dot(weights_);
  return sigmoid(z);
}

std::vector<double> KmerJudge::probabilities(const engine::SequenceSet& sequences) const {
  std::vector<double> out;
  out.reserve(sequences.size());
  for (const auto& s : sequences) out.push_back(probability(s));
  return out;
}

// ---- the file ----

void KmerJudge::save(const std::string& path) const {
  const JudgeInfo& i = info_;
  json cv = json::array();
  for (const auto& c : i.cv)
    cv.push_back({{"kmax", c.kmax},
                  {"lambda", c.lambda},
                  {"log_loss", c.log_loss},
                  {"auroc", c.auroc},
                  {"accuracy", c.accuracy}});
  json metrics = json::object();
  for (const auto& [name, value] : i.metrics) metrics[name] = value;
  const json j = {
      {"format", kFormat},
      {"name", i.name},
      {"alphabet", i.alphabet},
      {"positive", i.positive},
      {"model",
       "L2-regularised logistic regression on standardised features: P(positive) = "
       "sigmoid(intercept + sum_j weights_j (x_j - mean_j) / scale_j)"},
      {"features",
       {{"k", i.features.k},
        {"kmax", i.features.kmax},
        {"length", i.features.length},
        {"length_scale", i.features.length_scale},
        {"size", i.features.size()},
        {"layout",
         "[length / length_scale if length] then, for k = 1..kmax, the K^k k-mer "
         "counts divided by L - k + 1 (first letter most significant)"}}},
      {"standardisation", {{"mean", to_json(mean_)}, {"scale", to_json(scale_)}}},
      {"weights", to_json(weights_)},
      {"intercept", intercept_},
      {"regularisation",
       {{"objective", "(1/n) sum log-loss + (lambda/2) |weights|^2"},
        {"lambda", i.lambda},
        {"folds", i.folds},
        {"choice", "minimum mean held-out log-loss"},
        {"cv", cv}}},
      {"training",
       {{"split", i.split},
        {"file", i.data_file},
        {"data_hash", i.data_hash},
        {"sequences", i.sequences},
        {"positives", i.positives},
        {"seconds", i.seconds}}},
      {"metrics", metrics},
  };
  std::ofstream out(path);
  if (!out) throw engine::InputError(path, 0, "cannot open the judge file for writing");
  out << j.dump(1) << "\n";
  out.close();
  if (!out) throw engine::InputError(path, 0, "cannot write the judge file");
}

KmerJudge KmerJudge::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw engine::InputError(path, 0, "cannot open the judge file");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {
    throw engine::InputError(path, 0, std::string("not JSON: ") + e.what());
  }
  if (!j.is_object()) throw engine::InputError(path, 0, "expected a JSON object");
  const std::string format = need_string(j, path, "", "format");
  if (format != kFormat) {
    const bool other_version = format.rfind("gsflow-judge-", 0) == 0;
    bad_field(path, "format",
              "'" + format + "' is " +
                  (other_version ? "a version this build cannot read" : "not a judge file") +
                  " (expected '" + kFormat + "')");
  }
  KmerJudge judge;
  JudgeInfo& info = judge.info_;
  info.name = need_string(j, path, "", "name");
  info.alphabet = need_string(j, path, "", "alphabet");
  info.positive = need_string(j, path, "", "positive");

  const json& f = need(j, path, "", "features");
  info.features.k = need_count(f, path, "features", "k");
  info.features.kmax = need_count(f, path, "features", "kmax");
  const json& length = need(f, path, "features", "length");
  if (!length.is_boolean()) bad_field(path, "features.length", "expected true or false");
  info.features.length = length.get<bool>();
  info.features.length_scale = need_number(f, path, "features", "length_scale");
  try {
    check_features(info.features);
  } catch (const std::invalid_argument& e) {
    bad_field(path, "features", e.what());
  }
  if ((info.alphabet == "dna" && info.features.k != 4) ||
      (info.alphabet == "protein" && info.features.k != 20))
    bad_field(path, "features.k",
              std::to_string(info.features.k) + " does not match alphabet '" + info.alphabet + "'");
  const std::size_t p = info.features.size();
  if (f.contains("size") && (!f["size"].is_number_unsigned() || f["size"].get<std::size_t>() != p))
    bad_field(path, "features.size", "expected " + std::to_string(p) + " for these features");

  const json& st = need(j, path, "", "standardisation");
  judge.mean_ = need_vector(st, path, "standardisation", "mean", p);
  judge.scale_ = need_vector(st, path, "standardisation", "scale", p);
  for (Eigen::Index i = 0; i < judge.scale_.size(); ++i)
    if (!(judge.scale_[i] > 0.0))
      bad_field(path, "standardisation.scale",
                "element " + std::to_string(i) + " must be positive");
  judge.weights_ = need_vector(j, path, "", "weights", p);
  judge.intercept_ = need_number(j, path, "", "intercept");

  const json& reg = need(j, path, "", "regularisation");
  info.lambda = need_number(reg, path, "regularisation", "lambda");
  info.folds = need_count(reg, path, "regularisation", "folds");
  if (reg.contains("cv")) {
    const json& cv = reg["cv"];
    if (!cv.is_array()) bad_field(path, "regularisation.cv", "expected an array");
    for (const json& c : cv)
      info.cv.push_back({.kmax = need_count(c, path, "regularisation.cv", "kmax"),
                         .lambda = need_number(c, path, "regularisation.cv", "lambda"),
                         .log_loss = need_number(c, path, "regularisation.cv", "log_loss"),
                         .auroc = need_number(c, path, "regularisation.cv", "auroc"),
                         .accuracy = need_number(c, path, "regularisation.cv", "accuracy")});
  }
  const json& tr = need(j, path, "", "training");
  info.split = need_string(tr, path, "training", "split");
  info.data_file = need_string(tr, path, "training", "file");
  info.data_hash = need_string(tr, path, "training", "data_hash");
  info.sequences = need_count(tr, path, "training", "sequences");
  info.positives = need_count(tr, path, "training", "positives");
  info.seconds = need_number(tr, path, "training", "seconds");
  const json& metrics = need(j, path, "", "metrics");
  if (!metrics.is_object()) bad_field(path, "metrics", "expected an object of numbers");
  for (const auto& [name, value] : metrics.items()) {
    if (!value.is_number()) bad_field(path, "metrics." + name, "expected a number");
    info.metrics[name] = value.get<double>();
  }
  return judge;
}

// ---- lookup (the shared FileKind lookup of models/catalog.hpp) ----

namespace {
const models::FileKind& judges() {
  static const models::FileKind kind{"judge", "judges", {".json"}};
  return kind;
}
}  // namespace

std::string resolve_judge(const std::string& name) { return models::resolve_file(judges(), name); }

std::vector<std::string> bundled_judges() { return models::file_names(judges()); }

}  // namespace gsflow::models
