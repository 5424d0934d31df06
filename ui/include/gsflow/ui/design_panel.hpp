// The design form: model (bundled or a checkpoint file), length, number of sequences, steps,
// method, integrator, temperature, seed, trajectory frames, guidance objectives with weights,
// gamma, schedule and M, and the run's name, tags and notes. Produces the options of a stored run
// and persists its fields with QSettings.
#pragma once

#include <QWidget>
#include <utility>
#include <vector>

#include "gsflow/pipeline/stored_run.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSettings;
class QSpinBox;
class QTableWidget;

namespace gsflow::ui {

class DesignPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DesignPanel(QWidget* parent = nullptr);

  // The run the form describes (db left empty). Throws std::invalid_argument naming the field
  // for impossible values (an empty objective, a bad weight, a seed that is not a number, ...).
  pipeline::StoredRunOptions options() const;
  // Fills the form from stored run parameters (reopen, rerun); the model field takes `model`.
  void setParams(const pipeline::RunParams& params, const QString& model);

  void setModel(const QString& model);
  QString model() const;
  void setRunName(const QString& name);
  // Adds a guidance row "objective" with `weight`.
  void addObjective(const QString& objective, double weight = 1.0);
  void clearObjectives();
  int objectiveCount() const;

  void saveSettings(QSettings& settings) const;
  void restoreSettings(const QSettings& settings);

  // Named children for tests and shortcuts.
  QSpinBox* numberBox() const { return number_; }
  QSpinBox* stepsBox() const { return steps_; }
  QSpinBox* lengthBox() const { return length_; }
  QSpinBox* batchBox() const { return batch_; }
  QSpinBox* framesBox() const { return frames_; }
  QLineEdit* seedEdit() const { return seed_; }
  QDoubleSpinBox* gammaBox() const { return gamma_; }

 signals:
  void modelChanged(const QString& model);

 private:
  void browseModel();
  // The guidance rows as the form holds them (an empty objective stays empty).
  std::vector<guidance::GuideTerm> objectiveTerms() const;
  std::vector<std::pair<QString, QWidget*>> settingsFields() const;
  void updateObjectiveNames();

  QComboBox* model_;
  QSpinBox *length_, *number_, *steps_, *frames_, *batch_, *samples_, *threads_;
  QComboBox *method_, *integrator_, *schedule_, *from_;
  QDoubleSpinBox *temperature_, *gamma_;
  QLineEdit *seed_, *name_, *tags_, *notes_;
  QTableWidget* objectives_;
  QStringList objectiveNames_;  // suggestions for the model's alphabet
};

}  // namespace gsflow::ui
