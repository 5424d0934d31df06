// The Models view's table: one row per model found by name (pipeline::list_models(): bundled
// generators and classifiers, then the user's), with the columns of `gsflow models list` (name,
// kind, origin, alphabet, length, data, metrics, file). Qt Core only; passes
// QAbstractItemModelTester.
#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "gsflow/pipeline/model_listing.hpp"

namespace gsflow::ui {

class ModelListModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  static constexpr int NameRole = Qt::UserRole + 1;  // the model's name (any column)
  static constexpr int UserRole = Qt::UserRole + 2;  // bool: a user model (deletable)
  enum Column { Name, Kind, Origin, Alphabet, Length, Data, Metrics, File, Count };

  explicit ModelListModel(QObject* parent = nullptr);

  void setModels(std::vector<pipeline::ListedModel> models);
  const std::vector<pipeline::ListedModel>& models() const { return models_; }
  // The first row of the model named `name`, or -1.
  // The first row of that name; with `kindGroup` ("generator", "classifier", "judge") the row of
  // that name and kind (a user classifier and a user judge may share a name). -1 when none.
  int rowOf(const QString& name, const QString& kindGroup = {}) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::vector<pipeline::ListedModel> models_;
};

}  // namespace gsflow::ui
