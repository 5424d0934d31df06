// gsflow-studio's design features end to end, offscreen, with the bundled dna-promoter model and a
// real SQLite store: a run with a fixed motif and constraints set up in the form keeps the motif
// and meets the constraints, the results table shows the constraint status, the heatmap marks
// the fixed positions (also for the reopened run); a range dragged across the heatmap and locked
// lands in the template and the next run keeps it; bad design input gets a dialog naming the
// field. Writes a screenshot to $GSFLOW_SCREENSHOT_DIR (default: a folder in the build tree).
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "gsflow/storage/run_store.hpp"
#include "gsflow/ui/design_panel.hpp"
#include "gsflow/ui/main_window.hpp"
#include "gsflow/ui/models/results_model.hpp"
#include "gsflow/ui/plots/heatmap_view.hpp"
#include "gsflow/ui/results_view.hpp"
#include "gsflow/ui/trajectory_view.hpp"
#include "studio_test_util.hpp"

using namespace gsflow;
using gsflow::ui::MainWindow;

namespace {

constexpr int kLength = 256;        // dna-promoter's length
constexpr int kMotifAt = 256 - 30;  // -30 (1-based from the 3' end) as a 0-based index
const std::string kMotif = "TATAAAAG";



std::size_t longestRun(const std::string& s) {
  std::size_t best = 0, run = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    run = i > 0 && s[i] == s[i - 1] ? run + 1 : 1;
    best = std::max(best, run);
  }
  return best;
}

// The positions flagged in `fixed`.
QList<int> flagged(const QVector<bool>& fixed) {
  QList<int> out;
  for (int i = 0; i < fixed.size(); ++i)
    if (fixed[i]) out << i;
  return out;
}

QList<int> range(int first, int last) {
  QList<int> out;
  for (int i = first; i <= last; ++i) out << i;
  return out;
}

// Drags across the heatmap's columns from position `from` to `to` with the left button.
void drag(ui::HeatmapView* heatmap, int from, int to) {
  const QPoint a = heatmap->columnCenter(from), b = heatmap->columnCenter(to);
  QTest::mousePress(heatmap, Qt::LeftButton, {}, a);
  QTest::mouseMove(heatmap, (a + b) / 2);
  QTest::mouseMove(heatmap, b);
  QTest::mouseRelease(heatmap, Qt::LeftButton, {}, b);
}

}  // namespace

class DesignStudioTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString db_, shots_;
  std::int64_t motifRun_ = 0;

  std::unique_ptr<MainWindow> window() {
    auto w = std::make_unique<MainWindow>(db_);
    w->resize(1400, 900);
    w->show();
    return w;
  }

  // The heatmap laid out on screen (the mouse maps through what it painted).
  static ui::HeatmapView* shownHeatmap(MainWindow& w) {
    w.tabs()->setCurrentWidget(w.trajectoryView());
    auto* heatmap = w.trajectoryView()->heatmap();
    if (!QTest::qWaitForWindowExposed(&w)) return heatmap;
    QCoreApplication::processEvents();  // pending layouts
    heatmap->grab();                    // paints, as the screen would
    return heatmap;
  }

  // The heatmap's fixed positions as drawn: the orange bar spans exactly their columns.
  static void checkFixedBar(ui::HeatmapView* heatmap, int first, int last) {
    const QImage image = heatmap->grab().toImage();
    const QRgb orange = ui::HeatmapView::fixedColor().rgb();
    int left = image.width(), right = -1;
    for (int y = 0; y < image.height(); ++y)
      for (int x = 0; x < image.width(); ++x)
        if (image.pixel(x, y) == orange) {
          left = std::min(left, x);
          right = std::max(right, x);
        }
    QVERIFY2(right >= 0, "no fixed-position bar drawn");
    const qreal cell = heatmap->columnCenter(1).x() - heatmap->columnCenter(0).x();
    const int dpr = qRound(image.devicePixelRatio());
    QVERIFY(std::abs(left / dpr - (heatmap->columnCenter(first).x() - cell / 2)) <= 1.5);
    QVERIFY(std::abs(right / dpr - (heatmap->columnCenter(last).x() + cell / 2)) <= 1.5);
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    db_ = dir_.filePath(QStringLiteral("runs.sqlite"));
    // Settings go to the temporary folder, never the user's.
    shots_ = ui::testing::isolateStudio(dir_, QStringLiteral("gsflow-studio-design-tests"));
    QVERIFY(!shots_.isEmpty());
  }

  // --fix -30=TATAAAAG --avoid EcoRI --max-run 6, set up in the form.
  void fixedMotifRunKeepsTheMotif() {
    auto w = window();
    ui::testing::designUnguided(*w, 4, 20, 5, QStringLiteral("5"));
    auto* d = w->designPanel();
    d->setDesignExpanded(true);
    d->fixEdit()->setText(QStringLiteral("-30=TATAAAAG"));
    d->avoidEdit()->setText(QStringLiteral("EcoRI"));
    d->maxRunBox()->setValue(6);
    QVERIFY(w->startRun());
    QCOMPARE(ui::testing::waitForEnd(*w, 120), QStringLiteral("completed"));
    motifRun_ = w->currentRunId();

    // The sequences: motif at its place, no EcoRI site (GAATTC is its own reverse complement),
    // no run longer than 6; the store says the constraints are met.
    auto* model = w->resultsView()->model();
    QCOMPARE(model->rowCount(), 4);
    for (const auto& s : model->sequences()) {
      QCOMPARE(s.text.size(), std::size_t{kLength});
      QCOMPARE(s.text.substr(kMotifAt, kMotif.size()), kMotif);
      QVERIFY(s.text.find("GAATTC") == std::string::npos);
      QVERIFY(longestRun(s.text) <= 6);
      QCOMPARE(s.scores.at("constraints_met"), 1.0);
      QVERIFY(s.scores.count("repaired") == 1);
    }
    // The table: "constraints" reads met, "repaired" a whole number; the filter knows the words.
    const auto* table = w->resultsView()->table()->model();
    QStringList headers;
    for (int c = 0; c < table->columnCount(); ++c)
      headers << table->headerData(c, Qt::Horizontal).toString();
    QVERIFY2(headers.contains(QStringLiteral("constraints")), qPrintable(headers.join(',')));
    QVERIFY(!headers.contains(QStringLiteral("constraints_met")));
    const int met = static_cast<int>(headers.indexOf(QStringLiteral("constraints")));
    const int repaired = static_cast<int>(headers.indexOf(QStringLiteral("repaired")));
    QVERIFY(repaired >= 0);
    for (int row = 0; row < 4; ++row) {
      QCOMPARE(table->index(row, met).data().toString(), QStringLiteral("met"));
      bool whole = false;
      table->index(row, repaired).data().toString().toInt(&whole);
      QVERIFY(whole);
    }
    w->resultsView()->setFilterText(QStringLiteral("constraints = unmet"));
    QCOMPARE(table->rowCount(), 0);
    w->resultsView()->setFilterText(QStringLiteral("constraints = met"));
    QCOMPARE(table->rowCount(), 4);
    w->resultsView()->setFilterText(QString());

    // The heatmap marks the motif's 8 positions, and draws the bar over exactly their columns.
    auto* heatmap = shownHeatmap(*w);
    QCOMPARE(heatmap->length(), kLength);
    QCOMPARE(flagged(heatmap->fixedPositions()), range(kMotifAt, kMotifAt + 7));
    checkFixedBar(heatmap, kMotifAt, kMotifAt + 7);
    QVERIFY(w->grab().save(QDir(shots_).filePath(QStringLiteral("design-run.png"))));

    // Reopened from the store: the same marks, from the run's stored parameters.
    auto again = window();
    QVERIFY(again->reopenRun(motifRun_));
    QCOMPARE(again->designPanel()->fixEdit()->text(), QStringLiteral("-30=TATAAAAG"));
    QCOMPARE(again->designPanel()->avoidEdit()->text(), QStringLiteral("EcoRI"));
    QVERIFY(again->designPanel()->isDesignExpanded());
    QCOMPARE(flagged(shownHeatmap(*again)->fixedPositions()), range(kMotifAt, kMotifAt + 7));
  }

  // Drag across columns, Lock selection: the letters go into the template, the next run keeps
  // them and the heatmap marks them.
  void lockedSelectionIsKeptByTheNextRun() {
    QVERIFY(motifRun_ > 0);
    auto w = window();
    QVERIFY(w->reopenRun(motifRun_));
    auto* trajectory = w->trajectoryView();
    trajectory->setCurrentSequence(1);  // frames read from the store
    QVERIFY(trajectory->hasFrames(1));
    auto* heatmap = shownHeatmap(*w);
    QVERIFY(!heatmap->columnCenter(10).isNull());
    QVERIFY(!trajectory->lockAction()->isEnabled());
    drag(heatmap, 10, 19);
    QCOMPARE(heatmap->selection(), qMakePair(10, 19));
    QVERIFY(trajectory->lockAction()->isEnabled());
    QVERIFY(trajectory->grab().save(QDir(shots_).filePath(QStringLiteral("design-selection.png"))));
    const std::string chosen = w->resultsView()->model()->sequences().at(1).text;
    QCOMPARE(w->resultsView()->model()->sequences().at(1).index, std::size_t{1});
    trajectory->lockAction()->trigger();
    // A second range, dragged right to left, merges into the same template.
    drag(heatmap, 40, 35);
    QCOMPARE(heatmap->selection(), qMakePair(35, 40));
    trajectory->lockAction()->trigger();

    const QString tmpl = w->designPanel()->templateEdit()->toPlainText();
    QCOMPARE(tmpl.size(), kLength);
    for (int i = 0; i < kLength; ++i) {
      const bool locked = (i >= 10 && i <= 19) || (i >= 35 && i <= 40);
      QCOMPARE(tmpl[i],
               locked ? QChar::fromLatin1(chosen[static_cast<std::size_t>(i)]) : QLatin1Char('N'));
    }
    QVERIFY(w->designPanel()->isDesignExpanded());
    QVERIFY(
        w->designPanel()->grab().save(QDir(shots_).filePath(QStringLiteral("design-panel.png"))));

    // The next run (the reopened run's settings plus the template) keeps every locked letter.
    w->designPanel()->numberBox()->setValue(2);
    w->designPanel()->batchBox()->setValue(2);
    w->designPanel()->seedEdit()->setText(QStringLiteral("77"));
    QVERIFY(w->startRun());
    QCOMPARE(ui::testing::waitForEnd(*w, 120), QStringLiteral("completed"));
    const storage::RunStore store(db_.toStdString(), {.read_only = true});
    const auto made = store.sequences(w->currentRunId());
    QCOMPARE(made.size(), std::size_t{2});
    for (const auto& s : made) {
      QCOMPARE(s.text.substr(10, 10), chosen.substr(10, 10));
      QCOMPARE(s.text.substr(35, 6), chosen.substr(35, 6));
      QCOMPARE(s.text.substr(kMotifAt, kMotif.size()), kMotif);
    }
    QList<int> expected = range(10, 19) + range(35, 40) + range(kMotifAt, kMotifAt + 7);
    QCOMPARE(flagged(shownHeatmap(*w)->fixedPositions()), expected);
  }

  // A letter outside the alphabet: a dialog naming the template, nothing started. A template the
  // model cannot make: the run fails with a dialog naming the template too.
  void badTemplateNamesTheField() {
    auto w = window();
    ui::testing::designUnguided(*w, 2, 5, 5, QStringLiteral("1"));
    QSignalSpy errors(w.get(), &MainWindow::errorShown);
    QString tmpl(kLength, QLatin1Char('N'));
    tmpl[7] = QLatin1Char('Z');
    w->designPanel()->templateEdit()->setPlainText(tmpl);
    QVERIFY(!w->startRun());
    QCOMPARE(errors.size(), 1);
    QString message = errors.back().front().toString();
    QVERIFY2(message.startsWith(QStringLiteral("Template (--template): 'Z' at position 8")),
             qPrintable(message));
    w->designPanel()->templateEdit()->setPlainText(QString(100, QLatin1Char('N')));
    QVERIFY(w->startRun());
    QCOMPARE(ui::testing::waitForEnd(*w, 120), QStringLiteral("failed"));
    QCOMPARE(errors.size(), 2);
    message = errors.back().front().toString();
    QVERIFY2(message.contains(QStringLiteral("Template (--template): 100 letters")),
             qPrintable(message));
  }

  // The Design section's fields survive a restart (QSettings); it opens when it holds a design.
  void designFieldsSurviveARestart() {
    {
      auto w = window();
      ui::testing::designUnguided(*w, 2, 5, 5, QStringLiteral("1"));
      auto* d = w->designPanel();
      d->setDesignExpanded(false);
      d->templateEdit()->setPlainText(QStringLiteral("NNNNACGTNNNN"));
      d->startEdit()->setPlainText(QStringLiteral(">s1\nACGTACGTACGT"));
      d->maxEditsBox()->setValue(3);
      d->avoidEdit()->setText(QStringLiteral("BsaI, EcoRI"));
      w->close();
    }
    auto w = window();
    auto* d = w->designPanel();
    QVERIFY(d->isDesignExpanded());
    const auto design = d->options().params.design;
    QCOMPARE(design.templates, std::vector<std::string>{"NNNNACGTNNNN"});
    QCOMPARE(design.starts, std::vector<std::string>{"ACGTACGTACGT"});
    QCOMPARE(design.start_ids, std::vector<std::string>{"s1"});
    QCOMPARE(design.max_edits, std::size_t{3});
    QCOMPARE(design.constraints.avoid, (std::vector<std::string>{"BsaI", "EcoRI"}));
  }
};

QTEST_MAIN(DesignStudioTest)
#include "test_design_studio.moc"
