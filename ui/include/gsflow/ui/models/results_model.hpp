// The results table of gsflow-studio: one row per generated sequence ("#": the 1-based record
// number, the order of a FASTA export of the whole run; sequence, length, one column per stored
// score, novelty when known, and composition: GC fraction for DNA, the most frequent residue's
// share for peptides). With the model's typicality profile a "warning" column names what lies
// outside the training data's range ("C 0.571 > 0.279"), and WarningRole tells the view which
// cells to colour. Rows can be appended live while a run goes. The design's scores read as what
// they are: "constraints_met" is the column "constraints" showing met / unmet, and "edits",
// "repaired" and "start" are whole numbers. Qt Core only (no widgets): passes
// QAbstractItemModelTester.
#pragma once

#include <QAbstractTableModel>
#include <QPointer>
#include <QSortFilterProxyModel>
#include <QStringList>
#include <optional>
#include <vector>

#include "gsflow/engine/metrics/typicality.hpp"
#include "gsflow/storage/records.hpp"

namespace gsflow::ui {

class ResultsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  // Qt::DisplayRole gives text (scores to 4 significant digits); SortRole gives the raw value
  // (double for numbers, QString for text) for sorting and filtering.
  static constexpr int SortRole = Qt::UserRole + 1;
  // true on the composition and warning cells of a row with warnings (the view colours them).
  static constexpr int WarningRole = Qt::UserRole + 2;

  explicit ResultsModel(QObject* parent = nullptr);

  // Replaces every row. `alphabet` is "dna" or "protein" (composition column), anything else
  // leaves the composition column out.
  void setSequences(std::vector<storage::SequenceRecord> sequences, const QString& alphabet);
  // Appends rows (a batch finished during a run). New score names add columns (a model reset
  // when the columns change, else rows are inserted).
  void appendSequences(const std::vector<storage::SequenceRecord>& sequences);
  void clear();
  // The run's name: the "#" column's tooltip gives each record's FASTA id (RUN_sIDX).
  void setRunName(const QString& run);
  // The model's typicality profile (pipeline::profile_for), kept for later rows and runs until
  // changed; std::nullopt (or a profile of other letters than the rows') drops the warning column.
  void setTypicality(std::optional<engine::TypicalityProfile> profile);
  // A profile of the alphabet shown is set (the warning column is there).
  bool hasWarnings() const { return profileFits_; }
  // The statistics of row `row` outside the profile's range (empty: typical, or no profile).
  QStringList warningsAt(int row) const;

  const std::vector<storage::SequenceRecord>& sequences() const { return sequences_; }
  const storage::SequenceRecord& sequenceAt(int row) const;
  // Column headers in order; scoreNames() the stored score names of the score columns (sorted
  // by name; the header of "constraints_met" is "constraints").
  QStringList columnNames() const;
  QStringList scoreNames() const;
  // The header of score `name` ("constraints_met" -> "constraints", else the name).
  static QString scoreHeader(const QString& name);
  // The column index of header `name` (e.g. "gc", "sequence"), or -1.
  int columnOf(const QString& name) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::vector<storage::SequenceRecord> sequences_;
  QString alphabet_;
  QStringList scores_;  // sorted score names (union over rows)
  bool hasNovelty_ = false;
  QString run_;
  std::optional<engine::TypicalityProfile> profile_;
  bool profileFits_ = false;  // profile_ is of alphabet_'s letters
  // Per-row composition text and sort value, computed once per row (sorting asks O(n log n)
  // times); empty when the alphabet has no composition column.
  struct Composition {
    QString text;
    QVariant sortValue;   // invalid for an empty sequence
    QStringList warnings;  // TypicalityProfile::atypical
  };
  std::vector<Composition> compositions_;

  bool hasComposition() const;
  int compositionColumn() const;  // -1 when none
  int warningColumn() const;      // -1 when none
  void cacheComposition(std::size_t from);
  // Adds score names and novelty found in `sequences` to the columns; true when they changed.
  bool mergeColumns(const std::vector<storage::SequenceRecord>& sequences);
};

// Sorting (by SortRole) and filtering of ResultsModel. The filter text is either
//  - a comparison "COLUMN OP NUMBER" with OP one of > >= < <= = (e.g. "gc > 0.5",
//    "promoter>=0.9"): keeps rows whose column compares true ("constraints = unmet": met and
//    unmet stand for 1 and 0 in that column);
//  - or plain text: keeps rows whose sequence contains it (case-insensitive; "TATA").
// Several conditions can be joined with ';' (all must hold). An unknown column or a malformed
// number makes filterError() non-empty and keeps every row.
class ResultsFilterModel : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  explicit ResultsFilterModel(QObject* parent = nullptr);
  void setFilterText(const QString& text);
  QString filterError() const { return error_; }

 signals:
  void filterErrorChanged(const QString& error);

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

 private:
  struct Condition {
    int column = -1;  // -1: sequence substring
    QString op;       // ">", ">=", "<", "<=", "="
    double value = 0.0;
    QString text;
  };
  QVector<Condition> conditions_;
  QString text_, error_;
  QString sortName_;                      // header of the sort column when a source reset began
  QPointer<QAbstractItemModel> watched_;  // the source the two connections below watch
  QMetaObject::Connection aboutToResetConnection_, resetConnection_;
  void parse();
  void watchSource();
};

}  // namespace gsflow::ui
