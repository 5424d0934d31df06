// `gsflow generate`: samples sequences from a bundled or user model and writes them as FASTA.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "global_options.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/guidance/generate.hpp"
#include "gsflow/models/catalog.hpp"
#include "model_commands.hpp"
#include "sequence_sets.hpp"

namespace gsflow::app {

namespace {

struct GenerateCli {
  std::string model = "dna-promoter", method, out, integrator = "exponential", decode = "xhat";
  std::size_t n = 100, length = 0, batch = 256, width = 60;
  int steps = 100, threads = 2;
  std::uint64_t seed = 0;
  double temperature = 1.0;
};

void run_generate(const GenerateCli& cli) {
  const auto file = models::resolve_model(cli.model, cli.method);
  const auto model = models::Model::load(file);
  const auto& spec = model.spec();
  if (!cli.method.empty() && engine::parse_method(cli.method, "--method") != spec.method)
    throw std::invalid_argument(fmt::format("--method {}: {} is a {} model", cli.method, file,
                                            engine::method_name(spec.method)));
  const engine::Alphabet& alphabet = alphabet_named(spec.alphabet, file + ": alphabet");
  const std::string name = std::filesystem::path(file).stem().string();

  guidance::GenerateRequest request;
  request.n = cli.n;
  request.length = cli.length;
  request.threads = cli.threads;
  request.sampler.method = spec.method;
  request.sampler.steps = cli.steps;
  request.sampler.seed = cli.seed;
  request.sampler.batch = cli.batch;
  request.sampler.temperature = cli.temperature;
  request.sampler.integrator = engine::parse_integrator(cli.integrator, "--integrator");
  request.sampler.decode = engine::parse_decode(cli.decode, "--decode");
  const engine::Kernels kernels(kernel_options(cli.threads));
  const auto result = guidance::generate(model, request, kernels);

  std::ofstream file_out;
  if (!cli.out.empty()) {
    file_out.open(cli.out);
    if (!file_out) throw std::runtime_error(cli.out + ": cannot create the output file");
  }
  std::ostream& out = cli.out.empty() ? std::cout : file_out;
  engine::FastaWriter writer(out, {cli.width});
  for (std::size_t i = 0; i < result.sequences.size(); ++i) {
    const auto& s = result.sequences[i];
    writer.write(fmt::format("{}_s{} model={} method={} seed={} steps={} length={}", name, i, name,
                             engine::method_name(spec.method), cli.seed, cli.steps, s.size()),
                 alphabet.decode(s));
  }
  out.flush();
  if (!out) throw std::runtime_error((cli.out.empty() ? "stdout" : cli.out) + ": write failed");
  std::cerr << fmt::format(
      "generate: {} sequences from {} in {:.2f} s ({:.1f} sequences/s; network {:.2f} s, sampler "
      "{:.2f} s){}\n",
      result.completed, file, result.total_seconds,
      static_cast<double>(result.completed) / std::max(result.total_seconds, 1e-9),
      result.network_seconds, result.total_seconds - result.network_seconds,
      cli.out.empty() ? "" : ", wrote " + cli.out);
}

}  // namespace

void add_generate_command(CLI::App& app) {
  auto cli = std::make_shared<GenerateCli>();
  auto* cmd = app.add_subcommand("generate", "Generate sequences with a model and write FASTA");
  cmd->add_option("--model", cli->model,
                  "Bundled model name (dna-promoter, peptide, ...) or a checkpoint file")
      ->capture_default_str();
  cmd->add_option("--n", cli->n, "Number of sequences")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--length", cli->length,
                  "Letters per sequence (default: the model's; peptides: drawn from training)");
  cmd->add_option("--steps", cli->steps, "Sampling steps")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--seed", cli->seed, "Seed: same seed, same sequences")->capture_default_str();
  cmd->add_option("--method", cli->method,
                  "gsfm, gssm or linear: picks NAME-gssm / NAME-linear for a bundled name");
  cmd->add_option("--out", cli->out, "FASTA file to write (default: stdout)");
  cmd->add_option("--threads", cli->threads, "Threads")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--batch", cli->batch, "Sequences per network call")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--temperature", cli->temperature, "Inference temperature of x_hat")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--integrator", cli->integrator, "exponential or euler")->capture_default_str();
  cmd->add_option("--decode", cli->decode, "xhat or x")->capture_default_str();
  cmd->add_option("--width", cli->width, "FASTA line width (0 = one line)")->capture_default_str();
  cmd->callback([cli] { run_generate(*cli); });
}

}  // namespace gsflow::app
