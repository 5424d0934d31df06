// The objectives explained (see objective_catalog.hpp). Keep in step with make_objective()
// (objective.cpp, property_objectives.cpp, natural.cpp) and docs/benchmarks.md.
#include "gsflow/guidance/objective_catalog.hpp"

namespace gsflow::guidance {

namespace {

constexpr const char* kNotMeasured =
    "not measured (GC, GRAVY and charge guide as sums over the letters: one gamma pushes alike "
    "at every length)";

std::vector<ObjectiveEntry> make_catalog() {
  return {
      {"gc", "dna", "gc[:TARGET]", "GC fraction of the sequence", "0..1",
       "gc:T scores -|GC fraction - T| (0 at the target, -1..0), e.g. gc:0.6", std::nullopt,
       kNotMeasured},
      {"motif", "dna", "motif[:FILE[#ID]]",
       "log2 of the summed odds ratios of a position weight matrix over all sites (bits)",
       "unbounded (bits)",
       "a JASPAR matrix file, #ID picks one of several (default: the bundled TBP matrix "
       "MA0108.2)",
       std::nullopt, "not measured"},
      {"motif-norm", "dna", "motif-norm[:FILE[#ID]]",
       "as motif, per site: log2 of the mean odds ratio (length-normalised)", "unbounded (bits)",
       "as motif", std::nullopt, "not measured"},
      {"tata", "dna", "tata", "number of TATAWAWR matches (no gradient: guided by the exact "
       "substitution scan)", "0..length-7", "", std::nullopt, "not measured"},
      {"promoter", "dna", "promoter",
       "P(promoter) of the bundled classifier (fruit-fly 256-bp promoter windows)", "0..1", "",
       18.0,
       "dna-promoter: gamma 18 takes the mean P(promoter) from 0.69 to 0.97 and the independent "
       "judge to just under the unguided p90; with --gamma-schedule rising and --steps 100, "
       "gamma 64 passes it at 1.8x the unguided 6-mer JS (at the default 16 steps 3.0x; "
       "docs/notes/2026-12-06-guidance-before-leak-filter.md, Naturalness by default; docs/benchmarks.md, Faster generation)",
       16},
      {"gravy", "protein", "gravy[:TARGET]",
       "mean Kyte-Doolittle hydropathy (GRAVY; negative = hydrophilic)", "-4.5..4.5",
       "gravy:T scores -|GRAVY - T| (0 at the target), e.g. gravy:-0.5", std::nullopt,
       kNotMeasured},
      {"charge", "protein", "charge[:TARGET]",
       "net charge at pH 7 (K, R +1; H +0.1; D, E -1)", "-length..+length",
       "charge:T scores -|charge - T| (0 at the target), e.g. charge:6 is -|charge - 6|",
       std::nullopt, kNotMeasured},
      {"charge-norm", "protein", "charge-norm[:TARGET]",
       "net charge per residue at pH 7 (length-normalised)", "-1..1",
       "charge-norm:T scores -|charge per residue - T|", std::nullopt, kNotMeasured},
      {"amp", "protein", "amp",
       "P(antimicrobial) of the bundled classifier (peptides 10-100 aa, Swiss-Prot)", "0..1", "",
       8.0,
       "peptide, with the default natural:amp term: gamma 8 raises the independent judge's mean "
       "1.45x over unguided designs with residue composition and runs inside real AMPs' range "
       "(docs/benchmarks.md, Input augmentation and the leak-free split)"},
      {"natural", "any", "natural:NAME|FILE",
       "composition inside the real class's band (letter and pair fractions; GC, or GRAVY and "
       "charge per residue): 0 inside, negative outside (a Huber penalty on the distance, in "
       "standard deviations)",
       "<= 0",
       "a band name (amp, promoter) or a band file (gsflow profile --band); added for the first "
       "guide with a band at weight --naturalness (16)",
       std::nullopt, "a weight beside another guide, not guided alone"},
      {"classifier", "any", "classifier:FILE",
       "P(positive) of your classifier: a checkpoint (.ckpt, gsflow train-classifier) or a "
       "TorchScript descriptor (.json); FASTA headers name its score by the file's stem",
       "0..1 (a TorchScript plug-in: what it returns)", "the checkpoint or descriptor file",
       std::nullopt, "measure with gsflow eval-guidance --objective classifier:FILE"},
  };
}

}  // namespace

const std::vector<ObjectiveEntry>& objective_catalog() {
  static const std::vector<ObjectiveEntry> catalog = make_catalog();
  return catalog;
}

const ObjectiveEntry* find_objective_entry(const std::string& spec) {
  const std::string name = spec.substr(0, spec.find(':'));
  for (const auto& e : objective_catalog())
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace gsflow::guidance
