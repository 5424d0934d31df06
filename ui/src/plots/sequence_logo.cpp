// SequenceLogo: per-position letter frequencies and information content of a set of sequences,
// drawn as stacks of letter glyphs scaled to their share of the bits (Schneider & Stephens 1990).
#include "gsflow/ui/plots/sequence_logo.hpp"

#include <QFontMetricsF>
#include <QPainter>
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
  const double maxBits = std::log2(double(k));
  const QVector<Tick> yTicks =
      niceTicks(0, maxBits, std::max(2, int(rest.height() / (fm.height() * 3))));
  const QRectF plot = plotArea(painter, rest, widestLabel(painter, yTicks), true, true);
  if (plot.width() < 4 || plot.height() < 4) {
    painter.restore();
    return;
  }
  const int n = positions();
  const qreal column = plot.width() / n;

  // Position labels, 1-based: 1, then multiples of the smallest step whose labels fit.
  const qreal labelWidth = fm.horizontalAdvance(QString::number(n)) * 1.6;
  int step = 1;
  for (int s : {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000}) {
    step = s;
    if (s * column >= labelWidth) break;
  }
  QVector<Tick> xTicks;
  if (step == 1 || (step >= 5 && (step - 1) * column >= labelWidth))
    xTicks.push_back({0.5, QStringLiteral("1")});
  for (int p = step; p <= n; p += step)
    if (p > 1) xTicks.push_back({p - 0.5, QString::number(p)});
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
  for (int i = 0; i < n; ++i) {
    std::iota(order.begin(), order.end(), 0);
    // Least frequent at the bottom, so the consensus letter tops the stack.
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return frequencies_[i][a] < frequencies_[i][b]; });
    qreal bottom = plot.bottom();
    for (int j : order) {
      const qreal height = frequencies_[i][j] * information_[i] / maxBits * plot.height();
      if (height < 0.2) continue;
      const QRectF slot(plot.left() + i * column + inset, bottom - height, column - 2 * inset,
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
