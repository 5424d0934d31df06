// The results view: the sortable, filterable table of a run's sequences and the sequence logo of
// the whole set.
#pragma once

#include <QWidget>
#include <vector>

#include "gsflow/storage/records.hpp"

class QLabel;
class QLineEdit;
class QTableView;

namespace gsflow::ui {

class ResultsModel;
class ResultsFilterModel;
class SequenceLogo;

class ResultsView : public QWidget {
  Q_OBJECT

 public:
  explicit ResultsView(QWidget* parent = nullptr);

  // alphabet "dna" or "protein" (the logo's letters and the composition column).
  void setSequences(std::vector<storage::SequenceRecord> sequences, const QString& alphabet);
  void appendSequences(const std::vector<storage::SequenceRecord>& sequences);
  void clear(const QString& alphabet);
  // The rows as shown (filtered, in the table's order).
  std::vector<storage::SequenceRecord> shownSequences() const;
  void setFilterText(const QString& text);

  ResultsModel* model() const { return model_; }
  ResultsFilterModel* filterModel() const { return filter_; }
  QTableView* table() const { return table_; }
  SequenceLogo* logo() const { return logo_; }

 signals:
  // The user asked for novelty against a reference FASTA (the Novelty… button).
  void noveltyRequested();
  // A row was double-clicked: the sequence's global index in its run.
  void sequenceActivated(std::size_t index);

 private:
  void updateLogo();

  ResultsModel* model_;
  ResultsFilterModel* filter_;
  QTableView* table_;
  QLineEdit* filterEdit_;
  QLabel* status_;
  SequenceLogo* logo_;
  QString letters_;
};

// The letters of alphabet "dna" / "protein" ("" otherwise).
QString alphabetLetters(const QString& alphabet);

}  // namespace gsflow::ui
