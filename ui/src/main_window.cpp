// gsflow-studio's main window: layout, actions, runs, settings (see main_window.hpp; the store
// operations are in main_window_store.cpp, exports in main_window_export.cpp).
#include "gsflow/ui/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <algorithm>
#include <filesystem>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/design/fixed_letters.hpp"
#include "gsflow/storage/run_store.hpp"
#include "gsflow/ui/compare_view.hpp"
#include "gsflow/ui/design_panel.hpp"
#include "gsflow/ui/history_view.hpp"
#include "gsflow/ui/models/results_model.hpp"
#include "gsflow/ui/models_view.hpp"
#include "gsflow/ui/plots/comparison_charts.hpp"
#include "gsflow/ui/plots/heatmap_view.hpp"
#include "gsflow/ui/plots/line_chart.hpp"
#include "gsflow/ui/plots/sequence_logo.hpp"
#include "gsflow/ui/results_view.hpp"
#include "gsflow/ui/run_controller.hpp"
#include "gsflow/ui/trajectory_view.hpp"
#include "gsflow/ui/user_settings.hpp"
#include "store_reading.hpp"

namespace gsflow::ui {

MainWindow::MainWindow(const QString& database, QWidget* parent)
    : QMainWindow(parent),
      database_(database.isEmpty() ? text(storage::default_database_path()) : database) {
  setWindowTitle(tr("gsflow-studio"));
  controller_ = new RunController(this);
  design_ = new DesignPanel(this);
  trajectory_ = new TrajectoryView(this);
  results_ = new ResultsView(this);
  compare_ = new CompareView(this);
  history_ = new HistoryView(this);
  models_ = new ModelsView(this);
  compare_->setLoader([this](std::int64_t id) { return readStore(database_).sequences(id); });

  tabs_ = new QTabWidget(this);
  tabs_->addTab(trajectory_, tr("&Trajectory"));
  tabs_->addTab(results_, tr("&Results"));
  tabs_->addTab(compare_, tr("C&ompare"));
  tabs_->addTab(history_, tr("&History"));
  tabs_->addTab(models_, tr("&Models"));

  auto* designScroll = new QScrollArea(this);
  designScroll->setWidget(design_);
  designScroll->setWidgetResizable(true);
  designScroll->setMinimumWidth(300);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(designScroll);
  split->addWidget(tabs_);
  split->setStretchFactor(1, 1);
  setCentralWidget(split);

  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  progress_->setMaximumWidth(260);
  progress_->setTextVisible(true);
  status_ = new QLabel(this);
  statusBar()->addWidget(status_, 1);
  statusBar()->addPermanentWidget(progress_);

  buildActions();

  connect(controller_, &RunController::started, this, [this](const pipeline::StoredRunOutcome& run) {
    current_.id = run.run_id;
    current_.name = text(run.run_name);
    current_.model = text(run.model_name);
    current_.alphabet = text(run.alphabet);
    current_.method = text(run.method);
    results_->clear(current_.alphabet);
    trajectory_->reset(alphabetLetters(current_.alphabet), static_cast<int>(current_.sequences));
    trajectory_->setDesign(current_.design, current_.alphabet);
    showRunIdentity(run.model_file);
    // The kernel path is a detail for developers: in the tooltip, not the status text.
    status_->setText(tr("Running %1 (%2)").arg(current_.name, text(run.model_file)));
    status_->setToolTip(run.kernels.empty() ? QString()
                                            : tr("kernels: %1").arg(text(run.kernels.back())));
    refreshHistory();
  });
  connect(controller_, &RunController::progress, this, [this](qulonglong done, qulonglong total) {
    progress_->setRange(0, static_cast<int>(std::min<qulonglong>(total, 1u << 30)));
    progress_->setValue(static_cast<int>(std::min<qulonglong>(done, 1u << 30)));
  });
  connect(controller_, &RunController::frame, trajectory_, &TrajectoryView::addFrame);
  connect(controller_, &RunController::batchDone, this,
          [this](const std::vector<storage::SequenceRecord>& sequences,
                 const std::vector<storage::StepScore>& scores) {
            results_->appendSequences(sequences);
            trajectory_->addSequences(sequences);
            trajectory_->addStepScores(scores);
          });
  connect(controller_, &RunController::notice, this,
          [this](const QString& message) { statusBar()->showMessage(message, 10000); });
  connect(controller_, &RunController::finished, this,
          [this](const pipeline::StoredRunOutcome& outcome) {
            setRunning(false);
            status_->setText(tr("%1: %2, %3 sequences in %4 s (network %5 s)")
                                 .arg(current_.name, text(storage::status_name(outcome.status)))
                                 .arg(outcome.sequences.size())
                                 .arg(outcome.seconds, 0, 'f', 2)
                                 .arg(outcome.network_seconds, 0, 'f', 2));
            refreshHistory();
            history_->selectRun(outcome.run_id);
            compare_->compareRun(outcome.run_id);
            emit runEnded(text(storage::status_name(outcome.status)));
          });
  connect(controller_, &RunController::failed, this, [this](const QString& message) {
    setRunning(false);
    status_->setText(tr("The run failed"));
    refreshHistory();
    showError(tr("The run failed"), DesignPanel::fieldMessage(message));
    emit runEnded(QStringLiteral("failed"));
  });
  connect(trajectory_, &TrajectoryView::framesWanted, this, &MainWindow::loadFrames);
  connect(trajectory_, &TrajectoryView::lockRequested, this, &MainWindow::lockSelection);
  connect(results_, &ResultsView::noveltyRequested, this, &MainWindow::noveltyDialog);
  connect(results_, &ResultsView::exportRequested, this, &MainWindow::exportSequencesDialog);
  // A double-clicked result opens its trajectory.
  connect(results_, &ResultsView::sequenceActivated, this, [this](std::size_t index) {
    trajectory_->setCurrentSequence(index);
    tabs_->setCurrentWidget(trajectory_);
  });
  connect(history_, &HistoryView::refreshRequested, this, &MainWindow::refreshHistory);
  connect(history_, &HistoryView::reopenRequested, this,
          qOverload<std::int64_t>(&MainWindow::reopenRun));
  connect(history_, &HistoryView::rerunRequested, this, &MainWindow::rerunRun);
  connect(history_, &HistoryView::deleteRequested, this, [this](std::int64_t id) { deleteRun(id, true); });
  // A model trained or deleted in the Models view is offered (or no longer) in the form at once.
  connect(models_, &ModelsView::modelsChanged, design_, &DesignPanel::refreshModels);
  connect(models_, &ModelsView::errorShown, this, &MainWindow::errorShown);

  resize(1400, 900);  // first start; later the saved geometry
  restoreSettings();
  refreshHistory();
  setRunning(false);
  status_->setText(tr("Run store: %1").arg(database_));
}

MainWindow::~MainWindow() = default;

void MainWindow::buildActions() {
  run_ = new QAction(tr("&Run"), this);
  run_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
  run_->setToolTip(tr("Generate with the design on the left (Ctrl+R)"));
  cancel_ = new QAction(tr("&Cancel"), this);
  cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
  cancel_->setToolTip(tr("Stop the run; finished batches are kept (Esc)"));
  export_ = new QAction(tr("&Export sequences…"), this);
  export_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  export_->setToolTip(tr("Write the sequences shown as FASTA or CSV (Ctrl+E)"));
  exportPlot_ = new QAction(tr("Export &plot…"), this);
  exportPlot_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
  exportPlot_->setToolTip(tr("Write the current view's plot as PNG or SVG (Ctrl+Shift+E)"));
  auto* openDb = new QAction(tr("&Open run store…"), this);
  auto* quit = new QAction(tr("&Quit"), this);
  quit->setShortcut(QKeySequence::Quit);

  connect(run_, &QAction::triggered, this, [this] { startRun(); });
  connect(cancel_, &QAction::triggered, this, &MainWindow::cancelRun);
  connect(export_, &QAction::triggered, this,
          [this] { exportSequencesDialog(results_->shownSequences()); });
  connect(exportPlot_, &QAction::triggered, this, [this] { exportPlotDialog(currentPlot()); });
  connect(openDb, &QAction::triggered, this, [this] {
    const QString file = QFileDialog::getSaveFileName(
        this, tr("Open or create a run store"), database_, tr("SQLite run stores (*.sqlite *.db);;All files (*)"),
        nullptr, QFileDialog::DontConfirmOverwrite);
    if (!file.isEmpty()) setDatabasePath(file);
  });
  connect(quit, &QAction::triggered, this, &QWidget::close);

  auto* file = menuBar()->addMenu(tr("&File"));
  file->addAction(openDb);
  file->addAction(export_);
  file->addAction(exportPlot_);
  auto* plots = file->addMenu(tr("Export a plot"));
  const std::vector<std::pair<QString, PlotWidget*>> named = {
      {tr("Trajectory heatmap"), trajectory_->heatmap()},
      {tr("Entropy over time"), trajectory_->entropyChart()},
      {tr("Guidance scores"), trajectory_->scoreChart()},
      {tr("Sequence logo"), results_->logo()},
      {tr("Score distributions"), compare_->histogram()},
      {tr("k-mer composition"), compare_->bars()}};
  for (const auto& [name, plot] : named)
    plots->addAction(name, this, [this, plot = plot] { exportPlotDialog(plot); });
  file->addSeparator();
  file->addAction(quit);
  auto* runMenu = menuBar()->addMenu(tr("&Run"));
  runMenu->addAction(run_);
  runMenu->addAction(cancel_);

  auto* bar = addToolBar(tr("Run"));
  bar->setObjectName(QStringLiteral("runToolBar"));
  bar->addAction(run_);
  bar->addAction(cancel_);
  bar->addSeparator();
  bar->addAction(export_);
  bar->addAction(exportPlot_);
}

void MainWindow::setDatabasePath(const QString& file) {
  database_ = file;
  status_->setText(tr("Run store: %1").arg(database_));
  refreshHistory();
}

void MainWindow::showError(const QString& title, const QString& message) {
  statusBar()->showMessage(title + QStringLiteral(": ") + message, 15000);
  auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();  // window-modal, never blocks the event loop
  emit errorShown(message);
}

void MainWindow::setRunning(bool running) {
  run_->setEnabled(!running);
  cancel_->setEnabled(running);
  design_->setEnabled(!running);
  progress_->setFormat(running ? QStringLiteral("%p%") : QString());  // no "0 %" when idle
  if (!running && progress_->maximum() <= 1) progress_->setValue(0);
}

bool MainWindow::isRunning() const { return controller_->isRunning(); }

bool MainWindow::startRun(const std::string& expectModelHash) {
  if (controller_->isRunning()) return false;
  pipeline::StoredRunOptions options;
  try {
    options = design_->options();
  } catch (const std::exception& e) {
    showError(tr("Cannot start the run"), QString::fromLocal8Bit(e.what()));
    return false;
  }
  options.expect_model_hash = expectModelHash;
  options.db = database_.toStdString();
  if (!database_.isEmpty() && !QFileInfo(database_).absoluteDir().exists())
    std::filesystem::create_directories(QFileInfo(database_).absolutePath().toStdString());
  current_ = CurrentRun{};
  current_.sequences = options.params.n;
  current_.seed = options.params.sampler.seed;
  current_.steps = options.params.sampler.steps;
  current_.design = options.params.design;
  current_.madeWith = pipeline::run_summary(options.params);
  trajectory_->reset(QString(), static_cast<int>(options.params.n));
  results_->setTypicality(std::nullopt);
  results_->clear(QString());
  progress_->setRange(0, 1);
  progress_->setValue(0);
  setRunning(true);
  tabs_->setCurrentWidget(trajectory_);
  saveSettings();
  return controller_->start(options);
}

bool MainWindow::lockSelection(std::size_t sequence, int first, int last) {
  const auto& rows = results_->model()->sequences();
  const auto it = std::find_if(rows.begin(), rows.end(),
                               [sequence](const auto& r) { return r.index == sequence; });
  if (it == rows.end() || it->text.empty()) {
    showError(tr("Cannot lock the selection"),
              tr("Sequence %1 has no letters yet: lock its positions once its batch is done.")
                  .arg(sequence + 1));
    return false;
  }
  QChar free = QLatin1Char('N');
  try {
    free =
        QLatin1Char(engine::free_letter(engine::alphabet_by_name(current_.alphabet.toStdString())));
  } catch (const std::exception&) {  // a generic alphabet: N marks free positions as for DNA
  }
  design_->lockPositions(text(it->text), first, last, free);
  statusBar()->showMessage(tr("Positions %1–%2 of sequence %3 are in the template: the next run "
                              "keeps them")
                               .arg(first + 1)
                               .arg(std::min<int>(last, static_cast<int>(it->text.size()) - 1) + 1)
                               .arg(sequence + 1),
                           10000);
  return true;
}

void MainWindow::showRunIdentity(const std::string& model) {
  results_->setRun(current_.name,
                   [this](const storage::SequenceRecord& s) { return fastaHeader(s); });
  results_->setTypicality(typicalityOf(model));
  trajectory_->setRunName(current_.name);
}

void MainWindow::cancelRun() {
  if (!controller_->isRunning()) return;
  status_->setText(tr("Cancelling %1…").arg(current_.name));
  controller_->cancel();
}

void MainWindow::saveSettings() const {
  const auto settings = userSettings();
  design_->saveSettings(*settings);
  settings->setValue(QStringLiteral("window/geometry"), saveGeometry());
  settings->setValue(QStringLiteral("window/state"), saveState());
  settings->setValue(QStringLiteral("window/tab"), tabs_->currentIndex());
}

void MainWindow::restoreSettings() {
  const auto settings = userSettings();
  design_->restoreSettings(*settings);
  restoreGeometry(settings->value(QStringLiteral("window/geometry")).toByteArray());
  restoreState(settings->value(QStringLiteral("window/state")).toByteArray());
  tabs_->setCurrentIndex(settings->value(QStringLiteral("window/tab"), 0).toInt());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (models_->isTraining() &&
      QMessageBox::question(this, tr("A training is in progress"),
                            tr("Stop the training and quit? Nothing of it is written.")) !=
          QMessageBox::Yes) {
    event->ignore();
    return;
  }
  if (controller_->isRunning()) {
    const auto answer = QMessageBox::question(
        this, tr("A run is in progress"),
        tr("Stop run %1 and quit? Finished batches stay in the store.").arg(current_.name));
    if (answer != QMessageBox::Yes) {
      event->ignore();
      return;
    }
    controller_->cancel();
  }
  saveSettings();
  event->accept();
}

}  // namespace gsflow::ui
