// The run history: every run of the store (made here or by `gsflow generate`), searchable by name
// or notes, tag, model and date, with buttons to reopen, rerun or delete the selected run.
#pragma once

#include <QWidget>
#include <cstdint>

#include "gsflow/storage/records.hpp"

class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace gsflow::ui {

class HistoryModel;

class HistoryView : public QWidget {
  Q_OBJECT

 public:
  explicit HistoryView(QWidget* parent = nullptr);

  // The search as the fields hold it (text, tag, model, since).
  storage::RunFilter filter() const;
  void setFilter(const storage::RunFilter& filter);
  // Shows `runs` (the caller listed them from the store with filter()).
  void setRuns(std::vector<storage::RunInfo> runs);
  // The selected run's id, 0 when none.
  std::int64_t selectedRun() const;
  void selectRun(std::int64_t id);

  HistoryModel* model() const { return model_; }
  QTableView* table() const { return table_; }

 signals:
  void refreshRequested();  // the search changed or Refresh was pressed
  void reopenRequested(std::int64_t id);
  void rerunRequested(std::int64_t id);
  void deleteRequested(std::int64_t id);

 private:
  HistoryModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* table_;
  QLineEdit *text_, *tag_, *modelName_, *since_;
  QPushButton *reopen_, *rerun_, *delete_;
};

}  // namespace gsflow::ui
