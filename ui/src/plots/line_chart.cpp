// LineChart: named series as 2 px polylines over shared x and y axes, with nice ticks, a light
// grid, a legend for several series and an optional dashed vertical marker.
#include "gsflow/ui/plots/line_chart.hpp"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <limits>

namespace gsflow::ui {

namespace {

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  bool valid() const { return lo <= hi; }
  void add(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  // A little room around the data so lines do not run along the axes.
  Range padded(double fraction) const {
    double span = hi - lo;
    if (span <= 0) span = std::max(1.0, std::abs(lo) * 0.2);
    return {lo - span * fraction, hi + span * fraction};
  }
};

}  // namespace

LineChart::LineChart(QWidget* parent) : PlotWidget(parent) {}

void LineChart::setTitle(const QString& title) {
  title_ = title;
  update();
}

void LineChart::setAxisTitles(const QString& x, const QString& y) {
  xTitle_ = x;
  yTitle_ = y;
  update();
}

void LineChart::setSeries(const QVector<ChartSeries>& series) {
  series_ = series;
  update();
}

void LineChart::setMarker(std::optional<double> x) {
  marker_ = x;
  update();
}

QColor LineChart::paletteColor(int index) {
  // Okabe & Ito (2008), "Color Universal Design": distinguishable with common colour blindness.
  // Yellow comes last: it is the hardest to see on white.
  static const QColor palette[] = {QColor(0x00, 0x72, 0xB2), QColor(0xD5, 0x5E, 0x00),
                                   QColor(0x00, 0x9E, 0x73), QColor(0xE6, 0x9F, 0x00),
                                   QColor(0x56, 0xB4, 0xE9), QColor(0xCC, 0x79, 0xA7),
                                   QColor(0x00, 0x00, 0x00), QColor(0xF0, 0xE4, 0x42)};
  constexpr int n = int(std::size(palette));
  return palette[((index % n) + n) % n];
}

QString LineChart::plotName() const {
  const QString name = title_.simplified().toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
  return name.isEmpty() ? QStringLiteral("chart") : name;
}

QSize LineChart::sizeHint() const { return QSize(560, 360); }

void LineChart::paintPlot(QPainter& painter, const QRectF& rect) const {
  beginPlot(painter, rect);
  QRectF rest = drawTitle(painter, rect, title_);
  Range xs, ys;
  for (const ChartSeries& s : series_) {
    for (const QPointF& p : s.points) {
      if (std::isfinite(p.x()) && std::isfinite(p.y())) {
        xs.add(p.x());
        ys.add(p.y());
      }
    }
  }
  if (!xs.valid()) {
    drawMessage(painter, rest, tr("no data"));
    painter.restore();
    return;
  }

  if (series_.size() > 1) {
    QVector<LegendEntry> entries;
    for (int i = 0; i < series_.size(); ++i)
      entries.push_back(
          {series_[i].name, series_[i].color.isValid() ? series_[i].color : paletteColor(i)});
    const qreal height = drawLegend(painter, rest, entries);
    rest.adjust(0, height + padding(painter) * 0.5, 0, 0);
  }

  const QFontMetricsF fm(painter.font(), painter.device());
  const Range x = xs.hi > xs.lo ? xs.padded(0.02) : xs.padded(0.5);
  const Range y = ys.padded(0.05);
  // Tick counts follow the space: about one per 3 text heights vertically.
  const qreal roughHeight = rest.height() - 3 * fm.height();
  const QVector<Tick> yTicks =
      niceTicks(y.lo, y.hi, std::max(2, int(roughHeight / (fm.height() * 3))));
  const QRectF plot =
      plotArea(painter, rest, widestLabel(painter, yTicks), !yTitle_.isEmpty(), !xTitle_.isEmpty());
  if (plot.width() < 10 || plot.height() < 10) {
    painter.restore();
    return;
  }
  QVector<Tick> xTicks = niceTicks(x.lo, x.hi, 8);
  for (int target = 7;
       target >= 2 && widestLabel(painter, xTicks) * 1.8 * xTicks.size() > plot.width(); --target)
    xTicks = niceTicks(x.lo, x.hi, target);

  drawYAxis(painter, plot, y.lo, y.hi, yTicks, true, yTitle_);
  drawXAxis(painter, plot, x.lo, x.hi, xTicks, true, xTitle_);

  auto map = [&](const QPointF& p) {
    return QPointF(plot.left() + (p.x() - x.lo) / (x.hi - x.lo) * plot.width(),
                   plot.bottom() - (p.y() - y.lo) / (y.hi - y.lo) * plot.height());
  };
  painter.save();
  painter.setClipRect(plot.adjusted(-2, -2, 2, 2));
  for (int i = 0; i < series_.size(); ++i) {
    const QColor color = series_[i].color.isValid() ? series_[i].color : paletteColor(i);
    QPainterPath path;
    bool penDown = false;
    for (const QPointF& p : series_[i].points) {
      // A non-finite value breaks the line rather than dragging it to an edge.
      if (!std::isfinite(p.x()) || !std::isfinite(p.y())) {
        penDown = false;
        continue;
      }
      if (penDown)
        path.lineTo(map(p));
      else
        path.moveTo(map(p));
      penDown = true;
    }
    painter.setPen(QPen(color, 2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(path);
    if (series_[i].points.size() == 1) {  // a lone point would otherwise be invisible
      painter.setBrush(color);
      painter.drawEllipse(map(series_[i].points.front()), 2.5, 2.5);
    }
  }
  if (marker_ && std::isfinite(*marker_) && *marker_ >= x.lo && *marker_ <= x.hi) {
    const qreal mx = map(QPointF(*marker_, y.lo)).x();
    painter.setPen(QPen(QColor(60, 60, 60), 1.5, Qt::DashLine));
    painter.drawLine(QPointF(mx, plot.top()), QPointF(mx, plot.bottom()));
  }
  painter.restore();
  painter.restore();
}

}  // namespace gsflow::ui
