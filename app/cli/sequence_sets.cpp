// FASTA sequence sets and the data folder (see sequence_sets.hpp).
#include "sequence_sets.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "gsflow/engine/errors.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/evaluation/promoter_structure.hpp"

namespace gsflow::app {

std::string data_dir(const std::string& explicit_dir) {
  if (!explicit_dir.empty()) return explicit_dir;
  if (const char* env = std::getenv("GSFLOW_DATA"); env && *env) return env;
  return GSFLOW_SOURCE_DIR "/data";
}

std::string data_file(const std::string& name, const std::string& explicit_dir) {
  std::error_code ec;
  if (std::filesystem::path(name).is_absolute() || std::filesystem::is_regular_file(name, ec))
    return name;
  return (std::filesystem::path(data_dir(explicit_dir)) / name).string();
}

namespace {
std::vector<std::uint8_t> encode_checked(const engine::FastaRecord& record,
                                         const engine::Alphabet& alphabet, const std::string& path,
                                         std::size_t min_length, std::size_t max_length) {
  auto letters = engine::encode_record(record, alphabet, {}, path);
  if (letters->size() < min_length || letters->size() > max_length)
    throw engine::InputError(path, record.line,
                             "record '" + record.id + "' has " + std::to_string(letters->size()) +
                                 " letters; " + std::to_string(min_length) + ".." +
                                 std::to_string(max_length) + " required");
  return std::move(*letters);
}
}  // namespace

std::string header_field(const std::string& description, const std::string& key) {
  const std::string prefix = key + "=";
  std::size_t pos = 0;
  while (pos < description.size()) {
    const std::size_t end = std::min(description.find(' ', pos), description.size());
    if (description.compare(pos, prefix.size(), prefix) == 0)
      return description.substr(pos + prefix.size(), end - pos - prefix.size());
    pos = end + 1;
  }
  return "";
}

Sequences read_sequences(const std::string& path, const engine::Alphabet& alphabet,
                         std::size_t min_length, std::size_t max_length) {
  Sequences out;
  // The reader stops a record one letter past what can be used (encode_checked then names it), so
  // that /dev/zero or one endless line cannot exhaust memory.
  engine::FastaReader reader(path, std::max(max_length, max_length + 1));
  while (auto record = reader.next())
    out.push_back(encode_checked(*record, alphabet, path, min_length, max_length));
  return out;
}

std::string describe(const OversampleRule& r) {
  if (!r.motif)
    return "a perfect tandem repeat (period 1-" +
           std::to_string(evaluation::PromoterStructureOptions{}.repeat_max_period) +
           ") of at least " + std::to_string(r.tandem_repeat) + " bp";
  return r.motif->text() + " starting in " + std::to_string(r.from) + ".." + std::to_string(r.to) +
         (r.forward_only ? " (and not read on the reverse strand there)" : "");
}

Sequences oversample(const Sequences& sequences, const std::vector<OversampleRule>& rules,
                     std::vector<std::size_t>* matched) {
  if (matched) matched->assign(rules.size(), 0);
  // A box that reads on the reverse strand beginning in from..to is a match of the reverse
  // complement ending there (forward_only skips it).
  std::vector<std::optional<engine::DnaMotif>> reverse;
  for (const OversampleRule& r : rules)
    reverse.push_back(r.motif ? std::optional(r.motif->reverse_complement()) : std::nullopt);
  Sequences out;
  out.reserve(sequences.size());
  for (const auto& s : sequences) {
    std::size_t copies = 1;
    for (std::size_t i = 0; i < rules.size(); ++i) {
      const OversampleRule& r = rules[i];
      if (r.motif) {
        if (!r.motif->starts_between(s, r.from, r.to)) continue;
        if (r.forward_only && reverse[i]->ends_between(s, r.from, r.to)) continue;
      } else {
        const std::vector<bool> mask = evaluation::tandem_repeat_mask(
            s, evaluation::PromoterStructureOptions{}.repeat_max_period, r.tandem_repeat);
        if (std::find(mask.begin(), mask.end(), true) == mask.end()) continue;
      }
      copies = std::max(copies, r.copies);
      if (matched) ++(*matched)[i];
    }
    out.insert(out.end(), copies, s);
  }
  return out;
}

LabelledSet read_labelled(const std::string& path, const engine::Alphabet& alphabet,
                          const std::string& key, std::size_t min_length, std::size_t max_length) {
  LabelledSet out;
  engine::FastaReader reader(path, std::max(max_length, max_length + 1));  // as read_sequences
  while (auto record = reader.next()) {
    const std::string value = header_field(record->description, key);
    if (value == "NA") {
      ++out.skipped;
      continue;
    }
    if (value != "0" && value != "1")
      throw engine::InputError(path, record->line,
                               "record '" + record->id + "': field " + key + "= is " +
                                   (value.empty() ? std::string("missing") : "'" + value + "'") +
                                   " (expected " + key + "=0, " + key + "=1 or " + key + "=NA)");
    out.sequences.push_back(encode_checked(*record, alphabet, path, min_length, max_length));
    out.labels.push_back(value == "1" ? 1 : 0);
  }
  return out;
}

Sequences positives_of(const LabelledSet& set) {
  Sequences out;
  for (std::size_t i = 0; i < set.sequences.size(); ++i)
    if (set.labels[i] == 1) out.push_back(set.sequences[i]);
  return out;
}

models::Dataset to_dataset(const Sequences& sequences, std::size_t length) {
  models::Dataset data;
  data.length = length;
  data.letters.assign(sequences.size() * length, 0);
  bool all_full = true;
  for (const auto& s : sequences) all_full = all_full && s.size() == length;
  for (std::size_t i = 0; i < sequences.size(); ++i) {
    if (sequences[i].size() > length)
      throw std::invalid_argument("sequence " + std::to_string(i) + " is longer than " +
                                  std::to_string(length));
    std::copy(sequences[i].begin(), sequences[i].end(), data.letters.begin() + i * length);
    if (!all_full) data.lengths.push_back(static_cast<std::uint16_t>(sequences[i].size()));
  }
  return data;
}

const engine::Alphabet& alphabet_named(const std::string& name, const std::string& field) {
  if (name == "dna") return engine::dna_alphabet();
  if (name == "protein") return engine::protein_alphabet();
  throw std::invalid_argument(field + ": unknown alphabet '" + name +
                              "' (expected dna or protein)");
}

}  // namespace gsflow::app
