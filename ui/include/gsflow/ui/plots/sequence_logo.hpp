// Sequence logo of a set of equal-or-unequal length sequences (Schneider & Stephens 1990): at
// each position the letters are stacked, most frequent on top, each as tall as its frequency
// times the position's information content log2(K) - H (bits), with a bits axis.
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

#include "gsflow/ui/plots/plot_widget.hpp"

namespace gsflow::ui {

class SequenceLogo : public PlotWidget {
  Q_OBJECT

 public:
  explicit SequenceLogo(QWidget* parent = nullptr);

  // letters: the alphabet ("ACGT" or the 20 amino acids); sequences may differ in length
  // (position i counts the sequences that reach it). Letters outside `letters` are ignored.
  void setSequences(const QStringList& sequences, const QString& letters);
  void clear();

  int positions() const;
  // Frequency of letter `letter` at `position` and the position's information content in bits
  // (log2 K minus the Shannon entropy of the frequencies), for tests.
  double frequency(int position, int letter) const;
  double information(int position) const;

  void paintPlot(QPainter& painter, const QRectF& rect) const override;
  QString plotName() const override { return QStringLiteral("logo"); }
  QSize sizeHint() const override;  // ~12 px per position so a scroll area can show long logos

 private:
  QString letters_;
  QVector<QVector<double>> frequencies_;  // [position][letter]
  QVector<double> information_;
};

}  // namespace gsflow::ui
