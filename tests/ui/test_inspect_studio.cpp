// Inspecting runs in gsflow-studio, offscreen, with real short dna-promoter runs in a real SQLite
// store (issue 41): the heatmap's hover tooltip (position, letter probabilities, final letter,
// fixed or edited), the final sequence's text on the trajectory tab with its marks, the results'
// one 1-based index column, the sequence pane, Ctrl+C as FASTA, the context menu and Export
// selected…, the zoomed logo of a 256-bp set, the comparison of a reopened run with the run
// before it, and the composition warning of a degenerate peptide. Writes screenshots to
// $GSFLOW_SCREENSHOT_DIR (default: a folder in the build tree).
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextCursor>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>

#include "gsflow/models/catalog.hpp"
#include "gsflow/pipeline/typicality_file.hpp"
#include "gsflow/storage/run_export.hpp"
#include "gsflow/storage/run_store.hpp"
#include "gsflow/ui/compare_view.hpp"
#include "gsflow/ui/design_panel.hpp"
#include "gsflow/ui/main_window.hpp"
#include "gsflow/ui/models/results_model.hpp"
#include "gsflow/ui/plots/comparison_charts.hpp"
#include "gsflow/ui/plots/heatmap_view.hpp"
#include "gsflow/ui/plots/sequence_logo.hpp"
#include "gsflow/ui/results_view.hpp"
#include "gsflow/ui/sequence_text.hpp"
#include "gsflow/ui/trajectory_view.hpp"
#include "studio_test_util.hpp"

using namespace gsflow;
using gsflow::ui::MainWindow;

namespace {

constexpr int kLength = 256;        // dna-promoter's length
constexpr int kMotifAt = 256 - 30;  // --fix -30=TATAAAAG as a 0-based index



// What the user sees when the pointer rests on `point` of `widget`: Qt's tooltip event, as the
// application sends it after the hover delay.
QString hoverText(QWidget* widget, const QPoint& point) {
  QToolTip::hideText();
  QHelpEvent help(QEvent::ToolTip, point, widget->mapToGlobal(point));
  QApplication::sendEvent(widget, &help);
  if (!QTest::qWaitFor([] { return QToolTip::isVisible(); }, 2000)) return {};
  return QToolTip::text();
}

// How much of a logo one can read: the tallest stack (pixels from its top letter pixel to its
// bottom one, in one pixel column) and the letter pixels in all (nucleotide colours).
struct LogoInk {
  int tallest = 0;
  long pixels = 0;
};
LogoInk logoInk(const QImage& image) {
  const auto isLetter = [](QColor c) {
    for (const QColor want : {QColor(0x10, 0x96, 0x48), QColor(0x25, 0x5C, 0x99),
                              QColor(0xF7, 0xA4, 0x1C), QColor(0xD6, 0x28, 0x39)})
      if (std::abs(c.red() - want.red()) + std::abs(c.green() - want.green()) +
              std::abs(c.blue() - want.blue()) <
          60)
        return true;
    return false;
  };
  LogoInk ink;
  for (int x = 0; x < image.width(); ++x) {
    int top = -1, bottom = -1;
    for (int y = 0; y < image.height(); ++y)
      if (isLetter(image.pixelColor(x, y))) {
        if (top < 0) top = y;
        bottom = y;
        ++ink.pixels;
      }
    if (top >= 0) ink.tallest = std::max(ink.tallest, bottom - top + 1);
  }
  return ink;
}

int countColour(const QImage& image, const QColor& colour) {
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) n += image.pixelColor(x, y) == colour;
  return n;
}

// Answers the next modal QFileDialog with `file` (the static getSaveFileName blocks; offscreen it
// is Qt's own dialog).
void answerFileDialog(const QString& file) {
  auto* timer = new QTimer;
  timer->setInterval(20);
  QObject::connect(timer, &QTimer::timeout, [timer, file] {
    auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
    if (!dialog) return;
    timer->stop();
    timer->deleteLater();
    // Typed into the name field: selectFile() can lose to the dialog's own initial selection,
    // applied once its folder has loaded.
    auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
    if (name)
      name->setText(file);
    else
      dialog->selectFile(file);
    QMetaObject::invokeMethod(dialog, "accept");  // a protected slot
  });
  timer->start();
}

}  // namespace

class InspectStudioTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString db_, shots_;
  std::int64_t plainRun_ = 0, editedRun_ = 0;

  std::unique_ptr<MainWindow> window() { return ui::testing::openWindow(db_); }

  // The trajectory tab on screen, its heatmap painted (the mouse maps through what it painted).
  static ui::HeatmapView* shownHeatmap(MainWindow& w) {
    w.tabs()->setCurrentWidget(w.trajectoryView());
    auto* heatmap = w.trajectoryView()->heatmap();
    if (!QTest::qWaitForWindowExposed(&w)) return heatmap;
    QCoreApplication::processEvents();
    heatmap->grab();
    return heatmap;
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    db_ = dir_.filePath(QStringLiteral("runs.sqlite"));
    // Settings go to the temporary folder, never the user's.
    shots_ = ui::testing::isolateStudio(dir_, QStringLiteral("gsflow-studio-inspect-tests"));
    QVERIFY(!shots_.isEmpty());

    // Two runs: a plain one, then one started from the plain run's first sequence with a fixed
    // TATA box (so it has fixed and edited positions).
    auto w = window();
    ui::testing::designUnguided(*w, 16, 10, 1, QStringLiteral("3"));
    QVERIFY(w->startRun());
    QCOMPARE(ui::testing::waitForEnd(*w, 120), QStringLiteral("completed"));
    plainRun_ = w->currentRunId();
    const std::string start = w->resultsView()->model()->sequences().at(0).text;
    ui::testing::designUnguided(*w, 4, 10, 1, QStringLiteral("4"));
    w->designPanel()->setDesignExpanded(true);
    w->designPanel()->fixEdit()->setText(QStringLiteral("-30=TATAAAAG"));
    w->designPanel()->startEdit()->setPlainText(QStringLiteral(">s1\n") +
                                                QString::fromStdString(start));
    QVERIFY(w->startRun());
    QCOMPARE(ui::testing::waitForEnd(*w, 120), QStringLiteral("completed"));
    editedRun_ = w->currentRunId();
  }

  // Hovering a heatmap column: its position (1-based), the probabilities of the frame shown (as
  // the heatmap holds them), and the final letter with what the design did there.
  void hoverTellsPositionProbabilitiesAndFinalLetter() {
    auto w = window();
    QVERIFY(w->reopenRun(editedRun_));
    auto* trajectory = w->trajectoryView();
    trajectory->setCurrentSequence(1);
    trajectory->setCurrentFrame(trajectory->frameCount() / 2);
    auto* heatmap = shownHeatmap(*w);
    QCOMPARE(heatmap->length(), kLength);
    const std::string final = w->resultsView()->model()->sequences().at(1).text;
    const std::string start = w->designPanel()->options().params.design.starts.at(0);

    // A fixed position of the TATA box.
    const int fixed = kMotifAt + 2;
    QString tip = hoverText(heatmap, heatmap->columnCenter(fixed));
    QCOMPARE(tip, heatmap->positionToolTip(fixed));
    const QStringList lines = tip.split(QLatin1Char('\n'));
    QCOMPARE(lines.at(0), QStringLiteral("Position %1 of 256").arg(fixed + 1));
    QVERIFY2(lines.at(1).startsWith(QStringLiteral("step ")), qPrintable(lines.at(1)));
    // Every letter with its probability to 3 decimals, most probable first (4 letters, K = 4,
    // unless some are under 0.01 and summed).
    const QString letters = QStringLiteral("ACGT");
    for (int j = 0; j < 4; ++j) {
      const float p = heatmap->probabilityAt(fixed, j);
      if (p >= 0.01f)
        QVERIFY2(
            lines.at(2).contains(QStringLiteral("%1 %2").arg(letters[j]).arg(double(p), 0, 'f', 3)),
            qPrintable(lines.at(2)));
    }
    QCOMPARE(lines.last(), QStringLiteral("Final letter: %1 (fixed by the design)")
                               .arg(QChar::fromLatin1(final[fixed])));

    // A position the run edited away from the start sequence, and one it kept.
    int edited = -1, kept = -1;
    for (int i = 0; i < kMotifAt; ++i) {
      if (final[i] != start[i] && edited < 0) edited = i;
      if (final[i] == start[i] && kept < 0) kept = i;
    }
    QVERIFY(edited >= 0 && kept >= 0);
    tip = hoverText(heatmap, heatmap->columnCenter(edited));
    QVERIFY2(tip.endsWith(QStringLiteral("Final letter: %1 (edited: the start sequence has %2)")
                              .arg(QChar::fromLatin1(final[edited]))
                              .arg(QChar::fromLatin1(start[edited]))),
             qPrintable(tip));
    tip = hoverText(heatmap, heatmap->columnCenter(kept));
    QVERIFY2(tip.endsWith(QStringLiteral("(kept from the start sequence)")), qPrintable(tip));

    // A run without a design: the final letter alone. Outside the cells: the usage hint.
    QVERIFY(w->reopenRun(plainRun_));
    heatmap = shownHeatmap(*w);
    tip = hoverText(heatmap, heatmap->columnCenter(0));
    QCOMPARE(tip.split(QLatin1Char('\n')).last(),
             QStringLiteral("Final letter: %1")
                 .arg(QChar::fromLatin1(w->resultsView()->model()->sequences().at(0).text[0])));
    tip = hoverText(heatmap, QPoint(2, 2));
    QVERIFY2(tip.startsWith(QStringLiteral("Hover a position")), qPrintable(tip));
  }

  // The chosen sequence's letters are on the trajectory tab, visible, with the fixed positions on
  // orange and the edited letters marked, and the heatmap's selection highlighted.
  void finalSequenceIsShownWithItsMarks() {
    auto w = window();
    QVERIFY(w->reopenRun(editedRun_));
    auto* trajectory = w->trajectoryView();
    trajectory->setCurrentSequence(2);
    shownHeatmap(*w);
    auto* text = trajectory->sequenceText();
    QVERIFY(text->isVisible());
    QVERIFY2(text->height() >= 3 * text->fontMetrics().lineSpacing(),
             qPrintable(QString::number(text->height())));
    const auto record = w->resultsView()->model()->sequences().at(2);
    const std::string start = w->designPanel()->options().params.design.starts.at(0);
    QCOMPARE(text->letters(), QString::fromStdString(record.text));
    QCOMPARE(text->toPlainText(), QString::fromStdString(record.text));
    int editedCount = 0;
    QVector<bool> fixed(kLength), edited(kLength);
    for (int i = 0; i < kLength; ++i) {
      fixed[i] = i >= kMotifAt && i < kMotifAt + 8;
      edited[i] = record.text[i] != start[i];
      editedCount += edited[i];
    }
    QVERIFY(editedCount > 0);
    // Each letter's format: the orange ground exactly on the fixed letters, bold purple exactly
    // on the edited ones.
    for (int i = 0; i < kLength; ++i) {
      QTextCursor c(text->document());
      c.setPosition(i + 1);  // the format of the letter before the cursor
      const QTextCharFormat f = c.charFormat();
      QCOMPARE(f.background().color() == ui::SequenceText::fixedBackground(), bool(fixed[i]));
      QCOMPARE(f.foreground().color() == ui::SequenceText::editedColor(), bool(edited[i]));
      QCOMPARE(f.fontWeight() >= QFont::Bold, bool(edited[i]));
    }
    // The label names the record as its FASTA id and counts the marks.
    const QString label = trajectory->sequenceLabel()->text();
    const auto run = storage::RunStore(db_.toStdString(), {.read_only = true}).run(editedRun_);
    QVERIFY2(label.contains(QStringLiteral("Final sequence 3")), qPrintable(label));
    QVERIFY2(label.contains(QString::fromStdString(storage::sequence_id(run.name, record))),
             qPrintable(label));
    QVERIFY2(label.contains(QStringLiteral("fixed by the design&nbsp;</span> 8")),
             qPrintable(label));
    QVERIFY2(
        label.contains(QStringLiteral("edited from the start sequence</b> %1").arg(editedCount)),
        qPrintable(label));
    // Drawn: the orange ground of the 8 fixed letters is on screen.
    const QImage drawn = text->viewport()->grab().toImage();
    QVERIFY(countColour(drawn, ui::SequenceText::fixedBackground()) > 8 * 20);
    // The heatmap's selection is highlighted in the letters.
    trajectory->heatmap()->setSelection(10, 19);
    QVERIFY(countColour(text->viewport()->grab().toImage(),
                        ui::SequenceText::selectedBackground()) > 10 * 20);
    // Hovering a letter names its position.
    const QTextCursor at = [&] {
      QTextCursor c(text->document());
      c.setPosition(kMotifAt + 1);
      return c;
    }();
    const QRect box = text->cursorRect(at);
    const QString tip = hoverText(text->viewport(), QPoint(box.left() + 3, box.center().y()));
    QCOMPARE(tip, QStringLiteral("Position %1: %2 (fixed by the design)")
                          .arg(kMotifAt + 2)
                          .arg(QChar::fromLatin1(record.text[kMotifAt + 1])) +
                      (record.text[kMotifAt + 1] != start[kMotifAt + 1]
                           ? QStringLiteral(" (edited from the start sequence)")
                           : QString()));
    QVERIFY(
        trajectory->grab().save(QDir(shots_).filePath(QStringLiteral("trajectory-edited.png"))));
  }

  // One index column, 1-based; the whole current sequence in the pane; Ctrl+C copies the
  // selected rows as FASTA with the export's headers; the context menu offers copy, export and
  // the trajectory, and Export selected… writes just those rows.
  void resultsCopyContextMenuAndExport() {
    auto w = window();
    QVERIFY(w->reopenRun(plainRun_));
    w->tabs()->setCurrentWidget(w->resultsView());
    auto* view = w->resultsView();
    auto* table = view->table();
    QVERIFY(QTest::qWaitForWindowExposed(table));
    QVERIFY(!table->verticalHeader()->isVisible());
    QCOMPARE(table->model()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("#"));
    QCOMPARE(view->model()->columnNames().count(QStringLiteral("#")), 1);
    for (int row = 0; row < table->model()->rowCount(); ++row)
      QCOMPARE(table->model()->index(row, 0).data().toString(), QString::number(row + 1));

    // Rows 2 and 4 (records s1 and s3), picked with the mouse and Ctrl.
    const auto clickRow = [&](int row, Qt::KeyboardModifiers modifiers) {
      const QRect rect = table->visualRect(table->model()->index(row, 0));
      QTest::mouseClick(table->viewport(), Qt::LeftButton, modifiers, rect.center());
    };
    clickRow(1, {});
    clickRow(3, Qt::ControlModifier);
    const auto selected = view->selectedSequences();
    QCOMPARE(selected.size(), std::size_t{2});
    QCOMPARE(selected[0].index, std::size_t{1});
    QCOMPARE(selected[1].index, std::size_t{3});

    // The pane shows the current row (record 4) whole: its FASTA header and every letter.
    const auto run = storage::RunStore(db_.toStdString(), {.read_only = true}).run(plainRun_);
    const QString pane = view->sequencePane()->toPlainText();
    QVERIFY2(pane.startsWith(QStringLiteral(">") +
                             QString::fromStdString(storage::sequence_id(run.name, selected[1]))),
             qPrintable(pane.left(80)));
    QCOMPARE(pane.split(QLatin1Char('\n')).at(1), QString::fromStdString(selected[1].text));

    // Ctrl+C on the table.
    QApplication::clipboard()->clear();
    table->setFocus();
    QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
    const QString copied = QApplication::clipboard()->text();
    QCOMPARE(copied, view->fasta(selected));
    const QStringList lines = copied.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2 * (1 + (kLength + 59) / 60));  // header + 60 letters a line
    QCOMPARE(lines.at(0), QStringLiteral(">") + QString::fromStdString(storage::fasta_header(
                                                    run.name, run.model.name, run.method, run.seed,
                                                    10, selected[0])));

    // The context menu (a real right-click) offers the three actions.
    QStringList offered;
    QTimer::singleShot(200, [&offered] {
      if (auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget())) {
        for (QAction* a : menu->actions())
          if (!a->isSeparator()) offered << a->text();
        menu->close();
      }
    });
    const QPoint at = table->visualRect(table->model()->index(3, 1)).center();
    QContextMenuEvent menuEvent(QContextMenuEvent::Mouse, at, table->viewport()->mapToGlobal(at));
    QApplication::sendEvent(table->viewport(), &menuEvent);
    QCOMPARE(offered,
             (QStringList{QStringLiteral("&Copy as FASTA"), QStringLiteral("&Export selected…"),
                          QStringLiteral("Open &trajectory")}));

    // Export selected…: through the file dialog, the same records as the copy.
    const QString file = dir_.filePath(QStringLiteral("selected.fasta"));
    answerFileDialog(file);
    view->exportSelectedAction()->trigger();
    QFile written(file);
    QVERIFY(written.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromLatin1(written.readAll()), copied);

    // Open trajectory: the current row's sequence.
    view->openTrajectoryAction()->trigger();
    QCOMPARE(w->tabs()->currentWidget(), w->trajectoryView());
    QCOMPARE(w->trajectoryView()->currentSequence(), std::size_t{3});
  }

  // The 256-bp logo: by default a window of positions 16 px wide, moved by a scroll bar or the
  // wheel, with the bits axis fitted to the tallest stack, against the old whole-width,
  // log2(4)-bits drawing.
  void longLogoZoomsAndScrolls() {
    auto w = window();
    QVERIFY(w->reopenRun(plainRun_));
    w->tabs()->setCurrentWidget(w->resultsView());
    auto* view = w->resultsView();
    QVERIFY(QTest::qWaitForWindowExposed(view));
    auto* logo = view->logo();
    QCOMPARE(logo->positions(), kLength);

    view->setLogoZoom(0);
    view->setLogoFitBits(false);
    QCoreApplication::processEvents();
    const int oldWidth = logo->width();
    const LogoInk before = logoInk(logo->grab().toImage());
    QVERIFY(!view->logoScrollBar()->isVisible());

    view->setLogoZoom(-1);  // the default: Auto
    view->setLogoFitBits(true);
    QCoreApplication::processEvents();
    QCOMPARE(logo->columnWidth(), 16);
    QVERIFY(logo->fitBits());
    QVERIFY(logo->axisBits() < 2.0);
    const int window = logo->windowPositions();
    QVERIFY2(window >= 30 && window < kLength, qPrintable(QString::number(window)));
    QVERIFY(view->logoScrollBar()->isVisible());
    QCOMPARE(view->logoScrollBar()->maximum(), kLength - window);
    const LogoInk after = logoInk(logo->grab().toImage());
    qInfo(
        "256-bp logo of 16 sequences, %d px wide: %.1f px per position, tallest stack %d px, "
        "%.0f letter pixels per position (whole width, 0-2 bits) -> a window of %d positions, "
        "tallest stack %d px, %.0f letter pixels per position (axis to %.2f bits)",
        oldWidth, double(oldWidth - 110) / kLength, before.tallest, double(before.pixels) / kLength,
        window, after.tallest, double(after.pixels) / window, logo->axisBits());
    QVERIFY2(after.tallest >= before.tallest * 3 / 2,
             qPrintable(QStringLiteral("%1 -> %2").arg(before.tallest).arg(after.tallest)));
    QVERIFY2(after.pixels / window >= 4 * before.pixels / kLength,
             qPrintable(QStringLiteral("%1 -> %2").arg(before.pixels).arg(after.pixels)));
    // The scroll bar moves the window to the end; the wheel moves it back.
    view->logoScrollBar()->setValue(view->logoScrollBar()->maximum());
    QCOMPARE(logo->firstPosition(), kLength - window);
    QVERIFY(view->grab().save(QDir(shots_).filePath(QStringLiteral("logo-zoomed.png"))));
    const QPoint centre = logo->rect().center();
    QWheelEvent wheel(centre, logo->mapToGlobal(centre), {}, QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(logo, &wheel);
    QVERIFY(logo->firstPosition() < kLength - window);
    QCOMPARE(view->logoScrollBar()->value(), logo->firstPosition());
  }

  // `gsflow-studio --reopen RUN --tab compare`: the comparison shows RUN (as Run B) against the
  // run before it from the same model (Run A), or the next one when RUN is the first.
  void reopenedRunIsCompared() {
    // As main() does it: a window, the run reopened by name, then the tab.
    auto w = window();
    const auto run = storage::RunStore(db_.toStdString(), {.read_only = true}).run(editedRun_);
    QVERIFY(w->reopenRun(QString::fromStdString(run.name)));
    w->tabs()->setCurrentIndex(2);
    QCOMPARE(w->tabs()->currentWidget(), w->compareView());
    QCOMPARE(w->compareView()->rightRun(), editedRun_);
    QCOMPARE(w->compareView()->leftRun(), plainRun_);
    QCOMPARE(w->compareView()->histogram()->binEdges().isEmpty(), false);
    // The first run has nothing before it: the run after it.
    QVERIFY(w->reopenRun(plainRun_));
    QCOMPARE(w->compareView()->rightRun(), plainRun_);
    QCOMPARE(w->compareView()->leftRun(), editedRun_);
  }

  // A run of a model with a profile gets the warning column; a 57 %-cysteine peptide among
  // natural ones is flagged, its cells drawn in the warning colour.
  void degenerateCompositionIsFlagged() {
    auto w = window();
    QVERIFY(w->reopenRun(plainRun_));
    QVERIFY(w->resultsView()->model()->hasWarnings());  // dna-promoter.profile.json

    ui::ResultsView view;
    view.resize(1000, 600);
    const auto profile = pipeline::profile_for(models::resolve_model("peptide"));
    QVERIFY(profile.has_value());
    view.setTypicality(profile);
    std::vector<storage::SequenceRecord> peptides(3);
    peptides[0] = {0, "GIGKFLHSAKKFGKAFVGEIMNS", {}, {}};  // magainin 2
    peptides[1] = {1, "CKCCRCGCKCCSCRCKCACRCKC", {}, {}};  // C 57 % K 17 % R 13 % (issue 41)
    peptides[2] = {2, "MSKGEELFTGVVPILVELDGDVN", {}, {}};  // GFP's first 23 residues
    view.setSequences(peptides, QStringLiteral("protein"));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const auto* model = view.model();
    const int warning = model->columnOf(QStringLiteral("warning"));
    QVERIFY(warning >= 0);
    const QStringList flagged = model->warningsAt(1);
    QVERIFY2(!flagged.isEmpty() && flagged.front().startsWith(QStringLiteral("C 0.")),
             qPrintable(flagged.join("; ")));
    QVERIFY2(model->warningsAt(0).isEmpty(), qPrintable(model->warningsAt(0).join("; ")));
    // Drawn: the flagged row's warning cell has the warning colour, the typical row's has not.
    auto* table = view.table();
    table->scrollTo(table->model()->index(1, warning));
    const QImage image = table->viewport()->grab().toImage();
    const auto cellColour = [&](int row) {
      const QRect cell = table->visualRect(table->model()->index(row, warning));
      return countColour(image.copy(cell.adjusted(2, 2, -2, -2)), ui::ResultsView::warningColor());
    };
    QVERIFY(cellColour(1) > 50);
    QCOMPARE(cellColour(0), 0);
    table->selectRow(1);
    QVERIFY(
        view.sequencePane()->toPlainText().contains(QStringLiteral("Far from the training data")));
    table->selectionModel()->clearSelection();  // the pane keeps the current row; its colour shows
    QVERIFY(view.grab().save(QDir(shots_).filePath(QStringLiteral("results-warning.png"))));
  }
};

QTEST_MAIN(InspectStudioTest)
#include "test_inspect_studio.moc"
