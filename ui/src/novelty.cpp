// Novelty against a reference FASTA (see novelty.hpp).
#include "gsflow/ui/novelty.hpp"

#include <stdexcept>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/engine/metrics/distance.hpp"

namespace gsflow::ui {

std::vector<double> noveltyAgainst(const std::string& fasta, const std::string& alphabet,
                                   const std::vector<storage::SequenceRecord>& sequences) {
  const auto& letters = engine::alphabet_by_name(alphabet);
  engine::SequenceSet reference;
  engine::FastaReader reader(fasta);
  while (const auto record = reader.next())
    reference.push_back(*engine::encode_sequence(letters, record->sequence, {},
                                                 {fasta, record->line, record->id}));
  if (reference.empty()) throw std::invalid_argument(fasta + ": no sequences");
  if (sequences.empty()) return {};
  engine::SequenceSet generated;
  for (const auto& s : sequences) generated.push_back(letters.encode(s.text));
  return engine::novelty(generated, reference, letters.size()).identity;
}

}  // namespace gsflow::ui
