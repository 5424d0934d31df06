// The results view: the sortable, filterable table of a run's sequences (one 1-based "#" column,
// composition warnings coloured), a pane with the whole of the current sequence as FASTA, copy
// of the selected rows as FASTA (Ctrl+C), a context menu (copy, export the selected rows, open
// the trajectory), and the sequence logo of the rows shown with its zoom.
#pragma once

#include <QColor>
#include <QWidget>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gsflow/engine/metrics/typicality.hpp"
#include "gsflow/storage/records.hpp"

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QScrollBar;
class QTableView;

namespace gsflow::ui {

class ResultsModel;
class ResultsFilterModel;
class SequenceLogo;

class ResultsView : public QWidget {
  Q_OBJECT

 public:
  // The FASTA header line (without '>') of a record, as the exported FASTA writes it.
  using FastaHeader = std::function<std::string(const storage::SequenceRecord&)>;

  explicit ResultsView(QWidget* parent = nullptr);

  // alphabet "dna" or "protein" (the logo's letters and the composition column).
  void setSequences(std::vector<storage::SequenceRecord> sequences, const QString& alphabet);
  void appendSequences(const std::vector<storage::SequenceRecord>& sequences);
  void clear(const QString& alphabet);
  // The run's name (record ids in tooltips) and how its FASTA headers are made (copy, the
  // sequence pane); without one a header is "sIDX".
  void setRun(const QString& name, FastaHeader header);
  // The model's typicality profile: rows outside its range get a warning (ResultsModel).
  void setTypicality(std::optional<engine::TypicalityProfile> profile);
  // The rows as shown (filtered, in the table's order).
  std::vector<storage::SequenceRecord> shownSequences() const;
  // The selected rows, in the table's order.
  std::vector<storage::SequenceRecord> selectedSequences() const;
  // `sequences` as FASTA text, 60 letters a line, headers as the export writes them.
  QString fasta(const std::vector<storage::SequenceRecord>& sequences) const;
  void setFilterText(const QString& text);

  // The logo's zoom: pixels per position, 0 = the whole width; -1 (the default) = the whole
  // width up to 64 positions, 16 px per position beyond (a 256-bp promoter is a window of
  // positions that the scroll bar under it, or the wheel, moves).
  void setLogoZoom(int pixelsPerPosition);
  // The bits axis ends at the tallest stack (default) or at log2(K).
  void setLogoFitBits(bool fit);
  // The background of a cell with a composition warning (tests compare pixels with it).
  static QColor warningColor();

  ResultsModel* model() const { return model_; }
  ResultsFilterModel* filterModel() const { return filter_; }
  QTableView* table() const { return table_; }
  SequenceLogo* logo() const { return logo_; }
  QScrollBar* logoScrollBar() const { return logoScroll_; }
  QPlainTextEdit* sequencePane() const { return pane_; }
  // The table's context menu holds these (also on their own for keyboard and tests).
  QAction* copyAction() const { return copy_; }
  QAction* exportSelectedAction() const { return exportSelected_; }
  QAction* openTrajectoryAction() const { return openTrajectory_; }

 signals:
  // The user asked for novelty against a reference FASTA (the Novelty… button).
  void noveltyRequested();
  // A row was double-clicked, or Open trajectory chosen: the sequence's global index in its run.
  void sequenceActivated(std::size_t index);
  // Export selected…: write these records (the main window asks for the file).
  void exportRequested(const std::vector<storage::SequenceRecord>& sequences);

 private:
  void updateLogo();
  void updatePane();
  void applyLogoZoom();
  void copySelected();
  std::string headerOf(const storage::SequenceRecord& record) const;

  ResultsModel* model_;
  ResultsFilterModel* filter_;
  QTableView* table_;
  QLineEdit* filterEdit_;
  QLabel* status_;
  QPlainTextEdit* pane_;
  SequenceLogo* logo_;
  QScrollBar* logoScroll_;
  QComboBox* zoom_;
  QCheckBox* fitBits_;
  QAction *copy_, *exportSelected_, *openTrajectory_;
  QString letters_;
  FastaHeader header_;
};

// The letters of alphabet "dna" / "protein" ("" otherwise).
QString alphabetLetters(const QString& alphabet);

}  // namespace gsflow::ui
