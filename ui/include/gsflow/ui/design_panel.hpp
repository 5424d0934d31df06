// The design form: model (bundled or a checkpoint file), length, number of sequences, steps,
// method, integrator, temperature, seed, trajectory frames, guidance objectives with weights,
// gamma, schedule and M; a collapsible Design section (templates, fixed motifs, start sequences
// with start time and edit budget, and the constraints: avoided sites, runs, GC, omitted letters);
// and the run's name, tags and notes. Produces the options of a stored run and persists its
// fields with QSettings.
#pragma once

#include <QWidget>
#include <utility>
#include <vector>

#include "gsflow/pipeline/stored_run.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QPlainTextEdit;
class QSettings;
class QSpinBox;
class QTableWidget;
class QToolButton;

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
  // Lists the models and the objectives found by name again (after a model was trained or
  // deleted), keeping what the fields hold.
  void refreshModels();
  // The objective names offered for the model's alphabet (properties, bundled and user
  // classifiers).
  QStringList objectiveChoices() const { return objectiveNames_; }
  void setRunName(const QString& name);
  // Adds a guidance row "objective" with `weight`.
  void addObjective(const QString& objective, double weight = 1.0);
  void clearObjectives();
  int objectiveCount() const;

  void saveSettings(QSettings& settings) const;
  void restoreSettings(const QSettings& settings);

  // Design section. Templates and start sequences are read from FASTA files into their fields
  // (the run stores the letters, so a rerun needs no file). importTemplates takes the first record,
  // or with `all` every record (sequence i uses template i mod count); importStarts takes every
  // record and keeps its id. Both return "" or the error (naming the file and line).
  QString importTemplates(const QString& file, bool all);
  QString importStarts(const QString& file);
  // Fixes `sequence`'s letters at positions first..last (0-based, inclusive) in the template:
  // merged into the field's template when it holds exactly one of sequence.size() letters, else
  // the field gets a new template with `freeLetter` (N for DNA, X for peptides) elsewhere.
  // Returns the template written.
  QString lockPositions(const QString& sequence, int first, int last, QChar freeLetter);
  bool isDesignExpanded() const;
  void setDesignExpanded(bool expanded);
  // The alphabet of the model in the model field ("dna", "protein"; "" while it is not a model).
  QString modelAlphabet() const { return alphabet_; }

  // A message naming a `gsflow generate` option ("--template 2: 'Z' at position 4 ...") rewritten
  // to name the form's field too ("Template (--template 2): 'Z' at position 4 ..."), so run errors
  // point at the field to fix; other messages are returned as they are.
  static QString fieldMessage(const QString& message);

  // Named children for tests and shortcuts.
  QComboBox* modelBox() const { return model_; }
  QSpinBox* numberBox() const { return number_; }
  QSpinBox* stepsBox() const { return steps_; }
  QSpinBox* lengthBox() const { return length_; }
  QSpinBox* batchBox() const { return batch_; }
  QSpinBox* framesBox() const { return frames_; }
  QLineEdit* seedEdit() const { return seed_; }
  QDoubleSpinBox* gammaBox() const { return gamma_; }
  QPlainTextEdit* templateEdit() const { return template_; }
  QLineEdit* fixEdit() const { return fix_; }
  QPlainTextEdit* startEdit() const { return start_; }
  QLineEdit* avoidEdit() const { return avoid_; }
  QSpinBox* maxRunBox() const { return maxRun_; }
  QSpinBox* maxEditsBox() const { return maxEdits_; }
  QDoubleSpinBox* gcMinBox() const { return gcMin_; }
  QDoubleSpinBox* gcMaxBox() const { return gcMax_; }
  QSpinBox* gcWindowBox() const { return gcWindow_; }
  QLineEdit* omitEdit() const { return omit_; }

 signals:
  void modelChanged(const QString& model);

 private:
  void browseModel();
  // The guidance rows as the form holds them (an empty objective stays empty).
  std::vector<guidance::GuideTerm> objectiveTerms() const;
  std::vector<std::pair<QString, QWidget*>> settingsFields() const;
  void updateObjectiveNames();
  QWidget* buildDesignSection();
  // The Design section's fields into params.design through the run schema's rows (errors name
  // the field), then checked against the model's alphabet when it is known.
  void designOptions(pipeline::RunParams& params) const;
  void setDesignParams(const pipeline::DesignOptions& design);
  void updateDesignState();
  QStringList activeDesign() const;
  bool dnaConstraints() const;
  void importTemplatesDialog();
  void importStartsDialog();

  QComboBox* model_;
  QSpinBox *length_, *number_, *steps_, *frames_, *batch_, *samples_, *threads_;
  QComboBox *method_, *integrator_, *timeGrid_, *precision_, *schedule_, *from_, *guidanceMethod_;
  QDoubleSpinBox *temperature_, *gamma_, *naturalness_;
  QLineEdit *seed_, *name_, *tags_, *notes_;
  QTableWidget* objectives_;
  QStringList objectiveNames_;  // suggestions for the model's alphabet
  QString alphabet_;            // the model's alphabet name, "" when unknown

  // Design section (see buildDesignSection).
  QToolButton* designToggle_;
  QWidget* designBody_;
  QPlainTextEdit *template_, *start_;
  QLineEdit *fix_, *avoid_, *omit_;
  QComboBox* fixedHold_;
  QSpinBox *maxRun_, *gcWindow_, *maxEdits_;
  QDoubleSpinBox *gcMin_, *gcMax_, *startTime_, *strength_;
  QToolButton* enzymes_;
};

}  // namespace gsflow::ui
