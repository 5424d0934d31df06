// Reading configs/NAME.json (see train_config.hpp and docs/training.md for the keys), and the
// config-file parsing that config_section.hpp declares.
#include "train_config.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "config_section.hpp"
#include "gsflow/engine/dna_motif.hpp"
#include "gsflow/evaluation/promoter_structure.hpp"

namespace gsflow::app {

using nlohmann::json;

namespace {

// A config's {"from": F, "to": T} as 0-based indices [a, b] into `n` positions: F and T 1-based
// from the start or negative from the end (-1 = the last), both ends included, F before T.
// Throws naming `item` (FILE: key[i]) otherwise.
std::pair<std::int64_t, std::int64_t> position_range(std::int64_t from, std::int64_t to,
                                                     std::int64_t n, const std::string& item) {
  const auto index = [n](std::int64_t p) { return p < 0 ? n + p : p - 1; };
  const std::int64_t a = index(from), b = index(to);
  if (from == 0 || to == 0 || a < 0 || b < 0 || a >= n || b >= n || a > b)
    throw std::invalid_argument(item + ": from " + std::to_string(from) + " to " +
                                std::to_string(to) + " is not a range of positions 1.." +
                                std::to_string(n) + " (or -" + std::to_string(n) +
                                "..-1 from the end) with from before to");
  return {a, b};
}

// train.position_weights: [{"from": F, "to": T, "weight": W}, ...] -> one weight per position of
// the model's length, 1 where no range applies (a later range overrides an earlier one).
// Positions are 1-based from the start, or negative from the end (-1 = the last position), both
// ends included: {"from": -45, "to": -15} is 45..15 letters before the end of the window. The
// positions are the model's (model.length): for shorter, padded sequences (peptides) -1 is the last
// padded position, not a sequence's last letter.
std::vector<float> read_position_weights(const json& ranges, std::size_t length,
                                         const std::string& file) {
  const std::string key = "train.position_weights", where = file + ": " + key;
  if (ranges.is_null()) return {};
  if (!ranges.is_array() || ranges.empty())
    throw std::invalid_argument(where + " must be a non-empty array of {from, to, weight}");
  std::vector<float> w(length, 1.0f);
  const auto n = static_cast<std::int64_t>(length);
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const std::string item = where + "[" + std::to_string(i) + "]";
    Section r(ranges[i], file, key + "[" + std::to_string(i) + "].");
    const auto from = r.get<std::int64_t>("from");
    const auto to = r.get<std::int64_t>("to");
    const auto weight = r.get<double>("weight");
    r.finish();
    const auto [a, b] = position_range(from, to, n, item);
    if (!(weight >= 0.0) || !std::isfinite(weight))
      throw std::invalid_argument(item + ".weight must be a finite number >= 0");
    for (std::int64_t p = a; p <= b; ++p)
      w[static_cast<std::size_t>(p)] = static_cast<float>(weight);
  }
  if (std::all_of(w.begin(), w.end(), [](float v) { return v == 0.0f; }))
    throw std::invalid_argument(where + " gives every position weight 0");
  return w;
}

// data.oversample: [{"motif": "TATAWAWR", "from": -45, "to": -15, "copies": 4, "forward_only":
// true}, {"tandem_repeat": 16, "copies": 2}, ...] (forward_only optional, false by default); motif
// positions checked as in position_weights against model.length, then applied to each sequence's
// own letters (where the motif starts).
std::vector<OversampleRule> read_oversample(const json& rules, const std::string& alphabet,
                                            std::size_t length, const std::string& file) {
  const std::string key = "data.oversample", where = file + ": " + key;
  if (rules.is_null()) return {};
  if (!rules.is_array() || rules.empty())
    throw std::invalid_argument(where +
                                " must be a non-empty array of {motif, from, to, copies} or "
                                "{tandem_repeat, copies}");
  if (alphabet != "dna")
    throw std::invalid_argument(where + " matches DNA motifs and needs data.alphabet dna");
  std::vector<OversampleRule> out;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const std::string item = key + "[" + std::to_string(i) + "]";
    Section r(rules[i], file, item + ".");
    OversampleRule rule;
    const auto copies = r.get<std::int64_t>("copies");
    if (copies < 1 || copies > 1000)
      throw std::invalid_argument(r.where("copies") +
                                  " must be 1..1000 (the uses of a matching sequence in all)");
    rule.copies = static_cast<std::size_t>(copies);
    if (r.has("tandem_repeat")) {
      const auto bp = r.get<std::int64_t>("tandem_repeat");
      r.finish();  // a repeat rule has no motif, positions or strand
      const auto max_period =
          static_cast<std::int64_t>(evaluation::PromoterStructureOptions{}.repeat_max_period);
      if (bp <= max_period || bp > static_cast<std::int64_t>(length))
        throw std::invalid_argument(r.where("tandem_repeat") + " must be " +
                                    std::to_string(max_period + 1) + ".." +
                                    std::to_string(length) +
                                    " (bases of a perfect tandem repeat of period 1-" +
                                    std::to_string(max_period) + ")");
      rule.tandem_repeat = static_cast<std::size_t>(bp);
      out.push_back(rule);
      continue;
    }
    const auto motif = r.get<std::string>("motif");
    rule.from = r.get<std::int64_t>("from");
    rule.to = r.get<std::int64_t>("to");
    rule.forward_only = r.get<bool>("forward_only", false);
    r.finish();
    position_range(rule.from, rule.to, static_cast<std::int64_t>(length), file + ": " + item);
    try {
      rule.motif = engine::DnaMotif(motif);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(r.where("motif") + ": " + e.what());
    }
    out.push_back(rule);
  }
  return out;
}

}  // namespace

void read_trainer_options(Section& train, models::TrainerOptions& t) {
  t.steps = train.get<std::int64_t>("steps");
  t.batch = train.get<std::size_t>("batch", t.batch);
  t.lr = train.get<double>("lr", t.lr);
  t.weight_decay = train.get<double>("weight_decay", t.weight_decay);
  t.clip = train.get<double>("clip", t.clip);
  t.warmup = train.get<std::int64_t>("warmup", t.warmup);
  t.min_lr_ratio = train.get<double>("min_lr_ratio", t.min_lr_ratio);
  t.ema = train.get<double>("ema", t.ema);
  t.validate_every = train.get<std::int64_t>("validate_every", t.validate_every);
  t.threads = train.get<int>("threads", t.threads);
  t.seed = train.get<std::uint64_t>("seed", t.seed);
}

TrainConfig read_train_config(const std::string& file) {
  const json j = read_config_json(file);
  TrainConfig c;
  Section root(j, file, "");
  c.name = root.get<std::string>("name");
  c.output = root.get<std::string>("output");
  c.init = root.get<std::string>("init", "");
  c.max_minutes = root.get<double>("max_minutes", 0.0);
  c.report_every = root.get<std::int64_t>("report_every", 100);

  Section data = root.sub("data");
  c.alphabet = data.get<std::string>("alphabet");
  const json train_files = data.get<json>("train");
  if (train_files.is_string()) {
    c.train_files = {train_files.get<std::string>()};
  } else if (train_files.is_array() && !train_files.empty() &&
             std::all_of(train_files.begin(), train_files.end(),
                         [](const json& f) { return f.is_string(); })) {
    c.train_files = train_files.get<std::vector<std::string>>();
  } else {
    throw std::invalid_argument(data.where("train") +
                                " must be a FASTA file or a non-empty list of FASTA files");
  }
  c.validation_file = data.get<std::string>("validation");
  c.min_length = data.get<std::size_t>("min_length", 1);
  const json oversample = data.get<json>("oversample", json());
  data.finish();

  models::ModelSpec& s = c.spec;
  Section model = root.sub("model");
  try {
    s.method = engine::parse_method(model.get<std::string>("method"), model.where("method"));
    s.length = model.get<std::size_t>("length");
    s.alphabet = c.alphabet;
    s.k = c.alphabet == "dna" ? 4 : c.alphabet == "protein" ? 20 : 0;
    if (s.k == 0) throw std::invalid_argument(data.where("alphabet") + " must be dna or protein");
    Section path = model.sub("path");
    s.path.interpolant = engine::parse_interpolant(
        path.get<std::string>("interpolant", "consistent"), path.where("interpolant"));
    s.path.tau_max = path.get<double>("tau_max", s.path.tau_max);
    s.path.lambda = path.get<double>("lambda", s.path.lambda);
    s.path.beta = path.get<double>("beta", s.path.beta);
    s.path.signal_max = path.get<double>("signal_max", s.path.signal_max);
    path.finish();
    Section net = model.sub("network");
    s.network.type = models::parse_network_type(net.get<std::string>("type"), net.where("type"));
    s.network.width = net.get<int>("width", s.network.width);
    s.network.blocks = net.get<int>("blocks", s.network.blocks);
    s.network.time_features = net.get<int>("time_features", s.network.time_features);
    s.network.kernel = net.get<int>("kernel", s.network.kernel);
    s.network.heads = net.get<int>("heads", s.network.heads);
    s.network.input =
        models::parse_network_input(net.get<std::string>("input", "log_probs"), net.where("input"));
    s.network.likelihood_skip = net.get<bool>("likelihood_skip", true);
    s.network.block_positions = net.get<bool>("block_positions", false);
    net.finish();
    model.finish();
    c.oversample = read_oversample(oversample, c.alphabet, s.length, file);

    models::TrainOptions& t = c.train;
    Section train = root.sub("train");
    t.threads = 2;  // a config's defaults where they differ from the library's
    t.seed = 1;
    read_trainer_options(train, t);
    t.time_sampling = models::parse_time_sampling(
        train.get<std::string>("time_sampling", "stratified"), train.where("time_sampling"));
    t.validation_batches = train.get<std::size_t>("validation_batches", t.validation_batches);
    t.checkpoint_every = train.get<std::int64_t>("checkpoint_every", 500);
    t.position_weights =
        read_position_weights(train.get<json>("position_weights", json()), s.length, file);
    train.finish();
  } catch (const models::ModelError& e) {
    throw std::invalid_argument(e.what());
  }
  root.finish();
  return c;
}

}  // namespace gsflow::app
