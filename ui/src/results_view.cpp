// The results view (see results_view.hpp).
#include "gsflow/ui/results_view.hpp"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <sstream>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/ui/models/results_model.hpp"
#include "gsflow/ui/plots/sequence_logo.hpp"

namespace gsflow::ui {

namespace {

// Colours the cells the model marks with WarningRole (the model itself links Qt Core only).
class WarningDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;

 protected:
  void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override {
    QStyledItemDelegate::initStyleOption(option, index);
    if (!index.data(ResultsModel::WarningRole).toBool()) return;
    option->backgroundBrush = ResultsView::warningColor();
    option->palette.setColor(QPalette::Text, QColor(122, 20, 20));
  }
};

// Positions beyond which the logo no longer fits the width by default (letters under ~12 px).
constexpr int kFitPositions = 64;
constexpr int kLongLogoPixels = 16;

}  // namespace

QString alphabetLetters(const QString& alphabet) {
  if (alphabet != QLatin1String("dna") && alphabet != QLatin1String("protein")) return {};
  return QString::fromStdString(engine::alphabet_by_name(alphabet.toStdString()).letters());
}

QColor ResultsView::warningColor() { return QColor(253, 208, 162); }

ResultsView::ResultsView(QWidget* parent) : QWidget(parent) {
  model_ = new ResultsModel(this);
  filter_ = new ResultsFilterModel(this);
  filter_->setSourceModel(model_);
  table_ = new QTableView(this);
  table_->setModel(filter_);
  table_->setItemDelegate(new WarningDelegate(table_));
  table_->setSortingEnabled(true);
  table_->sortByColumn(0, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  table_->horizontalHeader()->setStretchLastSection(true);
  // "#" is the one index: the 1-based record number (a row number beside it was a second one).
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(22);
  table_->setWordWrap(false);

  copy_ = new QAction(tr("&Copy as FASTA"), table_);
  copy_->setShortcut(QKeySequence::Copy);
  copy_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  copy_->setToolTip(tr("Copy the selected sequences as FASTA, headers as exported (Ctrl+C)"));
  exportSelected_ = new QAction(tr("&Export selected…"), table_);
  exportSelected_->setToolTip(tr("Write the selected sequences as FASTA or CSV"));
  openTrajectory_ = new QAction(tr("Open &trajectory"), table_);
  openTrajectory_->setToolTip(tr("Show the current sequence's trajectory (or double-click it)"));
  auto* separator = new QAction(table_);
  separator->setSeparator(true);
  table_->addActions({copy_, exportSelected_, separator, openTrajectory_});
  table_->setContextMenuPolicy(Qt::ActionsContextMenu);

  filterEdit_ = new QLineEdit(this);
  filterEdit_->setPlaceholderText(
      tr("Filter: text in the sequence (TATA), or a score test (gc > 0.5; promoter >= 0.9; "
         "warning > 0)"));
  filterEdit_->setClearButtonEnabled(true);
  status_ = new QLabel(this);

  pane_ = new QPlainTextEdit(this);
  pane_->setObjectName(QStringLiteral("sequencePane"));
  pane_->setReadOnly(true);
  pane_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  pane_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
  pane_->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);  // the header at blanks
  pane_->setPlaceholderText(tr("Select a row to see its whole sequence"));

  logo_ = new SequenceLogo(this);
  logo_->setMinimumHeight(160);
  logoScroll_ = new QScrollBar(Qt::Horizontal, this);
  logoScroll_->setToolTip(tr("Move along the positions (or turn the wheel over the logo)"));
  zoom_ = new QComboBox(this);
  zoom_->setObjectName(QStringLiteral("logoZoom"));
  zoom_->addItem(tr("Auto"), -1);
  zoom_->addItem(tr("Whole width"), 0);
  for (int px : {8, 16, 24, 32}) zoom_->addItem(tr("%1 px per position").arg(px), px);
  zoom_->setToolTip(tr("Width of a logo position; the logo scrolls when wider than the view "
                       "(Auto: the whole width up to %1 positions, %2 px beyond)")
                        .arg(kFitPositions)
                        .arg(kLongLogoPixels));
  fitBits_ = new QCheckBox(tr("Bits axis to the tallest stack"), this);
  fitBits_->setChecked(true);
  fitBits_->setToolTip(tr("End the bits axis at the most informative position instead of "
                          "log2(K), so that weakly conserved positions can be read"));
  auto* logoControls = new QHBoxLayout;
  logoControls->addWidget(new QLabel(tr("Logo zoom"), this));
  logoControls->addWidget(zoom_);
  logoControls->addWidget(fitBits_);
  logoControls->addStretch(1);
  auto* logoPanel = new QWidget(this);
  auto* logoLayout = new QVBoxLayout(logoPanel);
  logoLayout->setContentsMargins(0, 0, 0, 0);
  logoLayout->addLayout(logoControls);
  logoLayout->addWidget(logo_, 1);
  logoLayout->addWidget(logoScroll_);

  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(table_);
  split->addWidget(pane_);
  split->addWidget(logoPanel);
  split->setStretchFactor(0, 4);
  split->setStretchFactor(1, 1);
  split->setStretchFactor(2, 3);
  split->setSizes({420, 90, 290});

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
  connect(copy_, &QAction::triggered, this, &ResultsView::copySelected);
  connect(exportSelected_, &QAction::triggered, this, [this] {
    const auto selected = selectedSequences();
    if (!selected.empty()) emit exportRequested(selected);
  });
  connect(openTrajectory_, &QAction::triggered, this, [this] {
    const QModelIndex current = table_->currentIndex();
    if (current.isValid())
      emit sequenceActivated(model_->sequenceAt(filter_->mapToSource(current).row()).index);
  });
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          [this] { updatePane(); });
  connect(table_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this] { updatePane(); });
  // Room for the start of each sequence (the whole of it is in the pane below, the tooltip and
  // the exports) and for the whole composition, now that the warning column may follow it.
  // Every column is set: the header keeps widths by index across resets, and a new score column
  // shifts the columns after it.
  connect(model_, &QAbstractItemModel::modelReset, this, [this] {
    const QStringList names = model_->columnNames();
    for (int c = 0; c < names.size(); ++c) {
      int width = table_->horizontalHeader()->defaultSectionSize();
      if (names[c] == QLatin1String("sequence")) width = 260;
      if (names[c] == QLatin1String("composition"))
        width = table_->fontMetrics().horizontalAdvance(
                    QStringLiteral("A 100% C 100% G 100% T 100%")) + 12;
      table_->setColumnWidth(c, width);
    }
    updatePane();
  });
  connect(filter_, &ResultsFilterModel::filterErrorChanged, this, [this] { updateLogo(); });
  connect(zoom_, &QComboBox::currentIndexChanged, this, [this] { applyLogoZoom(); });
  connect(fitBits_, &QCheckBox::toggled, logo_, &SequenceLogo::setFitBits);
  connect(logoScroll_, &QScrollBar::valueChanged, logo_, &SequenceLogo::setFirstPosition);
  // The scroll bar spans the positions outside the window; hidden when they all fit.
  connect(logo_, &SequenceLogo::windowChanged, this, [this] {
    const int window = logo_->windowPositions();
    const QSignalBlocker block(logoScroll_);
    logoScroll_->setRange(0, std::max(0, logo_->positions() - window));
    logoScroll_->setPageStep(window);
    logoScroll_->setSingleStep(std::max(1, window / 10));
    logoScroll_->setValue(logo_->firstPosition());
    logoScroll_->setVisible(logoScroll_->maximum() > 0);
  });
  logo_->setFitBits(fitBits_->isChecked());
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

void ResultsView::setRun(const QString& name, FastaHeader header) {
  model_->setRunName(name);
  header_ = std::move(header);
  updatePane();
}

void ResultsView::setTypicality(std::optional<engine::TypicalityProfile> profile) {
  model_->setTypicality(std::move(profile));
}

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

std::vector<storage::SequenceRecord> ResultsView::selectedSequences() const {
  QModelIndexList rows = table_->selectionModel()->selectedRows();
  std::sort(rows.begin(), rows.end(),
            [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
  std::vector<storage::SequenceRecord> selected;
  for (const QModelIndex& row : rows)
    selected.push_back(model_->sequenceAt(filter_->mapToSource(row).row()));
  return selected;
}

QString ResultsView::fasta(const std::vector<storage::SequenceRecord>& sequences) const {
  std::ostringstream out;
  engine::FastaWriter writer(out, {60});
  for (const auto& s : sequences) {
    try {
      writer.write(headerOf(s), s.text);
    } catch (const std::exception&) {  // an empty sequence (a failed record) has no FASTA
    }
  }
  return QString::fromStdString(out.str());
}

std::string ResultsView::headerOf(const storage::SequenceRecord& record) const {
  if (header_) return header_(record);
  std::string id = "s";  // (not "s" + ...: GCC 12 reports a false -Wrestrict there, bug 105329)
  id += std::to_string(record.index);
  return id;
}

void ResultsView::copySelected() {
  const auto selected = selectedSequences();
  if (selected.empty()) return;
  QApplication::clipboard()->setText(fasta(selected));
}

void ResultsView::updatePane() {
  const QModelIndex current = table_->currentIndex();
  const bool any = table_->selectionModel()->hasSelection();
  copy_->setEnabled(any);
  exportSelected_->setEnabled(any);
  openTrajectory_->setEnabled(current.isValid());
  if (!current.isValid()) {
    pane_->clear();
    return;
  }
  // The header, then the letters unbroken: the pane wraps them to its width.
  const int row = filter_->mapToSource(current).row();
  const auto& record = model_->sequenceAt(row);
  QString text = QLatin1Char('>') + QString::fromStdString(headerOf(record)) +
                 QLatin1Char('\n') + QString::fromStdString(record.text);
  const QStringList warnings = model_->warningsAt(row);
  if (!warnings.isEmpty())
    text += tr("\n\u26a0 Far from the training data: %1").arg(warnings.join(QStringLiteral("; ")));
  pane_->setPlainText(text);
}

void ResultsView::setLogoZoom(int pixelsPerPosition) {
  const int index = zoom_->findData(pixelsPerPosition);
  if (index >= 0) {
    zoom_->setCurrentIndex(index);
  } else {
    zoom_->addItem(tr("%1 px per position").arg(pixelsPerPosition), pixelsPerPosition);
    zoom_->setCurrentIndex(zoom_->count() - 1);
  }
  applyLogoZoom();
}

void ResultsView::setLogoFitBits(bool fit) { fitBits_->setChecked(fit); }

void ResultsView::applyLogoZoom() {
  int px = zoom_->currentData().toInt();
  if (px < 0) px = logo_->positions() > kFitPositions ? kLongLogoPixels : 0;
  logo_->setColumnWidth(px);
}

// The logo and the status line follow the rows shown (the filter narrows both).
void ResultsView::updateLogo() {
  QStringList texts;
  for (const auto& s : shownSequences()) texts << QString::fromStdString(s.text);
  logo_->setSequences(texts, letters_);
  applyLogoZoom();
  const QString error = filter_->filterError();
  status_->setText(error.isEmpty() ? tr("%1 of %2 sequences shown")
                                         .arg(filter_->rowCount())
                                         .arg(model_->rowCount())
                                   : tr("Filter not applied: %1").arg(error));
  status_->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("color: #b00020"));
}

}  // namespace gsflow::ui
