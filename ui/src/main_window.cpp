// gsflow-studio's main window (see main_window.hpp).
#include "gsflow/ui/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>
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
#include <filesystem>
#include <fstream>

#include "gsflow/engine/fasta.hpp"
#include "gsflow/storage/run_export.hpp"
#include "gsflow/storage/run_store.hpp"
#include "gsflow/ui/compare_view.hpp"
#include "gsflow/ui/design_panel.hpp"
#include "gsflow/ui/history_view.hpp"
#include "gsflow/ui/models/results_model.hpp"
#include "gsflow/ui/novelty.hpp"
#include "gsflow/ui/plots/comparison_charts.hpp"
#include "gsflow/ui/plots/heatmap_view.hpp"
#include "gsflow/ui/plots/line_chart.hpp"
#include "gsflow/ui/plots/sequence_logo.hpp"
#include "gsflow/ui/results_view.hpp"
#include "gsflow/ui/run_controller.hpp"
#include "gsflow/ui/trajectory_view.hpp"

namespace gsflow::ui {

namespace {

QString text(const std::string& s) { return QString::fromStdString(s); }

// Reads the store; opening creates nothing (a missing file reads as an empty history).
storage::RunStore readStore(const QString& file) {
  return storage::RunStore(file.toStdString(), {.read_only = true, .create = false});
}

bool isFasta(const QString& suffix) {
  return QStringList{"fa", "fasta", "fna", "faa", "fas"}.contains(suffix.toLower());
}

}  // namespace

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
  compare_->setLoader([this](std::int64_t id) { return readStore(database_).sequences(id); });

  tabs_ = new QTabWidget(this);
  tabs_->addTab(trajectory_, tr("&Trajectory"));
  tabs_->addTab(results_, tr("&Results"));
  tabs_->addTab(compare_, tr("C&ompare"));
  tabs_->addTab(history_, tr("&History"));

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

  connect(controller_, &RunController::started, this, [this](const guidance::StoredRunOutcome& run) {
    current_.id = run.run_id;
    current_.name = text(run.run_name);
    current_.model = text(run.model_name);
    current_.alphabet = text(run.alphabet);
    results_->clear(current_.alphabet);
    status_->setText(tr("Running %1 (%2) with kernels %3")
                         .arg(current_.name, text(run.model_file),
                              run.kernels.empty() ? QString() : text(run.kernels.back())));
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
            trajectory_->addStepScores(scores);
          });
  connect(controller_, &RunController::notice, this,
          [this](const QString& message) { statusBar()->showMessage(message, 10000); });
  connect(controller_, &RunController::finished, this,
          [this](const guidance::StoredRunOutcome& outcome) {
            setRunning(false);
            status_->setText(tr("%1: %2, %3 sequences in %4 s (network %5 s)")
                                 .arg(current_.name, text(outcome.status))
                                 .arg(outcome.sequences.size())
                                 .arg(outcome.seconds, 0, 'f', 2)
                                 .arg(outcome.network_seconds, 0, 'f', 2));
            refreshHistory();
            history_->selectRun(outcome.run_id);
            emit runEnded(text(outcome.status));
          });
  connect(controller_, &RunController::failed, this, [this](const QString& message) {
    setRunning(false);
    status_->setText(tr("The run failed"));
    refreshHistory();
    showError(tr("The run failed"), message);
    emit runEnded(QStringLiteral("failed"));
  });
  connect(trajectory_, &TrajectoryView::framesWanted, this, &MainWindow::loadFrames);
  connect(results_, &ResultsView::noveltyRequested, this, &MainWindow::noveltyDialog);
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
  connect(export_, &QAction::triggered, this, &MainWindow::exportSequencesDialog);
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
  if (!running && progress_->maximum() <= 1) progress_->setValue(0);
}

bool MainWindow::isRunning() const { return controller_->isRunning(); }

bool MainWindow::startRun() {
  if (controller_->isRunning()) return false;
  guidance::StoredRunOptions options;
  try {
    options = design_->options();
  } catch (const std::exception& e) {
    showError(tr("Cannot start the run"), QString::fromLocal8Bit(e.what()));
    return false;
  }
  options.db = database_.toStdString();
  if (!database_.isEmpty() && !QFileInfo(database_).absoluteDir().exists())
    std::filesystem::create_directories(QFileInfo(database_).absolutePath().toStdString());
  current_ = CurrentRun{};
  current_.method = options.method_given ? QString::fromLatin1(engine::method_name(options.params.sampler.method))
                                         : QString();
  current_.seed = options.params.sampler.seed;
  current_.steps = options.params.sampler.steps;
  trajectory_->reset(QString(), static_cast<int>(options.params.n));
  results_->clear(QString());
  progress_->setRange(0, 1);
  progress_->setValue(0);
  setRunning(true);
  tabs_->setCurrentWidget(trajectory_);
  connect(controller_, &RunController::started, this,
          [this, n = static_cast<int>(options.params.n)](const guidance::StoredRunOutcome& run) {
            trajectory_->reset(alphabetLetters(text(run.alphabet)), n);
          },
          Qt::SingleShotConnection);
  // The method of a run is the model's: known once the model is loaded.
  connect(controller_, &RunController::finished, this,
          [this](const guidance::StoredRunOutcome& outcome) {
            if (current_.method.isEmpty() && outcome.run_id) {
              try {
                current_.method = text(readStore(database_).run(outcome.run_id).method);
              } catch (const std::exception&) {
              }
            }
          },
          Qt::SingleShotConnection);
  saveSettings();
  return controller_->start(options);
}

void MainWindow::cancelRun() {
  if (!controller_->isRunning()) return;
  status_->setText(tr("Cancelling %1…").arg(current_.name));
  controller_->cancel();
}

void MainWindow::refreshHistory() {
  try {
    if (!QFileInfo::exists(database_)) {
      history_->setRuns({});
      compare_->setRuns({});
      return;
    }
    auto runs = readStore(database_).list_runs(history_->filter());
    compare_->setRuns(runs);
    history_->setRuns(std::move(runs));
  } catch (const std::exception& e) {
    history_->setRuns({});
    showError(tr("Cannot read the run store"), QString::fromLocal8Bit(e.what()));
  }
}

bool MainWindow::reopenRun(std::int64_t id) {
  if (controller_->isRunning()) {
    showError(tr("Cannot reopen a run"), tr("A run is in progress; wait for it or cancel it."));
    return false;
  }
  try {
    const auto store = readStore(database_);
    const auto run = store.run(id);
    current_ = CurrentRun{run.id, text(run.name), text(run.model.name), text(run.method),
                          text(run.model.alphabet), run.seed, 0};
    try {
      current_.steps = guidance::parse_run_params(run.params_json).sampler.steps;
    } catch (const std::exception&) {  // an unreadable record still shows (steps=0 in headers)
    }
    results_->setSequences(store.sequences(id), current_.alphabet);
    trajectory_->reset(alphabetLetters(current_.alphabet), static_cast<int>(run.requested));
    trajectory_->addStepScores(store.step_scores(id));
    trajectory_->setFrames(0, store.frames(id, 0));
    status_->setText(tr("%1: %2, %3 of %4 sequences, %5 frames")
                         .arg(current_.name, text(run.status))
                         .arg(run.completed)
                         .arg(run.requested)
                         .arg(run.frames));
    tabs_->setCurrentWidget(results_);
    return true;
  } catch (const std::exception& e) {
    showError(tr("Cannot reopen the run"), QString::fromLocal8Bit(e.what()));
    return false;
  }
}

bool MainWindow::reopenRun(const QString& key) {
  std::int64_t id = 0;
  try {
    id = readStore(database_).find_run(key.toStdString()).id;
  } catch (const std::exception& e) {
    showError(tr("Cannot reopen the run"), QString::fromLocal8Bit(e.what()));
    return false;
  }
  return reopenRun(id);
}

bool MainWindow::rerunRun(std::int64_t id) {
  if (controller_->isRunning()) {
    showError(tr("Cannot rerun the run"), tr("A run is in progress; wait for it or cancel it."));
    return false;
  }
  try {
    const auto run = readStore(database_).run(id);
    const auto params = guidance::parse_run_params(run.params_json);
    design_->setParams(params, text(run.model.file));
    design_->setRunName(QString());
  } catch (const std::exception& e) {
    showError(tr("Cannot rerun the run"), QString::fromLocal8Bit(e.what()));
    return false;
  }
  return startRun();
}

bool MainWindow::deleteRun(std::int64_t id, bool confirm) {
  try {
    storage::RunStore store(database_.toStdString(), {.create = false});
    const auto run = store.run(id);
    if (confirm &&
        QMessageBox::question(this, tr("Delete run"),
                              tr("Delete run %1 (%2 sequences, %3 frames) from %4? This cannot "
                                 "be undone.")
                                  .arg(text(run.name))
                                  .arg(run.completed)
                                  .arg(run.frames)
                                  .arg(database_)) != QMessageBox::Yes)
      return false;
    if (run.status == storage::kRunning && controller_->isRunning() && id == current_.id) {
      showError(tr("Cannot delete the run"), tr("It is still running; cancel it first."));
      return false;
    }
    store.delete_run(id);
  } catch (const std::exception& e) {
    showError(tr("Cannot delete the run"), QString::fromLocal8Bit(e.what()));
    return false;
  }
  refreshHistory();
  return true;
}

void MainWindow::loadFrames(std::size_t sequence) {
  if (!current_.id) return;
  try {
    trajectory_->setFrames(sequence, readStore(database_).frames(current_.id, sequence));
  } catch (const std::exception& e) {
    statusBar()->showMessage(tr("No frames for sequence %1: %2")
                                 .arg(sequence)
                                 .arg(QString::fromLocal8Bit(e.what())),
                             10000);
  }
}

QString MainWindow::exportSequences(const QString& file) {
  const auto sequences = results_->shownSequences();
  QString error;
  const QString suffix = QFileInfo(file).suffix();
  try {
    if (sequences.empty()) throw std::runtime_error("there are no sequences to export");
    std::ofstream out(file.toStdString());
    if (!out) throw std::runtime_error(file.toStdString() + ": cannot create the file");
    if (isFasta(suffix)) {
      engine::FastaWriter writer(out, {60});
      for (const auto& s : sequences)
        writer.write(storage::fasta_header(current_.name.toStdString(), current_.model.toStdString(),
                                           current_.method.toStdString(), current_.seed,
                                           current_.steps, s),
                     s.text);
    } else if (suffix.compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0) {
      storage::write_csv(out, current_.name.toStdString(), sequences);
    } else {
      out.close();
      std::filesystem::remove(file.toStdString());
      throw std::runtime_error(file.toStdString() +
                               ": unknown file type (use .fasta, .fa, .faa, .fna or .csv)");
    }
    out.flush();
    if (!out) throw std::runtime_error(file.toStdString() + ": write failed");
  } catch (const std::exception& e) {
    error = QString::fromLocal8Bit(e.what());
    showError(tr("Cannot export the sequences"), error);
    return error;
  }
  statusBar()->showMessage(tr("Wrote %1 sequences to %2").arg(sequences.size()).arg(file), 10000);
  return {};
}

void MainWindow::computeNovelty(const QString& fasta) {
  const auto fail = [this](const QString& error) {
    showError(tr("Cannot compute novelty"), error);
    emit noveltyDone(error);
  };
  if (controller_->isRunning()) return fail(tr("a run is in progress; wait for it or cancel it"));
  if (!current_.id) return fail(tr("no stored run is shown"));
  const auto sequences = results_->model()->sequences();
  const auto id = current_.id;
  const auto alphabet = current_.alphabet.toStdString();
  const auto db = database_.toStdString();
  statusBar()->showMessage(tr("Computing novelty against %1…").arg(fasta));
  auto* watcher = new QFutureWatcher<QString>(this);
  connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, id, fail] {
    const QString error = watcher->result();
    watcher->deleteLater();
    if (!error.isEmpty()) return fail(error);
    if (id == current_.id && !controller_->isRunning()) {
      try {
        results_->setSequences(readStore(database_).sequences(id), current_.alphabet);
      } catch (const std::exception& e) {
        return fail(QString::fromLocal8Bit(e.what()));
      }
    }
    statusBar()->showMessage(tr("Novelty stored with the run"), 10000);
    emit noveltyDone(QString());
  });
  watcher->setFuture(QtConcurrent::run([fasta, sequences, id, alphabet, db]() -> QString {
    try {
      const auto identity = noveltyAgainst(fasta.toStdString(), alphabet, sequences);
      std::vector<std::pair<std::size_t, double>> values;
      for (std::size_t i = 0; i < sequences.size(); ++i)
        values.emplace_back(sequences[i].index, identity[i]);
      storage::RunStore(db, {.create = false}).set_novelty(id, values);
      return {};
    } catch (const std::exception& e) {
      return QString::fromLocal8Bit(e.what());
    }
  }));
}

void MainWindow::noveltyDialog() {
  QSettings settings;
  const QString dir = settings.value(QStringLiteral("novelty/dir"),
                                     qEnvironmentVariable("GSFLOW_DATA")).toString();
  const QString file = QFileDialog::getOpenFileName(
      this, tr("Reference sequences for novelty (e.g. the training split)"), dir,
      tr("FASTA (*.fasta *.fa *.faa *.fna *.fasta.gz *.fa.gz);;All files (*)"));
  if (file.isEmpty()) return;
  settings.setValue(QStringLiteral("novelty/dir"), QFileInfo(file).absolutePath());
  computeNovelty(file);
}

QString MainWindow::exportPlot(PlotWidget* plot, const QString& file) {
  const QString error = plot ? plot->savePlot(file) : tr("there is no plot in this view");
  if (!error.isEmpty())
    showError(tr("Cannot export the plot"), error);
  else
    statusBar()->showMessage(tr("Wrote %1").arg(file), 10000);
  return error;
}

PlotWidget* MainWindow::currentPlot() const {
  QWidget* tab = tabs_->currentWidget();
  if (tab == results_) return results_->logo();
  if (tab == compare_) return compare_->histogram();
  return trajectory_->heatmap();
}

void MainWindow::exportSequencesDialog() {
  QSettings settings;
  const QString dir = settings.value(QStringLiteral("export/dir")).toString();
  const QString base = current_.name.isEmpty() ? QStringLiteral("sequences") : current_.name;
  QString selected;
  const QString file = QFileDialog::getSaveFileName(
      this, tr("Export sequences"), QDir(dir).filePath(base + QStringLiteral(".fasta")),
      tr("FASTA (*.fasta *.fa *.faa *.fna);;CSV (*.csv)"), &selected);
  if (file.isEmpty()) return;
  settings.setValue(QStringLiteral("export/dir"), QFileInfo(file).absolutePath());
  exportSequences(file);
}

void MainWindow::exportPlotDialog(PlotWidget* plot) {
  if (!plot) return;
  QSettings settings;
  const QString dir = settings.value(QStringLiteral("export/dir")).toString();
  const QString file = QFileDialog::getSaveFileName(
      this, tr("Export plot"), QDir(dir).filePath(plot->plotName() + QStringLiteral(".png")),
      tr("PNG image (*.png);;SVG drawing (*.svg)"));
  if (file.isEmpty()) return;
  settings.setValue(QStringLiteral("export/dir"), QFileInfo(file).absolutePath());
  exportPlot(plot, file);
}

void MainWindow::saveSettings() const {
  QSettings settings;
  design_->saveSettings(settings);
  settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("window/state"), saveState());
  settings.setValue(QStringLiteral("window/tab"), tabs_->currentIndex());
}

void MainWindow::restoreSettings() {
  const QSettings settings;
  design_->restoreSettings(settings);
  restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
  restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
  tabs_->setCurrentIndex(settings.value(QStringLiteral("window/tab"), 0).toInt());
}

void MainWindow::closeEvent(QCloseEvent* event) {
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
