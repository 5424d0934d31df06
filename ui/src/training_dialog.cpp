// The training dialog (see training_dialog.hpp).
#include "gsflow/ui/training_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace gsflow::ui {

namespace {

const QString kFasta = QStringLiteral("FASTA (*.fa *.fasta *.fna *.faa);;All files (*)");

}  // namespace

TrainingDialog::TrainingDialog(TrainingRequest::Kind kind, const QStringList& generators,
                               QWidget* parent)
    : QDialog(parent), kind_(kind) {
  const bool generator = kind == TrainingRequest::Kind::Generator;
  setWindowTitle(generator ? tr("Fine-tune a generator") : tr("Train a classifier"));
  form_ = new QFormLayout;
  name_ = new QLineEdit(this);
  name_->setPlaceholderText(generator ? tr("e.g. myfamily") : tr("e.g. tox"));
  name_->setToolTip(
      tr("The model's name: its file in the user models folder, and what the design "
         "form and `gsflow generate --model / --guide` take"));
  form_->addRow(tr("Name"), name_);
  if (generator) {
    family_ = fileField(form_, tr("Family FASTA"), kFasta);
    family_->setToolTip(
        tr("The sequences to adapt to (DNA: exactly the base's length; peptides: "
           "up to its maximum); 50 at least"));
    base_ = new QComboBox(this);
    base_->setEditable(true);
    base_->addItems(generators);
    base_->setCurrentText(QStringLiteral("dna-promoter"));
    base_->setToolTip(tr("The generator fine-tuning starts from: its network, path and lengths"));
    form_->addRow(tr("Base model"), base_);
  } else {
    source_ = new QComboBox(this);
    source_->addItems({tr("Two FASTA files: positives and negatives"), tr("A CSV table")});
    form_->addRow(tr("Data"), source_);
    positives_ = fileField(form_, tr("Positives"), kFasta);
    negatives_ = fileField(form_, tr("Negatives"), kFasta);
    table_ = fileField(form_, tr("Table"), tr("CSV (*.csv);;All files (*)"));
    sequenceColumn_ = new QLineEdit(TrainingRequest{}.sequenceColumn, this);
    labelColumn_ = new QLineEdit(TrainingRequest{}.labelColumn, this);
    task_ = new QComboBox(this);
    task_->addItems({tr("binary labels: a classifier"), tr("numeric values: a regressor")});
    form_->addRow(tr("Sequence column"), sequenceColumn_);
    form_->addRow(tr("Label column"), labelColumn_);
    form_->addRow(tr("Task"), task_);
    connect(source_, &QComboBox::currentIndexChanged, this, &TrainingDialog::updateRows);
  }
  steps_ = new QSpinBox(this);
  steps_->setRange(0, 1000000);
  steps_->setSpecialValueText(tr("auto (from the data's size)"));
  steps_->setToolTip(tr("Training steps; early stopping may end sooner"));
  threads_ = new QSpinBox(this);
  threads_->setRange(0, 256);
  threads_->setSpecialValueText(tr("the command's default"));
  form_->addRow(tr("Steps"), steps_);
  form_->addRow(tr("Threads"), threads_);
  if (generator) {
    eval_ = new QSpinBox(this);
    eval_->setRange(-1, 100000);
    eval_->setValue(-1);
    eval_->setSpecialValueText(tr("the command's default"));
    eval_->setToolTip(
        tr("Sequences each model generates for the card's k-mer figures on the "
           "held-out part (0 = none; the card's evaluation takes the longest)"));
    form_->addRow(tr("Eval sequences"), eval_);
  }
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setStyleSheet(QStringLiteral("color: #b00020"));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(generator ? tr("Fine-tune") : tr("Train"));
  connect(buttons, &QDialogButtonBox::accepted, this, &TrainingDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form_);
  layout->addWidget(message_);
  layout->addWidget(buttons);
  setMinimumWidth(520);
  updateRows();
}

QLineEdit* TrainingDialog::fileField(QFormLayout* form, const QString& label,
                                     const QString& filter) {
  auto* edit = new QLineEdit(this);
  auto* browse = new QToolButton(this);
  browse->setText(tr("…"));
  auto* row = new QHBoxLayout;
  row->addWidget(edit, 1);
  row->addWidget(browse);
  form->addRow(label, row);
  connect(browse, &QToolButton::clicked, this, [this, edit, label, filter] {
    const QString file = QFileDialog::getOpenFileName(this, label, edit->text(), filter);
    if (!file.isEmpty()) edit->setText(file);
  });
  return edit;
}

// Two FASTA files or a table: only the fields of the chosen form are shown.
void TrainingDialog::updateRows() {
  if (!source_) return;
  const bool csv = source_->currentIndex() == 1;
  const auto setVisible = [this](QWidget* field, bool visible) {
    // The row holding `field`: directly, or inside a file field's layout (with its … button).
    for (int row = 0; row < form_->rowCount(); ++row) {
      auto* item = form_->itemAt(row, QFormLayout::FieldRole);
      if (item &&
          (item->widget() == field || (item->layout() && item->layout()->indexOf(field) >= 0)))
        form_->setRowVisible(row, visible);
    }
  };
  setVisible(positives_, !csv);
  setVisible(negatives_, !csv);
  for (QWidget* w : {static_cast<QWidget*>(table_), static_cast<QWidget*>(sequenceColumn_),
                     static_cast<QWidget*>(labelColumn_), static_cast<QWidget*>(task_)})
    setVisible(w, csv);
}

TrainingRequest TrainingDialog::request() const {
  TrainingRequest r;
  r.kind = kind_;
  r.name = name_->text().trimmed();
  if (kind_ == TrainingRequest::Kind::Generator) {
    r.family = family_->text().trimmed();
    r.base = base_->currentText().trimmed();
    r.evalSequences = eval_->value();
  } else if (source_->currentIndex() == 1) {
    r.table = table_->text().trimmed();
    r.sequenceColumn = sequenceColumn_->text().trimmed();
    r.labelColumn = labelColumn_->text().trimmed();
    r.regression = task_->currentIndex() == 1;
  } else {
    r.positives = positives_->text().trimmed();
    r.negatives = negatives_->text().trimmed();
  }
  r.steps = steps_->value();
  r.threads = threads_->value();
  return r;
}

void TrainingDialog::accept() {
  try {
    request().arguments();
  } catch (const std::exception& e) {
    message_->setText(QString::fromStdString(e.what()));
    return;
  }
  message_->clear();
  QDialog::accept();
}

}  // namespace gsflow::ui
