// PlotWidget: on-screen painting and PNG/SVG export through the one paintPlot(), plus the axis,
// tick, title and legend helpers every plot shares.
#include "gsflow/ui/plots/plot_widget.hpp"

#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>

namespace gsflow::ui {

namespace {

constexpr qreal kTickLength = 4.0;

QFontMetricsF metrics(const QPainter& painter) {
  return QFontMetricsF(painter.font(), painter.device());
}

// Gap between a label and what it labels, from the font so it scales with DPI and font size.
qreal gap(const QPainter& painter) { return std::round(metrics(painter).height() * 0.3); }

QFont titleFont(QFont font) {
  font.setBold(true);
  if (font.pointSizeF() > 0)
    font.setPointSizeF(font.pointSizeF() * 1.15);
  else
    font.setPixelSize(std::max(1, int(std::lround(font.pixelSize() * 1.15))));
  return font;
}

// A true minus sign: the hyphen looks short next to digits.
QString withMinusSign(QString label) {
  if (label.startsWith(QLatin1Char('-'))) label.replace(0, 1, QChar(0x2212));
  return label;
}

}  // namespace

const QColor PlotWidget::kTextColor(34, 34, 34);
const QColor PlotWidget::kAxisColor(90, 90, 90);
const QColor PlotWidget::kGridColor(228, 228, 228);

PlotWidget::PlotWidget(QWidget* parent) : QWidget(parent) {
  // paintPlot() fills its whole rectangle, so Qt need not clear it first.
  setAttribute(Qt::WA_OpaquePaintEvent);
}

void PlotWidget::paintEvent(QPaintEvent* /*event*/) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setRenderHint(QPainter::TextAntialiasing);
  paintPlot(painter, rect());
}

QString PlotWidget::savePlot(const QString& file, QSize size) const {
  const QString suffix = QFileInfo(file).suffix().toLower();
  if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
    return tr("Cannot save the plot to %1: unknown file type (use .png or .svg)").arg(file);
  if (size.isEmpty()) {
    // A widget that was never shown or resized still has Qt's default geometry, not a plot's.
    const bool sized =
        testAttribute(Qt::WA_WState_ExplicitShowHide) || testAttribute(Qt::WA_Resized);
    size = sized && !this->size().isEmpty() ? this->size() : sizeHint();
  }
  if (size.isEmpty()) size = QSize(640, 400);

  QSaveFile out(file);
  if (!out.open(QIODevice::WriteOnly))
    return tr("Cannot write %1: %2").arg(file, out.errorString());
  const QRectF target(QPointF(0, 0), QSizeF(size));

  if (suffix == QLatin1String("png")) {
    QImage image(size, QImage::Format_ARGB32);
    // Same DPI as the screen, so point-sized fonts come out as large as on screen.
    image.setDotsPerMeterX(int(std::lround(logicalDpiX() / 0.0254)));
    image.setDotsPerMeterY(int(std::lround(logicalDpiY() / 0.0254)));
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.setFont(font());
    paintPlot(painter, target);
    painter.end();
    if (!image.save(&out, "PNG")) return tr("Cannot write %1: PNG encoding failed").arg(file);
  } else {
    QSvgGenerator svg;
    svg.setOutputDevice(&out);
    svg.setSize(size);
    svg.setViewBox(target);
    svg.setResolution(logicalDpiY());
    svg.setTitle(plotName());
    svg.setDescription(tr("gsflow-studio plot"));
    QPainter painter;
    if (!painter.begin(&svg)) return tr("Cannot write %1: SVG output failed").arg(file);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setFont(font());
    paintPlot(painter, target);
    painter.end();
  }
  if (!out.commit()) return tr("Cannot write %1: %2").arg(file, out.errorString());
  return {};
}

void PlotWidget::beginPlot(QPainter& painter, const QRectF& rect) const {
  painter.save();
  painter.setFont(font());
  painter.fillRect(rect, Qt::white);
}

qreal PlotWidget::padding(const QPainter& painter) {
  return std::round(metrics(painter).height() * 0.7);
}

QVector<PlotWidget::Tick> PlotWidget::niceTicks(double lo, double hi, int target) {
  QVector<Tick> ticks;
  if (!std::isfinite(lo) || !std::isfinite(hi)) return ticks;
  if (hi < lo) std::swap(lo, hi);
  const double range = hi - lo;
  if (range <= 0) {
    ticks.push_back({lo, withMinusSign(QString::number(lo, 'g', 4))});
    return ticks;
  }
  const double raw = range / std::max(1, target);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double residual = raw / magnitude;
  const double step = (residual < 1.5   ? 1.0
                       : residual < 3.0 ? 2.0
                       : residual < 7.0 ? 5.0
                                        : 10.0) *
                      magnitude;
  const int decimals = std::max(0, int(-std::floor(std::log10(step) + 1e-9)));
  const bool scientific = std::max(std::abs(lo), std::abs(hi)) >= 1e6 || step < 1e-4;
  const double first = std::ceil(lo / step - 1e-9);
  for (int i = 0;; ++i) {
    double value = (first + i) * step;
    if (value > hi + step * 1e-9) break;
    if (std::abs(value) < step * 1e-9) value = 0.0;  // no "-0.0" from rounding
    const QString label =
        scientific ? QString::number(value, 'g', 3) : QString::number(value, 'f', decimals);
    ticks.push_back({value, withMinusSign(label)});
  }
  return ticks;
}

qreal PlotWidget::widestLabel(const QPainter& painter, const QVector<Tick>& ticks) {
  const QFontMetricsF fm = metrics(painter);
  qreal widest = 0;
  for (const Tick& tick : ticks) widest = std::max(widest, fm.horizontalAdvance(tick.label));
  return widest;
}

QRectF PlotWidget::drawTitle(QPainter& painter, const QRectF& rect, const QString& title) {
  const qreal pad = padding(painter);
  if (title.isEmpty()) return rect.adjusted(0, pad, 0, 0);
  painter.save();
  painter.setFont(titleFont(painter.font()));
  const QFontMetricsF fm = metrics(painter);
  const QRectF line(rect.left() + pad, rect.top() + pad * 0.8, rect.width() - 2 * pad, fm.height());
  painter.setPen(kTextColor);
  painter.drawText(line, Qt::AlignHCenter | Qt::AlignVCenter,
                   fm.elidedText(title, Qt::ElideRight, line.width()));
  painter.restore();
  return rect.adjusted(0, pad * 0.8 + fm.height() + pad * 0.5, 0, 0);
}

void PlotWidget::drawMessage(QPainter& painter, const QRectF& rect, const QString& message) {
  painter.save();
  painter.setPen(QColor(130, 130, 130));
  painter.drawText(rect, Qt::AlignCenter, message);
  painter.restore();
}

qreal PlotWidget::drawLegend(QPainter& painter, const QRectF& rect,
                             const QVector<LegendEntry>& entries, bool draw) {
  if (entries.isEmpty()) return 0;
  const QFontMetricsF fm = metrics(painter);
  const qreal swatch = std::round(fm.height() * 0.7);
  const qreal inner = gap(painter), spacing = fm.height() * 1.2;
  const qreal available = std::max<qreal>(1, rect.width() - 2 * padding(painter));

  // Flow the entries into rows first, so that each row can be centred.
  QVector<QVector<int>> rows(1);
  QVector<qreal> rowWidths(1, 0);
  QVector<qreal> widths;
  for (int i = 0; i < entries.size(); ++i) {
    const qreal width =
        std::min(swatch + inner + fm.horizontalAdvance(entries[i].label), available);
    widths.push_back(width);
    const qreal needed = rows.back().isEmpty() ? width : rowWidths.back() + spacing + width;
    if (!rows.back().isEmpty() && needed > available) {
      rows.push_back({});
      rowWidths.push_back(0);
    }
    rowWidths.back() = rows.back().isEmpty() ? width : rowWidths.back() + spacing + width;
    rows.back().push_back(i);
  }
  const qreal lineHeight = fm.height() + inner * 0.5;
  if (draw) {
    painter.save();
    for (int r = 0; r < rows.size(); ++r) {
      qreal x = rect.center().x() - rowWidths[r] / 2;
      const qreal y = rect.top() + r * lineHeight;
      for (int i : rows[r]) {
        const QRectF box(x, y + (fm.height() - swatch) / 2, swatch, swatch);
        painter.setPen(QPen(entries[i].color.darker(115), 1));
        painter.setBrush(entries[i].color);
        painter.drawRect(box);
        painter.setPen(kTextColor);
        const QRectF text(x + swatch + inner, y, widths[i] - swatch - inner, fm.height());
        painter.drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
                         fm.elidedText(entries[i].label, Qt::ElideRight, text.width()));
        x += widths[i] + spacing;
      }
    }
    painter.restore();
  }
  return rows.size() * lineHeight;
}

QRectF PlotWidget::plotArea(const QPainter& painter, const QRectF& rest, qreal yLabelWidth,
                            bool yTitle, bool xTitle, qreal xLabelHeight, qreal rightMargin) {
  const QFontMetricsF fm = metrics(painter);
  const qreal pad = padding(painter), g = gap(painter);
  if (xLabelHeight < 0) xLabelHeight = fm.height();
  if (rightMargin < 0) rightMargin = pad * 1.5;  // room for half of the last x label
  const qreal left = pad + (yTitle ? fm.height() + g : 0) + yLabelWidth + g + kTickLength;
  const qreal bottom = kTickLength + g + xLabelHeight + (xTitle ? g + fm.height() : 0) + pad;
  return rest.adjusted(left, 0, -rightMargin, -bottom);
}

void PlotWidget::drawYAxis(QPainter& painter, const QRectF& plot, double lo, double hi,
                           const QVector<Tick>& ticks, bool grid, const QString& title) {
  const QFontMetricsF fm = metrics(painter);
  const qreal g = gap(painter);
  painter.save();
  for (const Tick& tick : ticks) {
    const qreal y = plot.bottom() - (tick.value - lo) / (hi - lo) * plot.height();
    if (grid) {
      painter.setPen(QPen(kGridColor, 1));
      painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
    }
    painter.setPen(QPen(kAxisColor, 1));
    painter.drawLine(QPointF(plot.left() - kTickLength, y), QPointF(plot.left(), y));
    painter.setPen(kTextColor);
    const QRectF label(plot.left() - kTickLength - g - 1000, y - fm.height() / 2, 1000,
                       fm.height());
    painter.drawText(label, Qt::AlignRight | Qt::AlignVCenter, tick.label);
  }
  painter.setPen(QPen(kAxisColor, 1));
  painter.drawLine(plot.bottomLeft(), plot.topLeft());
  if (!title.isEmpty()) {
    const qreal x =
        plot.left() - kTickLength - g - widestLabel(painter, ticks) - g - fm.height() / 2;
    painter.translate(x, plot.center().y());
    painter.rotate(-90);
    painter.setPen(kTextColor);
    const QRectF box(-plot.height() / 2, -fm.height() / 2, plot.height(), fm.height());
    painter.drawText(box, Qt::AlignCenter, fm.elidedText(title, Qt::ElideRight, box.width()));
  }
  painter.restore();
}

void PlotWidget::drawXAxis(QPainter& painter, const QRectF& plot, double lo, double hi,
                           const QVector<Tick>& ticks, bool grid, const QString& title) {
  const QFontMetricsF fm = metrics(painter);
  const qreal g = gap(painter);
  painter.save();
  for (const Tick& tick : ticks) {
    const qreal x = plot.left() + (tick.value - lo) / (hi - lo) * plot.width();
    if (grid) {
      painter.setPen(QPen(kGridColor, 1));
      painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    }
    painter.setPen(QPen(kAxisColor, 1));
    painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + kTickLength));
    painter.setPen(kTextColor);
    const QRectF label(x - 500, plot.bottom() + kTickLength + g, 1000, fm.height());
    painter.drawText(label, Qt::AlignHCenter | Qt::AlignTop, tick.label);
  }
  painter.setPen(QPen(kAxisColor, 1));
  painter.drawLine(plot.bottomLeft(), plot.bottomRight());
  if (!title.isEmpty()) {
    painter.setPen(kTextColor);
    const QRectF box(plot.left(), plot.bottom() + kTickLength + 2 * g + fm.height(), plot.width(),
                     fm.height());
    painter.drawText(box, Qt::AlignCenter, fm.elidedText(title, Qt::ElideRight, box.width()));
  }
  painter.restore();
}

}  // namespace gsflow::ui
