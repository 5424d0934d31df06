// The dialog that asks what to train: a classifier (name; two FASTA files of positives and
// negatives, or a CSV table with its sequence and label columns and the task) or a generator
// fine-tuned on a family (name, the family's FASTA, the base model), plus steps and threads. OK
// checks that the fields it needs are filled; the data itself is checked by the command.
#pragma once

#include <QDialog>

#include "gsflow/ui/training_process.hpp"

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace gsflow::ui {

class TrainingDialog : public QDialog {
  Q_OBJECT

 public:
  // `generators`: the names offered as the base of a fine-tuned generator.
  TrainingDialog(TrainingRequest::Kind kind, const QStringList& generators,
                 QWidget* parent = nullptr);

  TrainingRequest request() const;
  void accept() override;  // refuses (with the message under the fields) a request that lacks one

  // Named children for tests.
  QLineEdit* nameEdit() const { return name_; }
  QComboBox* sourceBox() const { return source_; }  // classifier: FASTA files or a CSV table
  QLineEdit* positivesEdit() const { return positives_; }
  QLineEdit* negativesEdit() const { return negatives_; }
  QLineEdit* tableEdit() const { return table_; }
  QLineEdit* familyEdit() const { return family_; }
  QComboBox* baseBox() const { return base_; }
  QSpinBox* stepsBox() const { return steps_; }
  QSpinBox* threadsBox() const { return threads_; }
  QSpinBox* evalBox() const { return eval_; }
  QLabel* messageLabel() const { return message_; }

 private:
  QLineEdit* fileField(QFormLayout* form, const QString& label, const QString& filter);
  void updateRows();

  TrainingRequest::Kind kind_;
  QFormLayout* form_;
  QLineEdit *name_, *positives_ = nullptr, *negatives_ = nullptr, *table_ = nullptr;
  QLineEdit *sequenceColumn_ = nullptr, *labelColumn_ = nullptr, *family_ = nullptr;
  QComboBox *source_ = nullptr, *task_ = nullptr, *base_ = nullptr;
  QSpinBox *steps_, *threads_, *eval_ = nullptr;
  QLabel* message_;
};

}  // namespace gsflow::ui
