// HeatmapView: one trajectory frame as a position x letter grid of probabilities, white to dark
// blue, with letter labels, a position axis and a 0..1 colour bar; fixed positions, the user's
// selection of positions, and the hover tooltip of a position.
#include "gsflow/ui/plots/heatmap_view.hpp"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace gsflow::ui {

namespace {

// The darkest blue of ColorBrewer's sequential "Blues": dark enough for 1.0 to stand out, and a
// single-hue ramp reads as "more" without a legend lookup.
constexpr int kDark[3] = {8, 48, 107};

// Position tick step: the smallest of 1, 2, 5, 10, 20, 50, ... whose labels do not collide.
int positionStep(int length, qreal cellWidth, qreal labelWidth) {
  for (int step : {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000}) {
    if (step * cellWidth >= labelWidth * 2.5 || step >= length) return step;
  }
  return 10000;
}

}  // namespace

HeatmapView::HeatmapView(QWidget* parent) : PlotWidget(parent) {
  setCursor(Qt::CrossCursor);
  setToolTip(
      tr("Hover a position for its letter probabilities and final letter; drag across "
         "positions to select them (Lock selection keeps their letters in the next run); an "
         "orange bar marks positions the design fixed"));
}

void HeatmapView::setFrameLabel(const QString& label) { frameLabel_ = label; }

void HeatmapView::setFinalSequence(const QString& letters) { final_ = letters; }

void HeatmapView::setStartSequence(const QString& letters) { start_ = letters; }

QString HeatmapView::positionToolTip(int position) const {
  if (position < 0 || position >= length_) return {};
  QStringList lines;
  lines << tr("Position %1 of %2").arg(position + 1).arg(length_);
  if (!frameLabel_.isEmpty()) lines << frameLabel_;
  // Most probable first; a long tail (20 amino acids) is summed rather than listed.
  QVector<int> order(letters_.size());
  for (int j = 0; j < order.size(); ++j) order[j] = j;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return probabilityAt(position, a) > probabilityAt(position, b);
  });
  QStringList shown;
  double rest = 0;
  int restCount = 0;
  for (int j : order) {
    const float p = probabilityAt(position, j);
    if (p >= 0.01f || shown.isEmpty()) {
      shown << QStringLiteral("%1 %2").arg(letters_[j]).arg(double(p), 0, 'f', 3);
    } else {
      rest += p;
      ++restCount;
    }
  }
  lines << shown.join(QStringLiteral("   "));
  if (restCount > 0)
    lines << tr("%1 other letters: %2 together").arg(restCount).arg(rest, 0, 'f', 3);
  if (position < final_.size()) {
    QString line = tr("Final letter: %1").arg(final_[position]);
    if (position < fixed_.size() && fixed_[position])
      line += tr(" (fixed by the design)");
    else if (position < start_.size() && start_[position] != final_[position])
      line += tr(" (edited: the start sequence has %1)").arg(start_[position]);
    else if (position < start_.size())
      line += tr(" (kept from the start sequence)");
    lines << line;
  } else {
    lines << tr("Final letter: not yet known (its batch is still running)");
  }
  return lines.join(QLatin1Char('\n'));
}

bool HeatmapView::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int p = positionAt(help->pos());
    if (p >= 0) {
      // The tooltip stays while the pointer is inside this column, and follows it to the next.
      const qreal w = screenCells_.width() / length_;
      const QRect column = QRectF(screenCells_.left() + p * w, screenCells_.top(), w,
                                  screenCells_.height())
                               .toAlignedRect();
      QToolTip::showText(help->globalPos(), positionToolTip(p), this, column);
      return true;
    }
  }
  return PlotWidget::event(event);
}

QColor HeatmapView::fixedColor() { return QColor(230, 85, 13); }

void HeatmapView::setFixedPositions(const QVector<bool>& fixed) {
  if (fixed == fixed_) return;
  fixed_ = fixed;
  update();
}

void HeatmapView::setSelection(int first, int last) {
  if (first > last) std::swap(first, last);
  if (first < 0 || length_ == 0) first = last = -1;
  last = std::min(last, length_ - 1);
  if (first == selFirst_ && last == selLast_) return;
  selFirst_ = first;
  selLast_ = last;
  update();
  emit selectionChanged(selFirst_, selLast_);
}

int HeatmapView::positionAt(const QPoint& point) const {
  if (length_ == 0 || screenCells_.isEmpty()) return -1;
  if (!screenCells_.contains(QPointF(point) + QPointF(0.5, 0.5))) return -1;
  const int p = int((point.x() + 0.5 - screenCells_.left()) * length_ / screenCells_.width());
  return std::clamp(p, 0, length_ - 1);
}

QPoint HeatmapView::columnCenter(int position) const {
  if (length_ == 0 || screenCells_.isEmpty() || position < 0 || position >= length_) return {};
  const qreal w = screenCells_.width() / length_;
  return QPointF(screenCells_.left() + (position + 0.5) * w, screenCells_.center().y()).toPoint();
}

void HeatmapView::paintEvent(QPaintEvent* event) {
  onScreen_ = true;
  PlotWidget::paintEvent(event);
  onScreen_ = false;
}

void HeatmapView::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return PlotWidget::mousePressEvent(event);
  const int p = positionAt(event->position().toPoint());
  dragging_ = p >= 0;
  anchor_ = p;
  setSelection(p, p);
}

void HeatmapView::mouseMoveEvent(QMouseEvent* event) {
  if (!dragging_) return PlotWidget::mouseMoveEvent(event);
  // Past either end of the cells the drag goes on to the first or last position.
  const QPoint at = event->position().toPoint();
  int p = positionAt(QPoint(at.x(), int(screenCells_.center().y())));
  if (p < 0) p = at.x() < screenCells_.left() ? 0 : length_ - 1;
  setSelection(anchor_, p);
}

void HeatmapView::mouseReleaseEvent(QMouseEvent* event) {
  if (!dragging_) return PlotWidget::mouseReleaseEvent(event);
  dragging_ = false;
}

void HeatmapView::setFrame(const QVector<float>& probabilities, int length, const QString& letters,
                           const QString& title) {
  if (length <= 0 || letters.isEmpty() ||
      qsizetype(length) * letters.size() != probabilities.size()) {
    clear();
    return;
  }
  if (length != length_) clearSelection();
  probabilities_ = probabilities;
  length_ = length;
  letters_ = letters;
  title_ = title;
  update();
}

void HeatmapView::clear() {
  clearSelection();
  probabilities_.clear();
  length_ = 0;
  letters_.clear();
  title_.clear();
  update();
}

int HeatmapView::length() const { return length_; }

float HeatmapView::probabilityAt(int position, int letter) const {
  if (position < 0 || position >= length_ || letter < 0 || letter >= letters_.size()) return -1;
  return probabilities_[qsizetype(position) * letters_.size() + letter];
}

QColor HeatmapView::colorFor(float p) {
  const float t = std::isfinite(p) ? std::clamp(p, 0.0f, 1.0f) : 0.0f;
  auto mix = [t](int dark) { return int(std::lround(255.0f + (dark - 255.0f) * t)); };
  return QColor(mix(kDark[0]), mix(kDark[1]), mix(kDark[2]));
}

QSize HeatmapView::sizeHint() const {
  const int rows = std::max<int>(4, letters_.size());
  const int cells = std::clamp(length_ * 12, 360, 1200);
  return QSize(cells + 160, rows * 22 + 110);
}

void HeatmapView::paintPlot(QPainter& painter, const QRectF& rect) const {
  beginPlot(painter, rect);
  QRectF rest = drawTitle(painter, rect, title_);
  const bool anyFixed = fixed_.size() == length_ && fixed_.contains(true);
  if (length_ == 0) {
    drawMessage(painter, rest, tr("no frame"));
    painter.restore();
    return;
  }
  const QFontMetricsF fm(painter.font(), painter.device());
  const qreal pad = padding(painter);
  const qreal gap = std::round(fm.height() * 0.3);
  const int rows = int(letters_.size());
  // Room above the cells for the bar that marks fixed positions.
  const qreal fixedBar = std::round(fm.height() * 0.45);
  if (anyFixed) rest.setTop(rest.top() + fixedBar + gap);

  // Right of the cells: a gap, the colour bar and its labels.
  const QVector<Tick> barTicks = niceTicks(0, 1, 4);
  const qreal barWidth = std::round(fm.height() * 0.9);
  const qreal right = pad * 1.5 + barWidth + 4 + gap + widestLabel(painter, barTicks) + pad;
  qreal letterWidth = 0;
  for (QChar c : letters_) letterWidth = std::max(letterWidth, fm.horizontalAdvance(c));
  QRectF area = plotArea(painter, rest, letterWidth, false, true, -1, right);
  // Whole-pixel cell edges: crisp cells whose interiors are exactly colorFor(p).
  const qreal x0 = std::round(area.left()), y0 = std::round(area.top());
  const qreal cellW = (std::round(area.right()) - x0) / length_;
  const qreal cellH = (std::round(area.bottom()) - y0) / rows;
  if (cellW <= 0 || cellH <= 0) {
    painter.restore();
    return;
  }
  auto xAt = [&](int i) { return std::round(x0 + i * cellW); };
  auto yAt = [&](int j) { return std::round(y0 + j * cellH); };
  // Thin white borders separate cells only while cells are wide enough to keep their colour.
  const qreal border = cellW >= 8 && cellH >= 8 ? 1 : 0;

  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, false);
  painter.setPen(Qt::NoPen);
  for (int i = 0; i < length_; ++i) {
    for (int j = 0; j < rows; ++j) {
      const QRectF cell(QPointF(xAt(i), yAt(j)), QPointF(xAt(i + 1) - border, yAt(j + 1) - border));
      painter.fillRect(cell, colorFor(probabilityAt(i, j)));
    }
  }
  painter.setPen(QPen(kAxisColor, 1));
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(
      QRectF(QPointF(x0, y0), QPointF(xAt(length_), yAt(rows))).adjusted(-1, -1, 0, 0));
  if (anyFixed) {
    painter.setPen(Qt::NoPen);
    for (int i = 0; i < length_; ++i)
      if (fixed_[i])
        painter.fillRect(
            QRectF(QPointF(xAt(i), y0 - gap - fixedBar), QPointF(xAt(i + 1), y0 - gap)),
            fixedColor());
  }
  painter.restore();
  const QRectF cells(QPointF(x0, y0), QPointF(xAt(length_), yAt(rows)));
  if (onScreen_) screenCells_ = cells;
  // The user's selection: a translucent band with an outline (on screen and in grab(), not in
  // exported files).
  if (onScreen_ && selFirst_ >= 0 && selLast_ < length_) {
    const QRectF band(QPointF(xAt(selFirst_), y0), QPointF(xAt(selLast_ + 1), yAt(rows)));
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.fillRect(band, QColor(255, 190, 0, 80));
    painter.setPen(QPen(QColor(200, 120, 0), 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(band.adjusted(1, 1, -1, -1));
    painter.restore();
  }

  // Letter labels; when rows are thinner than text, every n-th.
  painter.setPen(kTextColor);
  const int letterStep = std::max(1, int(std::ceil(fm.height() * 0.9 / cellH)));
  for (int j = 0; j < rows; j += letterStep) {
    const QRectF label(x0 - gap - 6 - letterWidth, yAt(j), letterWidth + 4, yAt(j + 1) - yAt(j));
    painter.drawText(label, Qt::AlignRight | Qt::AlignVCenter, QString(letters_[j]));
  }

  // Position axis, 1-based like sequence coordinates: 1 and then multiples of the step.
  const int step = positionStep(length_, cellW, fm.horizontalAdvance(QString::number(length_)));
  QVector<Tick> ticks;
  // "1" beside a small step (1 2 4 6 ...) reads as clutter; it joins only a step of 5 or more.
  if (step == 1 ||
      (step >= 5 && (step - 1) * cellW >= fm.horizontalAdvance(QString::number(step)) * 2.5))
    ticks.push_back({1, QStringLiteral("1")});
  for (int p = step; p <= length_; p += step)
    if (p > 1) ticks.push_back({double(p), QString::number(p)});
  // Centre of position p (1-based) is (p - 0.5) cells from the left.
  QVector<Tick> centred = ticks;
  for (Tick& t : centred) t.value -= 0.5;
  drawXAxis(painter, QRectF(cells.left(), cells.top(), cells.width(), cells.height() + 1), 0,
            length_, centred, false, tr("position"));

  // Colour bar: the same colorFor() in thin bands, so it is the scale actually used.
  const QRectF bar(cells.right() + pad * 1.5, cells.top(), barWidth, cells.height());
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, false);
  const int bands = std::max(1, int(bar.height()));
  for (int b = 0; b < bands; ++b) {
    const qreal top = bar.top() + bar.height() * b / bands;
    const qreal bottom = bar.top() + bar.height() * (b + 1) / bands;
    painter.fillRect(QRectF(bar.left(), top, bar.width(), bottom - top),
                     colorFor(1.0f - (b + 0.5f) / bands));
  }
  painter.setPen(QPen(kAxisColor, 1));
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(bar.adjusted(-1, -1, 0, 0));
  painter.restore();
  for (const Tick& tick : barTicks) {
    const qreal y = bar.bottom() - tick.value * bar.height();
    painter.setPen(QPen(kAxisColor, 1));
    painter.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 4, y));
    painter.setPen(kTextColor);
    painter.drawText(QRectF(bar.right() + 4 + gap, y - fm.height() / 2, 200, fm.height()),
                     Qt::AlignLeft | Qt::AlignVCenter, tick.label);
  }
  painter.restore();
}

}  // namespace gsflow::ui
