// Side-by-side comparison of two stored runs: the distribution of a chosen score in each (overlaid
// histograms) and their k-mer composition (grouped bars). A reopened run is compared with the run
// before it (compareRun).
#pragma once

#include <QWidget>
#include <cstdint>
#include <functional>
#include <vector>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/storage/records.hpp"

class QComboBox;
class QLabel;
class QSpinBox;

namespace gsflow::ui {

class BarChart;
class HistogramChart;

class CompareView : public QWidget {
  Q_OBJECT

 public:
  // Reads a run's sequences (from the store); may throw (shown in the view's message line).
  using Loader = std::function<std::vector<storage::SequenceRecord>(std::int64_t run)>;

  explicit CompareView(QWidget* parent = nullptr);

  void setLoader(Loader loader) { loader_ = std::move(loader); }
  // The runs to choose from (keeps the chosen ones when still present).
  void setRuns(const std::vector<storage::RunInfo>& runs);
  // Chooses the two runs to compare and redraws.
  void compare(std::int64_t left, std::int64_t right);
  // Compares run `run` (as Run B) with the run it is best read against (as Run A): the latest
  // run made before it with the same model, else with the same alphabet, else any earlier run;
  // when it is the first, the earliest run after it chosen the same way. Alone in the store, it
  // is compared with itself. False when `run` is not among the runs.
  bool compareRun(std::int64_t run);
  std::int64_t leftRun() const;
  std::int64_t rightRun() const;
  void setScore(const QString& score);

  HistogramChart* histogram() const { return histogram_; }
  BarChart* bars() const { return bars_; }

 private:
  void update();

  Loader loader_;
  std::vector<storage::RunInfo> runs_;
  QComboBox *left_, *right_, *score_;
  QSpinBox* k_;
  QLabel* message_;
  HistogramChart* histogram_;
  BarChart* bars_;
  bool updating_ = false;
};

// Frequencies of the K^k k-mers (engine::kmer_counts order: the first letter is the most
// significant digit) over every window of the sequences; all zero when none is k long. Throws
// engine::InputError for a letter outside the alphabet.
std::vector<double> kmerFrequencies(const std::vector<storage::SequenceRecord>& sequences,
                                    const engine::Alphabet& alphabet, int k);

}  // namespace gsflow::ui
