// The trajectory view: for one chosen sequence, the heatmap of per-position letter probabilities
// at a chosen frame (a time slider and a play button), the sequence's mean per-position entropy
// over time, and the guidance score curves over steps. Fed live from a run's frames or with a
// stored run's frames; it only keeps what it is handed.
#pragma once

#include <QWidget>
#include <map>
#include <vector>

#include "gsflow/storage/records.hpp"

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QTimer;

namespace gsflow::ui {

class HeatmapView;
class LineChart;

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

 signals:
  // The user chose a sequence whose frames the view does not hold (load them from the store).
  void framesWanted(std::size_t sequence);

 public slots:
  void play(bool on);

 private:
  void showFrame();
  void updateEntropy();
  void updateScores();
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
  QTimer* timer_;
  bool followLive_ = true;  // the slider follows new frames until the user moves it
};

}  // namespace gsflow::ui
