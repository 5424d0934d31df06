// Guidance classifiers: evaluate() gradients against central finite differences (CNN and
// TorchScript), padding and batch invariance, thread safety, checkpoint round trip, load errors,
// and training that reaches the Bayes-optimal AUROC of a planted-motif task.
#include <gtest/gtest.h>
#include <torch/script.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "../../models/src/checkpoint.hpp"
#include "../../models/src/classifier_impl.hpp"
#include "gsflow/engine/classification_metrics.hpp"
#include "gsflow/models/classifier.hpp"
#include "gsflow/models/classifier_training.hpp"

namespace gsflow::models {
namespace {

namespace fs = std::filesystem;

std::string temp_path(const std::string& name) {
  return (fs::temp_directory_path() /
          ("gsflow_test_cls_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

std::string read_all(const std::string& file) {
  std::ifstream f(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

void write_all(const std::string& file, const std::string& bytes) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

// An untrained CNN classifier with seeded weights (head made non-trivial so gradients are not
// tiny).
Classifier make_cnn(std::size_t k, std::size_t min_length, std::size_t max_length,
                    ClassifierNetworkOptions o = {}, std::uint64_t seed = 7) {
  o.width = 8;
  o.blocks = 2;
  o.hidden = 8;
  torch::manual_seed(seed);
  auto impl = std::make_unique<Classifier::Impl>();
  impl->info.name = "test";
  impl->info.alphabet = k == 4 ? "dna" : "protein";
  impl->info.k = k;
  impl->info.min_length = min_length;
  impl->info.max_length = max_length;
  impl->info.positive = "test";
  impl->options = o;
  impl->net = ClassifierCnn(o, static_cast<std::int64_t>(k), static_cast<std::int64_t>(max_length));
  freeze_for_inference(impl->net);
  return Classifier(std::move(impl));
}

// One-hot rows [n * length, k] with random letters (padding rows random too: they must not
// matter).
std::vector<float> random_one_hot(std::size_t n, std::size_t length, std::size_t k,
                                  std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<float> x(n * length * k, 0.0f);
  for (std::size_t r = 0; r < n * length; ++r) x[r * k + rng() % k] = 1.0f;
  return x;
}

std::vector<double> eval(const Classifier& c, const std::vector<float>& x, std::size_t n,
                         std::size_t length, std::span<const std::uint16_t> lengths = {},
                         std::vector<float>* grad = nullptr) {
  const std::size_t k = c.info().k;
  std::vector<double> out(n);
  engine::Rows g;
  if (grad) {
    grad->assign(x.size(), -1.0f);
    g = {grad->data(), n * length, k, k};
  }
  c.evaluate({x.data(), n * length, k, k}, n, length, lengths, out, grad ? &g : nullptr);
  return out;
}

// Central differences on single entries of one-hot inputs. The outputs are float32 sums of
// O(100) terms of size O(1), so each carries a rounding error of ~1e-6; with h = 1e-2 that is
// ~1e-4 in the quotient. GELU and tanh are smooth, so the truncation error is O(h^2 f''') ~ 1e-4
// too: tolerance 2e-3 + 2 %. Max pooling is only piecewise smooth: where a channel's two largest
// positions lie closer than the step moves them (seen: 0.1655 vs 0.1655 at these weights), the
// one-sided differences disagree and the central one averages two pieces. There autograd returns
// the derivative of the active piece, so the gradient must match one of the one-sided differences
// (tolerance doubled: their truncation error is O(h f'')), and such kinks must stay rare.
void expect_gradient_matches_differences(const Classifier& c, std::size_t n, std::size_t length,
                                         std::span<const std::uint16_t> lengths) {
  const std::size_t k = c.info().k;
  auto x = random_one_hot(n, length, k, 11);
  std::vector<float> grad;
  const auto f0 = eval(c, x, n, length, lengths, &grad);
  const float h = 1e-2f;
  std::mt19937_64 rng(5);
  double max_grad = 0.0;
  int kinks = 0;
  const int trials = 40;
  for (int trial = 0; trial < trials; ++trial) {
    const std::size_t i = rng() % n;
    const std::size_t len = lengths.empty() ? length : lengths[i];
    const std::size_t p = rng() % len, col = rng() % k;
    const std::size_t at = (i * length + p) * k + col;
    auto xp = x, xm = x;
    xp[at] += h;
    xm[at] -= h;
    const double up = eval(c, xp, n, length, lengths)[i], down = eval(c, xm, n, length, lengths)[i];
    const double fd = (up - down) / (2.0 * h), right = (up - f0[i]) / h, left = (f0[i] - down) / h;
    const double tol = 2e-3 + 0.02 * std::abs(fd);
    max_grad = std::max(max_grad, std::abs(fd));
    if (std::abs(right - left) <= 2.0 * tol) {
      EXPECT_NEAR(grad[at], fd, tol) << "sequence " << i << " position " << p << " letter " << col;
    } else {
      ++kinks;
      EXPECT_TRUE(std::abs(grad[at] - right) <= 2.0 * tol || std::abs(grad[at] - left) <= 2.0 * tol)
          << "at a kink, gradient " << grad[at] << " matches neither one-sided difference (" << left
          << ", " << right << "); sequence " << i << " position " << p << " letter " << col;
    }
  }
  // One near-tie affects every entry in both positions' receptive fields (4 of 40 here).
  EXPECT_LE(kinks, trials / 4) << "too many pooling switches for the check to mean much";
  EXPECT_GT(max_grad, 1e-3) << "gradients too small for the comparison to mean anything";
}

TEST(Classifier, CnnGradientMatchesFiniteDifferences) {
  const auto c = make_cnn(4, 20, 30);
  const std::vector<std::uint16_t> lengths = {30, 20, 27};
  expect_gradient_matches_differences(c, 3, 30, lengths);
}

TEST(Classifier, CnnWithPositionsGradientMatchesFiniteDifferences) {
  ClassifierNetworkOptions o;
  o.positions = true;
  const auto c = make_cnn(4, 24, 24, o);
  expect_gradient_matches_differences(c, 2, 24, {});
}

// Padding: outputs do not depend on padded rows (even NaN) nor on the padded length, padded rows
// get a zero gradient, and a sequence's output does not depend on its batch mates.
void expect_padding_and_batch_invariance(const Classifier& c) {
  const std::size_t k = c.info().k, n = 4, length = 30;
  const std::vector<std::uint16_t> lengths = {30, 12, 25, 12};
  auto x = random_one_hot(n, length, k, 3);
  std::vector<float> grad;
  const auto base = eval(c, x, n, length, lengths, &grad);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t p = lengths[i]; p < length; ++p)
      for (std::size_t col = 0; col < k; ++col)
        EXPECT_EQ(grad[(i * length + p) * k + col], 0.0f) << i << " " << p;
  // Garbage, even NaN, in padded rows.
  auto y = x;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t p = lengths[i]; p < length; ++p)
      for (std::size_t col = 0; col < k; ++col)
        y[(i * length + p) * k + col] = p % 2 ? std::nanf("") : 5.0f;
  std::vector<float> grad_y;
  const auto with_garbage = eval(c, y, n, length, lengths, &grad_y);
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(with_garbage[i], base[i]) << i;
  for (std::size_t r = 0; r < grad.size(); ++r) ASSERT_EQ(grad_y[r], grad[r]) << r;
  // Sequence 1 alone, padded to its own length (12), and in another batch.
  std::vector<float> alone(x.begin() + 1 * length * k, x.begin() + (1 * length + 12) * k);
  const auto single = eval(c, alone, 1, 12);
  EXPECT_NEAR(single[0], base[1], 1e-5);
  auto other = random_one_hot(3, length, k, 99);
  std::copy(x.begin() + 1 * length * k, x.begin() + 2 * length * k, other.begin() + length * k);
  const std::vector<std::uint16_t> other_lengths = {30, 12, 17};
  EXPECT_NEAR(eval(c, other, 3, length, other_lengths)[1], base[1], 1e-5);
}

TEST(Classifier, CnnIgnoresPaddingAndBatchMates) {
  expect_padding_and_batch_invariance(make_cnn(20, 10, 30));
  // Windows of 3 (lengths 30, 12, 25 and 12 end inside a window or at its edge).
  ClassifierNetworkOptions o;
  o.pool = 3;
  expect_padding_and_batch_invariance(make_cnn(20, 10, 30, o));
}

TEST(Classifier, PooledCnnGradientMatchesFiniteDifferences) {
  ClassifierNetworkOptions o;
  o.pool = 2;
  const auto c = make_cnn(4, 20, 31, o);
  const std::vector<std::uint16_t> lengths = {31, 20, 27};
  expect_gradient_matches_differences(c, 3, 31, lengths);
}

TEST(Classifier, ConcurrentCallsAgreeWithSerialOnes) {
  const auto c = make_cnn(4, 64, 64);
  const auto x = random_one_hot(16, 64, 4, 8);
  std::vector<float> g0;
  const auto want = eval(c, x, 16, 64, {}, &g0);
  std::vector<std::vector<double>> got(4);
  std::vector<std::vector<float>> grads(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int rep = 0; rep < 5; ++rep) got[t] = eval(c, x, 16, 64, {}, &grads[t]);
    });
  for (auto& t : threads) t.join();
  for (int t = 0; t < 4; ++t) {
    EXPECT_EQ(got[t], want);
    EXPECT_EQ(grads[t], g0);
  }
}

TEST(Classifier, RefusesLengthsAndShapesOutsideItsRange) {
  const auto c = make_cnn(4, 20, 30);
  const auto x = random_one_hot(2, 31, 4, 1);
  std::vector<double> out(2);
  EXPECT_THROW(c.evaluate({x.data(), 62, 4, 4}, 2, 31, {}, out), ModelError);  // > max_length
  const auto y = random_one_hot(2, 19, 4, 1);
  EXPECT_THROW(c.evaluate({y.data(), 38, 4, 4}, 2, 19, {}, out), ModelError);  // < min_length
  const std::vector<std::uint16_t> short_one = {30, 19};
  const auto z = random_one_hot(2, 30, 4, 1);
  EXPECT_THROW(c.evaluate({z.data(), 60, 4, 4}, 2, 30, short_one, out), ModelError);
  EXPECT_THROW(c.evaluate({z.data(), 60, 4, 4}, 3, 30, {}, out), ModelError);  // rows != n*L
  std::vector<float> wide(60 * 5, 0.0f);
  EXPECT_THROW(c.evaluate({wide.data(), 60, 5, 5}, 2, 30, {}, out), ModelError);  // K
}

TEST(Classifier, SaveLoadRoundTripGivesIdenticalOutputs) {
  ClassifierNetworkOptions o;
  o.pool = 2;
  auto c = make_cnn(20, 10, 40, o);
  c.set_metric("validation_auroc", 0.75);
  const auto file = temp_path("roundtrip.ckpt");
  c.save(file);
  const auto d = Classifier::load(file);
  EXPECT_EQ(d.info().alphabet, "protein");
  EXPECT_EQ(d.info().k, 20u);
  EXPECT_EQ(d.info().min_length, 10u);
  EXPECT_EQ(d.info().max_length, 40u);
  EXPECT_EQ(d.info().output, "logit");
  EXPECT_EQ(d.info().kind, "cnn");
  EXPECT_EQ(d.info().parameters, c.info().parameters);
  EXPECT_DOUBLE_EQ(d.info().metrics.at("validation_auroc"), 0.75);
  const auto x = random_one_hot(5, 40, 20, 4);
  const std::vector<std::uint16_t> lengths = {10, 40, 33, 17, 25};
  std::vector<float> g1, g2;
  EXPECT_EQ(eval(c, x, 5, 40, lengths, &g1), eval(d, x, 5, 40, lengths, &g2));
  EXPECT_EQ(g1, g2);
  fs::remove(file);
}

// Expects load(file) to throw a ModelError whose message holds the file name and `needle`.
void expect_load_error(const std::string& file, const std::string& needle,
                       const std::string& named = "") {
  try {
    Classifier::load(file);
    FAIL() << "no error for " << needle;
  } catch (const ModelError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(named.empty() ? file : named), std::string::npos) << msg;
    EXPECT_NE(msg.find(needle), std::string::npos) << msg;
  }
}

TEST(Classifier, CheckpointLoadErrorsNameTheFile) {
  const auto c = make_cnn(4, 32, 32);
  const auto file = temp_path("errors.ckpt");
  c.save(file);
  const std::string bytes = read_all(file);
  const auto bad = temp_path("bad.ckpt");
  write_all(bad, bytes.substr(0, bytes.size() / 2));
  expect_load_error(bad, "truncated");
  write_all(bad, "this is not a checkpoint at all");
  expect_load_error(bad, "not a gsflow checkpoint");
  expect_load_error(temp_path("missing.ckpt"), "cannot open");
  std::string flipped = bytes;
  flipped[flipped.size() / 2] ^= 0x40;
  write_all(bad, flipped);
  expect_load_error(bad, "checksum");
  // Metadata that does not describe the weights (a wider network), and a missing field.
  CheckpointData data = read_checkpoint(file);
  auto meta = nlohmann::json::parse(data.metadata);
  meta["network"]["width"] = 16;
  data.metadata = meta.dump();
  write_checkpoint(bad, data);
  expect_load_error(bad, "does not fit the network");
  meta = nlohmann::json::parse(read_checkpoint(file).metadata);
  meta.erase("alphabet");
  data.metadata = meta.dump();
  write_checkpoint(bad, data);
  expect_load_error(bad, "field 'alphabet' is missing");
  // A generator checkpoint is not a classifier.
  expect_load_error(GSFLOW_SOURCE_DIR "/models/pretrained/dna-promoter.ckpt",
                    "not a classifier checkpoint");
  fs::remove(file);
  fs::remove(bad);
}

// A TorchScript classifier written from C++: out_i = sum_p tanh(x_ip W) v (+ a bias), smooth.
std::string write_script(const std::string& name, std::size_t k, const std::string& body) {
  torch::manual_seed(3);
  torch::jit::Module m("ToyClassifier");
  m.register_parameter("w", torch::randn({static_cast<std::int64_t>(k), 6}), false);
  m.register_parameter("v", torch::randn({6}), false);
  m.define(body);
  const auto file = temp_path(name);
  m.save(file);
  return file;
}

const char* kSmoothScript = R"(
def forward(self, x):
    h = torch.tanh(torch.matmul(x, self.w))
    return torch.matmul(h.sum(1), self.v) * 0.3
)";

std::string write_descriptor(const std::string& name, const std::string& json_text) {
  const auto file = temp_path(name);
  write_all(file, json_text);
  return file;
}

std::string descriptor_json(const std::string& script, const std::string& extra = "",
                            const std::string& alphabet = "dna") {
  return R"({"format": "gsflow-classifier-1", "torchscript": ")" + script + R"(", "alphabet": ")" +
         alphabet +
         R"(", "min_length": 5, "max_length": 30, "output": "score", "positive": "toy")" + extra +
         "}";
}

TEST(Classifier, TorchScriptGradientMatchesFiniteDifferences) {
  const auto script = write_script("smooth.pt", 4, kSmoothScript);
  // Relative path: resolved against the descriptor's folder.
  const auto desc =
      write_descriptor("smooth.json", descriptor_json(fs::path(script).filename().string()));
  const auto c = Classifier::load(desc);
  EXPECT_EQ(c.info().kind, "torchscript");
  EXPECT_EQ(c.info().output, "score");
  EXPECT_EQ(c.info().name, fs::path(desc).stem().string());
  EXPECT_EQ(c.info().parameters, 4 * 6 + 6);
  EXPECT_TRUE(c.info().differentiable);
  const std::vector<std::uint16_t> lengths = {30, 9, 21};
  expect_gradient_matches_differences(c, 3, 30, lengths);
  expect_padding_and_batch_invariance(c);
  // The analytic value for one sequence.
  const auto x = random_one_hot(1, 7, 4, 2);
  torch::manual_seed(3);
  const auto w = torch::randn({4, 6}), v = torch::randn({6});
  const auto xt = torch::from_blob(const_cast<float*>(x.data()), {1, 7, 4});
  const double want =
      (torch::matmul(torch::tanh(torch::matmul(xt, w)).sum(1), v) * 0.3).item<double>();
  EXPECT_NEAR(eval(c, x, 1, 7)[0], want, 1e-5);
  EXPECT_THROW(c.save(temp_path("no.ckpt")), ModelError);
  fs::remove(script);
  fs::remove(desc);
}

TEST(Classifier, NonDifferentiableTorchScriptEvaluatesWithoutGradients) {
  // Rounding makes the output piecewise constant; the descriptor says so.
  const auto script = write_script("rounded.pt", 4, R"(
def forward(self, x):
    return torch.round(torch.matmul(torch.matmul(x, self.w).sum(1), self.v))
)");
  const auto desc =
      write_descriptor("rounded.json", descriptor_json(script, R"(, "differentiable": false)"));
  const auto c = Classifier::load(desc);
  EXPECT_FALSE(c.info().differentiable);
  const auto x = random_one_hot(2, 10, 4, 6);
  const auto out = eval(c, x, 2, 10);
  EXPECT_EQ(out[0], std::round(out[0]));
  std::vector<float> grad;
  EXPECT_THROW(eval(c, x, 2, 10, {}, &grad), ModelError);
  fs::remove(script);
  fs::remove(desc);
}

TEST(Classifier, DescriptorErrorsNameTheFileAndField) {
  const auto script = write_script("ok.pt", 4, kSmoothScript);
  const auto check = [&](const std::string& json_text, const std::string& needle) {
    const auto desc = write_descriptor("bad.json", json_text);
    expect_load_error(desc, needle);
    fs::remove(desc);
  };
  check(R"({"format": "gsflow-classifier-1", "torchscript": ")" + script +
            R"(", "alphabet": "dna", "max_length": 30, "output": "score"})",
        "field 'min_length' is missing");
  check(descriptor_json(script, "", "rna"), "field 'alphabet' is 'rna'");
  check(descriptor_json(script, R"(, "k": 20)"), "field 'k' is 20");
  check(descriptor_json(script, R"(, "lenght": 3)"), "field 'lenght' is not a known field");
  check(R"({"format": "gsflow-classifier-2"})", "field 'format'");
  check(R"({"format": "gsflow-classifier-1", "torchscript": 5})",
        "field 'torchscript' has the wrong type");
  check(descriptor_json(temp_path("no-such.pt")), "does not exist");
  check(descriptor_json(script, "", "protein"), "");  // K = 20 input into a K = 4 matmul
  check("{not json", "not valid JSON");
  const auto not_script = temp_path("not-script.pt");
  write_all(not_script, "garbage");
  check(descriptor_json(not_script), "not a TorchScript file");
  // Output of the wrong shape: caught when the descriptor is loaded.
  const auto wide = write_script("wide.pt", 4, R"(
def forward(self, x):
    return torch.matmul(x, self.w).sum(1)
)");
  check(descriptor_json(wide), "returned shape [1, 6]");
  fs::remove(script);
  fs::remove(not_script);
  fs::remove(wide);
}

TEST(Classifier, ResolvesNamesInTheClassifierFolders) {
  const auto dir = temp_path("models");
  fs::create_directories(dir + "/classifiers");
  const auto c = make_cnn(4, 16, 16);
  c.save(dir + "/classifiers/mine.ckpt");
  ::setenv("GSFLOW_MODELS", dir.c_str(), 1);
  EXPECT_EQ(resolve_classifier("mine"), dir + "/classifiers/mine.ckpt");
  const auto names = bundled_classifiers();
  EXPECT_NE(std::find(names.begin(), names.end(), "mine"), names.end());
  try {
    resolve_classifier("no-such-classifier");
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find(dir + "/classifiers"), std::string::npos) << e.what();
  }
  ::unsetenv("GSFLOW_MODELS");
  fs::remove_all(dir);
}

// The bundled classifiers (models/pretrained/classifiers) load by name, say what they take, carry
// their held-out metrics (lower bounds well below the measured values: a broken or wrong file
// fails, retraining noise does not), and give finite outputs and gradients.
TEST(Classifier, BundledClassifiersLoadWithTheirMetrics) {
  for (const auto& [name, alphabet, min_length, max_length, min_auroc] :
       {std::tuple{"promoter", "dna", 256, 256, 0.80},
        std::tuple{"amp", "protein", 10, 100, 0.90}}) {
    const auto c = Classifier::load(resolve_classifier(name));
    EXPECT_EQ(c.info().alphabet, alphabet);
    EXPECT_EQ(c.info().min_length, static_cast<std::size_t>(min_length));
    EXPECT_EQ(c.info().max_length, static_cast<std::size_t>(max_length));
    EXPECT_EQ(c.info().output, "logit");
    EXPECT_FALSE(c.info().positive.empty());
    for (const char* metric : {"validation_auroc", "test_auroc", "test_accuracy"})
      ASSERT_TRUE(c.info().metrics.count(metric)) << name << " " << metric;
    EXPECT_GT(c.info().metrics.at("validation_auroc"), min_auroc) << name;
    EXPECT_GT(c.info().metrics.at("test_auroc"), min_auroc) << name;
    const std::size_t len = max_length;
    const auto x = random_one_hot(3, len, c.info().k, 1);
    const std::vector<std::uint16_t> lengths = {static_cast<std::uint16_t>(min_length),
                                                static_cast<std::uint16_t>(len),
                                                static_cast<std::uint16_t>(len)};
    std::vector<float> grad;
    for (const double out : eval(c, x, 3, len, lengths, &grad)) EXPECT_TRUE(std::isfinite(out));
    for (const float g : grad) ASSERT_TRUE(std::isfinite(g));
  }
}

// A planted-motif task whose Bayes-optimal classifier is known exactly: negatives are uniform
// i.i.d. DNA of length 24..40; positives are the same with one motif drawn from a PWM (width 6,
// consensus letter with probability `p`) at a uniform position. The likelihood ratio of a
// sequence x of length n is (1 / (n - 5)) sum_s prod_j 4 PWM[j][x_(s+j)] (lengths are drawn the
// same way in both classes, so they carry no information); its AUROC on a large sample is the
// best any classifier can reach.
struct MotifTask {
  static constexpr int kWidth = 6;
  static constexpr int kConsensus[kWidth] = {3, 0, 3, 0, 0, 2};  // TATAAG
  double p = 0.85;
  // Substitution noise of the observed sequences: each letter is replaced by a uniform one with
  // this probability (noised()), so the motif's observed PWM is (1 - noise) PWM + noise / 4.
  double noise = 0.0;
  std::mt19937_64 rng;
  explicit MotifTask(std::uint64_t seed) : rng(seed) {}

  double pwm(int j, int letter) const {
    return (1.0 - noise) * (letter == kConsensus[j] ? p : (1.0 - p) / 3.0) + noise / 4.0;
  }
  // `d` with every real position replaced by a uniform letter with probability `rate`.
  LabelledDataset noised(LabelledDataset d, double rate) {
    for (std::size_t i = 0; i < d.data.lengths.size(); ++i)
      for (std::size_t j = 0; j < d.data.lengths[i]; ++j)
        if (std::uniform_real_distribution<double>(0.0, 1.0)(rng) < rate)
          d.data.letters[i * d.data.length + j] = static_cast<std::uint16_t>(rng() % 4);
    return d;
  }
  double likelihood_ratio(const std::vector<std::uint16_t>& s) const {
    const int starts = static_cast<int>(s.size()) - kWidth + 1;
    double sum = 0.0;
    for (int a = 0; a < starts; ++a) {
      double r = 1.0;
      for (int j = 0; j < kWidth; ++j) r *= 4.0 * pwm(j, s[a + j]);
      sum += r;
    }
    return sum / starts;
  }
  // `count` sequences, half of each class, padded to 40.
  LabelledDataset sample(std::size_t count, std::vector<double>* bayes = nullptr) {
    LabelledDataset d;
    d.data.length = 40;
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t n = 24 + rng() % 17;
      std::vector<std::uint16_t> s(n);
      for (auto& letter : s) letter = static_cast<std::uint16_t>(rng() % 4);
      const std::uint8_t label = i % 2;
      if (label) {
        const std::size_t at = rng() % (n - kWidth + 1);
        for (int j = 0; j < kWidth; ++j) {
          const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
          s[at + j] = u < p ? kConsensus[j]
                            : static_cast<std::uint16_t>((kConsensus[j] + 1 + rng() % 3) % 4);
        }
      }
      if (bayes) bayes->push_back(likelihood_ratio(s));
      s.resize(40, 0);
      d.data.letters.insert(d.data.letters.end(), s.begin(), s.end());
      d.data.lengths.push_back(static_cast<std::uint16_t>(n));
      d.labels.push_back(label);
    }
    return d;
  }
};

// The small CNN and schedule that learn MotifTask in 600 steps.
ClassifierTrainOptions motif_options() {
  ClassifierTrainOptions o;
  o.info.name = "motif";
  o.info.alphabet = "dna";
  o.info.k = 4;
  o.info.min_length = 24;
  o.info.max_length = 40;
  o.info.positive = "holds the planted motif";
  o.network.width = 16;
  o.network.blocks = 1;
  o.network.kernel = 7;
  o.network.hidden = 16;
  o.steps = 600;
  o.batch = 64;
  o.lr = 5e-3;
  o.warmup = 50;
  o.validate_every = 100;
  o.seed = 2;
  return o;
}

TEST(ClassifierTraining, ReachesTheBayesOptimalAurocOfAPlantedMotif) {
  MotifTask task(17);
  const auto train = task.sample(3000), validation = task.sample(1000);
  std::vector<double> bayes;
  const auto test = task.sample(20000, &bayes);
  const double bayes_auroc = engine::auroc(bayes, test.labels);

  const ClassifierTrainOptions o = motif_options();
  int reports = 0;
  const auto r = train_classifier(
      train, validation, o, [&](const TrainProgress&) { ++reports; }, 100);
  const auto scores = classifier_scores(r.classifier, test.data);
  const double auroc = engine::auroc(scores, test.labels);
  // 20,000 test sequences: the AUROCs' standard errors are ~0.003.
  EXPECT_GT(bayes_auroc, 0.8);
  EXPECT_LT(bayes_auroc, 0.97);  // not trivially separable: the comparison means something
  EXPECT_GT(auroc, bayes_auroc - 0.03) << "trained " << auroc << " vs Bayes " << bayes_auroc;
  EXPECT_LT(auroc, bayes_auroc + 0.01);
  EXPECT_EQ(r.steps_done, 600);
  EXPECT_EQ(reports, 6);
  EXPECT_NEAR(r.classifier.info().metrics.at("validation_auroc"), r.best_val_auroc, 1e-12);
  EXPECT_EQ(r.classifier.info().data_hash, labelled_dataset_hash(train));
  std::cout << "planted motif: trained AUROC " << auroc << ", Bayes-optimal " << bayes_auroc
            << " (validation " << r.best_val_auroc << " at step " << r.best_step << ", "
            << r.seconds << " s)\n";

  // Same seed, same result.
  ClassifierTrainOptions shorter = o;
  shorter.steps = 100;
  const auto a = train_classifier(train, validation, shorter);
  const auto b = train_classifier(train, validation, shorter);
  EXPECT_EQ(classifier_scores(a.classifier, validation.data),
            classifier_scores(b.classifier, validation.data));
}

// Input augmentation (augment_substitution): trained on inputs noised at rates up to 0.5, the
// classifier still reaches the clean task's Bayes-optimal AUROC, and on test inputs noised at
// rate 0.3 it reaches that noisy task's own Bayes-optimal AUROC (the motif's PWM mixed with
// uniform letters); the fit differs from the clean one of the same seed, and repeats exactly.
TEST(ClassifierTraining, AugmentedInputsKeepTheBayesOptimumOnCleanAndNoisyData) {
  MotifTask task(23);
  const auto train = task.sample(3000), validation = task.sample(1000);
  std::vector<double> bayes;
  const auto test = task.sample(20000, &bayes);
  const auto noisy_test = task.noised(test, 0.3);
  task.noise = 0.3;
  std::vector<double> noisy_bayes;
  for (std::size_t i = 0; i < noisy_test.labels.size(); ++i) {
    const auto* row = noisy_test.data.letters.data() + i * noisy_test.data.length;
    noisy_bayes.push_back(task.likelihood_ratio({row, row + noisy_test.data.lengths[i]}));
  }
  const double bayes_auroc = engine::auroc(bayes, test.labels);
  const double noisy_bayes_auroc = engine::auroc(noisy_bayes, noisy_test.labels);

  ClassifierTrainOptions o = motif_options();
  o.augment_substitution = 0.5;
  const auto r = train_classifier(train, validation, o);
  const double clean = engine::auroc(classifier_scores(r.classifier, test.data), test.labels);
  const double noisy =
      engine::auroc(classifier_scores(r.classifier, noisy_test.data), noisy_test.labels);
  std::cout << "augmented: clean AUROC " << clean << " (Bayes " << bayes_auroc << "), noisy "
            << noisy << " (Bayes " << noisy_bayes_auroc << ")\n";
  EXPECT_LT(noisy_bayes_auroc, bayes_auroc - 0.05);  // the noise matters
  EXPECT_GT(clean, bayes_auroc - 0.03);
  EXPECT_LT(clean, bayes_auroc + 0.01);
  EXPECT_GT(noisy, noisy_bayes_auroc - 0.03);
  EXPECT_LT(noisy, noisy_bayes_auroc + 0.01);

  ClassifierTrainOptions shorter = o;
  shorter.steps = 100;
  const auto a = train_classifier(train, validation, shorter);
  const auto b = train_classifier(train, validation, shorter);
  shorter.augment_substitution = 0.0;
  const auto plain = train_classifier(train, validation, shorter);
  EXPECT_EQ(classifier_scores(a.classifier, validation.data),
            classifier_scores(b.classifier, validation.data));
  EXPECT_NE(classifier_scores(a.classifier, validation.data),
            classifier_scores(plain.classifier, validation.data));
  shorter.augment_substitution = 1.5;
  EXPECT_THROW(train_classifier(train, validation, shorter), ModelError);
}

TEST(ClassifierTraining, RefusesDataWithOneClassOrLettersOutsideTheAlphabet) {
  MotifTask task(1);
  auto train = task.sample(100), validation = task.sample(50);
  ClassifierTrainOptions o;
  o.info.alphabet = "dna";
  o.info.k = 4;
  o.info.min_length = 24;
  o.info.max_length = 40;
  o.steps = 2;
  auto one_class = validation;
  std::fill(one_class.labels.begin(), one_class.labels.end(), 0);
  EXPECT_THROW(train_classifier(train, one_class, o), ModelError);
  auto bad_letter = train;
  bad_letter.data.letters[5] = 4;
  EXPECT_THROW(train_classifier(bad_letter, validation, o), ModelError);
  auto too_short = train;
  too_short.data.lengths[0] = 10;
  EXPECT_THROW(train_classifier(too_short, validation, o), ModelError);
}

}  // namespace
}  // namespace gsflow::models
