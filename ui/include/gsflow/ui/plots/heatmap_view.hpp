// Trajectory heatmap: the per-position letter probabilities of one sequence at one time
// (positions across, letters down), white (0) to dark blue (1), with letter labels, a position
// axis and a colour bar; an orange bar above the positions a design fixed; a range of positions
// the user selects by dragging across the columns; and, hovering a column, a tooltip with the
// position, its letter probabilities in the frame shown and the sequence's final letter there.
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

  // Positions fixed by the run's design (one flag per position; empty = none), drawn as an orange
  // bar above their columns. Kept until changed (frames of the same sequence share them).
  void setFixedPositions(const QVector<bool>& fixed);
  QVector<bool> fixedPositions() const { return fixed_; }
  static QColor fixedColor();

  // For the hover tooltip: the frame's place in the trajectory ("step 10 of 20 (t = 0.500),
  // state"), the sequence's final letters ("" while its batch runs) and the start sequence it
  // was edited from ("" when none). Kept until changed.
  void setFrameLabel(const QString& label);
  void setFinalSequence(const QString& letters);
  void setStartSequence(const QString& letters);
  // The tooltip of position `position` (0-based): "Position 17 of 256", the frame label, the
  // letters by probability (those under 0.01 summed), and the final letter with what the design
  // did there (fixed, or edited from the start letter). "" outside the frame.
  QString positionToolTip(int position) const;

  // The selected positions (0-based, first <= last), or {-1, -1} for none. The user selects by
  // pressing on a column and dragging; a press outside the cells clears it. A frame of another
  // length clears it.
  QPair<int, int> selection() const { return {selFirst_, selLast_}; }
  bool hasSelection() const { return selFirst_ >= 0; }
  void setSelection(int first, int last);
  void clearSelection() { setSelection(-1, -1); }
  // On screen, after the widget has painted: the position under `point` (-1 outside the cells)
  // and the centre of a position's column in widget coordinates (null before the first paint).
  int positionAt(const QPoint& point) const;
  QPoint columnCenter(int position) const;

  int length() const;
  // Probability shown at (position, letter), for tests; -1 when out of range or empty.
  float probabilityAt(int position, int letter) const;
  // The colour drawn for probability p (tests compare pixels of grab() with it).
  static QColor colorFor(float p);

  void paintPlot(QPainter& painter, const QRectF& rect) const override;
  QString plotName() const override { return QStringLiteral("heatmap"); }
  QSize sizeHint() const override;

 signals:
  void selectionChanged(int first, int last);

 protected:
  bool event(QEvent* event) override;
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;

 private:
  QVector<bool> fixed_;
  QString frameLabel_, final_, start_;
  int selFirst_ = -1, selLast_ = -1, anchor_ = -1;
  bool dragging_ = false;
  // Geometry of the cells as last painted on screen (mouse positions map through it).
  mutable bool onScreen_ = false;
  mutable QRectF screenCells_;
  QVector<float> probabilities_;
  int length_ = 0;
  QString letters_, title_;
};

}  // namespace gsflow::ui
