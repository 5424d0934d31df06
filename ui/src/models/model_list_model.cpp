// ModelListModel: the models found by name as a table, each cell the text `gsflow models list`
// prints for it (pipeline::metrics_text for the metrics, "unreadable: ..." for a broken file).
#include "gsflow/ui/models/model_list_model.hpp"

#include <utility>

namespace gsflow::ui {

namespace {

const char* const kHeaders[ModelListModel::Count] = {"name",   "kind", "origin",  "alphabet",
                                                     "length", "data", "metrics", "file"};

QString orDash(const std::string& s) {
  return s.empty() ? QStringLiteral("-") : QString::fromStdString(s);
}

}  // namespace

ModelListModel::ModelListModel(QObject* parent) : QAbstractTableModel(parent) {}

void ModelListModel::setModels(std::vector<pipeline::ListedModel> models) {
  beginResetModel();
  models_ = std::move(models);
  endResetModel();
}

int ModelListModel::rowOf(const QString& name, const QString& kindGroup) const {
  const std::string key = name.toStdString(), group = kindGroup.toStdString();
  for (std::size_t i = 0; i < models_.size(); ++i)
    if (models_[i].name == key && (group.empty() || models_[i].kind_group() == group))
      return static_cast<int>(i);
  return -1;
}

int ModelListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(models_.size());
}

int ModelListModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : Count;
}

QVariant ModelListModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= Count) return {};
  const auto& m = models_[static_cast<std::size_t>(index.row())];
  if (role == NameRole) return QString::fromStdString(m.name);
  if (role == UserRole) return m.user();
  if (role == Qt::ToolTipRole) {
    if (!m.error.empty()) return QString::fromStdString(m.error);
    if (index.column() == File || index.column() == Name) return QString::fromStdString(m.file);
    return {};
  }
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Name:
      return QString::fromStdString(m.name);
    case Kind:
      return QString::fromStdString(m.kind);
    case Origin:
      return QString::fromStdString(m.origin);
    case Alphabet:
      return orDash(m.alphabet);
    case Length:
      return orDash(m.length);
    case Data:
      return orDash(m.data);
    case Metrics:
      return m.error.empty() ? QString::fromStdString(pipeline::metrics_text(m.metrics))
                             : QStringLiteral("unreadable: ") + QString::fromStdString(m.error);
    case File:
      return QString::fromStdString(m.file);
    default:
      return {};
  }
}

QVariant ModelListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole || orientation != Qt::Horizontal || section < 0 || section >= Count)
    return {};
  return QString::fromLatin1(kHeaders[section]);
}

}  // namespace gsflow::ui
