// The user's family for `gsflow train --name NAME --fasta FILE --init MODEL`: its records read and
// checked against the base model (alphabet, lengths, how many), and the held-out part (random for
// DNA, whole cd-hit clusters for proteins, as own_data.hpp splits a classifier's data).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gsflow/models/model.hpp"
#include "own_data.hpp"
#include "sequence_sets.hpp"

namespace gsflow::app {

// Fewest unique sequences accepted in a family: its automatic held-out part (20 % below 1,000)
// then holds at least 10, enough for the validation loss that stops training to mean something;
// fewer is a job for a motif or a PWM, not for fine-tuning a network.
inline constexpr std::size_t kMinFamily = 50;
// Fewest sequences in a --validation or --test file (what the automatic split gives the smallest
// family).
inline constexpr std::size_t kMinHeldOutFile = 10;

// Records of one part of the data, encoded with the base model's alphabet.
struct FamilyPart {
  std::string name;                // "train", "held-out", "test"
  std::vector<OwnRecord> records;  // file, line and id of each, for messages
  Sequences sequences;             // letter indices, one per record
};

// Every record of a FASTA file as a FamilyPart named `part`, duplicates folded (`merged` receives
// how many). Throws engine::InputError naming the file and line for: an unreadable or empty file,
// a letter outside the base model's alphabet (record and position), a length the base does not
// take (a fixed-length model: exactly its length; a transformer: 1 .. its maximum), a file whose
// letters look like DNA for a protein model, and fewer than `minimum` unique sequences.
FamilyPart read_family(const std::string& path, const models::ModelSpec& base,
                       const std::string& base_name, const std::string& part, std::size_t minimum,
                       std::size_t* merged = nullptr);

// Moves the records of `from` whose sequence is in `held_out` out of it; returns how many.
std::size_t remove_held_out(FamilyPart& from, const FamilyPart& held_out);

// How the held-out part is chosen without a --validation file.
struct SplitChoice {
  std::string split = "auto";  // auto (cd-hit for proteins, random for DNA) | random | cd-hit
  std::uint64_t seed = 1;
  int threads = 1;  // cd-hit's
};

// Splits `all` into {training part, held-out part}: held_out_fraction() of it, at random for DNA,
// as whole clusters at 50 % identity for proteins (cd_hit_clusters, as the data pipeline). With
// split "auto", a protein family falls back to random when cd-hit is missing (said on stderr and
// in `description`). `description` receives the sentence the model card gives the split.
std::pair<FamilyPart, FamilyPart> split_family(const FamilyPart& all, const std::string& alphabet,
                                               const SplitChoice& choice, std::string* description);

}  // namespace gsflow::app
