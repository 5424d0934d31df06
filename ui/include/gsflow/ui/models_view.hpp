// The Models view: the generators and guidance classifiers found by name (bundled and the user's,
// as `gsflow models list` lists them), the selected one's model card (NAME.md beside its file),
// Delete… for user models, and training: a classifier from two FASTA files or a CSV table, or a
// generator fine-tuned on a family, chosen in a dialog and run by the `gsflow` command as a child
// process (TrainingProcess) with progress, Cancel and the training / validation curve.
#pragma once

#include <QWidget>

#include "gsflow/ui/training_process.hpp"

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableView;
class QTextBrowser;

namespace gsflow::ui {

class LineChart;
class ModelListModel;
class TrainingDialog;

class ModelsView : public QWidget {
  Q_OBJECT

 public:
  explicit ModelsView(QWidget* parent = nullptr);

  // Lists the models again (pipeline::list_models()), keeping the selection. Also done when the
  // view is shown and the user models folder changed since (a model made by the command line).
  void reload();
  bool selectModel(const QString& name);  // false when no model has that name
  QString selectedModel() const;          // "" when none
  QString selectedKindGroup() const;      // the selected row's kind group, "" when none

  // Opens the training dialog (window-modal, not blocking); OK starts the training.
  TrainingDialog* openTrainingDialog(TrainingRequest::Kind kind);
  // Starts a training; false with an error dialog when it cannot start or one is running.
  bool startTraining(const TrainingRequest& request);
  void cancelTraining();
  bool isTraining() const;
  // Deletes user model `name` (its file, card and profile); with `confirm` the user is asked
  // first. Bundled models are refused with a dialog. `kindGroup` ("generator", "classifier",
  // "judge") picks between a user classifier and a user judge of one name; without it such a
  // name is refused with a dialog naming both files. False when nothing was deleted.
  bool deleteModel(const QString& name, bool confirm = true, const QString& kindGroup = {});

  ModelListModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QTextBrowser* card() const { return card_; }
  LineChart* chart() const { return chart_; }
  QProgressBar* progressBar() const { return progress_; }
  TrainingProcess* trainer() const { return trainer_; }
  QPushButton* trainClassifierButton() const { return trainClassifier_; }
  QPushButton* fineTuneButton() const { return fineTune_; }
  QPushButton* deleteButton() const { return delete_; }
  QPushButton* cancelButton() const { return cancel_; }

 signals:
  // The models changed: `name` was trained ("" after a delete); the design form lists them anew.
  void modelsChanged(const QString& name);
  // A training ended: "trained", "cancelled" or "failed".
  void trainingEnded(const QString& status);
  // An error dialog was shown (tests watch this instead of clicking dialogs).
  void errorShown(const QString& message);

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void showSelected();
  void showError(const QString& title, const QString& message);
  void setTraining(bool training);
  void addPoint(const TrainingPoint& point);

  ModelListModel* model_;
  QTableView* table_;
  QTextBrowser* card_;
  LineChart* chart_;
  QProgressBar* progress_;
  QLabel* status_;
  QPlainTextEdit* log_;
  QPushButton *trainClassifier_, *fineTune_, *delete_, *cancel_;
  TrainingProcess* trainer_;
  QVector<QPointF> loss_, validation_;
  QString metric_;
  QString stamp_;  // the user models folder's state when last listed
};

}  // namespace gsflow::ui
