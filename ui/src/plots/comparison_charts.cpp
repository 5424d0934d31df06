// Run comparison charts: overlaid step histograms of fractions on shared bins (HistogramChart)
// and grouped bars per category (BarChart), both with the Okabe-Ito palette of LineChart.
#include "gsflow/ui/plots/comparison_charts.hpp"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "gsflow/ui/plots/line_chart.hpp"

namespace gsflow::ui {

namespace {

QVector<double> finiteSorted(const QVector<double>& values) {
  QVector<double> out;
  for (double v : values)
    if (std::isfinite(v)) out.push_back(v);
  std::sort(out.begin(), out.end());
  return out;
}

double median(const QVector<double>& sorted) {
  if (sorted.isEmpty()) return std::nan("");
  const qsizetype m = sorted.size() / 2;
  return sorted.size() % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
}

}  // namespace

// ---- HistogramChart ----

HistogramChart::HistogramChart(QWidget* parent) : PlotWidget(parent) {}

void HistogramChart::setTitle(const QString& title) {
  title_ = title;
  update();
}

void HistogramChart::setXTitle(const QString& title) {
  xTitle_ = title;
  update();
}

void HistogramChart::setSamples(const QVector<NamedValues>& sets, int bins) {
  sets_ = sets;
  edges_.clear();
  fractions_.clear();
  bins = std::max(1, bins);
  double lo = INFINITY, hi = -INFINITY;
  for (const NamedValues& set : sets)
    for (double v : set.values)
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (lo <= hi) {
    if (lo == hi) lo -= 0.5, hi += 0.5;  // one distinct value still gets a visible bin
    for (int i = 0; i <= bins; ++i) edges_.push_back(i == bins ? hi : lo + (hi - lo) * i / bins);
  }
  for (const NamedValues& set : sets) {
    QVector<double> f(edges_.isEmpty() ? 0 : bins, 0.0);
    const QVector<double> values = finiteSorted(set.values);
    for (double v : values) {
      // Bins are [lo, hi) except the last, which also takes the maximum.
      const int b = std::min(bins - 1, int(std::floor((v - lo) / (hi - lo) * bins)));
      f[std::max(0, b)] += 1.0 / values.size();
    }
    fractions_.push_back(f);
  }
  update();
}

QVector<double> HistogramChart::binEdges() const { return edges_; }

QVector<double> HistogramChart::fractions(int set) const {
  return set >= 0 && set < fractions_.size() ? fractions_[set] : QVector<double>{};
}

QSize HistogramChart::sizeHint() const { return QSize(560, 360); }

void HistogramChart::paintPlot(QPainter& painter, const QRectF& rect) const {
  beginPlot(painter, rect);
  QRectF rest = drawTitle(painter, rect, title_);
  double top = 0;
  for (const QVector<double>& f : fractions_)
    for (double v : f) top = std::max(top, v);
  if (edges_.size() < 2 || top <= 0) {
    drawMessage(painter, rest, tr("no data"));
    painter.restore();
    return;
  }
  QVector<LegendEntry> entries;
  for (int i = 0; i < sets_.size(); ++i) {
    const QVector<double> values = finiteSorted(sets_[i].values);
    const QString label = values.isEmpty() ? tr("%1 (n = 0)").arg(sets_[i].name)
                                           : tr("%1 (n = %2, median %3)")
                                                 .arg(sets_[i].name)
                                                 .arg(values.size())
                                                 .arg(QString::number(median(values), 'g', 3));
    entries.push_back({label, LineChart::paletteColor(i)});
  }
  rest.adjust(0, drawLegend(painter, rest, entries) + padding(painter) * 0.5, 0, 0);

  const QFontMetricsF fm(painter.font(), painter.device());
  const double xLo = edges_.front(), xHi = edges_.back(), yHi = top * 1.08;
  const QVector<Tick> yTicks =
      niceTicks(0, yHi, std::max(2, int((rest.height() - 3 * fm.height()) / (fm.height() * 3))));
  const QRectF plot =
      plotArea(painter, rest, widestLabel(painter, yTicks), true, !xTitle_.isEmpty());
  if (plot.width() < 10 || plot.height() < 10) {
    painter.restore();
    return;
  }
  QVector<Tick> xTicks = niceTicks(xLo, xHi, 8);
  for (int target = 7;
       target >= 2 && widestLabel(painter, xTicks) * 1.8 * xTicks.size() > plot.width(); --target)
    xTicks = niceTicks(xLo, xHi, target);
  drawYAxis(painter, plot, 0, yHi, yTicks, true, tr("fraction"));
  drawXAxis(painter, plot, xLo, xHi, xTicks, false, xTitle_);

  auto map = [&](double x, double y) {
    return QPointF(plot.left() + (x - xLo) / (xHi - xLo) * plot.width(),
                   plot.bottom() - y / yHi * plot.height());
  };
  painter.save();
  for (int s = 0; s < fractions_.size(); ++s) {
    const QVector<double>& f = fractions_[s];
    if (f.isEmpty()) continue;
    QPainterPath path(map(xLo, 0));
    for (int b = 0; b < f.size(); ++b) {
      path.lineTo(map(edges_[b], f[b]));
      path.lineTo(map(edges_[b + 1], f[b]));
    }
    path.lineTo(map(xHi, 0));
    QColor fill = LineChart::paletteColor(s);
    // Translucent fills keep every run visible where the histograms overlap.
    fill.setAlpha(55);
    painter.setPen(Qt::NoPen);
    painter.setBrush(fill);
    painter.drawPath(path);
    painter.setPen(QPen(LineChart::paletteColor(s), 2, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(path);
  }
  painter.restore();
  painter.restore();
}

// ---- BarChart ----

BarChart::BarChart(QWidget* parent) : PlotWidget(parent) {}

void BarChart::setTitle(const QString& title) {
  title_ = title;
  update();
}

void BarChart::setYTitle(const QString& title) {
  yTitle_ = title;
  update();
}

void BarChart::setBars(const QStringList& categories, const QVector<NamedValues>& sets) {
  categories_ = categories;
  sets_.clear();
  for (const NamedValues& set : sets)
    if (set.values.size() == categories.size()) sets_.push_back(set);
  update();
}

QSize BarChart::sizeHint() const {
  // Wider with more bars, up to a width that fits a dialog; beyond it labels turn.
  const qsizetype bars = categories_.size() * std::max<qsizetype>(1, sets_.size());
  return QSize(int(std::clamp<qsizetype>(bars * 10 + 120, 480, 960)), 360);
}

void BarChart::paintPlot(QPainter& painter, const QRectF& rect) const {
  beginPlot(painter, rect);
  QRectF rest = drawTitle(painter, rect, title_);
  if (categories_.isEmpty() || sets_.isEmpty()) {
    drawMessage(painter, rest, tr("no data"));
    painter.restore();
    return;
  }
  if (sets_.size() > 1) {
    QVector<LegendEntry> entries;
    for (int i = 0; i < sets_.size(); ++i)
      entries.push_back({sets_[i].name, LineChart::paletteColor(i)});
    rest.adjust(0, drawLegend(painter, rest, entries) + padding(painter) * 0.5, 0, 0);
  }
  const QFontMetricsF fm(painter.font(), painter.device());
  double lo = 0, hi = 0;
  for (const NamedValues& set : sets_)
    for (double v : set.values)
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (hi == lo) hi = lo + 1;
  // Headroom above the tallest bar (and below the lowest negative one) for a light look.
  hi = hi > 0 ? hi * 1.05 : hi;
  lo = lo < 0 ? lo * 1.05 : lo;

  qreal widest = 0;
  for (const QString& c : categories_) widest = std::max(widest, fm.horizontalAdvance(c));
  const QVector<Tick> yTicks =
      niceTicks(lo, hi, std::max(2, int((rest.height() - 4 * fm.height()) / (fm.height() * 3))));
  const qreal yLabels = widestLabel(painter, yTicks);
  const QRectF flat = plotArea(painter, rest, yLabels, !yTitle_.isEmpty(), false);
  const qreal group = flat.width() / categories_.size();
  // Labels turn 45 degrees once they would not fit side by side, 90 degrees (and thin out to
  // every n-th) once even slanted ones would touch.
  const int angle = widest <= group * 0.9 ? 0 : group >= fm.height() * 1.5 ? 45 : 90;
  const int labelStep = angle == 90 ? std::max(1, int(std::ceil(fm.height() * 1.05 / group))) : 1;
  const qreal labelHeight = angle == 0    ? fm.height()
                            : angle == 45 ? (widest + fm.height()) / std::numbers::sqrt2
                                          : widest + 2;
  const QRectF plot = plotArea(painter, rest, yLabels, !yTitle_.isEmpty(), false, labelHeight);
  if (plot.width() < 10 || plot.height() < 10) {
    painter.restore();
    return;
  }
  drawYAxis(painter, plot, lo, hi, yTicks, true, yTitle_);
  drawXAxis(painter, plot, 0, 1, {}, false, {});

  auto yAt = [&](double v) { return plot.bottom() - (v - lo) / (hi - lo) * plot.height(); };
  const qreal barWidth = group * 0.8 / sets_.size();
  const qreal gap = std::round(fm.height() * 0.3);
  painter.save();
  for (int c = 0; c < categories_.size(); ++c) {
    const qreal left = plot.left() + c * group + group * 0.1;
    for (int s = 0; s < sets_.size(); ++s) {
      const double v = sets_[s].values[c];
      if (!std::isfinite(v)) continue;
      const QRectF bar(QPointF(left + s * barWidth, yAt(std::max(v, 0.0))),
                       QPointF(left + (s + 1) * barWidth, yAt(std::min(v, 0.0))));
      painter.setPen(barWidth >= 6 ? QPen(Qt::white, 0.75) : QPen(Qt::NoPen));
      painter.setBrush(LineChart::paletteColor(s));
      painter.drawRect(bar);
    }
    if (c % labelStep != 0) continue;
    const qreal x = plot.left() + (c + 0.5) * group;
    const qreal y = plot.bottom() + 4 + gap;
    painter.setPen(kTextColor);
    if (angle == 45) {
      // The label's end sits under its group, the text running down to the left.
      painter.save();
      painter.translate(x + fm.height() * 0.3, y);
      painter.rotate(-45);
      painter.drawText(QRectF(-widest - 2, -fm.height(), widest, fm.height()),
                       Qt::AlignRight | Qt::AlignVCenter, categories_[c]);
      painter.restore();
    } else if (angle == 90) {
      painter.save();
      painter.translate(x, y);
      painter.rotate(-90);
      painter.drawText(QRectF(-widest, -fm.height() / 2, widest, fm.height()),
                       Qt::AlignRight | Qt::AlignVCenter, categories_[c]);
      painter.restore();
    } else {
      painter.drawText(QRectF(x - group / 2, y, group, fm.height()),
                       Qt::AlignHCenter | Qt::AlignTop, categories_[c]);
    }
  }
  if (lo < 0) {
    painter.setPen(QPen(kAxisColor, 1));
    painter.drawLine(QPointF(plot.left(), yAt(0)), QPointF(plot.right(), yAt(0)));
  }
  painter.restore();
  painter.restore();
}

}  // namespace gsflow::ui
