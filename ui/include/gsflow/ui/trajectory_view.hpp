// The trajectory view: for one chosen sequence, the heatmap of per-position letter probabilities
// at a chosen frame (a time slider and a play button), the sequence's mean per-position entropy
// over time, and the guidance score curves over steps. Fed live from a run's frames or with a
// stored run's frames; it only keeps what it is handed. Hovering the heatmap tells a position's
// letter probabilities and final letter; the final sequence's letters show below it, with the
// positions the design fixed and the letters edited from a start sequence marked (also above the
// heatmap). A range the user drags across can be locked into the next run's template (the main
// window does the locking). Sequences are numbered from 1 here, as FASTA records are.
#pragma once

#include <QWidget>
#include <map>
#include <vector>

#include "gsflow/pipeline/design.hpp"
#include "gsflow/storage/records.hpp"

class QAction;
class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QTimer;

namespace gsflow::ui {

// The positions the design fixes in sequence `sequence` of `length` letters: its template (when
// it has that length) with the fixed motifs applied. Empty when nothing is fixed or the design
// cannot be resolved (then the run reported why).
QVector<bool> fixedPositions(const pipeline::DesignOptions& design, const QString& alphabet,
                             std::size_t sequence, std::size_t length);

class HeatmapView;
class LineChart;
class SequenceText;

class TrajectoryView : public QWidget {
  Q_OBJECT

 public:
  explicit TrajectoryView(QWidget* parent = nullptr);

  // Forgets everything; `letters` is the alphabet's letters ("ACGT", ...), `sequences` how many
  // the run makes (the sequence chooser's range).
  void reset(const QString& letters, int sequences);
  // A frame of any sequence (live, in step order); frames of the shown sequence update the view.
  void addFrame(const storage::FrameRecord& frame);
  // All frames of one sequence (a stored run), replacing what was held for it; none = not held.
  void setFrames(std::size_t sequence, std::vector<storage::FrameRecord> frames);
  // Per-step mean objective scores (batches are averaged per step).
  void addStepScores(const std::vector<storage::StepScore>& scores);
  // The run's design and alphabet ("dna", "protein"), to mark its fixed positions; reset()
  // forgets them.
  void setDesign(const pipeline::DesignOptions& design, const QString& alphabet);
  // The run's name (the final sequence's FASTA id); reset() forgets it.
  void setRunName(const QString& run);
  // Finished sequences (a batch, or a stored run's): their final letters.
  void addSequences(const std::vector<storage::SequenceRecord>& sequences);
  // The final letters of `sequence` ("" until its batch is done).
  QString finalSequence(std::size_t sequence) const;

  std::size_t currentSequence() const;
  void setCurrentSequence(std::size_t sequence);
  int frameCount() const;  // frames held for the current sequence
  int currentFrame() const;
  void setCurrentFrame(int index);
  bool hasFrames(std::size_t sequence) const;
  bool isPlaying() const;

  HeatmapView* heatmap() const { return heatmap_; }
  LineChart* entropyChart() const { return entropy_; }
  LineChart* scoreChart() const { return scores_; }
  SequenceText* sequenceText() const { return text_; }
  QLabel* sequenceLabel() const { return textLabel_; }
  // Asks for the selected positions of the shown sequence to be locked (lockRequested).
  QAction* lockAction() const { return lock_; }

 signals:
  // The user chose a sequence whose frames the view does not hold (load them from the store).
  void framesWanted(std::size_t sequence);
  // Lock selection: keep `sequence`'s letters at positions first..last (0-based) in the next run.
  void lockRequested(std::size_t sequence, int first, int last);

 public slots:
  void play(bool on);

 private:
  void showFrame();
  void updateEntropy();
  void updateScores();
  void updateSelection();
  void updateSequenceText();
  // The positions of `sequence` that the design fixed / that differ from its start sequence.
  QVector<bool> fixedOf(std::size_t sequence, std::size_t length) const;
  QString startOf(std::size_t sequence, std::size_t length) const;
  const std::vector<storage::FrameRecord>* currentFrames() const;

  QString letters_;
  std::map<std::size_t, std::vector<storage::FrameRecord>> frames_;  // by sequence, by step
  std::map<std::string, std::map<int, std::pair<double, int>>> scoreSums_;  // objective, step
  HeatmapView* heatmap_;
  LineChart* entropy_;
  LineChart* scores_;
  QSpinBox* sequence_;
  QComboBox* which_;  // state x or prediction x̂
  QSlider* slider_;
  QPushButton* play_;
  QLabel* time_;
  QLabel* selection_;
  QLabel* textLabel_;
  SequenceText* text_;
  std::map<std::size_t, QString> finals_;  // final letters by sequence
  QString run_;
  QAction* lock_;
  QTimer* timer_;
  pipeline::DesignOptions design_;
  QString alphabet_;
  bool followLive_ = true;  // the slider follows new frames until the user moves it
};

}  // namespace gsflow::ui
