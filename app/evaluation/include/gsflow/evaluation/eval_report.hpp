// Report formatting of `gsflow eval`: a model's SetMetrics beside the k-mer JS floor and the
// baselines, as a fixed-width terminal table and as one JSON object.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gsflow/engine/sequence_metrics.hpp"
#include "gsflow/evaluation/promoter_structure.hpp"

namespace gsflow::evaluation {

// Rows = metrics, columns = the model, "floor" (k-mer JS only: engine::kmer_js_floor), the split's
// own figures (its diversity, GC, TATA, lengths; headed by `split`), the training set's own
// figures (GC, TATA, lengths; headed "training") and each baseline in name order. Values the column does not have print as "-". GC and TATA rows appear only when
// `metrics.dna`. Ends with a newline. Throws std::invalid_argument if kmer_js_floor is not as long
// as metrics.kmer_js. With `structure` (DNA only) four rows follow the TATA rows for the model,
// split, training and each baseline `structure` has: "fwd TATA core/elsewhere" and "rev TATA
// core/elsewhere" (StrandDensity::ratio), "tandem repeat share" and "tandem repeat share, 3+
// copies" (PromoterStructure).
std::string eval_table(const std::string& model, const std::string& split,
                       const engine::SetMetrics& metrics, const std::vector<double>& kmer_js_floor,
                       const std::map<std::string, engine::SetMetrics>& baselines,
                       const PromoterStructureColumns* structure = nullptr);

// One object: {"model", "split", "n", "kmer_js_floor": {"1": .., ..}, "baselines": {NAME: {...}}}
// plus the per-set keys of set_metrics_json. JS in bits, KL in nats; non-finite numbers are null.
// With `structure` (DNA only): "promoter_structure": promoter_structure_json of the model plus
// "window": [begin, end], "repeat_max_period", "repeat_min_length", "repeat_strict_copies",
// "reference": {...} and "training": {...}, and each baseline it has gets its own
// "promoter_structure". Throws as eval_table.
nlohmann::json eval_json(const std::string& model, const std::string& split,
                         const engine::SetMetrics& metrics,
                         const std::vector<double>& kmer_js_floor,
                         const std::map<std::string, engine::SetMetrics>& baselines,
                         const PromoterStructureColumns* structure = nullptr);

// The per-set keys for one SetMetrics: "n", "alphabet_size", "kmer_js": {"1": .., "kmax": ..},
// "uniqueness", "exact_copy_fraction", "diversity", "composition_kl", "novelty": {"mean_identity",
// "fraction_above", "threshold"}, "letter_frequencies": [K], "lengths": {"mean", "min", "max",
// "w1", "histogram": {"LEN": count}}, "reference": {"diversity", "length_mean",
// "letter_frequencies"}, "training": {"length_mean"}, and for DNA "gc": {"mean",
// "reference_mean", "training_mean", "profile_mae"} and "tata": {"window_fraction",
// "reference_window_fraction", "training_window_fraction", "window_fraction_diff",
// "histogram_l1", "matches_per_sequence", "reference_matches_per_sequence",
// "training_matches_per_sequence", "window": [begin, end]}.
nlohmann::json set_metrics_json(const engine::SetMetrics& metrics);

}  // namespace gsflow::evaluation
