// `gsflow profile`: fits a model's typicality profile (engine/metrics/typicality.hpp) on its
// training sequences and writes it beside the checkpoint (NAME.profile.json), where guided runs
// find it to flag outputs whose statistics leave the training data's range.
#include <fmt/format.h>

#include <iostream>

#include "gsflow/models/catalog.hpp"
#include "gsflow/models/model.hpp"
#include "gsflow/pipeline/typicality_file.hpp"
#include "model_commands.hpp"
#include "sequence_sets.hpp"

namespace gsflow::app {

namespace {
struct ProfileCli {
  std::string model = "dna-promoter", train, data, out;
  double tail = 0.001;
};

void run_profile(const ProfileCli& cli) {
  const auto file = models::resolve_model(cli.model);
  const auto model = models::Model::load(file);
  const auto& spec = model.spec();
  const engine::Alphabet& alphabet = alphabet_named(spec.alphabet, file + ": alphabet");
  const std::string train =
      !cli.train.empty() ? cli.train
                         : data_file((spec.alphabet == "dna" ? fmt::format("dna{}", spec.length)
                                                             : std::string("peptide")) +
                                         "/train.fasta",
                                     cli.data);
  const auto sequences = read_sequences(train, alphabet, 1, spec.length);
  if (!(cli.tail > 0.0 && cli.tail < 0.5))
    throw std::invalid_argument("--tail: must be in (0, 0.5)");
  const auto profile = engine::TypicalityProfile::fit(sequences, alphabet.letters(), cli.tail);
  const std::string out = cli.out.empty() ? pipeline::profile_path(file) : cli.out;
  pipeline::write_profile(out, profile);
  std::cerr << fmt::format("profile: {} statistics of {} training sequences ({}) -> {}\n",
                           profile.names.size(), sequences.size(), train, out);
  for (std::size_t j = 0; j < profile.names.size(); ++j)
    std::cout << fmt::format("{:<12} {:>9.4g} .. {:<9.4g}\n", profile.names[j], profile.low[j],
                             profile.high[j]);
}
}  // namespace

void add_profile_command(CLI::App& app) {
  auto cli = std::make_shared<ProfileCli>();
  auto* cmd = app.add_subcommand(
      "profile",
      "Fit a model's typicality profile on its training data (flags atypical guided outputs)");
  cmd->add_option("--model", cli->model, "Bundled model name or checkpoint file")
      ->capture_default_str();
  cmd->add_option("--train", cli->train,
                  "Training FASTA (default: the model's split in the data folder)");
  cmd->add_option("--data", cli->data, "Data folder (default: $GSFLOW_DATA or data/)");
  cmd->add_option("--tail", cli->tail, "Quantile left outside each bound")->capture_default_str();
  cmd->add_option("--out", cli->out, "Profile file (default: beside the checkpoint)");
  cmd->callback([cli] { run_profile(*cli); });
}

}  // namespace gsflow::app
