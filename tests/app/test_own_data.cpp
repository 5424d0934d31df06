// The user's own data for `gsflow train-classifier --name` (app/cli/own_data.hpp): CSV parsing
// with quotes and line numbers, labels and values, duplicates, the alphabet from the letters, the
// minimum counts, and the held-out splits (stratified, seeded, whole clusters).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "gsflow/engine/errors.hpp"
#include "own_data.hpp"

namespace gsflow::app {
namespace {

namespace fs = std::filesystem;

class OwnData : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gsflow-own-data-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const auto p = (dir_ / name).string();
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  // The message of the InputError `f` throws, checked to carry `file` and `line`.
  template <class F>
  std::string error_of(F f, const std::string& file, std::size_t line) {
    try {
      f();
    } catch (const engine::InputError& e) {
      EXPECT_EQ(e.file(), file);
      EXPECT_EQ(e.line(), line) << e.what();
      return e.what();
    }
    ADD_FAILURE() << "no InputError";
    return "";
  }
  fs::path dir_;
};

TEST_F(OwnData, CsvQuotesCommasLineBreaksAndLineNumbers) {
  const auto f = write("a.csv",
                       "\xEF\xBB\xBFid,seq,y\r\n"
                       "1,ACGT,1\r\n"
                       "\n"
                       "\"2, two\",\"AC\"\"GT\",0\n"
                       "3,\"AC\nGT\",1\n"
                       "4,TTTT,0");  // no final newline
  const CsvTable t = read_csv(f);
  ASSERT_EQ(t.header, (std::vector<std::string>{"id", "seq", "y"}));
  ASSERT_EQ(t.rows.size(), 4u);
  EXPECT_EQ(t.rows[0], (std::vector<std::string>{"1", "ACGT", "1"}));
  EXPECT_EQ(t.rows[1], (std::vector<std::string>{"2, two", "AC\"GT", "0"}));
  EXPECT_EQ(t.rows[2][1], "AC\nGT");
  EXPECT_EQ(t.rows[3], (std::vector<std::string>{"4", "TTTT", "0"}));
  EXPECT_EQ(t.lines, (std::vector<std::size_t>{2, 4, 5, 7}));
}

TEST_F(OwnData, CsvErrorsNameTheLine) {
  const auto f = write("bad.csv", "a,b\n1,2\n3\n");
  EXPECT_NE(error_of([&] { read_csv(f); }, f, 3).find("1 fields, the header has 2"),
            std::string::npos);
  const auto q = write("quote.csv", "a,b\n1,2\n3,\"open\n4,5\n");
  EXPECT_NE(error_of([&] { read_csv(q); }, q, 3).find("unterminated"), std::string::npos);
  const auto e = write("empty.csv", "");
  error_of([&] { read_csv(e); }, e, 0);
}

TEST_F(OwnData, TableRecordsLabelsValuesAndMissingColumns) {
  const auto f = write("t.csv", "seq,y,z\nacgt,1,2.5\nGGCC,no,NA\nTTAA,NA,-1e3\n");
  std::size_t skipped = 0;
  auto r = read_table_records(f, "seq", "y", OwnTask::binary, &skipped);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].sequence, "ACGT");
  EXPECT_EQ(r[0].value, 1.0);
  EXPECT_EQ(r[0].line, 2u);
  EXPECT_EQ(r[1].value, 0.0);
  EXPECT_EQ(skipped, 1u);
  r = read_table_records(f, "seq", "z", OwnTask::regression, &skipped);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].value, 2.5);
  EXPECT_EQ(r[1].value, -1000.0);
  EXPECT_EQ(r[1].line, 4u);

  const auto missing = error_of([&] { read_table_records(f, "sequence", "y", OwnTask::binary); },
                                f, 1);
  EXPECT_NE(missing.find("no column 'sequence'"), std::string::npos);
  EXPECT_NE(missing.find("seq, y, z"), std::string::npos);
  // A number as a binary label: the hint to --task regression.
  EXPECT_NE(error_of([&] { read_table_records(f, "seq", "z", OwnTask::binary); }, f, 2)
                .find("--task regression"),
            std::string::npos);
  const auto words = write("w.csv", "seq,v\nACGT,1.5\nACGA,high\n");
  EXPECT_NE(error_of([&] { read_table_records(words, "seq", "v", OwnTask::regression); }, words, 3)
                .find("not a number"),
            std::string::npos);
}

TEST_F(OwnData, DuplicatesConflictsAndMeans) {
  std::vector<OwnRecord> r = {{"ACGT", 1, "p.fa", 2, "a"},
                              {"ACGT", 1, "p.fa", 8, "b"},
                              {"GGGG", 0, "n.fa", 2, "c"}};
  std::size_t merged = 0;
  EXPECT_EQ(merge_duplicates(r, OwnTask::binary, &merged).size(), 2u);
  EXPECT_EQ(merged, 1u);
  r.push_back({"ACGT", 0, "n.fa", 6, "d"});
  const auto msg = error_of([&] { merge_duplicates(r, OwnTask::binary); }, "n.fa", 6);
  EXPECT_NE(msg.find("labelled both ways"), std::string::npos);
  EXPECT_NE(msg.find("p.fa:2"), std::string::npos);
  const auto m = merge_duplicates(r, OwnTask::regression);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_DOUBLE_EQ(m[0].value, 2.0 / 3.0);
}

TEST_F(OwnData, AlphabetFromTheLetters) {
  EXPECT_EQ(detect_alphabet({{"ACGTACGTNN", 1}, {"ACGU", 0}}), "dna");
  EXPECT_EQ(detect_alphabet({{"MKLVACGT", 1}}), "protein");
  // A DNA file with a few unknown letters stays DNA (and the letters are then reported).
  EXPECT_EQ(detect_alphabet({{"ACGTACGTACGTACGTACGX", 1}}), "dna");
}

TEST_F(OwnData, MinimumCountsPerClass) {
  std::vector<OwnRecord> r;
  for (int i = 0; i < 25; ++i) r.push_back({"A" + std::to_string(i), 1, "p.fa", 2u * i + 1, "p"});
  EXPECT_NE(error_of([&] { check_counts(r, OwnTask::binary, "training data"); }, "p.fa", 49)
                .find("one class only"),
            std::string::npos);
  for (int i = 0; i < 19; ++i) r.push_back({"C" + std::to_string(i), 0, "n.fa", 2u * i + 1, "n"});
  EXPECT_NE(error_of([&] { check_counts(r, OwnTask::binary, "training data"); }, "n.fa", 37)
                .find("only 19 negative"),
            std::string::npos);
  r.push_back({"C19", 0, "n.fa", 39, "n"});
  EXPECT_NO_THROW(check_counts(r, OwnTask::binary, "training data"));
}

TEST_F(OwnData, RandomSplitIsStratifiedSeededAndOrderFree) {
  std::vector<OwnRecord> r;
  for (int i = 0; i < 300; ++i) r.push_back({"S" + std::to_string(i), i < 60 ? 1.0 : 0.0});
  const auto held = random_split(r, OwnTask::binary, 0.2, 7);
  std::size_t pos = 0, neg = 0;
  std::set<std::string> chosen;
  for (std::size_t i = 0; i < r.size(); ++i)
    if (held[i]) {
      (r[i].value > 0.5 ? pos : neg)++;
      chosen.insert(r[i].sequence);
    }
  EXPECT_EQ(pos, 12u);  // 20 % of each class
  EXPECT_EQ(neg, 48u);
  // The same records whatever their order; another seed picks others.
  auto reversed = r;
  std::reverse(reversed.begin(), reversed.end());
  const auto held2 = random_split(reversed, OwnTask::binary, 0.2, 7);
  for (std::size_t i = 0; i < r.size(); ++i)
    EXPECT_EQ(held2[i], chosen.count(reversed[i].sequence) == 1);
  EXPECT_NE(random_split(r, OwnTask::binary, 0.2, 8), held);
}

TEST_F(OwnData, ClusterSplitKeepsClustersWhole) {
  std::vector<OwnRecord> r;
  std::vector<std::size_t> cluster;
  for (int i = 0; i < 400; ++i) {
    r.push_back({"P" + std::to_string(i), i % 4 == 0 ? 1.0 : 0.0});
    cluster.push_back(static_cast<std::size_t>(i / 5));  // clusters of 5, mixed classes
  }
  const auto held = cluster_split(r, cluster, OwnTask::binary, 0.1, 1);
  std::map<std::size_t, std::set<bool>> sides;
  std::size_t n = 0, pos = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    sides[cluster[i]].insert(held[i]);
    if (held[i]) ++n, pos += r[i].value > 0.5;
  }
  for (const auto& [c, s] : sides) EXPECT_EQ(s.size(), 1u) << "cluster " << c << " split";
  EXPECT_GE(pos, 10u);  // 10 % of 100 positives
  EXPECT_GE(n, 40u);
  EXPECT_LE(n, 60u);
}

}  // namespace
}  // namespace gsflow::app
