// The run history view (see history_view.hpp).
#include "gsflow/ui/history_view.hpp"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include "gsflow/ui/models/history_model.hpp"

namespace gsflow::ui {

HistoryView::HistoryView(QWidget* parent) : QWidget(parent) {
  model_ = new HistoryModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(HistoryModel::SortRole);
  table_ = new QTableView(this);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(HistoryModel::Created, Qt::DescendingOrder);  // newest first
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setAlternatingRowColors(true);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  table_->setWordWrap(false);

  text_ = new QLineEdit(this);
  text_->setPlaceholderText(tr("part of the name or notes"));
  tag_ = new QLineEdit(this);
  tag_->setPlaceholderText(tr("exact tag"));
  modelName_ = new QLineEdit(this);
  modelName_->setPlaceholderText(tr("model name, e.g. dna-promoter"));
  since_ = new QLineEdit(this);
  since_->setPlaceholderText(tr("made on or after, e.g. 2026-12-01"));
  for (auto* edit : {text_, tag_, modelName_, since_}) edit->setClearButtonEnabled(true);

  auto* search = new QFormLayout;
  search->addRow(tr("Search"), text_);
  search->addRow(tr("Tag"), tag_);
  search->addRow(tr("Model"), modelName_);
  search->addRow(tr("Since"), since_);

  auto* refresh = new QPushButton(tr("Refresh"), this);
  reopen_ = new QPushButton(tr("Reopen"), this);
  reopen_->setToolTip(tr("Show this run's results and trajectories"));
  rerun_ = new QPushButton(tr("Rerun"), this);
  rerun_->setToolTip(tr("Run it again with the same parameters, seed and model"));
  delete_ = new QPushButton(tr("Delete…"), this);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(refresh);
  buttons->addStretch(1);
  buttons->addWidget(reopen_);
  buttons->addWidget(rerun_);
  buttons->addWidget(delete_);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(search);
  layout->addWidget(table_, 1);
  layout->addLayout(buttons);

  // Typing searches after a short pause, not at every key.
  auto* debounce = new QTimer(this);
  debounce->setSingleShot(true);
  debounce->setInterval(250);
  connect(debounce, &QTimer::timeout, this, &HistoryView::refreshRequested);
  for (auto* edit : {text_, tag_, modelName_, since_})
    connect(edit, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
  connect(refresh, &QPushButton::clicked, this, &HistoryView::refreshRequested);
  const auto withSelected = [this](auto signal) {
    return [this, signal] {
      if (const auto id = selectedRun()) emit(this->*signal)(id);
    };
  };
  connect(reopen_, &QPushButton::clicked, this, withSelected(&HistoryView::reopenRequested));
  connect(rerun_, &QPushButton::clicked, this, withSelected(&HistoryView::rerunRequested));
  connect(delete_, &QPushButton::clicked, this, withSelected(&HistoryView::deleteRequested));
  connect(table_, &QTableView::doubleClicked, this, withSelected(&HistoryView::reopenRequested));
}

storage::RunFilter HistoryView::filter() const {
  storage::RunFilter f;
  f.text = text_->text().trimmed().toStdString();
  f.tag = tag_->text().trimmed().toStdString();
  f.model = modelName_->text().trimmed().toStdString();
  f.since = since_->text().trimmed().toStdString();
  return f;
}

void HistoryView::setFilter(const storage::RunFilter& filter) {
  text_->setText(QString::fromStdString(filter.text));
  tag_->setText(QString::fromStdString(filter.tag));
  modelName_->setText(QString::fromStdString(filter.model));
  since_->setText(QString::fromStdString(filter.since));
}

void HistoryView::setRuns(std::vector<storage::RunInfo> runs) {
  const auto keep = selectedRun();
  model_->setRuns(std::move(runs));
  table_->resizeColumnsToContents();
  if (keep) selectRun(keep);
}

std::int64_t HistoryView::selectedRun() const {
  const auto rows = table_->selectionModel()->selectedRows();
  if (rows.isEmpty()) return 0;
  return rows.front().data(HistoryModel::RunIdRole).toLongLong();
}

void HistoryView::selectRun(std::int64_t id) {
  const int row = model_->rowOf(id);
  if (row < 0) {
    table_->clearSelection();
    return;
  }
  table_->selectRow(proxy_->mapFromSource(model_->index(row, 0)).row());
}

}  // namespace gsflow::ui
