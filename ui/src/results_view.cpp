// The results view (see results_view.hpp).
#include "gsflow/ui/results_view.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/ui/models/results_model.hpp"
#include "gsflow/ui/plots/sequence_logo.hpp"

namespace gsflow::ui {

QString alphabetLetters(const QString& alphabet) {
  if (alphabet != QLatin1String("dna") && alphabet != QLatin1String("protein")) return {};
  return QString::fromStdString(engine::alphabet_by_name(alphabet.toStdString()).letters());
}

ResultsView::ResultsView(QWidget* parent) : QWidget(parent) {
  model_ = new ResultsModel(this);
  filter_ = new ResultsFilterModel(this);
  filter_->setSourceModel(model_);
  table_ = new QTableView(this);
  table_->setModel(filter_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(0, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->setDefaultSectionSize(22);
  table_->setWordWrap(false);

  filterEdit_ = new QLineEdit(this);
  filterEdit_->setPlaceholderText(
      tr("Filter: text in the sequence (TATA), or a score test (gc > 0.5; promoter >= 0.9)"));
  filterEdit_->setClearButtonEnabled(true);
  status_ = new QLabel(this);

  logo_ = new SequenceLogo(this);
  auto* logoScroll = new QScrollArea(this);
  logoScroll->setWidget(logo_);
  logoScroll->setWidgetResizable(true);
  logoScroll->setMinimumHeight(160);

  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(table_);
  split->addWidget(logoScroll);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);

  auto* novelty = new QPushButton(tr("Novelty…"), this);
  novelty->setToolTip(tr("Highest identity of each sequence to a reference FASTA, e.g. the "
                         "model's training split (1 = a copy); stored with the run"));
  connect(novelty, &QPushButton::clicked, this, &ResultsView::noveltyRequested);
  auto* top = new QHBoxLayout;
  top->addWidget(filterEdit_, 1);
  top->addWidget(novelty);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(status_);
  layout->addWidget(split, 1);

  connect(filterEdit_, &QLineEdit::textChanged, this, &ResultsView::setFilterText);
  connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
    emit sequenceActivated(model_->sequenceAt(filter_->mapToSource(index).row()).index);
  });
  // Room for the start of each sequence; the whole of it is in the tooltip and the exports.
  connect(model_, &QAbstractItemModel::modelReset, this, [this] {
    const int column = model_->columnOf(QStringLiteral("sequence"));
    if (column >= 0) table_->setColumnWidth(column, 260);
  });
  connect(filter_, &ResultsFilterModel::filterErrorChanged, this, [this] { updateLogo(); });
  clear(QString());
}

void ResultsView::setSequences(std::vector<storage::SequenceRecord> sequences,
                               const QString& alphabet) {
  letters_ = alphabetLetters(alphabet);
  model_->setSequences(std::move(sequences), alphabet);
  updateLogo();
}

void ResultsView::appendSequences(const std::vector<storage::SequenceRecord>& sequences) {
  model_->appendSequences(sequences);
  updateLogo();
}

void ResultsView::clear(const QString& alphabet) { setSequences({}, alphabet); }

void ResultsView::setFilterText(const QString& text) {
  if (filterEdit_->text() != text) filterEdit_->setText(text);  // re-enters via textChanged
  filter_->setFilterText(text);
  updateLogo();
}

std::vector<storage::SequenceRecord> ResultsView::shownSequences() const {
  std::vector<storage::SequenceRecord> shown;
  for (int row = 0; row < filter_->rowCount(); ++row)
    shown.push_back(model_->sequenceAt(filter_->mapToSource(filter_->index(row, 0)).row()));
  return shown;
}

// The logo and the status line follow the rows shown (the filter narrows both).
void ResultsView::updateLogo() {
  QStringList texts;
  for (const auto& s : shownSequences()) texts << QString::fromStdString(s.text);
  logo_->setSequences(texts, letters_);
  const QString error = filter_->filterError();
  status_->setText(error.isEmpty() ? tr("%1 of %2 sequences shown")
                                         .arg(filter_->rowCount())
                                         .arg(model_->rowCount())
                                   : tr("Filter not applied: %1").arg(error));
  status_->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("color: #b00020"));
}

}  // namespace gsflow::ui
