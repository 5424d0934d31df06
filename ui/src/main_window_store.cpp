// The main window's run-store operations: history, reopen, rerun, delete, trajectory frames on
// demand, and novelty against a reference FASTA (see main_window.hpp).
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

#include "gsflow/pipeline/run_params.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/ui/compare_view.hpp"
#include "gsflow/ui/design_panel.hpp"
#include "gsflow/ui/history_view.hpp"
#include "gsflow/ui/main_window.hpp"
#include "gsflow/ui/models/results_model.hpp"
#include "gsflow/ui/novelty.hpp"
#include "gsflow/ui/results_view.hpp"
#include "gsflow/ui/run_controller.hpp"
#include "gsflow/ui/trajectory_view.hpp"
#include "gsflow/ui/user_settings.hpp"
#include "store_reading.hpp"

namespace gsflow::ui {

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
                          text(run.model.alphabet), run.seed, 0, run.requested};
    try {
      // The form takes the run's settings, so Run repeats it or a variation of it; a bundled
      // model keeps its short name.
      const auto params = pipeline::parse_run_params(run.params_json);
      current_.steps = params.sampler.steps;
      const auto bundled = models::bundled_models();
      const bool isBundled =
          std::find(bundled.begin(), bundled.end(), run.model.name) != bundled.end() &&
          models::model_hash(models::resolve_model(run.model.name)) == run.model.hash;
      design_->setParams(params, text(isBundled ? run.model.name : run.model.file));
      current_.design = params.design;
      current_.madeWith = pipeline::run_summary(params);
    } catch (const std::exception&) {  // an unreadable record still shows (steps=0 in headers)
    }
    auto sequences = store.sequences(id);
    trajectory_->reset(alphabetLetters(current_.alphabet), static_cast<int>(run.requested));
    trajectory_->setDesign(current_.design, current_.alphabet);
    trajectory_->addSequences(sequences);
    results_->setSequences(std::move(sequences), current_.alphabet);
    showRunIdentity(run.model.file);
    trajectory_->addStepScores(store.step_scores(id));
    trajectory_->setFrames(0, store.frames(id, 0));
    status_->setText(tr("%1: %2, %3 of %4 sequences, %5 frames")
                         .arg(current_.name, text(storage::status_name(run.status)))
                         .arg(run.completed)
                         .arg(run.requested)
                         .arg(run.frames));
    // The comparison shows this run against the one before it (not whichever two were newest).
    compare_->compareRun(id);
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
  std::string modelHash;
  try {
    const auto run = readStore(database_).run(id);
    const auto params = pipeline::parse_run_params(run.params_json);
    design_->setParams(params, text(run.model.file));
    design_->setRunName(QString());
    modelHash = run.model.hash;
  } catch (const std::exception& e) {
    showError(tr("Cannot rerun the run"), QString::fromLocal8Bit(e.what()));
    return false;
  }
  return startRun(modelHash);
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
    if (run.status == storage::RunStatus::running && controller_->isRunning() && id == current_.id) {
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
  const auto settings = userSettings();
  const QString dir = settings->value(QStringLiteral("novelty/dir"),
                                      qEnvironmentVariable("GSFLOW_DATA")).toString();
  const QString file = QFileDialog::getOpenFileName(
      this, tr("Reference sequences for novelty (e.g. the training split)"), dir,
      tr("FASTA (*.fasta *.fa *.faa *.fna *.fasta.gz *.fa.gz);;All files (*)"));
  if (file.isEmpty()) return;
  settings->setValue(QStringLiteral("novelty/dir"), QFileInfo(file).absolutePath());
  computeNovelty(file);
}

}  // namespace gsflow::ui
