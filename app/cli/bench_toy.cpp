// `gsflow bench toy`: trains an MLP denoiser per K on length-4 sequences drawn from softmax(U(0,1))
// targets, samples with 100 steps, and prints the KL next to the published rows and the uniform
// floor. Also reports training steps/s, sampling sequences/s and the sampler's own overhead.
#include "bench_toy.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <iostream>
#include <map>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "global_options.hpp"
#include "gsflow/engine/kernels.hpp"
#include "gsflow/engine/toy.hpp"
#include "gsflow/models/training.hpp"
#include "validators.hpp"

namespace gsflow::app {

namespace {

struct ToyOptions {
  std::vector<std::size_t> ks{20, 40, 60, 80, 100, 120, 140, 160, 512};
  std::string method = "gsfm";
  std::int64_t train_steps = 50000;
  std::size_t samples = 51200;
  int steps = 100;
  std::size_t data_size = 100000;
  std::size_t batch = 512;
  double lr = 1e-3;
  double ema = 0.0;
  int width = 128;
  int blocks = 2;
  std::string interpolant = "consistent";
  std::string input = "log_probs";
  std::string decode = "xhat";
  std::string integrator = "exponential";
  std::string time_sampling = "uniform";
  double signal_max = 0.0;
  int corrector_steps = 1;
  double start_scale = 1.0;
  double snr = 0.16;
  int threads = 1;
  std::uint64_t seed = 0;
  bool no_skip = false;  // train without the likelihood skip
  bool exact = false;    // also sample with the exact-posterior denoiser (the method's own bias)
  bool json = false;
  std::string save_dir;  // keep each trained model as DIR/toy-METHOD-kK.gsflow
};

// Published KL of paper Table 7 (method.md section 7), by method and K.
const std::map<std::string, std::map<std::size_t, double>>& published() {
  static const std::map<std::string, std::map<std::size_t, double>> rows{{"Linear FM",
                                                                          {{20, 0.013},
                                                                           {40, 0.046},
                                                                           {60, 0.070},
                                                                           {80, 0.100},
                                                                           {100, 0.114},
                                                                           {120, 0.112},
                                                                           {140, 0.156},
                                                                           {160, 0.146},
                                                                           {512, 0.479}}},
                                                                         {"Dirichlet FM",
                                                                          {{20, 0.007},
                                                                           {40, 0.017},
                                                                           {60, 0.032},
                                                                           {80, 0.035},
                                                                           {100, 0.028},
                                                                           {120, 0.024},
                                                                           {140, 0.039},
                                                                           {160, 0.053},
                                                                           {512, 0.554}}},
                                                                         {"Fisher FM",
                                                                          {{20, 0.0004},
                                                                           {40, 0.007},
                                                                           {60, 0.007},
                                                                           {80, 0.007},
                                                                           {100, 0.008},
                                                                           {120, 0.043},
                                                                           {140, 0.013},
                                                                           {160, 0.013},
                                                                           {512, 0.036}}},
                                                                         {"GSFM (paper)",
                                                                          {{20, 0.029},
                                                                           {40, 0.027},
                                                                           {60, 0.025},
                                                                           {80, 0.027},
                                                                           {100, 0.030},
                                                                           {120, 0.029},
                                                                           {140, 0.035},
                                                                           {160, 0.038},
                                                                           {512, 0.048}}}};
  return rows;
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct ToyResult {
  std::size_t k;
  double kl, kl_exact = -1.0, uniform_kl, data_kl, floor;
  double train_seconds, sample_seconds, overhead;
  double train_loss_first = -1.0, val_loss_first, val_loss_last;
  std::int64_t params;
};

ToyResult run_one(const ToyOptions& o, std::size_t k) {
  const engine::Kernels kernels(kernel_options());
  const engine::ToyTask task = engine::make_toy_task(4, k, o.seed + 1000 * k);
  models::Dataset train{4, engine::sample_toy_data(task, o.data_size, o.seed + 1), {}};
  models::Dataset val{4, engine::sample_toy_data(task, 8192, o.seed + 2), {}};

  models::ModelSpec spec;
  spec.method = engine::parse_method(o.method, "--method");
  spec.path.interpolant = engine::parse_interpolant(o.interpolant, "--interpolant");
  spec.path.signal_max = o.signal_max;
  spec.length = 4;
  spec.k = k;
  spec.network.width = o.width;
  spec.network.blocks = o.blocks;
  spec.network.input = models::parse_network_input(o.input, "--input");
  spec.network.likelihood_skip = !o.no_skip;
  models::Model model(spec, o.seed);

  models::TrainOptions to;
  to.steps = o.train_steps;
  to.batch = o.batch;
  to.lr = o.lr;
  to.ema = o.ema;
  to.warmup = std::min<std::int64_t>(500, std::max<std::int64_t>(1, o.train_steps / 10));
  to.validate_every = std::max<std::int64_t>(1, o.train_steps / 5);
  to.time_sampling = models::parse_time_sampling(o.time_sampling, "--time-sampling");
  to.threads = o.threads;
  to.seed = o.seed;
  ToyResult r{};
  r.k = k;
  r.params = model.parameter_count();
  const auto tr = models::train(
      model, train, val, to,
      [&](const models::TrainProgress& p) {
        if (r.train_loss_first < 0.0) r.train_loss_first = p.loss;
        spdlog::info("K={} step {}/{} loss {:.4f} val {:.4f} lr {:.2e} ({:.0f} s)", k, p.step,
                     p.total, p.loss, p.val_loss, p.lr, p.seconds);
      },
      std::max<std::int64_t>(1, o.train_steps / 10));
  r.train_seconds = tr.seconds;
  r.val_loss_first = tr.first_val_loss;
  r.val_loss_last = tr.last_val_loss;
  if (!o.save_dir.empty()) model.save(fmt::format("{}/toy-{}-k{}.gsflow", o.save_dir, o.method, k));

  const engine::Path path(spec.path);
  engine::SamplerOptions so;
  so.method = spec.method;
  so.steps = o.steps;
  so.decode = engine::parse_decode(o.decode, "--decode");
  so.integrator = engine::parse_integrator(o.integrator, "--integrator");
  so.corrector_steps = o.corrector_steps;
  so.start_scale = o.start_scale;
  so.snr = o.snr;
  so.seed = o.seed + 7;
  const engine::SampleRequest request{o.samples, 4, k, 0};
  auto t0 = std::chrono::steady_clock::now();
  const auto res = engine::sample(model.denoiser(kernels, o.threads), path, request, so, kernels);
  r.sample_seconds = since(t0);
  r.kl = engine::toy_kl(task, res.letters);
  r.uniform_kl = engine::toy_uniform_kl(task);
  r.data_kl = engine::toy_kl(task, engine::sample_toy_data(task, o.samples, o.seed + 3));
  r.floor = static_cast<double>(k - 1) / (2.0 * static_cast<double>(o.samples));

  // Sampler overhead: the same run with a network-free denoiser that returns uniform letters.
  const engine::Denoiser constant = [k](engine::ConstRows, std::size_t, double, engine::Rows out) {
    for (std::size_t i = 0; i < out.rows * out.stride; ++i) out.data[i] = 1.0f / k;
  };
  t0 = std::chrono::steady_clock::now();
  engine::sample(constant, path, request, so, kernels);
  r.overhead = since(t0) / r.sample_seconds;

  if (o.exact) {
    r.kl_exact =
        engine::toy_kl(task, engine::sample(engine::toy_exact_denoiser(task, path, spec.method),
                                            path, request, so, kernels)
                                 .letters);
  }
  spdlog::info(
      "K={} KL {:.4f} (uniform {:.4f}, finite-sample floor {:.4f}) train {:.0f} s, sample {:.1f} s",
      k, r.kl, r.uniform_kl, r.floor, r.train_seconds, r.sample_seconds);
  return r;
}

void print_table(const ToyOptions& o, const std::vector<ToyResult>& results) {
  std::string head = fmt::format("{:<26}", "K");
  for (const auto& r : results) head += fmt::format("{:>9}", r.k);
  std::cout << head << "\n";
  const auto row = [&](const std::string& name, auto value) {
    std::string line = fmt::format("{:<26}", name);
    for (const auto& r : results) line += value(r);
    std::cout << line << "\n";
  };
  for (const auto& [name, values] : published())
    row(name + " (published)", [&values = values](const ToyResult& r) {
      const auto it = values.find(r.k);
      return it == values.end() ? fmt::format("{:>9}", "-") : fmt::format("{:>9.4f}", it->second);
    });
  row("uniform letters", [](const ToyResult& r) { return fmt::format("{:>9.4f}", r.uniform_kl); });
  row("data sample (floor)", [](const ToyResult& r) { return fmt::format("{:>9.4f}", r.data_kl); });
  row(fmt::format("{} (this run)", o.method),
      [](const ToyResult& r) { return fmt::format("{:>9.4f}", r.kl); });
  if (o.exact)
    row(fmt::format("{} exact denoiser", o.method),
        [](const ToyResult& r) { return fmt::format("{:>9.4f}", r.kl_exact); });
  row("val loss at start",
      [](const ToyResult& r) { return fmt::format("{:>9.4f}", r.val_loss_first); });
  row("val loss at end",
      [](const ToyResult& r) { return fmt::format("{:>9.4f}", r.val_loss_last); });
  row("train steps/s", [&](const ToyResult& r) {
    return fmt::format("{:>9.1f}", static_cast<double>(o.train_steps) / r.train_seconds);
  });
  row("sampling sequences/s", [&](const ToyResult& r) {
    return fmt::format("{:>9.0f}", static_cast<double>(o.samples) / r.sample_seconds);
  });
  row("sampler overhead",
      [](const ToyResult& r) { return fmt::format("{:>8.1f}%", 100.0 * r.overhead); });
}

}  // namespace

void add_bench_toy(CLI::App& bench) {
  auto opt = std::make_shared<ToyOptions>();
  auto* cmd = bench.add_subcommand(
      "toy", "Toy benchmark of the paper (Table 7): KL of 4-letter sequences for each K");
  cmd->add_option("--k", opt->ks, "Alphabet sizes, comma separated")
      ->delimiter(',')
      ->check(CLI::Range(2, 65535));
  cmd->add_option("--method", opt->method, "gsfm, gssm or linear")
      ->check(CLI::IsMember({"gsfm", "gssm", "linear"}));
  cmd->add_option("--train-steps", opt->train_steps, "Training steps per K")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--samples", opt->samples, "Sequences sampled per K for the KL")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--steps", opt->steps, "Sampling steps")->check(CLI::PositiveNumber);
  cmd->add_option("--data-size", opt->data_size, "Fixed training sequences")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--batch", opt->batch, "Training batch")->check(CLI::PositiveNumber);
  cmd->add_option("--lr", opt->lr, "Peak learning rate")->check(CLI::PositiveNumber);
  cmd->add_option("--ema", opt->ema, "EMA decay of the weights (0 = off)")
      ->check(CLI::Range(0.0, 0.99999));
  cmd->add_option("--width", opt->width, "MLP width")->check(CLI::PositiveNumber);
  cmd->add_option("--blocks", opt->blocks, "MLP residual blocks")->check(CLI::NonNegativeNumber);
  cmd->add_option("--interpolant", opt->interpolant, "consistent or paper")
      ->check(CLI::IsMember({"consistent", "paper"}));
  cmd->add_option("--signal-max", opt->signal_max, "Consistent path: A(1) (0 = e^lambda - 1)")
      ->check(CLI::NonNegativeNumber);
  std::vector<std::string> inputs;
  for (const auto input : models::kNetworkInputs)
    inputs.emplace_back(models::network_input_name(input));
  cmd->add_option("--input", opt->input, "Network input: log_probs, probs or posterior")
      ->check(CLI::IsMember(inputs));
  cmd->add_option("--decode", opt->decode, "Decode the argmax of xhat or x")
      ->check(CLI::IsMember({"xhat", "x"}));
  cmd->add_option("--integrator", opt->integrator, "exponential or euler")
      ->check(CLI::IsMember({"exponential", "euler"}));
  cmd->add_option("--time-sampling", opt->time_sampling, "uniform or stratified")
      ->check(CLI::IsMember({"uniform", "stratified"}));
  cmd->add_option("--corrector-steps", opt->corrector_steps, "GSSM Langevin steps per level")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--start-scale", opt->start_scale,
                  "Start softmax(s * S(0) g); 1 = the path's own")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--snr", opt->snr, "GSSM Langevin signal-to-noise ratio")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--threads", opt->threads, "LibTorch and kernel threads")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seed", opt->seed, "Seed of targets, data, training and sampling")->check(kUnsigned64);
  cmd->add_flag("--no-skip", opt->no_skip, "Network without the likelihood skip (ablation)");
  cmd->add_flag("--exact", opt->exact,
                "Also sample with the exact-posterior denoiser (method bias)");
  cmd->add_option("--save-dir", opt->save_dir, "Keep the trained models in this folder");
  cmd->add_flag("--json", opt->json, "Print one JSON object on stdout");
  cmd->callback([opt] {
    std::vector<ToyResult> results;
    for (const std::size_t k : opt->ks) results.push_back(run_one(*opt, k));
    if (!opt->json) {
      print_table(*opt, results);
      return;
    }
    nlohmann::json out;
    auto& arr = out["results"] = nlohmann::json::array();
    for (const auto& r : results) {
      nlohmann::json j{{"method", opt->method},
                       {"k", r.k},
                       {"train_steps", opt->train_steps},
                       {"kl", r.kl},
                       {"train_seconds", r.train_seconds},
                       {"sample_seconds", r.sample_seconds},
                       {"uniform_kl", r.uniform_kl},
                       {"data_sample_kl", r.data_kl},
                       {"samples", opt->samples},
                       {"sampler_overhead", r.overhead},
                       {"val_loss_first", r.val_loss_first},
                       {"val_loss_last", r.val_loss_last},
                       {"parameters", r.params}};
      if (opt->exact) j["kl_exact_denoiser"] = r.kl_exact;
      arr.push_back(j);
    }
    std::cout << out.dump(2) << "\n";
  });
}

}  // namespace gsflow::app
