// gsflow-studio's main window: the design form on the left; the trajectory, results, comparison,
// history and models views in tabs; Run / Cancel / Export actions with shortcuts; a progress bar.
// Runs go through a RunController (worker thread) into the same SQLite store as the `gsflow`
// command line.
#pragma once

#include <QMainWindow>
#include <QString>
#include <cstdint>

#include "gsflow/pipeline/stored_run.hpp"

class QAction;
class QLabel;
class QProgressBar;
class QTabWidget;

namespace gsflow::ui {

class CompareView;
class DesignPanel;
class HistoryView;
class ModelsView;
class PlotWidget;
class ResultsView;
class RunController;
class TrajectoryView;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // `database`: the run store file ("" = storage::default_database_path(), like `gsflow`).
  explicit MainWindow(const QString& database = QString(), QWidget* parent = nullptr);
  ~MainWindow() override;

  QString databasePath() const { return database_; }
  void setDatabasePath(const QString& file);

  // Starts the run the design form describes; false (with an error dialog) when it cannot start.
  // With `expectModelHash` the run fails (with a dialog, storing nothing) unless the model file
  // still has that hash.
  bool startRun(const std::string& expectModelHash = {});
  void cancelRun();
  bool isRunning() const;
  // Shows a stored run (results, trajectories, scores). False with a dialog when it cannot.
  bool reopenRun(std::int64_t id);
  // The same for a run given by name or id (as `gsflow runs show` takes it).
  bool reopenRun(const QString& key);
  // Runs a stored run again with its parameters and recorded model (checked by hash).
  bool rerunRun(std::int64_t id);
  // Lock selection: writes the letters of the shown run's sequence `sequence` at positions
  // first..last (0-based) into the design form's template (DesignPanel::lockPositions). False
  // with a dialog when the sequence has not finished yet.
  bool lockSelection(std::size_t sequence, int first, int last);
  // Deletes a stored run; with `confirm` the user is asked first. False when not deleted.
  bool deleteRun(std::int64_t id, bool confirm = true);
  void refreshHistory();

  // Writes the sequences shown in the results table to `file`: FASTA (".fa", ".fasta", ".fna",
  // ".faa") with the command line's headers, or CSV (".csv"). Returns "" or the error (also shown
  // as a dialog).
  QString exportSequences(const QString& file);
  // The same for `sequences` (the results' Export selected…).
  QString exportSequences(const QString& file,
                          const std::vector<storage::SequenceRecord>& sequences);
  // Writes `plot` as PNG or SVG (by suffix). Returns "" or the error (also shown as a dialog).
  QString exportPlot(PlotWidget* plot, const QString& file);

  // Novelty of the current run's sequences against the reference FASTA `fasta`, computed on a
  // worker thread, stored with the run and shown; noveltyDone() reports the end.
  void computeNovelty(const QString& fasta);

  std::int64_t currentRunId() const { return current_.id; }
  QString currentRunName() const { return current_.name; }

  DesignPanel* designPanel() const { return design_; }
  TrajectoryView* trajectoryView() const { return trajectory_; }
  ResultsView* resultsView() const { return results_; }
  CompareView* compareView() const { return compare_; }
  HistoryView* historyView() const { return history_; }
  ModelsView* modelsView() const { return models_; }
  QTabWidget* tabs() const { return tabs_; }
  RunController* controller() const { return controller_; }
  QProgressBar* progressBar() const { return progress_; }
  QAction* runAction() const { return run_; }
  QAction* cancelAction() const { return cancel_; }
  QAction* exportAction() const { return export_; }
  QAction* exportPlotAction() const { return exportPlot_; }

 signals:
  // A run ended: status "completed", "interrupted" or "failed".
  void runEnded(const QString& status);
  // computeNovelty() ended: "" or the error (also shown as a dialog).
  void noveltyDone(const QString& error);
  // An error dialog was shown (tests watch this instead of clicking dialogs).
  void errorShown(const QString& message);

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  struct CurrentRun {
    std::int64_t id = 0;
    QString name, model, method, alphabet;
    std::uint64_t seed = 0;
    int steps = 0;
    std::size_t sequences = 0;  // requested
    pipeline::DesignOptions design{};  // its fixed letters are marked in the trajectory view
    std::string madeWith;  // pipeline::run_summary: the guidance and design words of FASTA headers
  };

  void buildActions();
  void showError(const QString& title, const QString& message);
  void setRunning(bool running);
  void loadFrames(std::size_t sequence);
  void exportSequencesDialog(const std::vector<storage::SequenceRecord>& sequences);
  // The FASTA header line (without '>') the exports and copies give `sequence` of the current run.
  std::string fastaHeader(const storage::SequenceRecord& sequence) const;
  // The results and the trajectory learn the current run's name, FASTA headers and the
  // typicality profile of its model file `model`.
  void showRunIdentity(const std::string& model);
  void noveltyDialog();
  void exportPlotDialog(PlotWidget* plot);
  PlotWidget* currentPlot() const;
  void saveSettings() const;
  void restoreSettings();

  QString database_;
  CurrentRun current_;
  DesignPanel* design_;
  TrajectoryView* trajectory_;
  ResultsView* results_;
  CompareView* compare_;
  HistoryView* history_;
  ModelsView* models_;
  QTabWidget* tabs_;
  RunController* controller_;
  QProgressBar* progress_;
  QLabel* status_;
  QAction *run_ = nullptr, *cancel_ = nullptr, *export_ = nullptr, *exportPlot_ = nullptr;
};

}  // namespace gsflow::ui
