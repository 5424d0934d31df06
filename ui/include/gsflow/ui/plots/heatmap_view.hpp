// Trajectory heatmap: the per-position letter probabilities of one sequence at one time
// (positions across, letters down), white (0) to dark blue (1), with letter labels, a position
// axis and a colour bar.
#pragma once

#include <QString>
#include <QVector>

#include "gsflow/ui/plots/plot_widget.hpp"

namespace gsflow::ui {

class HeatmapView : public PlotWidget {
  Q_OBJECT

 public:
  explicit HeatmapView(QWidget* parent = nullptr);

  // probabilities: row-major [length * letters.size()], rows of one position summing to ~1.
  // letters: one character per letter ("ACGT", 20 amino acids). title: e.g. "sequence 3, t = 0.42".
  // A size mismatch clears the plot (nothing drawn but the message "no frame").
  void setFrame(const QVector<float>& probabilities, int length, const QString& letters,
                const QString& title);
  void clear();

  int length() const;
  // Probability shown at (position, letter), for tests; -1 when out of range or empty.
  float probabilityAt(int position, int letter) const;
  // The colour drawn for probability p (tests compare pixels of grab() with it).
  static QColor colorFor(float p);

  void paintPlot(QPainter& painter, const QRectF& rect) const override;
  QString plotName() const override { return QStringLiteral("heatmap"); }
  QSize sizeHint() const override;

 private:
  QVector<float> probabilities_;
  int length_ = 0;
  QString letters_, title_;
};

}  // namespace gsflow::ui
