// ResultsModel (the results table over SequenceRecord rows, with composition warnings from the
// model's typicality profile) and ResultsFilterModel (sorting by raw values and the
// "gc > 0.5; TATA" filter grammar).
#include "gsflow/ui/models/results_model.hpp"

#include <QLocale>
#include <QPointer>
#include <QRegularExpression>
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/storage/run_export.hpp"

namespace gsflow::ui {

namespace {

const QString kIndexColumn = QStringLiteral("#");
const QString kSequenceColumn = QStringLiteral("sequence");
const QString kLengthColumn = QStringLiteral("length");
const QString kNoveltyColumn = QStringLiteral("novelty");
const QString kCompositionColumn = QStringLiteral("composition");
const QString kWarningColumn = QStringLiteral("warning");

QString formatNumber(double v) { return QString::number(v, 'g', 4); }

// Design scores (pipeline::add_design_scores): 1 / 0 shown as met / unmet, and counts.
const QString kConstraintsScore = QStringLiteral("constraints_met");
const QString kConstraintsColumn = QStringLiteral("constraints");
bool isCountScore(const QString& name) {
  return name == QLatin1String("edits") || name == QLatin1String("repaired") ||
         name == QLatin1String("start");
}

QString percent(std::size_t count, std::size_t total) {
  return QString::number(qRound(100.0 * static_cast<double>(count) / static_cast<double>(total))) +
         QLatin1Char('%');
}

// Letter counts of a sequence, upper-cased so soft-masked (lower-case) bases count too.
std::array<std::size_t, 26> letterCounts(const std::string& text) {
  std::array<std::size_t, 26> counts{};
  for (char c : text) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c >= 'A' && c <= 'Z') ++counts[static_cast<std::size_t>(c - 'A')];
  }
  return counts;
}

// Composition text and sort value (GC fraction for DNA, top residue's share for peptides).
struct CompositionValue {
  QString text;
  QVariant sortValue;
};

CompositionValue composition(const std::string& text, const QString& alphabet) {
  CompositionValue out;
  if (text.empty()) return out;
  const auto counts = letterCounts(text);
  const std::size_t total = text.size();
  if (alphabet == QLatin1String("dna")) {
    QStringList parts;
    for (char base : {'A', 'C', 'G', 'T'})
      parts << QStringLiteral("%1 %2").arg(
          QString(QLatin1Char(base)), percent(counts[static_cast<std::size_t>(base - 'A')], total));
    out.text = parts.join(QLatin1Char(' '));
    out.sortValue =
        static_cast<double>(counts['G' - 'A'] + counts['C' - 'A']) / static_cast<double>(total);
  } else {
    // Most frequent first; ties by letter so the text does not depend on sort stability.
    std::array<int, 26> order{};
    for (int i = 0; i < 26; ++i) order[static_cast<std::size_t>(i)] = i;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return counts[static_cast<std::size_t>(a)] > counts[static_cast<std::size_t>(b)];
    });
    QStringList parts;
    for (int i = 0; i < 3; ++i) {
      const auto letter = static_cast<std::size_t>(order[static_cast<std::size_t>(i)]);
      if (counts[letter] == 0) break;
      parts << QStringLiteral("%1 %2").arg(QString(QLatin1Char(static_cast<char>('A' + letter))),
                                           percent(counts[letter], total));
    }
    out.text = parts.join(QLatin1Char(' '));
    out.sortValue = static_cast<double>(counts[static_cast<std::size_t>(order[0])]) /
                    static_cast<double>(total);
  }
  return out;
}

}  // namespace

ResultsModel::ResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

bool ResultsModel::hasComposition() const {
  return alphabet_ == QLatin1String("dna") || alphabet_ == QLatin1String("protein");
}

int ResultsModel::compositionColumn() const {
  return hasComposition() ? 3 + static_cast<int>(scores_.size()) + (hasNovelty_ ? 1 : 0) : -1;
}

int ResultsModel::warningColumn() const { return hasWarnings() ? compositionColumn() + 1 : -1; }

void ResultsModel::cacheComposition(std::size_t from) {
  compositions_.resize(from);
  profileFits_ = false;
  if (!hasComposition()) return;
  const engine::Alphabet* letters = nullptr;
  if (profile_) {
    letters = &engine::alphabet_by_name(alphabet_.toStdString());
    if (letters->letters() != profile_->letters) letters = nullptr;  // another model's profile
  }
  profileFits_ = letters != nullptr;
  compositions_.reserve(sequences_.size());
  for (std::size_t i = from; i < sequences_.size(); ++i) {
    auto value = composition(sequences_[i].text, alphabet_);
    QStringList warnings;
    if (letters && !sequences_[i].text.empty()) {
      try {
        for (const auto& w : profile_->atypical(letters->encode(sequences_[i].text)))
          warnings << QString::fromStdString(w);
      } catch (const std::exception&) {  // a letter outside the alphabet: no statistics
      }
    }
    compositions_.push_back(
        {std::move(value.text), std::move(value.sortValue), std::move(warnings)});
  }
}

void ResultsModel::setRunName(const QString& run) { run_ = run; }

void ResultsModel::setTypicality(std::optional<engine::TypicalityProfile> profile) {
  beginResetModel();
  profile_ = std::move(profile);
  cacheComposition(0);
  endResetModel();
}

QStringList ResultsModel::warningsAt(int row) const {
  if (row < 0 || static_cast<std::size_t>(row) >= compositions_.size()) return {};
  return compositions_[static_cast<std::size_t>(row)].warnings;
}

bool ResultsModel::mergeColumns(const std::vector<storage::SequenceRecord>& sequences) {
  bool changed = false;
  for (const auto& record : sequences) {
    for (const auto& [name, value] : record.scores) {
      (void)value;
      const QString q = QString::fromStdString(name);
      if (!scores_.contains(q)) {
        scores_ << q;
        changed = true;
      }
    }
    if (record.novelty && !hasNovelty_) {
      hasNovelty_ = true;
      changed = true;
    }
  }
  // QStringList::sort is code-unit order, matching std::map's byte order for ASCII names.
  if (changed) scores_.sort();
  return changed;
}

void ResultsModel::setSequences(std::vector<storage::SequenceRecord> sequences,
                                const QString& alphabet) {
  beginResetModel();
  sequences_ = std::move(sequences);
  alphabet_ = alphabet;
  scores_.clear();
  hasNovelty_ = false;
  mergeColumns(sequences_);
  cacheComposition(0);
  endResetModel();
}

void ResultsModel::appendSequences(const std::vector<storage::SequenceRecord>& sequences) {
  if (sequences.empty()) return;
  const auto first = static_cast<int>(sequences_.size());
  const auto last = first + static_cast<int>(sequences.size()) - 1;
  // Check the columns before touching anything: a column change must be announced as a reset,
  // and beginResetModel has to come before scores_ changes.
  QStringList newScores = scores_;
  bool newNovelty = hasNovelty_;
  for (const auto& record : sequences) {
    for (const auto& entry : record.scores) {
      const QString q = QString::fromStdString(entry.first);
      if (!newScores.contains(q)) newScores << q;
    }
    newNovelty = newNovelty || record.novelty.has_value();
  }
  const bool columnsChange = newScores.size() != scores_.size() || newNovelty != hasNovelty_;
  if (columnsChange)
    beginResetModel();
  else
    beginInsertRows({}, first, last);
  sequences_.insert(sequences_.end(), sequences.begin(), sequences.end());
  mergeColumns(sequences);
  cacheComposition(static_cast<std::size_t>(first));
  if (columnsChange)
    endResetModel();
  else
    endInsertRows();
}

void ResultsModel::clear() {
  beginResetModel();
  sequences_.clear();
  compositions_.clear();
  scores_.clear();
  hasNovelty_ = false;
  endResetModel();
}

const storage::SequenceRecord& ResultsModel::sequenceAt(int row) const {
  if (row < 0 || static_cast<std::size_t>(row) >= sequences_.size())
    throw std::out_of_range("ResultsModel::sequenceAt: row " + std::to_string(row) +
                            " out of range (" + std::to_string(sequences_.size()) + " rows)");
  return sequences_[static_cast<std::size_t>(row)];
}

QString ResultsModel::scoreHeader(const QString& name) {
  return name == kConstraintsScore ? kConstraintsColumn : name;
}

QStringList ResultsModel::columnNames() const {
  QStringList names{kIndexColumn, kSequenceColumn, kLengthColumn};
  for (const auto& score : scores_) names << scoreHeader(score);
  if (hasNovelty_) names << kNoveltyColumn;
  if (hasComposition()) names << kCompositionColumn;
  if (hasWarnings()) names << kWarningColumn;
  return names;
}

QStringList ResultsModel::scoreNames() const { return scores_; }

int ResultsModel::columnOf(const QString& name) const {
  return static_cast<int>(columnNames().indexOf(name));
}

int ResultsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(sequences_.size());
}

int ResultsModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  return 3 + static_cast<int>(scores_.size()) + (hasNovelty_ ? 1 : 0) + (hasComposition() ? 1 : 0) +
         (hasWarnings() ? 1 : 0);
}

QVariant ResultsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
  const auto row = static_cast<std::size_t>(index.row());
  const auto& record = sequences_[row];
  const int column = index.column();
  const int firstScore = 3;
  const int noveltyColumn = hasNovelty_ ? firstScore + static_cast<int>(scores_.size()) : -1;
  const bool isSequence = column == 1;
  const bool isComposition = column == compositionColumn();
  const bool isWarning = column == warningColumn();

  const QString score = column >= firstScore && column < firstScore + scores_.size()
                            ? scores_[column - firstScore]
                            : QString();
  const QStringList* warnings =
      (isComposition || isWarning) && !compositions_[row].warnings.isEmpty()
          ? &compositions_[row].warnings
          : nullptr;
  if (role == WarningRole) return warnings != nullptr;
  if (role == Qt::ToolTipRole) {
    if (column == 0 && !run_.isEmpty())
      return tr("Record %1 of the run's FASTA: %2")
          .arg(record.index + 1)
          .arg(QString::fromStdString(storage::sequence_id(run_.toStdString(), record)));
    if (isSequence) return QString::fromStdString(record.text);
    if (warnings)
      return tr("Far from the model's training data (outside the range its typicality profile "
                "records): %1")
          .arg(warnings->join(QStringLiteral("; ")));
    if (score == kConstraintsScore)
      return tr(
          "met: every constraint (and the edit budget) holds; unmet: the final repair could "
          "not meet them all");
    if (score == QLatin1String("edits")) return tr("Positions that differ from the start sequence");
    if (score == QLatin1String("repaired"))
      return tr("Positions the final repair changed to meet the constraints");
    if (score == QLatin1String("start")) return tr("The start sequence's record (1-based)");
    return {};
  }
  if (role == Qt::TextAlignmentRole) {
    if (isSequence || isComposition || isWarning) return {};
    return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
  }
  if (role != Qt::DisplayRole && role != SortRole) return {};

  if (isSequence) return QString::fromStdString(record.text);
  if (isComposition) {
    const auto& c = compositions_[row];
    return role == SortRole ? c.sortValue : QVariant(c.text);
  }
  if (isWarning) {
    // Sorted and filtered ("warning > 0") by how many statistics are out of range.
    const auto& w = compositions_[row].warnings;
    if (role == SortRole) return static_cast<double>(w.size());
    return w.isEmpty() ? QString() : QStringLiteral("\u26a0 ") + w.join(QStringLiteral("; "));
  }
  // Every other column is a number; a missing score or novelty is an invalid QVariant, which
  // QSortFilterProxyModel orders after every value.
  std::optional<double> value;
  if (column == 0) {
    value = static_cast<double>(record.index + 1);
  } else if (column == 2) {
    value = static_cast<double>(record.text.size());
  } else if (column == noveltyColumn) {
    value = record.novelty;
  } else {
    const auto it = record.scores.find(scores_[column - firstScore].toStdString());
    if (it != record.scores.end()) value = it->second;
  }
  if (!value) return role == Qt::DisplayRole ? QVariant(QString()) : QVariant();
  if (role == SortRole) return *value;
  // Index, length and the design's counts are counts: show them whole, not as 1.234e+04.
  if (column == 0 || column == 2 || isCountScore(score))
    return QString::number(static_cast<qlonglong>(std::llround(*value)));
  if (score == kConstraintsScore) return *value != 0.0 ? tr("met") : tr("unmet");
  return formatNumber(*value);
}

QVariant ResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole) return {};
  if (orientation == Qt::Horizontal) {
    const QStringList names = columnNames();
    return section >= 0 && section < names.size() ? QVariant(names[section]) : QVariant();
  }
  return section >= 0 && section < rowCount() ? QVariant(section + 1) : QVariant();
}

// ---------------------------------------------------------------------------------------------

ResultsFilterModel::ResultsFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(ResultsModel::SortRole);
  // The proxy resets itself when its source model changes: (re)wire to the new source then.
  connect(this, &QAbstractItemModel::modelReset, this, [this] {
    if (sourceModel() == watched_) return;
    watchSource();
    if (!text_.trimmed().isEmpty()) {
      parse();
      invalidateFilter();
    }
  });
}

void ResultsFilterModel::watchSource() {
  disconnect(aboutToResetConnection_);
  disconnect(resetConnection_);
  watched_ = sourceModel();
  if (!watched_) return;
  // Conditions hold column indices checked against header names when parsed: a reset of the
  // source (new score columns, a new run) can move or create the columns a filter names, so
  // the text is parsed again. The same goes for the sort column, which the user chose by name:
  // a live run sorted by "gc" should stay sorted by "gc" when a new score column shifts it.
  // These connections are made after QSortFilterProxyModel::setSourceModel made its own, so
  // they run after the proxy has finished its reset and announced it to every listener:
  // refiltering or re-sorting any earlier would emit layout signals inside the reset.
  aboutToResetConnection_ =
      connect(watched_, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
        sortName_ = sortColumn() >= 0 && sourceModel()
                        ? sourceModel()->headerData(sortColumn(), Qt::Horizontal).toString()
                        : QString();
      });
  resetConnection_ = connect(watched_, &QAbstractItemModel::modelReset, this, [this] {
    if (!text_.trimmed().isEmpty()) {
      parse();
      invalidateFilter();
    }
    const QAbstractItemModel* source = sourceModel();
    if (!source || sortName_.isEmpty() || sortColumn() < 0) return;
    if (source->headerData(sortColumn(), Qt::Horizontal).toString() == sortName_) return;
    for (int c = 0; c < source->columnCount(); ++c) {
      if (source->headerData(c, Qt::Horizontal).toString() == sortName_) {
        sort(c, sortOrder());
        return;
      }
    }
  });
}

void ResultsFilterModel::setFilterText(const QString& text) {
  if (text == text_) return;
  text_ = text;
  parse();
  // Qt 6.4 (Debian 12) has no beginFilterChange(); invalidateFilter() is the way there.
  invalidateFilter();
}

void ResultsFilterModel::parse() {
  const QString previousError = error_;
  conditions_.clear();
  error_.clear();

  QStringList headers;
  if (const QAbstractItemModel* source = sourceModel()) {
    for (int c = 0; c < source->columnCount(); ++c)
      headers << source->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
  }
  // Lazy name, then the first operator: two-character operators are listed first so ">=" is
  // not read as ">" followed by "=0.5".
  static const QRegularExpression comparison(
      QStringLiteral("^\\s*(.*?)\\s*(>=|<=|>|<|=)\\s*(.*?)\\s*$"));

  QVector<Condition> parsed;
  for (const QString& rawPart : text_.split(QLatin1Char(';'))) {
    const QString part = rawPart.trimmed();
    if (part.isEmpty()) continue;
    const auto match = comparison.match(part);
    if (!match.hasMatch()) {
      Condition condition;
      condition.text = part;
      parsed << condition;
      continue;
    }
    const QString name = match.captured(1);
    const QString op = match.captured(2);
    const QString number = match.captured(3);
    if (name.isEmpty()) {
      error_ = tr("missing column name in \"%1\"").arg(part);
      break;
    }
    // Exact name first, so score names that differ only in case stay reachable.
    int column = static_cast<int>(headers.indexOf(name));
    if (column < 0) {
      for (int c = 0; c < headers.size(); ++c) {
        if (headers[c].compare(name, Qt::CaseInsensitive) == 0) {
          column = c;
          break;
        }
      }
    }
    if (column < 0) {
      error_ = tr("unknown column \"%1\" in \"%2\"").arg(name, part);
      break;
    }
    if (headers[column] == QLatin1String("sequence")) {
      error_ = tr("column \"%1\" is not numeric in \"%2\"").arg(name, part);
      break;
    }
    bool ok = false;
    double value = QLocale::c().toDouble(number, &ok);
    // The constraints column shows met / unmet: those words stand for its values 1 / 0.
    if (!ok && headers[column] == kConstraintsColumn &&
        (number.compare(QLatin1String("met"), Qt::CaseInsensitive) == 0 ||
         number.compare(QLatin1String("unmet"), Qt::CaseInsensitive) == 0)) {
      value = number.compare(QLatin1String("met"), Qt::CaseInsensitive) == 0 ? 1.0 : 0.0;
      ok = true;
    }
    if (!ok || number.isEmpty() || !std::isfinite(value)) {
      error_ = number.isEmpty() ? tr("missing number in \"%1\"").arg(part)
                                : tr("\"%1\" is not a number in \"%2\"").arg(number, part);
      break;
    }
    Condition condition;
    condition.column = column;
    condition.op = op;
    condition.value = value;
    parsed << condition;
  }
  // A half-understood filter would hide rows for reasons the user cannot see: keep all rows.
  if (error_.isEmpty()) conditions_ = parsed;
  if (error_ != previousError) emit filterErrorChanged(error_);
}

bool ResultsFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  const QAbstractItemModel* source = sourceModel();
  if (!source) return true;
  for (const Condition& condition : conditions_) {
    if (condition.column < 0) {
      QString sequence;
      if (const auto* results = qobject_cast<const ResultsModel*>(source))
        sequence = QString::fromStdString(results->sequenceAt(sourceRow).text);
      else
        sequence = source->index(sourceRow, 1, sourceParent).data().toString();
      if (!sequence.contains(condition.text, Qt::CaseInsensitive)) return false;
      continue;
    }
    const QVariant raw =
        source->index(sourceRow, condition.column, sourceParent).data(ResultsModel::SortRole);
    bool ok = false;
    const double v = raw.toDouble(&ok);
    if (!raw.isValid() || !ok) return false;  // a missing score satisfies no comparison
    bool pass = false;
    if (condition.op == QLatin1String(">"))
      pass = v > condition.value;
    else if (condition.op == QLatin1String(">="))
      pass = v >= condition.value;
    else if (condition.op == QLatin1String("<"))
      pass = v < condition.value;
    else if (condition.op == QLatin1String("<="))
      pass = v <= condition.value;
    else  // "=": compare at the shown precision, so a value that reads 0.5 matches "= 0.5"
      pass = v == condition.value || QString::number(v, 'g', 4).toDouble() == condition.value;
    if (!pass) return false;
  }
  return true;
}

}  // namespace gsflow::ui
