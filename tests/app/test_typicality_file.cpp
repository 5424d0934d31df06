// Typicality profiles on disk (pipeline/typicality_file.hpp) and the 'atypical' count that guided
// stored runs carry: round trip, a malformed file named in the error, the bundled profiles found
// beside their checkpoints, and a strongly guided peptide run flagged where an unguided one is not.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gsflow/engine/errors.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/pipeline/stored_run.hpp"
#include "gsflow/pipeline/typicality_file.hpp"

namespace gsflow::pipeline {
namespace {

namespace fs = std::filesystem;

TEST(TypicalityFile, RoundTripsAndNamesAMalformedFile) {
  engine::SequenceSet ref{{0, 1, 2, 3, 3, 2}, {1, 1, 2, 0, 3, 3}, {2, 2, 2, 1, 0, 3}};
  const auto p = engine::TypicalityProfile::fit(ref, "ACGT", 0.1);
  const std::string file = (fs::temp_directory_path() / "gsflow-test.profile.json").string();
  write_profile(file, p);
  const auto q = read_profile(file);
  EXPECT_EQ(q.names, p.names);
  EXPECT_EQ(q.low, p.low);
  EXPECT_EQ(q.high, p.high);
  EXPECT_EQ(q.reference_size, 3u);
  std::ofstream(file) << "{\"letters\": \"ACGT\"}";
  try {
    read_profile(file);
    FAIL() << "no error";
  } catch (const engine::InputError& e) {
    EXPECT_EQ(e.file(), file);
  }
  fs::remove(file);
  EXPECT_EQ(profile_path("/a/b/dna-promoter.ckpt"), "/a/b/dna-promoter.profile.json");
}

TEST(TypicalityFile, BundledModelsHaveTheirProfiles) {
  for (const char* name : {"dna-promoter", "dna-promoter-gssm", "dna-promoter-linear", "peptide",
                           "peptide-gssm", "peptide-linear"}) {
    const auto p = profile_for(models::resolve_model(name));
    ASSERT_TRUE(p.has_value()) << name;
    EXPECT_GT(p->reference_size, 1000u) << name;
  }
}

// AMP guidance at gamma 8 drives peptides to cysteine-rich, run-rich sequences (issue 38):
// several of 24 are flagged; the same run unguided stores no count at all.
TEST(TypicalityFile, GuidedRunsCarryTheAtypicalCount) {
  StoredRunOptions o;
  o.params.model = "peptide";
  o.params.n = 24;
  o.params.sampler.steps = 40;
  o.params.sampler.seed = 3;
  o.params.sampler.method = engine::Method::gsfm;
  o.params.guidance.terms = {{"amp", 1.0}};
  o.params.guidance.gamma = 8.0;
  const auto guided = run_and_store(o);
  std::size_t flagged = 0;
  for (const auto& s : guided.sequences) {
    ASSERT_TRUE(s.scores.count("atypical")) << s.text;
    flagged += s.scores.at("atypical") > 0.0;
  }
  EXPECT_GE(flagged, 4u);
  o.params.guidance.terms.clear();
  const auto plain = run_and_store(o);
  for (const auto& s : plain.sequences) EXPECT_EQ(s.scores.count("atypical"), 0u);
}

}  // namespace
}  // namespace gsflow::pipeline
