// The run history table of gsflow-studio: one row per stored run (name, status, model, method,
// seed, sequences done/requested, frames, created, tags, notes), newest first as the store lists
// them. Qt Core only; passes QAbstractItemModelTester.
#pragma once

#include <QAbstractTableModel>
#include <cstdint>
#include <vector>

#include "gsflow/storage/records.hpp"

namespace gsflow::ui {

class HistoryModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  static constexpr int RunIdRole = Qt::UserRole + 1;  // qint64 run id (any column)
  static constexpr int SortRole = Qt::UserRole + 2;   // raw value for sorting
  enum Column { Name, Status, Model, Method, Seed, Sequences, Frames, Created, Tags, Notes, Count };

  explicit HistoryModel(QObject* parent = nullptr);

  void setRuns(std::vector<storage::RunInfo> runs);
  const std::vector<storage::RunInfo>& runs() const { return runs_; }
  // Row of run `id`, or -1.
  int rowOf(std::int64_t id) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::vector<storage::RunInfo> runs_;
};

}  // namespace gsflow::ui
