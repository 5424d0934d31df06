// `gsflow bench classifier` (see bench_classifier.hpp). Timings are medians of repeats after one
// warm-up call; every input is prepared before the clock starts.
#include "bench_classifier.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "global_options.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/models/classifier.hpp"
#include "gsflow/models/model.hpp"
#include "statistics.hpp"

namespace gsflow::app {

namespace {

using Clock = std::chrono::steady_clock;

struct BenchClassifierCli {
  std::string classifier = "promoter", model = "dna-promoter";
  std::size_t batch = 256, m = 4;
  int repeats = 5, threads = 1;
  bool json = false;
};

template <typename F>
double median_ms(int repeats, F&& f) {
  f();  // warm-up: first-touch pages, LibTorch's lazy initialisation
  std::vector<double> t;
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = Clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return median(std::move(t));
}

void run_bench_classifier(const BenchClassifierCli& cli) {
  const auto classifier_file = models::resolve_classifier(cli.classifier);
  auto classifier = models::Classifier::load(classifier_file);
  classifier.set_threads(cli.threads);
  const auto model_file = models::resolve_model(cli.model);
  const auto model = models::Model::load(model_file);
  const auto& info = classifier.info();
  const std::size_t k = info.k, length = info.max_length;
  if (model.spec().k != k || model.spec().length != length)
    throw std::invalid_argument(fmt::format(
        "bench classifier: the classifier takes K = {}, length {}; the model {} has K = {}, "
        "length {}",
        k, length, cli.model, model.spec().k, model.spec().length));
  const engine::Kernels kernels(kernel_options(cli.threads));
  std::mt19937_64 rng(1);

  // Generator: one denoiser call on `batch` states at t = 0.5 (soft rows on the simplex).
  const std::size_t rows = cli.batch * length;
  std::vector<float> state(rows * k), denoised(rows * k);
  std::normal_distribution<float> normal;
  for (std::size_t r = 0; r < rows; ++r) {
    float sum = 0.0f;
    for (std::size_t c = 0; c < k; ++c) sum += state[r * k + c] = std::exp(normal(rng));
    for (std::size_t c = 0; c < k; ++c) state[r * k + c] /= sum;
  }
  const auto denoiser = model.denoiser(kernels, cli.threads);
  const double generator_ms = median_ms(cli.repeats, [&] {
    denoiser({state.data(), rows, k, k}, cli.batch, 0.5, {denoised.data(), rows, k, k});
  });

  // Classifier: M x batch one-hot sequences (STGFlow scores hard samples), full length.
  const std::size_t n = cli.m * cli.batch, crow = n * length;
  std::vector<float> x(crow * k, 0.0f), grad(crow * k);
  for (std::size_t r = 0; r < crow; ++r) x[r * k + rng() % k] = 1.0f;
  std::vector<double> out(n);
  engine::Rows g{grad.data(), crow, k, k};
  const double forward_ms = median_ms(cli.repeats, [&] {
    classifier.evaluate({x.data(), crow, k, k}, n, length, {}, out);
  });
  const double gradient_ms = median_ms(cli.repeats, [&] {
    classifier.evaluate({x.data(), crow, k, k}, n, length, {}, out, &g);
  });

  const double per1024 = gradient_ms * 1024.0 / static_cast<double>(n);
  if (cli.json) {
    nlohmann::json j = {{"classifier", classifier_file},
                        {"model", model_file},
                        {"batch", cli.batch},
                        {"m", cli.m},
                        {"length", length},
                        {"threads", cli.threads},
                        {"repeats", cli.repeats},
                        {"classifier_parameters", info.parameters},
                        {"generator_ms", generator_ms},
                        {"classifier_forward_ms", forward_ms},
                        {"classifier_forward_backward_ms", gradient_ms},
                        {"classifier_forward_backward_ms_per_1024", per1024},
                        {"ratio", gradient_ms / generator_ms}};
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << fmt::format(
      "classifier {} ({} parameters) vs generator {}; length {}, {} thread(s), median of {}\n"
      "generator denoiser, {} sequences:                 {:9.1f} ms\n"
      "classifier forward, {} sequences:                 {:9.1f} ms\n"
      "classifier forward + input gradient, {} sequences: {:8.1f} ms ({:.1f} ms per 1024)\n"
      "guidance / generator per step:                     {:9.2f} (M = {})\n",
      classifier_file, info.parameters, model_file, length, cli.threads, cli.repeats, cli.batch,
      generator_ms, n, forward_ms, n, gradient_ms, per1024, gradient_ms / generator_ms, cli.m);
}

}  // namespace

void add_bench_classifier(CLI::App& bench) {
  auto cli = std::make_shared<BenchClassifierCli>();
  auto* cmd = bench.add_subcommand(
      "classifier", "Classifier forward + gradient on M x batch sequences vs one denoiser call");
  cmd->add_option("--classifier", cli->classifier, "Classifier name or file")
      ->capture_default_str();
  cmd->add_option("--model", cli->model, "Generator model name or file")->capture_default_str();
  cmd->add_option("--batch", cli->batch, "Generator batch")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--m", cli->m, "Classifier calls per sequence and step (M)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--repeats", cli->repeats, "Timed repeats (median)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--threads", cli->threads, "LibTorch threads")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--json", cli->json, "JSON output");
  cmd->callback([cli] { run_bench_classifier(*cli); });
}

}  // namespace gsflow::app
