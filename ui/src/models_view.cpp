// The Models view (see models_view.hpp).
#include "gsflow/ui/models_view.hpp"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "gsflow/models/catalog.hpp"
#include "gsflow/pipeline/model_listing.hpp"
#include "gsflow/ui/models/model_list_model.hpp"
#include "gsflow/ui/plots/line_chart.hpp"
#include "gsflow/ui/training_dialog.hpp"

namespace gsflow::ui {

namespace {

// Changes when a model is added to or removed from the user models folder (by the command line
// too): the folder's and its classifiers/ subfolder's modification times.
QString userFolderStamp() {
  const QString user = QString::fromStdString(models::user_models_folder());
  const QFileInfo folder(user), classifiers(QDir(user).filePath(QStringLiteral("classifiers")));
  return folder.lastModified().toString(Qt::ISODateWithMs) + QLatin1Char('|') +
         classifiers.lastModified().toString(Qt::ISODateWithMs);
}

}  // namespace

ModelsView::ModelsView(QWidget* parent) : QWidget(parent) {
  model_ = new ModelListModel(this);
  table_ = new QTableView(this);
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setAlternatingRowColors(true);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  table_->setWordWrap(false);

  auto* refresh = new QPushButton(tr("Refresh"), this);
  trainClassifier_ = new QPushButton(tr("Train classifier…"), this);
  trainClassifier_->setToolTip(
      tr("A guidance classifier (or regressor) from two FASTA files or a CSV table "
         "(gsflow train-classifier --name)"));
  fineTune_ = new QPushButton(tr("Fine-tune generator…"), this);
  fineTune_->setToolTip(
      tr("A generator adapted to a family of sequences (gsflow train --name "
         "--fasta --init)"));
  delete_ = new QPushButton(tr("Delete…"), this);
  delete_->setToolTip(tr("Delete a user model with its card; bundled models cannot be deleted"));
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(refresh);
  buttons->addStretch(1);
  buttons->addWidget(trainClassifier_);
  buttons->addWidget(fineTune_);
  buttons->addWidget(delete_);

  card_ = new QTextBrowser(this);
  card_->setOpenExternalLinks(true);
  card_->setPlaceholderText(tr("The selected model's card"));

  chart_ = new LineChart(this);
  chart_->setTitle(tr("Training"));
  chart_->setAxisTitles(tr("step"), QString());
  chart_->setMinimumHeight(180);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  status_ = new QLabel(tr("Train a model from your own files: its name is then offered in the "
                          "design form."),
                       this);
  status_->setWordWrap(true);
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->setToolTip(tr("Stop the training; nothing is written"));
  log_ = new QPlainTextEdit(this);
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(1000);
  log_->setLineWrapMode(QPlainTextEdit::NoWrap);
  log_->setPlaceholderText(tr("The command's messages"));
  auto* progressRow = new QHBoxLayout;
  progressRow->addWidget(progress_, 1);
  progressRow->addWidget(cancel_);
  auto* training = new QWidget(this);
  auto* trainingLayout = new QVBoxLayout(training);
  trainingLayout->setContentsMargins(0, 0, 0, 0);
  trainingLayout->addWidget(status_);
  trainingLayout->addLayout(progressRow);
  trainingLayout->addWidget(chart_, 2);
  trainingLayout->addWidget(log_, 1);

  auto* lower = new QSplitter(Qt::Horizontal, this);
  lower->addWidget(card_);
  lower->addWidget(training);
  lower->setStretchFactor(0, 1);
  lower->setStretchFactor(1, 1);
  auto* split = new QSplitter(Qt::Vertical, this);
  auto* upper = new QWidget(this);
  auto* upperLayout = new QVBoxLayout(upper);
  upperLayout->setContentsMargins(0, 0, 0, 0);
  upperLayout->addWidget(table_, 1);
  upperLayout->addLayout(buttons);
  split->addWidget(upper);
  split->addWidget(lower);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  split->setSizes({320, 480});
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(split);

  trainer_ = new TrainingProcess(this);
  connect(refresh, &QPushButton::clicked, this, &ModelsView::reload);
  connect(trainClassifier_, &QPushButton::clicked, this,
          [this] { openTrainingDialog(TrainingRequest::Kind::Classifier); });
  connect(fineTune_, &QPushButton::clicked, this,
          [this] { openTrainingDialog(TrainingRequest::Kind::Generator); });
  connect(delete_, &QPushButton::clicked, this, [this] {
    if (!selectedModel().isEmpty()) deleteModel(selectedModel(), true, selectedKindGroup());
  });
  connect(cancel_, &QPushButton::clicked, this, &ModelsView::cancelTraining);
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &ModelsView::showSelected);
  connect(trainer_, &TrainingProcess::line, this, [this](const QString& text) {
    log_->appendPlainText(text);
    log_->verticalScrollBar()->setValue(log_->verticalScrollBar()->maximum());  // follow the end
    status_->setText(text);
  });
  connect(trainer_, &TrainingProcess::point, this, &ModelsView::addPoint);
  connect(trainer_, &TrainingProcess::succeeded, this, [this](const QString& name) {
    setTraining(false);
    progress_->setValue(progress_->maximum());
    status_->setText(tr("Trained %1: it is offered in the design form.").arg(name));
    reload();
    selectModel(name);
    emit modelsChanged(name);
    emit trainingEnded(QStringLiteral("trained"));
  });
  connect(trainer_, &TrainingProcess::cancelled, this, [this] {
    setTraining(false);
    status_->setText(tr("Cancelled: nothing was written."));
    emit trainingEnded(QStringLiteral("cancelled"));
  });
  connect(trainer_, &TrainingProcess::failed, this, [this](const QString& message) {
    setTraining(false);
    status_->setText(tr("The training failed: nothing was written."));
    showError(tr("The training failed"), message);
    emit trainingEnded(QStringLiteral("failed"));
  });
  setTraining(false);
  showSelected();
}

void ModelsView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  // Listing reads every checkpoint (~0.1 s): only when the user's models changed meanwhile.
  if (stamp_.isEmpty() || stamp_ != userFolderStamp()) reload();
}

void ModelsView::reload() {
  const QString keep = selectedModel();
  stamp_ = userFolderStamp();
  model_->setModels(pipeline::list_models());
  table_->resizeColumnsToContents();
  if (!keep.isEmpty()) selectModel(keep);
  showSelected();
}

bool ModelsView::selectModel(const QString& name) {
  const int row = model_->rowOf(name);
  if (row < 0) return false;
  table_->selectRow(row);
  table_->scrollTo(model_->index(row, 0));
  return true;
}

QString ModelsView::selectedModel() const {
  const auto rows = table_->selectionModel()->selectedRows();
  return rows.isEmpty() ? QString() : rows.front().data(ModelListModel::NameRole).toString();
}

QString ModelsView::selectedKindGroup() const {
  const auto rows = table_->selectionModel()->selectedRows();
  if (rows.isEmpty()) return {};
  return QString::fromStdString(
      model_->models()[static_cast<std::size_t>(rows.front().row())].kind_group());
}

void ModelsView::showSelected() {
  const auto rows = table_->selectionModel()->selectedRows();
  delete_->setEnabled(!rows.isEmpty() && rows.front().data(ModelListModel::UserRole).toBool());
  if (rows.isEmpty()) {
    card_->clear();
    return;
  }
  const auto& m = model_->models()[static_cast<std::size_t>(rows.front().row())];
  if (!m.error.empty()) {
    card_->setPlainText(tr("%1 cannot be read:\n%2")
                            .arg(QString::fromStdString(m.file), QString::fromStdString(m.error)));
    return;
  }
  QFile file(QString::fromStdString(m.card));
  if (m.card.empty() || !file.open(QIODevice::ReadOnly)) {
    card_->setPlainText(tr("%1 has no model card (%2.md beside it).")
                            .arg(QString::fromStdString(m.file), QString::fromStdString(m.name)));
    return;
  }
  card_->setMarkdown(QString::fromUtf8(file.readAll()));
}

TrainingDialog* ModelsView::openTrainingDialog(TrainingRequest::Kind kind) {
  QStringList generators;
  for (const auto& m : model_->models())
    if (m.generator() && m.error.empty()) generators << QString::fromStdString(m.name);
  auto* dialog = new TrainingDialog(kind, generators, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &QDialog::accepted, this, [this, dialog] { startTraining(dialog->request()); });
  dialog->open();
  return dialog;
}

bool ModelsView::startTraining(const TrainingRequest& request) {
  if (trainer_->isRunning()) {
    showError(tr("Cannot start the training"), tr("A training is running: cancel it first."));
    return false;
  }
  loss_.clear();
  validation_.clear();
  metric_.clear();
  chart_->setSeries({});
  chart_->setTitle(tr("Training %1").arg(request.name.trimmed()));
  log_->clear();
  progress_->setRange(0, 0);  // busy until the first progress line gives the steps
  setTraining(true);
  if (!trainer_->start(request)) {  // failed() has shown why
    setTraining(false);
    return false;
  }
  return true;
}

void ModelsView::cancelTraining() {
  if (!trainer_->isRunning()) return;
  status_->setText(tr("Cancelling…"));
  trainer_->cancel();
}

bool ModelsView::isTraining() const { return trainer_->isRunning(); }

void ModelsView::setTraining(bool training) {
  trainClassifier_->setEnabled(!training);
  fineTune_->setEnabled(!training);
  cancel_->setEnabled(training);
  progress_->setFormat(training ? QStringLiteral("%v / %m steps") : QString());
  if (!training && progress_->maximum() == 0) progress_->setRange(0, 1);
}

void ModelsView::addPoint(const TrainingPoint& p) {
  progress_->setRange(0, static_cast<int>(std::min<qint64>(p.total, 1 << 30)));
  progress_->setValue(static_cast<int>(std::min<qint64>(p.step, 1 << 30)));
  if (std::isfinite(p.loss)) loss_.append(QPointF(p.step, p.loss));
  if (std::isfinite(p.validation)) validation_.append(QPointF(p.step, p.validation));
  metric_ = p.metric;
  // A generator's held-out loss shares the training loss's scale; a classifier's selection
  // metric (AUROC, Spearman) lies in [-1, 1], on the same axis as its cross-entropy.
  chart_->setSeries(
      {{tr("training loss"), loss_, {}}, {tr("validation %1").arg(metric_), validation_, {}}});
}

bool ModelsView::deleteModel(const QString& name, bool confirm, const QString& kindGroup) {
  const int row = model_->rowOf(name, kindGroup);
  if (confirm && row >= 0 && model_->models()[static_cast<std::size_t>(row)].user()) {
    const auto& m = model_->models()[static_cast<std::size_t>(row)];
    if (QMessageBox::question(this, tr("Delete model"),
                              tr("Delete %1 %2 (%3) and its card? Runs made with it stay in the "
                                 "store, but cannot be rerun. This cannot be undone.")
                                  .arg(QString::fromStdString(m.kind), name,
                                       QString::fromStdString(m.file))) != QMessageBox::Yes)
      return false;
  }
  try {
    // Only the kind asked for: without it, a user classifier and a user judge of one name make
    // delete_user_model refuse, naming both files.
    pipeline::delete_user_model(name.toStdString(), kindGroup.toStdString());
  } catch (const std::exception& e) {
    showError(tr("Cannot delete the model"), QString::fromStdString(e.what()));
    return false;
  }
  reload();
  emit modelsChanged(QString());
  return true;
}

void ModelsView::showError(const QString& title, const QString& message) {
  auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();  // window-modal, never blocks the event loop
  emit errorShown(message);
}

}  // namespace gsflow::ui
