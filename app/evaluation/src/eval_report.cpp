// Terminal table and JSON of `gsflow eval` results (see eval_report.hpp).
#include "gsflow/evaluation/eval_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

namespace gsflow::evaluation {

namespace {

using engine::SetMetrics;

// nlohmann writes NaN and infinities as null anyway; being explicit keeps the intent visible.
nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

// Binned TATA start rates (engine::tata_bin_rates), or null for a profile of no sequences.
nlohmann::json tata_bins(const engine::TataProfile& p, const engine::TataOptions& o,
                         std::size_t bins) {
  if (p.sequences == 0) return nullptr;
  nlohmann::json out = nlohmann::json::array();
  for (const double v : engine::tata_bin_rates(p, o, bins)) out.push_back(number(v));
  return out;
}

nlohmann::json by_k(const std::vector<double>& js) {
  nlohmann::json out = nlohmann::json::object();
  for (std::size_t k = 1; k <= js.size(); ++k) out[std::to_string(k)] = number(js[k - 1]);
  return out;
}

void check_floor(const SetMetrics& metrics, const std::vector<double>& floor) {
  if (floor.size() != metrics.kmer_js.size())
    throw std::invalid_argument(fmt::format("k-mer JS floor has {} values, the metrics have {}",
                                            floor.size(), metrics.kmer_js.size()));
}

double tata_rate(const engine::TataProfile& p) {
  return p.sequences == 0 ? 0.0 : static_cast<double>(p.matches) / static_cast<double>(p.sequences);
}

// One table cell: a value, or nothing ("-").
using Cell = std::optional<double>;

struct Row {
  std::string label;
  std::vector<Cell> cells;  // one per column
  int decimals = 4;
};

}  // namespace

nlohmann::json set_metrics_json(const SetMetrics& m) {
  nlohmann::json j;
  j["n"] = m.n;
  j["alphabet_size"] = m.alphabet_size;
  j["kmer_js"] = by_k(m.kmer_js);
  j["uniqueness"] = number(m.uniqueness);
  j["exact_copy_fraction"] = number(m.exact_copy_fraction);
  j["diversity"] = number(m.diversity);
  j["composition_kl"] = number(m.composition_kl);
  j["novelty"] = {{"mean_identity", number(m.novelty_mean_identity)},
                  {"fraction_above", number(m.novelty_fraction_above)},
                  {"threshold", number(m.novelty_threshold)}};
  j["letter_frequencies"] = m.letter_frequencies;
  nlohmann::json histogram = nlohmann::json::object();
  for (const auto& [length, count] : m.lengths.histogram) histogram[std::to_string(length)] = count;
  j["lengths"] = {{"mean", number(m.lengths.mean)},
                  {"min", m.lengths.min},
                  {"max", m.lengths.max},
                  {"w1", number(m.length_w1)},
                  {"histogram", histogram}};
  j["reference"] = {{"diversity", number(m.reference_diversity)},
                    {"length_mean", number(m.reference_lengths.mean)},
                    {"letter_frequencies", m.reference_letter_frequencies}};
  j["training"] = {{"length_mean", number(m.training_lengths.mean)}};
  if (m.dna) {
    // Binned TATA starts from the 3' end over the longest sequence of the three sets.
    const std::size_t longest = std::max({m.tata.start_counts.size(),
                                          m.reference_tata.start_counts.size(),
                                          m.training_tata.start_counts.size()});
    const std::size_t bins = (longest + m.tata_options.bin - 1) / m.tata_options.bin;
    j["gc"] = {{"mean", number(m.gc.mean)},
               {"reference_mean", number(m.reference_gc.mean)},
               {"training_mean", number(m.training_gc.mean)},
               {"profile_mae", number(m.gc_profile_mae)}};
    j["tata"] = {{"window_fraction", number(m.tata.window_fraction)},
                 {"reference_window_fraction", number(m.reference_tata.window_fraction)},
                 {"window_fraction_diff", number(m.tata_vs_reference.window_fraction_diff)},
                 {"histogram_l1", number(m.tata_vs_reference.histogram_l1)},
                 {"training_window_fraction", number(m.training_tata.window_fraction)},
                 {"matches_per_sequence", number(tata_rate(m.tata))},
                 {"reference_matches_per_sequence", number(tata_rate(m.reference_tata))},
                 {"training_matches_per_sequence", number(tata_rate(m.training_tata))},
                 {"window", {m.tata_options.window_begin, m.tata_options.window_end}},
                 {"bin", m.tata_options.bin},
                 {"bin_rates", tata_bins(m.tata, m.tata_options, bins)},
                 {"reference_bin_rates", tata_bins(m.reference_tata, m.tata_options, bins)},
                 {"training_bin_rates", tata_bins(m.training_tata, m.tata_options, bins)}};
  }
  return j;
}

nlohmann::json eval_json(const std::string& model, const std::string& split,
                         const SetMetrics& metrics, const std::vector<double>& kmer_js_floor,
                         const std::map<std::string, SetMetrics>& baselines,
                         const PromoterStructureColumns* structure) {
  check_floor(metrics, kmer_js_floor);
  nlohmann::json j = set_metrics_json(metrics);
  j["model"] = model;
  j["split"] = split;
  j["kmer_js_floor"] = by_k(kmer_js_floor);
  nlohmann::json base = nlohmann::json::object();
  for (const auto& [name, m] : baselines) base[name] = set_metrics_json(m);
  j["baselines"] = std::move(base);
  if (structure && metrics.dna) {
    nlohmann::json s = promoter_structure_json(structure->model);
    s["window"] = {structure->options.window_begin, structure->options.window_end};
    s["repeat_max_period"] = structure->options.repeat_max_period;
    s["repeat_min_length"] = structure->options.repeat_min_length;
    s["repeat_strict_copies"] = structure->options.repeat_strict_copies;
    s["reference"] = promoter_structure_json(structure->reference);
    s["training"] = promoter_structure_json(structure->training);
    j["promoter_structure"] = std::move(s);
    for (const auto& [name, p] : structure->baselines)
      if (j["baselines"].contains(name))
        j["baselines"][name]["promoter_structure"] = promoter_structure_json(p);
  }
  return j;
}

std::string eval_table(const std::string& model, const std::string& split,
                       const SetMetrics& metrics, const std::vector<double>& kmer_js_floor,
                       const std::map<std::string, SetMetrics>& baselines,
                       const PromoterStructureColumns* structure) {
  check_floor(metrics, kmer_js_floor);
  // Columns: model, floor, split, training, then the baselines.
  std::vector<std::string> headers{model, "floor", split, "training"};
  std::vector<const SetMetrics*> sets{&metrics};
  std::vector<std::string> baseline_names;
  for (const auto& [name, m] : baselines) {
    headers.push_back(name);
    sets.push_back(&m);
    baseline_names.push_back(name);
  }
  const std::size_t columns = headers.size();
  std::vector<Row> rows;
  // A row with the model and baseline values of `get`, and optional floor, split and training
  // cells.
  auto add = [&](std::string label, auto get, Cell floor = {}, Cell reference = {},
                 Cell training = {}, int decimals = 4) {
    Row row{std::move(label), std::vector<Cell>(columns), decimals};
    row.cells[0] = get(*sets[0]);
    row.cells[1] = floor;
    row.cells[2] = reference;
    row.cells[3] = training;
    for (std::size_t s = 1; s < sets.size(); ++s) row.cells[3 + s] = get(*sets[s]);
    rows.push_back(std::move(row));
  };
  add(
      "sequences", [](const SetMetrics& m) -> Cell { return static_cast<double>(m.n); }, {}, {},
      {}, 0);
  for (std::size_t k = 1; k <= metrics.kmer_js.size(); ++k)
    add(
        fmt::format("{}-mer JS (bits)", k),
        [k](const SetMetrics& m) -> Cell {
          return k <= m.kmer_js.size() ? Cell(m.kmer_js[k - 1]) : Cell();
        },
        kmer_js_floor[k - 1]);
  add("uniqueness", [](const SetMetrics& m) -> Cell { return m.uniqueness; });
  add("exact copies of training",
      [](const SetMetrics& m) -> Cell { return m.exact_copy_fraction; });
  add("mean identity to training",
      [](const SetMetrics& m) -> Cell { return m.novelty_mean_identity; });
  add(fmt::format("identity >= {:g}", metrics.novelty_threshold),
      [](const SetMetrics& m) -> Cell { return m.novelty_fraction_above; });
  add(
      "diversity", [](const SetMetrics& m) -> Cell { return m.diversity; }, {},
      metrics.reference_diversity);
  add("composition KL (nats)", [](const SetMetrics& m) -> Cell { return m.composition_kl; });
  if (metrics.dna) {
    add(
        "GC mean", [](const SetMetrics& m) -> Cell { return m.dna ? Cell(m.gc.mean) : Cell(); }, {},
        metrics.reference_gc.mean, metrics.training_gc.mean);
    add("GC profile MAE",
        [](const SetMetrics& m) -> Cell { return m.dna ? Cell(m.gc_profile_mae) : Cell(); });
    add(
        fmt::format("TATA start in {}..{}", metrics.tata_options.window_begin,
                    metrics.tata_options.window_end),
        [](const SetMetrics& m) -> Cell { return m.dna ? Cell(m.tata.window_fraction) : Cell(); },
        {}, metrics.reference_tata.window_fraction, metrics.training_tata.window_fraction);
    add(
        "TATA matches per sequence",
        [](const SetMetrics& m) -> Cell { return m.dna ? Cell(tata_rate(m.tata)) : Cell(); }, {},
        tata_rate(metrics.reference_tata), tata_rate(metrics.training_tata));
    add("TATA window diff", [](const SetMetrics& m) -> Cell {
      return m.dna ? Cell(m.tata_vs_reference.window_fraction_diff) : Cell();
    });
    add("TATA position L1", [](const SetMetrics& m) -> Cell {
      return m.dna ? Cell(m.tata_vs_reference.histogram_l1) : Cell();
    });
    if (structure) {
      // A row of one promoter-structure figure for every set `structure` holds.
      auto add_structure = [&](std::string label, auto get) {
        Row row{std::move(label), std::vector<Cell>(columns), 4};
        row.cells[0] = get(structure->model);
        row.cells[2] = get(structure->reference);
        row.cells[3] = get(structure->training);
        for (std::size_t b = 0; b < baseline_names.size(); ++b)
          if (const auto it = structure->baselines.find(baseline_names[b]);
              it != structure->baselines.end())
            row.cells[4 + b] = get(it->second);
        rows.push_back(std::move(row));
      };
      add_structure("fwd TATA core/elsewhere",
                    [](const PromoterStructure& p) -> Cell { return p.forward_tata.ratio(); });
      add_structure("rev TATA core/elsewhere",
                    [](const PromoterStructure& p) -> Cell { return p.reverse_tata.ratio(); });
      add_structure("tandem repeat share",
                    [](const PromoterStructure& p) -> Cell { return p.repeat_share(); });
      add_structure(
          fmt::format("tandem repeat share, {}+ copies", structure->options.repeat_strict_copies),
          [](const PromoterStructure& p) -> Cell { return p.strict_repeat_share(); });
    }
  }
  add(
      "length mean", [](const SetMetrics& m) -> Cell { return m.lengths.mean; }, {},
      metrics.reference_lengths.mean, metrics.training_lengths.mean, 1);
  add(
      "length W1", [](const SetMetrics& m) -> Cell { return m.length_w1; }, {}, {}, {}, 2);

  std::size_t label_width = 0;
  for (const Row& r : rows) label_width = std::max(label_width, r.label.size());
  std::vector<std::size_t> widths(columns);
  for (std::size_t c = 0; c < columns; ++c)
    widths[c] = std::max<std::size_t>(10, headers[c].size());

  std::string out = fmt::format("{:<{}}", "metric", label_width);
  for (std::size_t c = 0; c < columns; ++c) out += fmt::format("  {:>{}}", headers[c], widths[c]);
  out += '\n';
  out += std::string(out.size() - 1, '-') + '\n';
  for (const Row& r : rows) {
    out += fmt::format("{:<{}}", r.label, label_width);
    for (std::size_t c = 0; c < columns; ++c) {
      const Cell& v = r.cells[c];
      out += v && std::isfinite(*v) ? fmt::format("  {:>{}.{}f}", *v, widths[c], r.decimals)
                                    : fmt::format("  {:>{}}", "-", widths[c]);
    }
    out += '\n';
  }
  return out;
}

}  // namespace gsflow::evaluation
