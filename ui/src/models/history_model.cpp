// HistoryModel: the run history table over RunInfo rows (one per stored run, in the store's
// order), with the run id on RunIdRole so views can act on a row whatever its column.
#include "gsflow/ui/models/history_model.hpp"

#include <QStringList>
#include <utility>

namespace gsflow::ui {

namespace {

const char* const kHeaders[HistoryModel::Count] = {"name",      "status", "model",   "method", "seed",
                                     "sequences", "frames", "created", "tags",   "notes"};

QString joinTags(const std::vector<std::string>& tags) {
  QStringList list;
  for (const auto& tag : tags) list << QString::fromStdString(tag);
  return list.join(QStringLiteral(", "));
}

}  // namespace

HistoryModel::HistoryModel(QObject* parent) : QAbstractTableModel(parent) {}

void HistoryModel::setRuns(std::vector<storage::RunInfo> runs) {
  beginResetModel();
  runs_ = std::move(runs);
  endResetModel();
}

int HistoryModel::rowOf(std::int64_t id) const {
  for (std::size_t i = 0; i < runs_.size(); ++i)
    if (runs_[i].id == id) return static_cast<int>(i);
  return -1;
}

int HistoryModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(runs_.size());
}

int HistoryModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : Count;
}

QVariant HistoryModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= Count) return {};
  const auto& run = runs_[static_cast<std::size_t>(index.row())];
  const int column = index.column();

  if (role == RunIdRole) return QVariant::fromValue<qint64>(run.id);
  if (role == Qt::TextAlignmentRole) {
    if (column == Seed || column == Sequences || column == Frames)
      return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
    return {};
  }
  if (role == Qt::ToolTipRole) {
    // The table shows one line; the full notes, and why a run failed, go in the tooltip.
    if (column == Notes && !run.notes.empty()) return QString::fromStdString(run.notes);
    if (column == Status && !run.error.empty()) return QString::fromStdString(run.error);
    if (column == Model && !run.model.file.empty()) return QString::fromStdString(run.model.file);
    return {};
  }
  if (role != Qt::DisplayRole && role != SortRole) return {};
  const bool sort = role == SortRole;

  switch (column) {
    case Name:
      return QString::fromStdString(run.name);
    case Status:
      return QString::fromLatin1(storage::status_name(run.status));
    case Model:
      return QString::fromStdString(run.model.name);
    case Method:
      return QString::fromStdString(run.method);
    case Seed:
      // Seeds use all 64 bits: a double would merge neighbouring seeds when sorting.
      return sort ? QVariant::fromValue<qulonglong>(run.seed) : QVariant(QString::number(run.seed));
    case Sequences:
      if (sort) return QVariant::fromValue<qulonglong>(run.completed);
      return QStringLiteral("%1/%2").arg(run.completed).arg(run.requested);
    case Frames:
      return sort ? QVariant::fromValue<qulonglong>(run.frames)
                  : QVariant(QString::number(run.frames));
    case Created:
      // ISO 8601 text sorts chronologically as it is; runs made in the same second sort by id.
      return sort ? QString::fromStdString(run.created_at) +
                        QStringLiteral(" %1").arg(run.id, 19, 10, QLatin1Char('0'))
                  : QString::fromStdString(run.created_at);
    case Tags:
      return joinTags(run.tags);
    case Notes: {
      QString notes = QString::fromStdString(run.notes);
      if (!sort) notes.replace(QLatin1Char('\n'), QLatin1Char(' '));
      return notes;
    }
    default:
      return {};
  }
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole) return {};
  if (orientation == Qt::Horizontal)
    return section >= 0 && section < Count ? QVariant(QString::fromLatin1(kHeaders[section]))
                                           : QVariant();
  return section >= 0 && section < rowCount() ? QVariant(section + 1) : QVariant();
}

}  // namespace gsflow::ui
