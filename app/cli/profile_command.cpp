// `gsflow profile`: fits a model's typicality profile (engine/metrics/typicality.hpp) on its
// training sequences and writes it beside the checkpoint (NAME.profile.json), where guided runs
// find it to flag outputs whose statistics leave the training data's range. With --band NAME it
// fits a composition band (engine/metrics/composition_band.hpp) instead, on the training records
// of one class (--label FIELD: records whose header has FIELD=1), and writes bands/NAME.json
// beside the checkpoint, where the `natural:NAME` objective finds it.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "gsflow/guidance/natural.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/models/model.hpp"
#include "gsflow/pipeline/typicality_file.hpp"
#include "model_commands.hpp"
#include "sequence_sets.hpp"

namespace gsflow::app {

namespace {
struct ProfileCli {
  std::string model = "dna-promoter", train, data, out, band, label;
  double tail = 0.001, quantile = 0.01;
};

void run_band(const ProfileCli& cli, const std::string& checkpoint, const std::string& train,
              const engine::Alphabet& alphabet, std::size_t max_length) {
  engine::SequenceSet sequences;
  std::string reference = std::filesystem::path(train).filename().string();
  if (cli.label.empty()) {
    sequences = read_sequences(train, alphabet, 2, max_length);
  } else {
    sequences = positives_of(read_labelled(train, alphabet, cli.label, 2, max_length));
    reference += " " + cli.label + "=1";
  }
  auto band = engine::CompositionBand::fit(sequences, alphabet.letters(), cli.quantile,
                                           guidance::band_linear_features(alphabet.name()));
  band.reference = reference;
  const std::filesystem::path out =
      !cli.out.empty() ? std::filesystem::path(cli.out)
                       : std::filesystem::path(checkpoint).parent_path() / "bands" /
                             (cli.band + ".json");
  if (out.has_parent_path()) std::filesystem::create_directories(out.parent_path());
  guidance::write_band(out.string(), band);
  std::cerr << fmt::format("profile: composition band of {} sequences ({}) -> {}\n",
                           band.reference_size, reference, out.string());
  for (std::size_t j = 0; j < band.names.size(); ++j)
    std::cout << fmt::format("{:<10} {:>9.4g} .. {:<9.4g} (sd {:.3g})\n", band.names[j],
                             band.low[j], band.high[j], band.scale[j]);
}

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
  if (!cli.band.empty()) return run_band(cli, file, train, alphabet, spec.length);
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
  cmd->add_option("--band", cli->band,
                  "Fit the composition band NAME instead (for --guide natural:NAME); written to "
                  "bands/NAME.json beside the checkpoint unless --out");
  cmd->add_option("--label", cli->label,
                  "With --band: only training records whose header has FIELD=1 (e.g. amp)");
  cmd->add_option("--quantile", cli->quantile, "With --band: quantile left outside each band")
      ->capture_default_str();
  cmd->callback([cli] { run_profile(*cli); });
}

}  // namespace gsflow::app
