// Sequence logo of a set of equal-or-unequal length sequences (Schneider & Stephens 1990): at
// each position the letters are stacked, most frequent on top, each as tall as its frequency
// times the position's information content log2(K) - H (bits), with a bits axis. Long logos
// (256-bp promoters) zoom: with a width per position the logo shows the window of positions
// that fits, from a first position a scroll bar or the wheel moves (the axes stay), and the bits
// axis can end at the tallest stack instead of log2(K), so that the 0.1-bit stacks of a few
// hundred designs are letters, not a flat line (issue 41).
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

  // Pixels per position (0 = every position in the width). With a width, the positions from
  // firstPosition() (0-based) that fit are drawn; windowPositions() says how many fit the
  // widget's width, at least (the window is kept inside the sequence, so its end is reachable).
  void setColumnWidth(int pixels);
  int columnWidth() const { return columnWidth_; }
  void setFirstPosition(int first);
  int firstPosition() const { return first_; }
  int windowPositions() const;
  // The bits axis ends at the tallest stack (rounded up to a tick) instead of log2(K).
  void setFitBits(bool fit);
  bool fitBits() const { return fitBits_; }
  // The top of the bits axis as drawn.
  double axisBits() const;

  int positions() const;
  // Frequency of letter `letter` at `position` and the position's information content in bits
  // (log2 K minus the Shannon entropy of the frequencies), for tests.
  double frequency(int position, int letter) const;
  double information(int position) const;

  void paintPlot(QPainter& painter, const QRectF& rect) const override;
  QString plotName() const override { return QStringLiteral("logo"); }
  QSize sizeHint() const override;  // ~12 px per position so a scroll area can show long logos

 signals:
  // The window of positions moved or changed size (scroll bars follow it).
  void windowChanged();

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  int columnWidth_ = 0;
  int first_ = 0;
  bool fitBits_ = false;
  QString letters_;
  QVector<QVector<double>> frequencies_;  // [position][letter]
  QVector<double> information_;
};

}  // namespace gsflow::ui
