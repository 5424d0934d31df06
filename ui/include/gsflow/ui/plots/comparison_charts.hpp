// The two charts of the run comparison: overlaid histograms of a score for several runs (shared
// bins), and grouped bars of k-mer frequencies for several runs.
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

#include "gsflow/ui/plots/plot_widget.hpp"

namespace gsflow::ui {

struct NamedValues {
  QString name;            // e.g. the run name
  QVector<double> values;  // histogram: samples; bar chart: one value per category
};

class HistogramChart : public PlotWidget {
  Q_OBJECT

 public:
  explicit HistogramChart(QWidget* parent = nullptr);

  void setTitle(const QString& title);
  void setXTitle(const QString& title);
  // Each set is binned on the same `bins` equal-width bins spanning the min..max of all values,
  // drawn as a semi-transparent outline-and-fill step histogram of fractions (so runs of different
  // sizes compare), with a legend giving each set's name, n and median.
  void setSamples(const QVector<NamedValues>& sets, int bins = 30);
  // Bin edges (bins + 1) and each set's fractions per bin, for tests.
  QVector<double> binEdges() const;
  QVector<double> fractions(int set) const;

  void paintPlot(QPainter& painter, const QRectF& rect) const override;
  QString plotName() const override { return QStringLiteral("score-histogram"); }
  QSize sizeHint() const override;

 private:
  QString title_, xTitle_;
  QVector<NamedValues> sets_;
  QVector<double> edges_;
  QVector<QVector<double>> fractions_;
};

class BarChart : public PlotWidget {
  Q_OBJECT

 public:
  explicit BarChart(QWidget* parent = nullptr);

  void setTitle(const QString& title);
  void setYTitle(const QString& title);
  // categories: x labels (e.g. the 16 dinucleotides); each set holds one value per category
  // (a set with another count is ignored). Bars of the sets stand side by side per category.
  void setBars(const QStringList& categories, const QVector<NamedValues>& sets);

  void paintPlot(QPainter& painter, const QRectF& rect) const override;
  QString plotName() const override { return QStringLiteral("kmer-bars"); }
  QSize sizeHint() const override;

 private:
  QString title_, yTitle_;
  QStringList categories_;
  QVector<NamedValues> sets_;
};

}  // namespace gsflow::ui
