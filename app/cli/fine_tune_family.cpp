// Reading, checking and splitting the user's family for fine-tuning (see fine_tune_family.hpp).
#include "fine_tune_family.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <set>
#include <stdexcept>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/errors.hpp"

namespace gsflow::app {

using engine::InputError;

FamilyPart read_family(const std::string& path, const models::ModelSpec& base,
                       const std::string& base_name, const std::string& part, std::size_t minimum,
                       std::size_t* merged) {
  std::size_t folded = 0;
  auto records = read_fasta_records(path, 1.0);
  if (records.empty()) throw InputError(path, 0, "no sequences");
  // ACGT are amino acids too: a DNA file would pass a protein model's alphabet unnoticed.
  if (base.alphabet == "protein" && detect_alphabet(records) == "dna")
    throw InputError(path, records.front().line,
                     "the letters are DNA (at least 90 % A, C, G, T, U, N), but the base model " +
                         base_name + " makes proteins");
  records = merge_duplicates(std::move(records), OwnTask::binary, &folded);
  if (merged) *merged = folded;
  const engine::Alphabet& alphabet = alphabet_named(base.alphabet, base_name + ": alphabet");
  FamilyPart out;
  out.name = part;
  for (const auto& r : records) {
    auto letters = *engine::encode_sequence(alphabet, r.sequence, {}, {r.file, r.line, r.id});
    const std::size_t n = letters.size();
    // The base model's rules: a fixed-length network (CNN, MLP) takes exactly its length, a
    // transformer any length up to its maximum.
    if (base.variable_length() ? n > base.length : n != base.length)
      throw InputError(
          r.file, r.line,
          fmt::format("record '{}' has {} letters; the base model {} takes {} {}", r.id, n,
                      base_name, base.variable_length() ? "at most" : "exactly", base.length));
    out.sequences.push_back(std::move(letters));
  }
  out.records = std::move(records);
  if (out.records.size() < minimum)
    throw InputError(
        path, out.records.back().line,
        fmt::format("{}: only {} sequences (unique{}); at least {} are needed", part,
                    out.records.size(), folded ? fmt::format(", {} duplicates folded", folded) : "",
                    minimum));
  return out;
}

std::size_t remove_held_out(FamilyPart& from, const FamilyPart& held_out) {
  std::set<std::string> held;
  for (const auto& r : held_out.records) held.insert(r.sequence);
  FamilyPart kept;
  kept.name = from.name;
  for (std::size_t i = 0; i < from.records.size(); ++i) {
    if (held.count(from.records[i].sequence)) continue;
    kept.records.push_back(std::move(from.records[i]));
    kept.sequences.push_back(std::move(from.sequences[i]));
  }
  const std::size_t removed = from.records.size() - kept.records.size();
  from = std::move(kept);
  return removed;
}

std::pair<FamilyPart, FamilyPart> split_family(const FamilyPart& all, const std::string& alphabet,
                                               const SplitChoice& choice,
                                               std::string* description) {
  const double fraction = held_out_fraction(all.records.size());
  std::vector<bool> held;
  std::string text;
  if (choice.split == "cd-hit" || (choice.split == "auto" && alphabet == "protein")) {
    std::vector<std::string> letters;
    for (const auto& r : all.records) letters.push_back(r.sequence);
    try {
      std::string command;
      const auto t0 = std::chrono::steady_clock::now();
      const auto cluster = cd_hit_clusters(letters, 0.5, choice.threads, &command);
      const std::size_t n_clusters = *std::max_element(cluster.begin(), cluster.end()) + 1;
      held = cluster_split(all.records, cluster, OwnTask::binary, fraction, choice.seed);
      text = fmt::format(
          "{:.0f} % held out as whole clusters of 50 % identity ({} clusters; `{}`, {:.1f} s), "
          "seed {}",
          100 * fraction, n_clusters, command,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
          choice.seed);
    } catch (const std::runtime_error& e) {
      if (choice.split != "auto") throw;
      std::cerr << "warning: " << e.what() << "; the held-out part is chosen at random instead\n";
      text = fmt::format("cd-hit unavailable ({}), so ", e.what());
    }
  }
  if (held.empty()) {
    held = random_split(all.records, OwnTask::binary, fraction, choice.seed);
    text += fmt::format("{:.0f} % held out at random, seed {}", 100 * fraction, choice.seed);
  }
  std::pair<FamilyPart, FamilyPart> parts;
  parts.first.name = "train";
  parts.second.name = "held-out";
  for (std::size_t i = 0; i < all.records.size(); ++i) {
    FamilyPart& to = held[i] ? parts.second : parts.first;
    to.records.push_back(all.records[i]);
    to.sequences.push_back(all.sequences[i]);
  }
  // One cluster can hold most of a family (cluster_split keeps clusters whole).
  if (parts.second.records.empty() || 2 * parts.first.records.size() < all.records.size())
    throw InputError(all.records.front().file, 0,
                     fmt::format("the held-out split ({}) kept {} of {} sequences for training (a "
                                 "few large clusters?): give --validation FILE or --split random",
                                 text, parts.first.records.size(), all.records.size()));
  if (description) *description = text;
  return parts;
}

}  // namespace gsflow::app
