// Tests of gsflow-studio's plots: the values they hold against hand computations, the pixels
// they draw (grab()), and PNG/SVG export. Set GSFLOW_PLOT_DIR to keep the rendered gallery.
#include <QDir>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <functional>

#include "gsflow/ui/plots/comparison_charts.hpp"
#include "gsflow/ui/plots/heatmap_view.hpp"
#include "gsflow/ui/plots/line_chart.hpp"
#include "gsflow/ui/plots/sequence_logo.hpp"

using namespace gsflow::ui;

namespace {

int countPixels(const QImage& image, const std::function<bool(QColor)>& match) {
  const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
  int n = 0;
  for (int y = 0; y < rgb.height(); ++y) {
    const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
    for (int x = 0; x < rgb.width(); ++x) n += match(QColor(line[x])) ? 1 : 0;
  }
  return n;
}

int countExact(const QImage& image, const QColor& color) {
  return countPixels(image, [&](QColor c) { return c.rgb() == color.rgb(); });
}

// One-hot rows for A, C, G, T at positions 0..3 and a uniform row at position 4.
QVector<float> oneHotFrame(float last0 = 0.25f) {
  QVector<float> p(5 * 4, 0.0f);
  for (int i = 0; i < 4; ++i) p[i * 4 + i] = 1.0f;
  const float rest = (1.0f - last0) / 3.0f;
  p[16] = last0;
  p[17] = p[18] = p[19] = rest;
  return p;
}

QImage render(PlotWidget& plot, QSize size) {
  plot.resize(size);
  return plot.grab().toImage();
}

}  // namespace

class TestPlots : public QObject {
  Q_OBJECT

 private slots:
  void heatmapColorScale() {
    QCOMPARE(HeatmapView::colorFor(0.0f), QColor(Qt::white));
    QCOMPARE(HeatmapView::colorFor(-3.0f), HeatmapView::colorFor(0.0f));
    QCOMPARE(HeatmapView::colorFor(7.0f), HeatmapView::colorFor(1.0f));
    QCOMPARE(HeatmapView::colorFor(NAN), HeatmapView::colorFor(0.0f));
    const QColor dark = HeatmapView::colorFor(1.0f);
    QVERIFY(dark.blue() > dark.red() && dark.blue() > dark.green());
    QVERIFY(dark.lightness() < 80);
    // Linear in RGB between the two ends.
    for (float p : {0.25f, 0.5f, 0.8f}) {
      const QColor c = HeatmapView::colorFor(p);
      QVERIFY(std::abs(c.red() - (255 + (dark.red() - 255) * p)) <= 1.0);
      QVERIFY(std::abs(c.green() - (255 + (dark.green() - 255) * p)) <= 1.0);
      QVERIFY(std::abs(c.blue() - (255 + (dark.blue() - 255) * p)) <= 1.0);
    }
  }

  void heatmapProbabilities() {
    HeatmapView view;
    QCOMPARE(view.length(), 0);
    QCOMPARE(view.probabilityAt(0, 0), -1.0f);
    view.setFrame(oneHotFrame(), 5, QStringLiteral("ACGT"), QStringLiteral("sequence 0, t = 1"));
    QCOMPARE(view.length(), 5);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) QCOMPARE(view.probabilityAt(i, j), i == j ? 1.0f : 0.0f);
    QCOMPARE(view.probabilityAt(4, 0), 0.25f);
    QCOMPARE(view.probabilityAt(5, 0), -1.0f);
    QCOMPARE(view.probabilityAt(0, 4), -1.0f);
    QCOMPARE(view.probabilityAt(-1, 0), -1.0f);
  }

  void heatmapPixels() {
    HeatmapView view;
    view.setFrame(oneHotFrame(), 5, QStringLiteral("ACGT"), QStringLiteral("frame"));
    const QImage image = render(view, QSize(640, 320));
    // Four one-hot cells of a ~90 x 50 px grid; the colour bar adds only a thin band of each.
    QVERIFY2(countExact(image, HeatmapView::colorFor(1.0f)) > 4 * 1000,
             qPrintable(QString::number(countExact(image, HeatmapView::colorFor(1.0f)))));
    QVERIFY(countExact(image, HeatmapView::colorFor(0.25f)) > 1000);
    // Changing one cell's value moves about one cell's area of pixels to its colour.
    const QColor odd = HeatmapView::colorFor(0.37f);
    const int before = countExact(image, odd);
    view.setFrame(oneHotFrame(0.37f), 5, QStringLiteral("ACGT"), QStringLiteral("frame"));
    const int after = countExact(render(view, QSize(640, 320)), odd);
    QVERIFY2(after - before > 1000, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
  }

  void heatmapLongSequence() {
    HeatmapView view;
    QVector<float> p(256 * 4, 0.0f);
    for (int i = 0; i < 256; ++i) p[i * 4 + i % 4] = 1.0f;
    view.setFrame(p, 256, QStringLiteral("ACGT"), QStringLiteral("long"));
    QCOMPARE(view.length(), 256);
    // Cells about 2 px wide: still filled (no borders eating them).
    QVERIFY(countExact(render(view, QSize(800, 300)), HeatmapView::colorFor(1.0f)) > 256 * 20);
  }

  void heatmapMismatchClears() {
    HeatmapView view;
    view.setFrame(oneHotFrame(), 5, QStringLiteral("ACGT"), QStringLiteral("ok"));
    QCOMPARE(view.length(), 5);
    view.setFrame(oneHotFrame(), 6, QStringLiteral("ACGT"), QStringLiteral("bad"));
    QCOMPARE(view.length(), 0);
    QCOMPARE(view.probabilityAt(0, 0), -1.0f);
    QCOMPARE(countExact(render(view, QSize(400, 200)), HeatmapView::colorFor(1.0f)), 0);
    view.setFrame(oneHotFrame(), 5, QStringLiteral("ACGT"), QStringLiteral("ok"));
    view.clear();
    QCOMPARE(view.length(), 0);
  }

  void logoInformation() {
    SequenceLogo logo;
    logo.setSequences({"AAAA", "AACA", "ACGA", "ACGT"}, QStringLiteral("ACGT"));
    QCOMPARE(logo.positions(), 4);
    // Position 0: all A -> 2 bits.
    QCOMPARE(logo.frequency(0, 0), 1.0);
    QVERIFY(qFuzzyCompare(logo.information(0), 2.0));
    // Position 1: A, A, C, C -> H = 1 bit -> 1 bit.
    QCOMPARE(logo.frequency(1, 0), 0.5);
    QCOMPARE(logo.frequency(1, 1), 0.5);
    QVERIFY(qFuzzyCompare(logo.information(1), 1.0));
    // Position 2: A, C, G, G -> H = 1.5 bits -> 0.5 bits.
    QCOMPARE(logo.frequency(2, 2), 0.5);
    QCOMPARE(logo.frequency(2, 3), 0.0);
    QVERIFY(qFuzzyCompare(logo.information(2), 0.5));
    // Position 3: A, A, A, T -> H = 2 - 0.75 log2 3 bits.
    QCOMPARE(logo.frequency(3, 0), 0.75);
    QCOMPARE(logo.frequency(3, 3), 0.25);
    QVERIFY(std::abs(logo.information(3) - 0.75 * std::log2(3.0)) < 1e-12);
    // Out of range.
    QCOMPARE(logo.frequency(4, 0), 0.0);
    QCOMPARE(logo.frequency(0, 4), 0.0);
    QCOMPARE(logo.information(-1), 0.0);
  }

  void logoUnequalLengthsAndUnknownLetters() {
    SequenceLogo logo;
    // Position 1 is reached by two sequences (C, T), position 2 by one (G).
    logo.setSequences({"ACG", "A", "AT"}, QStringLiteral("ACGT"));
    QCOMPARE(logo.positions(), 3);
    QVERIFY(qFuzzyCompare(logo.information(0), 2.0));
    QCOMPARE(logo.frequency(1, 1), 0.5);
    QCOMPARE(logo.frequency(1, 3), 0.5);
    QVERIFY(qFuzzyCompare(logo.information(1), 1.0));
    QCOMPARE(logo.frequency(2, 2), 1.0);
    QVERIFY(qFuzzyCompare(logo.information(2), 2.0));
    // Letters outside the alphabet do not count; a position of only those is empty.
    logo.setSequences({"AN", "A-", "CN"}, QStringLiteral("ACGT"));
    QCOMPARE(logo.positions(), 2);
    QCOMPARE(logo.frequency(0, 0), 2.0 / 3.0);
    for (int j = 0; j < 4; ++j) QCOMPARE(logo.frequency(1, j), 0.0);
    QCOMPARE(logo.information(1), 0.0);
    logo.clear();
    QCOMPARE(logo.positions(), 0);
  }

  void logoDrawsColouredLetters() {
    SequenceLogo logo;
    logo.setSequences({"AAAT", "AATT", "AATT"}, QStringLiteral("ACGT"));
    const QImage image = render(logo, QSize(400, 240));
    const int green = countPixels(
        image, [](QColor c) { return c.green() > c.red() + 60 && c.green() > c.blue() + 60; });
    const int red = countPixels(
        image, [](QColor c) { return c.red() > c.green() + 100 && c.red() > c.blue() + 100; });
    QVERIFY2(green > 500, qPrintable(QString::number(green)));
    QVERIFY2(red > 500, qPrintable(QString::number(red)));
  }

  // Glyphs share one horizontal scale: a column of I is a thin I, not a solid block (issue 41),
  // so it carries much less ink than a column of W of the same height.
  void logoKeepsNarrowGlyphsNarrow() {
    const QString protein = QStringLiteral("ACDEFGHIKLMNPQRSTVWY");
    const QColor hydrophobic(0x22, 0x22, 0x22);  // I and W share the colour
    SequenceLogo i, w;
    i.setSequences({"III", "III"}, protein);
    w.setSequences({"WWW", "WWW"}, protein);
    const int inkI = countExact(render(i, QSize(400, 240)), hydrophobic);
    const int inkW = countExact(render(w, QSize(400, 240)), hydrophobic);
    QVERIFY2(inkI > 200, qPrintable(QString::number(inkI)));
    QVERIFY2(inkI < inkW / 2, qPrintable(QString("I %1, W %2").arg(inkI).arg(inkW)));
  }

  // Zoom: with a width per position the logo shows the window of positions that fits, and the
  // fitted bits axis ends at the next round number above the tallest stack.
  void logoZoom() {
    SequenceLogo logo;
    // Positions 3 (G G G T) and 4 (A A A C): 2 - H(3/4, 1/4) = 1.189 bits; 1 and 2: 0.
    logo.setSequences({"ACGA", "CAGA", "GTGA", "TGTC"}, QStringLiteral("ACGT"));
    QCOMPARE(logo.axisBits(), 2.0);
    logo.setFitBits(true);
    QVERIFY(std::abs(logo.information(3) - (2.0 - (0.75 * std::log2(4.0 / 3) + 0.25 * 2))) < 1e-12);
    QCOMPARE(logo.axisBits(), 1.2);
    logo.setSequences({"ACGT", "CGTA", "GTAC", "TACG"}, QStringLiteral("ACGT"));  // no information
    QCOMPARE(logo.axisBits(), 2.0);
    // A window of the positions that fit (at least: 140 px are counted for the axes), kept
    // inside the sequence; the whole width shows them all.
    logo.resize(140 + 2 * 16 + 5, 200);
    QCOMPARE(logo.windowPositions(), 4);
    QSignalSpy moved(&logo, &SequenceLogo::windowChanged);
    logo.setColumnWidth(16);
    QCOMPARE(moved.size(), 1);
    QCOMPARE(logo.windowPositions(), 2);
    logo.setFirstPosition(10);
    QCOMPARE(logo.firstPosition(), 2);
    logo.setFirstPosition(-3);
    QCOMPARE(logo.firstPosition(), 0);
    logo.resize(2000, 200);
    QCOMPARE(logo.windowPositions(), 4);
    logo.setColumnWidth(0);
    QCOMPARE(logo.columnWidth(), 0);
  }

  void histogramBins() {
    HistogramChart chart;
    chart.setSamples({{"a", {0, 1, 2, 3, 4}}, {"b", {2, 2, 4, NAN}}, {"empty", {}}}, 4);
    const QVector<double> edges = chart.binEdges();
    QCOMPARE(edges, (QVector<double>{0, 1, 2, 3, 4}));
    // The maximum falls in the last bin; bins are [lo, hi) otherwise.
    QCOMPARE(chart.fractions(0), (QVector<double>{0.2, 0.2, 0.2, 0.4}));
    const QVector<double> b = chart.fractions(1);
    QCOMPARE(b.size(), 4);
    QCOMPARE(b[0], 0.0);
    QCOMPARE(b[1], 0.0);
    QVERIFY(qFuzzyCompare(b[2], 2.0 / 3.0));
    QVERIFY(qFuzzyCompare(b[3], 1.0 / 3.0));
    QCOMPARE(chart.fractions(2), (QVector<double>{0, 0, 0, 0}));
    QVERIFY(chart.fractions(3).isEmpty());
  }

  void histogramSingleValueAndEmpty() {
    HistogramChart chart;
    chart.setSamples({{"c", {3, 3, 3}}}, 2);
    QCOMPARE(chart.binEdges(), (QVector<double>{2.5, 3.0, 3.5}));
    QCOMPARE(chart.fractions(0), (QVector<double>{0.0, 1.0}));
    chart.setSamples({}, 10);
    QVERIFY(chart.binEdges().isEmpty());
    QVERIFY(chart.fractions(0).isEmpty());
  }

  void barChartIgnoresMismatchedSets() {
    BarChart chart;
    chart.setBars({"AA", "AC", "AG"}, {{"good", {0.5, 0.3, 0.2}}, {"short", {1.0}}});
    const QImage image = render(chart, QSize(480, 320));
    QVERIFY(countExact(image, LineChart::paletteColor(0)) > 500);
    QCOMPARE(countExact(image, LineChart::paletteColor(1)), 0);
  }

  void lineChartBasics() {
    for (int i = 0; i < 8; ++i)
      for (int j = i + 1; j < 8; ++j)
        QVERIFY(LineChart::paletteColor(i) != LineChart::paletteColor(j));
    QCOMPARE(LineChart::paletteColor(8), LineChart::paletteColor(0));
    QVERIFY(LineChart::paletteColor(-1).isValid());

    LineChart chart;
    QCOMPARE(chart.plotName(), QStringLiteral("chart"));
    chart.setTitle(QStringLiteral("Entropy over Time"));
    QCOMPARE(chart.plotName(), QStringLiteral("entropy-over-time"));

    chart.setSeries({{"up", {{0, 0}, {1, 1}, {2, 4}}, {}}, {"flat", {{0, 2}, {2, 2}}, Qt::red}});
    QCOMPARE(chart.series().size(), 2);
    chart.setMarker(1.0);
    const QImage image = render(chart, QSize(500, 320));
    auto near = [](QColor want) {
      return [want](QColor c) {
        return std::abs(c.red() - want.red()) + std::abs(c.green() - want.green()) +
                   std::abs(c.blue() - want.blue()) <
               40;
      };
    };
    QVERIFY(countPixels(image, near(LineChart::paletteColor(0))) > 100);
    QVERIFY(countPixels(image, near(Qt::red)) > 100);
  }

  void savePngAndSvg() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    HeatmapView view;
    view.setFrame(oneHotFrame(), 5, QStringLiteral("ACGT"), QStringLiteral("export"));

    const QString png = dir.filePath(QStringLiteral("heat.PNG"));
    QCOMPARE(view.savePlot(png, QSize(400, 260)), QString());
    QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(400, 260));
    QVERIFY(countExact(image, HeatmapView::colorFor(1.0f)) > 0);

    // Never shown: the size hint.
    const QString hinted = dir.filePath(QStringLiteral("hint.png"));
    QCOMPARE(view.savePlot(hinted), QString());
    QCOMPARE(QImage(hinted).size(), view.sizeHint());

    const QString svg = dir.filePath(QStringLiteral("heat.svg"));
    QCOMPARE(view.savePlot(svg, QSize(400, 260)), QString());
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(text.startsWith("<?xml") || text.contains("<svg"));
    QVERIFY(text.contains("<path") || text.contains("<rect"));
    QVERIFY(text.contains("<title>heatmap</title>"));
  }

  void saveErrors() {
    QTemporaryDir dir;
    LineChart chart;
    const QString jpg = dir.filePath(QStringLiteral("chart.jpg"));
    const QString error = chart.savePlot(jpg);
    QVERIFY(!error.isEmpty());
    QVERIFY(error.contains(jpg));
    QVERIFY(!QFile::exists(jpg));

    for (const QString& bad :
         {QStringLiteral("/nonexistent-dir/x.png"), QStringLiteral("/nonexistent-dir/x.svg")}) {
      const QString e = chart.savePlot(bad, QSize(100, 100));
      QVERIFY(!e.isEmpty());
      QVERIFY2(e.contains(bad), qPrintable(e));
    }
  }

  // Renders every plot with realistic data (and every "no data" state) to PNG and SVG; all load
  // and none is blank. With GSFLOW_PLOT_DIR set, the files stay there to be looked at.
  void gallery() {
    QTemporaryDir temp;
    const QString dirPath = qEnvironmentVariableIsSet("GSFLOW_PLOT_DIR")
                                ? qEnvironmentVariable("GSFLOW_PLOT_DIR")
                                : temp.path();
    QVERIFY(QDir().mkpath(dirPath));
    const QDir dir(dirPath);

    HeatmapView heat;
    {
      QVector<float> p;
      const int length = 40;
      for (int i = 0; i < length; ++i) {
        float row[4] = {0.1f, 0.1f, 0.1f, 0.1f};
        row[(i * 7) % 4] += 0.6f * float(i) / length;
        const float sum = row[0] + row[1] + row[2] + row[3];
        for (float v : row) p.push_back(v / sum);
      }
      heat.setFrame(p, length, QStringLiteral("ACGT"), QStringLiteral("sequence 3, t = 0.42"));
    }
    HeatmapView heatLong;
    {
      const QString amino = QStringLiteral("ACDEFGHIKLMNPQRSTVWY");
      QVector<float> p(256 * 20, 0.0f);
      for (int i = 0; i < 256; ++i)
        for (int j = 0; j < 20; ++j)
          p[i * 20 + j] = ((i * 31 + j * 17) % 20 == 0) ? 0.9f : 0.1f / 19;
      heatLong.setFrame(p, 256, amino, QStringLiteral("protein, t = 1.00"));
    }
    LineChart line;
    {
      line.setTitle(QStringLiteral("Entropy over time"));
      line.setAxisTitles(QStringLiteral("time t"), QStringLiteral("mean entropy (bits)"));
      QVector<ChartSeries> series;
      for (int s = 0; s < 3; ++s) {
        ChartSeries cs{QStringLiteral("sequence %1").arg(s), {}, {}};
        for (int k = 0; k <= 50; ++k) {
          const double t = k / 50.0;
          cs.points.push_back({t, 2.0 * std::exp(-(3 + s) * t) + 0.05 * std::sin(20 * t + s)});
        }
        series.push_back(cs);
      }
      line.setSeries(series);
      line.setMarker(0.42);
    }
    SequenceLogo logo;
    logo.setSequences({"ACGTACGTTA", "ACGAACGTTA", "TCGTACCTTA", "ACGTAGGTAA", "ACCTACGTTAG"},
                      QStringLiteral("ACGT"));
    SequenceLogo proteinLogo;
    proteinLogo.setSequences(
        {"MKVLAAGIVDEKRHSTW", "MKILAAGLVDEKRNSTY", "MRVLSAGIVEEKKHQTW", "MKVLAPGIIDDRRHSTF"},
        QStringLiteral("ACDEFGHIKLMNPQRSTVWY"));
    HistogramChart histogram;
    {
      histogram.setTitle(QStringLiteral("Guidance score"));
      histogram.setXTitle(QStringLiteral("score"));
      QVector<double> a, b;
      for (int i = 0; i < 400; ++i) {
        a.push_back(std::sin(i * 12.9898) * 0.5 + std::sin(i * 78.233) * 0.5);
        b.push_back(0.6 + std::sin(i * 3.71) * 0.3 + std::sin(i * 11.3) * 0.25);
      }
      histogram.setSamples({{"baseline", a}, {"guided (w = 2)", b}}, 30);
    }
    BarChart bars;
    {
      bars.setTitle(QStringLiteral("Dinucleotide frequencies"));
      bars.setYTitle(QStringLiteral("frequency"));
      QStringList categories;
      for (QChar x : QStringLiteral("ACGT"))
        for (QChar y : QStringLiteral("ACGT")) categories << QString(x) + y;
      QVector<double> a, b;
      for (int i = 0; i < 16; ++i) {
        a.push_back(0.0625 + 0.02 * std::sin(i));
        b.push_back(0.0625 + 0.03 * std::cos(i * 1.7));
      }
      bars.setBars(categories, {{"training data", a}, {"generated", b}});
    }
    BarChart crowded;
    {
      crowded.setTitle(QStringLiteral("Trinucleotide frequencies"));
      crowded.setYTitle(QStringLiteral("frequency"));
      QStringList categories;
      QVector<double> a, b, c;
      const QString nt = QStringLiteral("ACGT");
      for (int i = 0; i < 64; ++i) {
        categories << QString(nt[i / 16]) + nt[(i / 4) % 4] + nt[i % 4];
        a.push_back(1.0 / 64 + 0.005 * std::sin(i));
        b.push_back(1.0 / 64 + 0.006 * std::cos(i * 1.3));
        c.push_back(1.0 / 64 - 0.004 * std::sin(i * 0.7));
      }
      crowded.setBars(categories, {{"training data", a}, {"generated", b}, {"guided", c}});
    }
    LineChart emptyLine;
    emptyLine.setTitle(QStringLiteral("Empty"));
    HeatmapView emptyHeat;

    const QList<QPair<QString, PlotWidget*>> plots = {{"heatmap", &heat},
                                                      {"heatmap-long", &heatLong},
                                                      {"line", &line},
                                                      {"logo-dna", &logo},
                                                      {"logo-protein", &proteinLogo},
                                                      {"histogram", &histogram},
                                                      {"bars", &bars},
                                                      {"bars-crowded", &crowded},
                                                      {"empty-line", &emptyLine},
                                                      {"empty-heatmap", &emptyHeat}};
    for (const auto& [name, plot] : plots) {
      const QString png = dir.filePath(name + QStringLiteral(".png"));
      QCOMPARE(plot->savePlot(png), QString());
      const QImage image(png);
      QVERIFY2(!image.isNull(), qPrintable(png));
      QCOMPARE(image.size(), plot->sizeHint());
      QVERIFY2(countExact(image, Qt::white) < image.width() * image.height(), qPrintable(png));
      const QString svg = dir.filePath(name + QStringLiteral(".svg"));
      QCOMPARE(plot->savePlot(svg), QString());
      // The SVG draws the same picture: rendered back, it is not blank either.
      QSvgRenderer renderer(svg);
      QVERIFY2(renderer.isValid(), qPrintable(svg));
      QImage back(plot->sizeHint(), QImage::Format_RGB32);
      back.fill(Qt::white);
      QPainter painter(&back);
      renderer.render(&painter);
      painter.end();
      QVERIFY2(countExact(back, Qt::white) < back.width() * back.height(), qPrintable(svg));
      back.save(dir.filePath(name + QStringLiteral("-svg.png")));
    }
    // Narrow: the category labels slant.
    const QString narrow = dir.filePath(QStringLiteral("bars-narrow.png"));
    QCOMPARE(bars.savePlot(narrow, QSize(360, 300)), QString());
    QCOMPARE(QImage(narrow).size(), QSize(360, 300));
  }
};

QTEST_MAIN(TestPlots)
#include "test_plots.moc"
