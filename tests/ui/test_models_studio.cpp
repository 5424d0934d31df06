// gsflow-studio's Models view end to end, offscreen, with the real `gsflow` command and a
// temporary $GSFLOW_USER_MODELS: the bundled generators and classifiers listed as `gsflow models
// list --json` lists them, with their cards; a classifier trained through the dialog's widgets from
// two small FASTA files (promoter / upstream windows of data/dna256 when fetched, else synthetic
// TATA-box sequences) shows progress and its validation curve, appears in the list and in the
// design form's guidance choices, and guides a run by name; a generator fine-tuned on a family
// appears in the form's models; bad input (a letter outside the alphabet, a name that exists, too
// few sequences, an empty field) gives a dialog naming the cause and writes nothing; Cancel writes
// nothing; Delete… (confirmed) removes a user model and refuses a bundled one; models the command
// line makes or deletes meanwhile show when the tab is shown again. Writes
// models-view.png to $GSFLOW_SCREENSHOT_DIR (default: a folder in the build tree).
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QCryptographicHash>
#include <QDialogButtonBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <random>

#include "gsflow/models/catalog.hpp"
#include "gsflow/models/classifier.hpp"
#include "gsflow/ui/design_panel.hpp"
#include "gsflow/ui/history_view.hpp"
#include "gsflow/ui/main_window.hpp"
#include "gsflow/ui/models/model_list_model.hpp"
#include "gsflow/ui/models/results_model.hpp"
#include "gsflow/ui/models_view.hpp"
#include "gsflow/ui/plots/line_chart.hpp"
#include "gsflow/ui/results_view.hpp"
#include "gsflow/ui/training_dialog.hpp"

using namespace gsflow;
using gsflow::ui::ModelListModel;
using gsflow::ui::ModelsView;
using gsflow::ui::TrainingDialog;
using gsflow::ui::TrainingRequest;

namespace {

struct Record {
  QString id, letters;
};

void writeFasta(const QString& file, const QList<Record>& records) {
  QFile f(file);
  QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
  for (const auto& r : records) f.write(QStringLiteral(">%1\n%2\n").arg(r.id, r.letters).toUtf8());
}

// `count` records of each label from data/dna256/labels/train.fasta (promoter-proximal windows
// are label=1, windows 2 kb upstream label=0), or empty when the data is not fetched.
std::pair<QList<Record>, QList<Record>> realRecords(int count) {
  QFile f(QStringLiteral(GSFLOW_SOURCE_DIR "/data/dna256/labels/train.fasta"));
  std::pair<QList<Record>, QList<Record>> out;
  if (!f.open(QIODevice::ReadOnly)) return out;
  Record r;
  int label = -1;
  const auto keep = [&] {
    auto& list = label == 1 ? out.first : out.second;
    if (label >= 0 && list.size() < count) list << r;
  };
  while (!f.atEnd() && (out.first.size() < count || out.second.size() < count)) {
    const QString line = QString::fromLatin1(f.readLine()).trimmed();
    if (line.startsWith(QLatin1Char('>'))) {
      keep();
      r = {line.mid(1).section(QLatin1Char(' '), 0, 0), QString()};
      label = line.contains(QStringLiteral(" label=1")) ? 1 : line.contains(" label=0") ? 0 : -1;
    } else {
      r.letters += line;
    }
  }
  keep();
  return out;
}

// Synthetic stand-ins (as tests/app/own_data_cli.sh makes them): random 256-mers, the positives
// with TATAAAAG at a random place.
std::pair<QList<Record>, QList<Record>> syntheticRecords(int count) {
  std::mt19937 rng(11);
  const auto random = [&rng] {
    QString s;
    for (int i = 0; i < 256; ++i) s += QLatin1Char("ACGT"[rng() % 4]);
    return s;
  };
  std::pair<QList<Record>, QList<Record>> out;
  for (int i = 0; i < count; ++i) {
    QString p = random();
    p.replace(static_cast<int>(rng() % 248), 8, QStringLiteral("TATAAAAG"));
    out.first << Record{QStringLiteral("p%1").arg(i), p};
    out.second << Record{QStringLiteral("n%1").arg(i), random()};
  }
  return out;
}

QByteArray fileHash(const QString& file) {
  QFile f(file);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

// The training dialog on screen (closed ones may wait for their deletion), or nullptr.
TrainingDialog* openDialog(ModelsView* view) {
  for (auto* dialog : view->findChildren<TrainingDialog*>())
    if (dialog->isVisible()) return dialog;
  return nullptr;
}

// Closes the error dialogs left open (window-modal: they would block clicks on the window).
void closeMessageBoxes() {
  for (QWidget* w : QApplication::topLevelWidgets())
    if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) box->close();
  QCoreApplication::processEvents();
}

}  // namespace

class ModelsStudioTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString user_, shots_, pos_, neg_, family_, few_, bad_;
  std::unique_ptr<ui::MainWindow> window_;
  ModelsView* view_ = nullptr;

  QString path(const QString& name) const { return dir_.filePath(name); }
  QString userFile(const QString& relative) const { return QDir(user_).filePath(relative); }

  // Fills the classifier dialog through its widgets and presses Train; returns how the training
  // ended ("trained", "cancelled", "failed", or "(timed out)").
  QString trainClassifier(const QString& name, const QString& positives, const QString& negatives,
                          int steps) {
    QTest::mouseClick(view_->trainClassifierButton(), Qt::LeftButton);
    auto* dialog = openDialog(view_);
    if (!dialog) return QStringLiteral("(no dialog)");
    dialog->nameEdit()->setText(name);
    dialog->positivesEdit()->setText(positives);
    dialog->negativesEdit()->setText(negatives);
    dialog->stepsBox()->setValue(steps);
    dialog->threadsBox()->setValue(1);
    QSignalSpy ended(view_, &ModelsView::trainingEnded);
    QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok),
                      Qt::LeftButton);
    if (!ended.wait(60000)) return QStringLiteral("(timed out)");
    return ended.front().front().toString();
  }

  const pipeline::ListedModel* listed(const QString& name) const {
    const int row = view_->model()->rowOf(name);
    return row < 0 ? nullptr : &view_->model()->models()[static_cast<std::size_t>(row)];
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    user_ = path(QStringLiteral("user-models"));
    // Never the user's own models or settings.
    qputenv("GSFLOW_USER_MODELS", user_.toUtf8());
    qunsetenv("GSFLOW_MODELS");
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, path("settings"));
    QCoreApplication::setOrganizationName(QStringLiteral("gsflow-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("gsflow-studio-models-tests"));
    shots_ = qEnvironmentVariable("GSFLOW_SCREENSHOT_DIR",
                                  QDir::current().filePath(QStringLiteral("screenshots")));
    QVERIFY(QDir().mkpath(shots_));

    auto [positives, negatives] = realRecords(100);
    if (positives.size() < 100 || negatives.size() < 100) {
      qInfo("data/dna256 not fetched (scripts/fetch-data): synthetic sequences instead");
      std::tie(positives, negatives) = syntheticRecords(100);
    }
    pos_ = path("pos.fa");
    neg_ = path("neg.fa");
    family_ = path("family.fa");
    few_ = path("few.fa");
    bad_ = path("bad.fa");
    writeFasta(pos_, positives);
    writeFasta(neg_, negatives);
    writeFasta(family_, positives.mid(0, 30) + negatives.mid(0, 30));  // 60: a family needs 50
    writeFasta(few_, negatives.mid(0, 10));
    auto broken = positives;
    broken[2].letters[4] = QLatin1Char('Z');  // record 3 (header on line 5), position 5
    writeFasta(bad_, broken);

    window_ = std::make_unique<ui::MainWindow>(path("runs.sqlite"));
    window_->resize(1400, 900);
    window_->show();
    view_ = window_->modelsView();
    view_->trainer()->setProgram(QStringLiteral(GSFLOW_CLI));
    window_->tabs()->setCurrentWidget(view_);  // shown: lists the models
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }

  // The bundled models as the command line lists them, each with its card; bundled ones cannot
  // be deleted.
  void listsBundledModels() {
    QElapsedTimer clock;
    clock.start();
    view_->reload();  // on the UI thread whenever the view is shown: it must stay quick
    qInfo("listing the models took %lld ms", clock.elapsed());
    QAbstractItemModelTester tester(view_->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QProcess cli;
    cli.start(QStringLiteral(GSFLOW_CLI), {"models", "list", "--json"});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    const auto json = QJsonDocument::fromJson(cli.readAllStandardOutput()).array();
    const auto* model = view_->model();
    QCOMPARE(model->rowCount(), static_cast<int>(json.size()));
    for (int row = 0; row < model->rowCount(); ++row) {
      const auto o = json[row].toObject();
      const auto cell = [&](int column) { return model->index(row, column).data().toString(); };
      QCOMPARE(cell(ModelListModel::Name), o["name"].toString());
      QCOMPARE(cell(ModelListModel::Kind), o["kind"].toString());
      QCOMPARE(cell(ModelListModel::Origin), o["origin"].toString());
      QCOMPARE(cell(ModelListModel::Alphabet), o["alphabet"].toString());
      QCOMPARE(cell(ModelListModel::Length), o["length"].toString());
      QCOMPARE(cell(ModelListModel::File), o["file"].toString());
    }
    for (const char* name : {"dna-promoter", "peptide"}) {
      const auto* m = listed(QString::fromLatin1(name));
      QVERIFY2(m, name);
      QCOMPARE(QString::fromStdString(m->kind), QStringLiteral("generator (gsfm)"));
      QCOMPARE(QString::fromStdString(m->origin), QStringLiteral("bundled"));
    }
    QCOMPARE(QString::fromStdString(listed("peptide")->alphabet), QStringLiteral("protein"));
    QCOMPARE(QString::fromStdString(listed("dna-promoter")->length), QStringLiteral("256"));
    QVERIFY(!models::bundled_classifiers().empty());
    for (const auto& name : models::bundled_classifiers()) {
      const auto* m = listed(QString::fromStdString(name));
      QVERIFY2(m && m->kind_group() == "classifier" && !m->user(), name.c_str());
    }
    QVERIFY(listed("promoter") && listed("amp"));

    // The selected model's card, rendered from NAME.md beside the checkpoint.
    QVERIFY(view_->selectModel(QStringLiteral("dna-promoter")));
    QVERIFY(view_->card()->toPlainText().startsWith(QStringLiteral("dna-promoter")));
    QVERIFY(view_->card()->toPlainText().contains(QStringLiteral("Method:")));
    QVERIFY(!view_->deleteButton()->isEnabled());
    QVERIFY(view_->selectModel(QStringLiteral("promoter")));
    QVERIFY(view_->card()->toPlainText().contains(QStringLiteral("guidance classifier")));

    // A bundled model is refused, with the reason, and stays.
    QSignalSpy errors(view_, &ModelsView::errorShown);
    QVERIFY(!view_->deleteModel(QStringLiteral("promoter")));
    QCOMPARE(errors.size(), 1);
    QVERIFY(errors.front().front().toString().contains(QStringLiteral("is a bundled classifier")));
    QVERIFY(QFile::exists(QString::fromStdString(models::resolve_classifier("promoter"))));
    closeMessageBoxes();
  }

  // Train classifier…: the dialog's widgets, progress and the validation curve, then the model by
  // name in the list, its card, the design form's guidance choices and a guided run.
  void trainClassifierThroughDialog() {
    auto* design = window_->designPanel();
    design->setModel(QStringLiteral("dna-promoter"));
    design->clearObjectives();
    design->addObjective(QStringLiteral("gc"));  // a row made before the model exists
    QVERIFY(!design->objectiveChoices().contains(QStringLiteral("tata-test")));
    QSignalSpy changed(view_, &ModelsView::modelsChanged);
    QSignalSpy points(view_->trainer(), &ui::TrainingProcess::point);

    QCOMPARE(trainClassifier(QStringLiteral("tata-test"), pos_, neg_, 200),
             QStringLiteral("trained"));
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.front().front().toString(), QStringLiteral("tata-test"));

    // Progress: a line per validation (every 10 of 200 steps, fewer when early stopping ends
    // it), each a point of both curves; the bar full at the end.
    QVERIFY(points.size() >= 3);
    QCOMPARE(view_->progressBar()->maximum(), 200);
    QCOMPARE(view_->progressBar()->value(), 200);
    const auto& series = view_->chart()->series();
    QCOMPARE(series.size(), 2);
    QCOMPARE(series[0].name, QStringLiteral("training loss"));
    QCOMPARE(series[1].name, QStringLiteral("validation AUROC"));
    QCOMPARE(series[0].points.size(), points.size());
    QCOMPARE(series[1].points.size(), points.size());
    QCOMPARE(series[1].points.front().x(), 10.0);
    for (const auto& p : series[1].points) QVERIFY(p.y() >= 0.0 && p.y() <= 1.0);

    // Listed as a user classifier, selected, with its card; its files in the user folder.
    const auto* m = listed(QStringLiteral("tata-test"));
    QVERIFY(m);
    QCOMPARE(QString::fromStdString(m->kind), QStringLiteral("classifier"));
    QCOMPARE(QString::fromStdString(m->origin), QStringLiteral("user"));
    QCOMPARE(QString::fromStdString(m->alphabet), QStringLiteral("dna"));
    QCOMPARE(QString::fromStdString(m->file), userFile("classifiers/tata-test.ckpt"));
    QVERIFY(QFile::exists(userFile("classifiers/tata-test.md")));
    QCOMPARE(view_->selectedModel(), QStringLiteral("tata-test"));
    QVERIFY(
        view_->card()->toPlainText().contains(QStringLiteral("classifier from the user's data")));
    QVERIFY(view_->deleteButton()->isEnabled());
    QVERIFY(view_->model()
                ->index(view_->model()->rowOf("tata-test"), ModelListModel::Metrics)
                .data()
                .toString()
                .startsWith(QStringLiteral("val auroc")));

    // Offered at once wherever guides are chosen, for DNA models only; rows made before too.
    QVERIFY(design->objectiveChoices().contains(QStringLiteral("tata-test")));
    auto* row = design->findChild<QTableWidget*>()->cellWidget(0, 0);
    auto* rowChoices = qobject_cast<QComboBox*>(row);
    QVERIFY(rowChoices && rowChoices->findText(QStringLiteral("tata-test")) >= 0);
    QCOMPARE(rowChoices->currentText(), QStringLiteral("gc"));
    design->setModel(QStringLiteral("peptide"));
    QVERIFY(!design->objectiveChoices().contains(QStringLiteral("tata-test")));
    design->setModel(QStringLiteral("dna-promoter"));

    QVERIFY(QDir(shots_).exists());
    QVERIFY(window_->grab().save(QDir(shots_).filePath(QStringLiteral("models-view.png"))));

    // It guides a run by name: the FASTA header key and results column are its name.
    design->clearObjectives();
    design->addObjective(QStringLiteral("tata-test"), 4.0);
    design->numberBox()->setValue(4);
    design->stepsBox()->setValue(4);
    design->batchBox()->setValue(2);
    design->seedEdit()->setText(QStringLiteral("3"));
    QSignalSpy runEnded(window_.get(), &ui::MainWindow::runEnded);
    QVERIFY(window_->startRun());
    QVERIFY(runEnded.wait(120000));
    QCOMPARE(runEnded.front().front().toString(), QStringLiteral("completed"));
    QVERIFY(window_->resultsView()->model()->columnOf(QStringLiteral("tata-test")) >= 0);
    design->clearObjectives();
    window_->tabs()->setCurrentWidget(view_);
  }

  // Fine-tune generator…: the family's FASTA and a base model; the new generator is offered in
  // the design form's model list, with the base's alphabet.
  void fineTuneGenerator() {
    QTest::mouseClick(view_->fineTuneButton(), Qt::LeftButton);
    auto* dialog = openDialog(view_);
    QVERIFY(dialog);
    QVERIFY(dialog->baseBox()->findText(QStringLiteral("dna-promoter")) >= 0);
    QVERIFY(dialog->baseBox()->findText(QStringLiteral("promoter")) < 0);  // a classifier
    dialog->nameEdit()->setText(QStringLiteral("family-test"));
    dialog->familyEdit()->setText(family_);
    dialog->baseBox()->setCurrentText(QStringLiteral("dna-promoter"));
    dialog->stepsBox()->setValue(10);
    dialog->threadsBox()->setValue(2);
    dialog->evalBox()->setValue(0);  // the card's k-mer figures take the longest
    QSignalSpy ended(view_, &ModelsView::trainingEnded);
    QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok),
                      Qt::LeftButton);
    QVERIFY(ended.wait(90000));
    QCOMPARE(ended.front().front().toString(), QStringLiteral("trained"));

    const auto& series = view_->chart()->series();
    QCOMPARE(series.size(), 2);
    QCOMPARE(series[1].name, QStringLiteral("validation loss"));
    QVERIFY(!series[1].points.isEmpty());
    const auto* m = listed(QStringLiteral("family-test"));
    QVERIFY(m && m->user());
    QCOMPARE(QString::fromStdString(m->kind), QStringLiteral("generator (gsfm)"));
    QVERIFY(view_->card()->toPlainText().contains(QStringLiteral("dna-promoter")));

    auto* design = window_->designPanel();
    QVERIFY(design->modelBox()->findText(QStringLiteral("family-test")) >= 0);
    design->setModel(QStringLiteral("family-test"));
    QCOMPARE(design->modelAlphabet(), QStringLiteral("dna"));
    QVERIFY(design->objectiveChoices().contains(QStringLiteral("tata-test")));
    design->setModel(QStringLiteral("dna-promoter"));
  }

  // Bad input: a dialog naming the cause; nothing written, nothing stored lost.
  void badInputShowsErrors() {
    const QByteArray before = fileHash(userFile("classifiers/tata-test.ckpt"));
    QVERIFY(!before.isEmpty());
    const QStringList filesBefore =
        QDir(userFile("classifiers")).entryList(QDir::Files, QDir::Name);
    QSignalSpy errors(view_, &ModelsView::errorShown);
    const auto expectError = [&](const QString& name, const QString& positives,
                                 const QString& negatives, const QStringList& words) {
      errors.clear();
      const QString ended = trainClassifier(name, positives, negatives, 40);
      closeMessageBoxes();
      QCOMPARE(ended, QStringLiteral("failed"));
      QCOMPARE(errors.size(), 1);
      const QString message = errors.front().front().toString();
      for (const auto& word : words) QVERIFY2(message.contains(word), qPrintable(message));
    };
    expectError(QStringLiteral("bad-letters"), bad_, neg_,
                {QStringLiteral("bad.fa:5"), QStringLiteral("letter 'Z' at position 5")});
    expectError(QStringLiteral("tata-test"), pos_, neg_, {QStringLiteral("already exists")});
    expectError(QStringLiteral("few"), pos_, few_,
                {QStringLiteral("few.fa"), QStringLiteral("at least 20")});
    QCOMPARE(fileHash(userFile("classifiers/tata-test.ckpt")), before);
    QCOMPARE(QDir(userFile("classifiers")).entryList(QDir::Files, QDir::Name), filesBefore);

    // A field left empty: the dialog says which and stays open; nothing starts.
    QTest::mouseClick(view_->trainClassifierButton(), Qt::LeftButton);
    auto* dialog = openDialog(view_);
    QVERIFY(dialog);
    dialog->nameEdit()->setText(QStringLiteral("nothing"));
    dialog->positivesEdit()->setText(pos_);
    QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok),
                      Qt::LeftButton);
    QVERIFY(dialog->isVisible());
    QVERIFY(dialog->messageLabel()->text().contains(QStringLiteral("Negatives")));
    QVERIFY(!view_->isTraining());
    dialog->reject();
    QCoreApplication::processEvents();
  }

  // Cancel stops the command; nothing is written and no error is shown.
  void cancelWritesNothing() {
    QSignalSpy errors(view_, &ModelsView::errorShown);
    QSignalSpy ended(view_, &ModelsView::trainingEnded);
    QSignalSpy lines(view_->trainer(), &ui::TrainingProcess::line);
    TrainingRequest r;
    r.name = QStringLiteral("cancelled-test");
    r.positives = pos_;
    r.negatives = neg_;
    r.steps = 1000000;
    r.threads = 1;
    QVERIFY(view_->startTraining(r));
    QVERIFY(view_->isTraining());
    QVERIFY(view_->cancelButton()->isEnabled());
    // Past the command's reading of the data: training has begun.
    QTRY_VERIFY_WITH_TIMEOUT(view_->trainer()->log().join('\n').contains("held out"), 30000);
    QTest::mouseClick(view_->cancelButton(), Qt::LeftButton);
    QVERIFY(ended.wait(15000));
    QCOMPARE(ended.front().front().toString(), QStringLiteral("cancelled"));
    QCOMPARE(errors.size(), 0);
    QVERIFY(!view_->isTraining());
    QVERIFY(!QFile::exists(userFile("classifiers/cancelled-test.ckpt")));
    QVERIFY(!QFile::exists(userFile("classifiers/cancelled-test.md")));
  }

  // Delete… (confirmed in its dialog) removes a user model with its card, from the list and the
  // design form.
  void deleteUserModels() {
    QVERIFY(view_->selectModel(QStringLiteral("tata-test")));
    QVERIFY(view_->deleteButton()->isEnabled());
    bool asked = false;
    QTimer::singleShot(0, this, [&asked] {
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      if (!box) return;
      asked = box->text().contains(QStringLiteral("tata-test"));
      box->button(QMessageBox::Yes)->click();
    });
    QSignalSpy changed(view_, &ModelsView::modelsChanged);
    QTest::mouseClick(view_->deleteButton(), Qt::LeftButton);
    QTRY_COMPARE(changed.size(), 1);
    QVERIFY(asked);
    QVERIFY(!QFile::exists(userFile("classifiers/tata-test.ckpt")));
    QVERIFY(!QFile::exists(userFile("classifiers/tata-test.md")));
    QVERIFY(!listed(QStringLiteral("tata-test")));
    QVERIFY(!window_->designPanel()->objectiveChoices().contains(QStringLiteral("tata-test")));

    // A user classifier and a user judge of one name: the Delete button takes the selected row's
    // kind; a name alone is refused, naming both files, and nothing goes.
    const QString src = QStringLiteral(GSFLOW_SOURCE_DIR "/models/pretrained/");
    QVERIFY(QDir().mkpath(userFile("judges")));
    QVERIFY(QFile::copy(src + "classifiers/promoter.ckpt", userFile("classifiers/twin.ckpt")));
    QVERIFY(QFile::copy(src + "judges/promoter.json", userFile("judges/twin.json")));
    view_->reload();
    QSignalSpy refused(view_, &ModelsView::errorShown);
    QVERIFY(!view_->deleteModel(QStringLiteral("twin"), false));
    QCOMPARE(refused.size(), 1);
    QVERIFY(refused.front().front().toString().contains(userFile("judges/twin.json")));
    closeMessageBoxes();
    QVERIFY(QFile::exists(userFile("classifiers/twin.ckpt")) && QFile::exists(userFile("judges/twin.json")));
    const int judgeRow = view_->model()->rowOf(QStringLiteral("twin"), QStringLiteral("judge"));
    QVERIFY(judgeRow >= 0 && judgeRow != view_->model()->rowOf(QStringLiteral("twin")));
    view_->table()->selectRow(judgeRow);
    QCOMPARE(view_->selectedKindGroup(), QStringLiteral("judge"));
    QTimer::singleShot(0, this, [] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
        box->button(QMessageBox::Yes)->click();
    });
    QTest::mouseClick(view_->deleteButton(), Qt::LeftButton);
    QTRY_VERIFY(!QFile::exists(userFile("judges/twin.json")));
    QVERIFY(QFile::exists(userFile("classifiers/twin.ckpt")));
    QVERIFY(view_->deleteModel(QStringLiteral("twin"), false));
    QVERIFY(!QFile::exists(userFile("classifiers/twin.ckpt")));

    QVERIFY(view_->deleteModel(QStringLiteral("family-test"), false));
    QVERIFY(!QFile::exists(userFile("family-test.ckpt")));
    QVERIFY(!listed(QStringLiteral("family-test")));
    QCOMPARE(window_->designPanel()->modelBox()->findText(QStringLiteral("family-test")), -1);
    QVERIFY(listed(QStringLiteral("dna-promoter")));
  }

  // A model the command line trains or deletes meanwhile shows (or goes) when the tab is shown.
  void followsTheCommandLine() {
    const auto cli = [](const QStringList& arguments) {
      QProcess p;
      p.start(QStringLiteral(GSFLOW_CLI), arguments);
      return p.waitForFinished(60000) && p.exitCode() == 0;
    };
    QVERIFY(cli({"train-classifier", "--name", "cli-made", "--positives", pos_, "--negatives", neg_,
                 "--steps", "20", "--threads", "1"}));
    QVERIFY(!listed(QStringLiteral("cli-made")));
    window_->tabs()->setCurrentWidget(window_->historyView());
    window_->tabs()->setCurrentWidget(view_);
    QVERIFY(listed(QStringLiteral("cli-made")));
    QVERIFY(cli({"models", "delete", "cli-made"}));
    window_->tabs()->setCurrentWidget(window_->historyView());
    window_->tabs()->setCurrentWidget(view_);
    QVERIFY(!listed(QStringLiteral("cli-made")));
  }

  void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(ModelsStudioTest)
#include "test_models_studio.moc"
