// Line chart of one or more named series over a shared x axis (entropy over time, guidance
// scores over steps), with axis ticks and titles, a legend and an optional vertical marker (the
// trajectory slider's current time).
#pragma once

#include <QColor>
#include <QPointF>
#include <QString>
#include <QVector>
#include <optional>

#include "gsflow/ui/plots/plot_widget.hpp"

namespace gsflow::ui {

struct ChartSeries {
  QString name;
  QVector<QPointF> points;  // in x order
  QColor color;             // invalid = the chart's palette colour for this series' index
};

class LineChart : public PlotWidget {
  Q_OBJECT

 public:
  explicit LineChart(QWidget* parent = nullptr);

  void setTitle(const QString& title);
  void setAxisTitles(const QString& x, const QString& y);
  void setSeries(const QVector<ChartSeries>& series);  // replaces all; empty = "no data"
  void setMarker(std::optional<double> x);             // vertical line at x (nullopt = none)
  const QVector<ChartSeries>& series() const { return series_; }

  // The colour of series `index` when it has none of its own (a fixed, colour-blind-safe palette).
  static QColor paletteColor(int index);

  void paintPlot(QPainter& painter, const QRectF& rect) const override;
  QString plotName() const override;  // the title in lower case with '-' for spaces, or "chart"
  QSize sizeHint() const override;

 private:
  QString title_, xTitle_, yTitle_;
  QVector<ChartSeries> series_;
  std::optional<double> marker_;
};

}  // namespace gsflow::ui
