// Base of gsflow-studio's plots: one paintPlot() draws the whole plot into any rectangle, so the
// screen, PNG export and SVG export (QSvgGenerator) show exactly the same picture. Plots only
// paint the values they were handed; they never compute or fetch data.
#pragma once

#include <QColor>
#include <QRectF>
#include <QSize>
#include <QString>
#include <QVector>
#include <QWidget>

class QPainter;

namespace gsflow::ui {

class PlotWidget : public QWidget {
  Q_OBJECT

 public:
  explicit PlotWidget(QWidget* parent = nullptr);

  // Draws the plot (axes, title, data, legend) into `rect` of `painter`'s device.
  virtual void paintPlot(QPainter& painter, const QRectF& rect) const = 0;

  // Writes the plot to `file` as PNG (".png") or SVG (".svg"), chosen by the suffix, at `size`
  // (empty = the widget's current size, or its sizeHint() when it has never been shown).
  // Returns "" on success, else a message naming the file and the cause (unknown suffix, cannot
  // write).
  QString savePlot(const QString& file, QSize size = {}) const;

  // A short name for the plot, used as the default export file name ("heatmap", "logo", ...).
  virtual QString plotName() const = 0;

 protected:
  void paintEvent(QPaintEvent* event) override;

  // Shared drawing helpers, so that every plot has the same margins, fonts, grid and legend.
  struct Tick {
    double value;
    QString label;
  };
  struct LegendEntry {
    QString label;
    QColor color;
  };
  static const QColor kTextColor, kAxisColor, kGridColor;

  // Saves the painter, sets the widget's font and fills `rect` white; pair with painter.restore().
  void beginPlot(QPainter& painter, const QRectF& rect) const;
  // Blank space around texts, from the font height.
  static qreal padding(const QPainter& painter);
  // Ticks at 1, 2 or 5 x 10^k steps inside [lo, hi], about `target` of them (Heckbert, "Nice
  // numbers for graph labels", Graphics Gems 1990), labelled with just enough decimals.
  static QVector<Tick> niceTicks(double lo, double hi, int target);
  static qreal widestLabel(const QPainter& painter, const QVector<Tick>& ticks);
  // Bold title centred at the top of `rect`; returns what is left below it.
  static QRectF drawTitle(QPainter& painter, const QRectF& rect, const QString& title);
  // Grey message centred in `rect` ("no data").
  static void drawMessage(QPainter& painter, const QRectF& rect, const QString& message);
  // Legend entries flowed in centred rows across rect.width() from rect.top(); returns the height
  // used. With draw = false only measures.
  static qreal drawLegend(QPainter& painter, const QRectF& rect,
                          const QVector<LegendEntry>& entries, bool draw = true);
  // The plot area inside `rest`, leaving room on the left for y labels `yLabelWidth` wide and a
  // y title, below for one line of x labels (or `xLabelHeight` when given) and an x title, and
  // `rightMargin` (default: padding) on the right.
  static QRectF plotArea(const QPainter& painter, const QRectF& rest, qreal yLabelWidth,
                         bool yTitle, bool xTitle, qreal xLabelHeight = -1, qreal rightMargin = -1);
  // Left axis of `plot` for values lo..hi (bottom..top): tick labels, optional grid lines across,
  // and the title rotated, left of the labels.
  static void drawYAxis(QPainter& painter, const QRectF& plot, double lo, double hi,
                        const QVector<Tick>& ticks, bool grid, const QString& title);
  // Bottom axis of `plot` for values lo..hi (left..right): ticks, labels, optional grid lines and
  // the title below the labels.
  static void drawXAxis(QPainter& painter, const QRectF& plot, double lo, double hi,
                        const QVector<Tick>& ticks, bool grid, const QString& title);
};

}  // namespace gsflow::ui
