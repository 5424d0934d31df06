// SequenceLogo: per-position letter frequencies and information content of a set of sequences,
// drawn as stacks of letter glyphs scaled to their share of the bits (Schneider & Stephens 1990);
// a width per position and a bits axis fitted to the data zoom long, low-information logos.
#include "gsflow/ui/plots/sequence_logo.hpp"

#include <QFontMetricsF>
#include <QPainter>
#include <QWheelEvent>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace gsflow::ui {

namespace {

bool isNucleotides(const QString& letters) {
  return std::all_of(letters.begin(), letters.end(),
                     [](QChar c) { return QStringLiteral("ACGTU").contains(c.toUpper()); });
}

// Nucleotides in the classic logo colours; amino acids by chemistry as WebLogo colours them.
QColor letterColor(QChar letter, bool nucleotides) {
  const QChar c = letter.toUpper();
  if (nucleotides) {
    switch (c.unicode()) {
      case 'A':
        return QColor(0x10, 0x96, 0x48);
      case 'C':
        return QColor(0x25, 0x5C, 0x99);
      case 'G':
        return QColor(0xF7, 0xA4, 0x1C);
      default:
        return QColor(0xD6, 0x28, 0x39);  // T, U
    }
  }
  if (QStringLiteral("GSTYC").contains(c)) return QColor(0x10, 0x96, 0x48);     // polar
  if (QStringLiteral("NQ").contains(c)) return QColor(0x8E, 0x44, 0xAD);        // amide
  if (QStringLiteral("KRH").contains(c)) return QColor(0x25, 0x5C, 0x99);       // basic
  if (QStringLiteral("DE").contains(c)) return QColor(0xD6, 0x28, 0x39);        // acidic
  if (QStringLiteral("AVLIPWFM").contains(c)) return QColor(0x22, 0x22, 0x22);  // hydrophobic
  return QColor(0x88, 0x88, 0x88);
}

}  // namespace

SequenceLogo::SequenceLogo(QWidget* parent) : PlotWidget(parent) {}

void SequenceLogo::setSequences(const QStringList& sequences, const QString& letters) {
  letters_ = letters;
  frequencies_.clear();
  information_.clear();
  qsizetype length = 0;
  for (const QString& s : sequences) length = std::max(length, s.size());
  const int k = int(letters.size());
  const QString upper = letters.toUpper();
  frequencies_ = QVector<QVector<double>>(length, QVector<double>(k, 0.0));
  information_ = QVector<double>(length, 0.0);
  for (qsizetype i = 0; i < length; ++i) {
    QVector<double>& f = frequencies_[i];
    for (const QString& s : sequences) {
      if (i >= s.size()) continue;
      const qsizetype letter = upper.indexOf(s[i].toUpper());
      if (letter >= 0) f[letter] += 1;
    }
    const double total = std::accumulate(f.begin(), f.end(), 0.0);
    if (total == 0 || k < 2) continue;  // no letters here: frequencies 0, information 0
    double entropy = 0;
    for (double& v : f) {
      v /= total;
      if (v > 0) entropy -= v * std::log2(v);
    }
    information_[i] = std::max(0.0, std::log2(double(k)) - entropy);
  }
  updateGeometry();
  update();
  setFirstPosition(first_);
  emit windowChanged();
}

void SequenceLogo::clear() {
  letters_.clear();
  frequencies_.clear();
  information_.clear();
  updateGeometry();
  update();
}

int SequenceLogo::positions() const { return int(frequencies_.size()); }

double SequenceLogo::frequency(int position, int letter) const {
  if (position < 0 || position >= positions() || letter < 0 || letter >= letters_.size()) return 0;
  return frequencies_[position][letter];
}

double SequenceLogo::information(int position) const {
  return position >= 0 && position < positions() ? information_[position] : 0;
}

// Room the axes take beside the positions, at most (the y labels, title and margins measure about
// 60-100 px at usual fonts): counting with the most keeps windowPositions() a lower bound.
constexpr int kAxisRoom = 140;

void SequenceLogo::setColumnWidth(int pixels) {
  pixels = std::max(0, pixels);
  if (pixels == columnWidth_) return;
  columnWidth_ = pixels;
  update();
  emit windowChanged();
}

int SequenceLogo::windowPositions() const {
  const int n = positions();
  if (columnWidth_ <= 0) return n;
  return std::clamp((width() - kAxisRoom) / columnWidth_, 1, std::max(1, n));
}

void SequenceLogo::setFirstPosition(int first) {
  first = std::clamp(first, 0, std::max(0, positions() - windowPositions()));
  if (first == first_) return;
  first_ = first;
  update();
  emit windowChanged();
}

void SequenceLogo::resizeEvent(QResizeEvent* event) {
  PlotWidget::resizeEvent(event);
  setFirstPosition(first_);  // a wider window may pass the end
  emit windowChanged();
}

void SequenceLogo::wheelEvent(QWheelEvent* event) {
  if (columnWidth_ <= 0 || windowPositions() >= positions()) return PlotWidget::wheelEvent(event);
  // One notch (120) moves a tenth of the window; horizontal or vertical wheels alike.
  const QPoint delta = event->angleDelta();
  const int notches = (std::abs(delta.x()) > std::abs(delta.y()) ? delta.x() : delta.y());
  const int step = std::max(1, windowPositions() / 10);
  setFirstPosition(first_ - notches * step / 120);
  event->accept();
}

void SequenceLogo::setFitBits(bool fit) {
  if (fit == fitBits_) return;
  fitBits_ = fit;
  update();
}

double SequenceLogo::axisBits() const {
  const int k = int(letters_.size());
  const double full = k >= 2 ? std::log2(double(k)) : 1.0;
  if (!fitBits_ || information_.isEmpty()) return full;
  const double top = *std::max_element(information_.begin(), information_.end());
  if (top <= 0) return full;
  // Up to the next round number (a multiple of a tenth of its magnitude and a tick niceTicks
  // can land on), never past log2(K).
  const double magnitude = std::pow(10.0, std::floor(std::log10(top)));
  for (double step : {1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0})
    if (step * magnitude >= top - 1e-12) return std::min(full, step * magnitude);
  return full;
}

QSize SequenceLogo::sizeHint() const { return QSize(std::max(420, 12 * positions() + 110), 240); }

void SequenceLogo::paintPlot(QPainter& painter, const QRectF& rect) const {
  beginPlot(painter, rect);
  const QRectF rest = drawTitle(painter, rect, {});
  const int k = int(letters_.size());
  if (positions() == 0 || k < 2) {
    drawMessage(painter, rest, tr("no sequences"));
    painter.restore();
    return;
  }
  const QFontMetricsF fm(painter.font(), painter.device());
  const double maxBits = axisBits();
  const QVector<Tick> yTicks =
      niceTicks(0, maxBits, std::max(2, int(rest.height() / (fm.height() * 3))));
  const QRectF plot = plotArea(painter, rest, widestLabel(painter, yTicks), true, true);
  if (plot.width() < 4 || plot.height() < 4) {
    painter.restore();
    return;
  }
  // The positions drawn: all of them, or with a column width the window from first_ that fits
  // (kept inside the sequence, so the last window ends at the last position).
  const int all = positions();
  int n = all, first = 0;
  if (columnWidth_ > 0) {
    n = std::clamp(int(plot.width() / columnWidth_), 1, all);
    first = std::clamp(first_, 0, all - n);
  }
  const qreal column = plot.width() / n;

  // Position labels, 1-based: the window's first, then multiples of the smallest step whose
  // labels fit.
  const qreal labelWidth = fm.horizontalAdvance(QString::number(first + n)) * 1.6;
  int step = 1;
  for (int s : {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000}) {
    step = s;
    if (s * column >= labelWidth) break;
  }
  QVector<Tick> xTicks;
  const int firstLabel = first + 1;
  if (step == 1 || firstLabel % step == 0 ||
      (step >= 5 && (step - firstLabel % step) * column >= labelWidth))
    xTicks.push_back({0.5, QString::number(firstLabel)});
  for (int p = (firstLabel / step + 1) * step; p <= first + n; p += step)
    xTicks.push_back({p - first - 0.5, QString::number(p)});
  drawYAxis(painter, plot, 0, maxBits, yTicks, true, tr("bits"));
  drawXAxis(painter, plot, 0, n, xTicks, false, tr("position"));

  // Glyph outlines from a large bold copy of the widget's font, then scaled into each stack slot:
  // the letter's ink, not its text box, must fill the slot for heights to read as bits.
  QFont glyphFont = painter.font();
  glyphFont.setBold(true);
  glyphFont.setPixelSize(96);
  const bool nucleotides = isNucleotides(letters_);
  QVector<QPainterPath> glyphs(k);
  qreal widest = 0;
  for (int j = 0; j < k; ++j) {
    glyphs[j].addText(0, 0, glyphFont, QString(letters_[j]));
    widest = std::max(widest, glyphs[j].boundingRect().width());
  }

  const qreal inset = column >= 6 ? column * 0.04 : 0;
  painter.save();
  painter.setPen(Qt::NoPen);
  QVector<int> order(k);
  for (int w = 0; w < n; ++w) {
    const int i = first + w;
    std::iota(order.begin(), order.end(), 0);
    // Least frequent at the bottom, so the consensus letter tops the stack.
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return frequencies_[i][a] < frequencies_[i][b]; });
    qreal bottom = plot.bottom();
    for (int j : order) {
      const qreal height = frequencies_[i][j] * information_[i] / maxBits * plot.height();
      if (height < 0.2) continue;
      const QRectF slot(plot.left() + w * column + inset, bottom - height, column - 2 * inset,
                        height);
      const QRectF box = glyphs[j].boundingRect();
      if (box.isEmpty()) continue;
      // Heights stretch to the bits; widths share one scale (the widest glyph fills the column)
      // and narrower glyphs are centred, so I stays a thin I instead of a solid block.
      const qreal sx = slot.width() / widest;
      QTransform t;
      t.translate(slot.center().x() - box.width() * sx / 2, slot.top());
      t.scale(sx, slot.height() / box.height());
      t.translate(-box.left(), -box.top());
      painter.setBrush(letterColor(letters_[j], nucleotides));
      painter.drawPath(t.map(glyphs[j]));
      bottom -= height;
    }
  }
  painter.restore();
  painter.restore();
}

}  // namespace gsflow::ui
