// The run comparison view (see compare_view.hpp).
#include "gsflow/ui/compare_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/metrics/kmer.hpp"
#include "gsflow/ui/plots/comparison_charts.hpp"
#include "gsflow/ui/results_view.hpp"

namespace gsflow::ui {

std::vector<double> kmerFrequencies(const std::vector<storage::SequenceRecord>& sequences,
                                    const engine::Alphabet& alphabet, int k) {
  engine::SequenceSet letters;
  for (const auto& s : sequences)
    if (s.text.size() >= static_cast<std::size_t>(k)) letters.push_back(alphabet.encode(s.text));
  std::vector<double> frequencies(
      static_cast<std::size_t>(std::pow(double(alphabet.size()), k) + 0.5), 0.0);
  if (letters.empty()) return frequencies;
  const auto counts = engine::kmer_counts(letters, alphabet.size(), static_cast<std::size_t>(k));
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  for (std::size_t i = 0; i < counts.size(); ++i) frequencies[i] = counts[i] / total;
  return frequencies;
}

namespace {

QString kmerName(std::size_t code, const QString& letters, int k) {
  QString name(k, QLatin1Char(' '));
  const auto K = static_cast<std::size_t>(letters.size());
  for (int i = k - 1; i >= 0; --i) {
    name[i] = letters[static_cast<int>(code % K)];
    code /= K;
  }
  return name;
}

}  // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
  left_ = new QComboBox(this);
  right_ = new QComboBox(this);
  score_ = new QComboBox(this);
  k_ = new QSpinBox(this);
  k_->setRange(1, 3);
  k_->setValue(2);
  k_->setPrefix(tr("k = "));
  k_->setToolTip(tr("Length of the k-mers compared (at most 30 most frequent shown)"));
  message_ = new QLabel(this);
  histogram_ = new HistogramChart(this);
  bars_ = new BarChart(this);

  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Run A"), this));
  controls->addWidget(left_, 1);
  controls->addWidget(new QLabel(tr("Run B"), this));
  controls->addWidget(right_, 1);
  controls->addWidget(new QLabel(tr("Score"), this));
  controls->addWidget(score_);
  controls->addWidget(k_);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(histogram_);
  split->addWidget(bars_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(message_);
  layout->addWidget(split, 1);

  for (auto* box : {left_, right_, score_})
    connect(box, &QComboBox::currentIndexChanged, this, [this] { update(); });
  connect(k_, &QSpinBox::valueChanged, this, [this] { update(); });
}

void CompareView::setRuns(const std::vector<storage::RunInfo>& runs) {
  const auto left = left_->currentData().toLongLong(), right = right_->currentData().toLongLong();
  runs_ = runs;
  updating_ = true;
  for (auto* box : {left_, right_}) {
    box->clear();
    for (const auto& r : runs)
      box->addItem(QStringLiteral("%1 (%2, %3 seq.)")
                       .arg(QString::fromStdString(r.name), QString::fromStdString(r.model.name))
                       .arg(r.completed),
                   QVariant::fromValue<qlonglong>(r.id));
  }
  updating_ = false;
  compare(left ? left : (runs.size() > 1 ? runs[1].id : 0),
          right ? right : (runs.empty() ? 0 : runs[0].id));
}

void CompareView::compare(std::int64_t left, std::int64_t right) {
  updating_ = true;
  left_->setCurrentIndex(left_->findData(QVariant::fromValue<qlonglong>(left)));
  right_->setCurrentIndex(right_->findData(QVariant::fromValue<qlonglong>(right)));
  updating_ = false;
  update();
}

bool CompareView::compareRun(std::int64_t run) {
  const auto it = std::find_if(runs_.begin(), runs_.end(), [&](auto& r) { return r.id == run; });
  if (it == runs_.end()) return false;
  // Ids grow with time: the best partner is the nearest earlier run, nearest later one if none.
  // The same model first, then the same alphabet, then any.
  const auto partner = [&](auto same) -> std::int64_t {
    std::int64_t before = 0, after = 0;
    for (const auto& r : runs_) {
      if (r.id == run || !same(r)) continue;
      if (r.id < run && r.id > before) before = r.id;
      if (r.id > run && (after == 0 || r.id < after)) after = r.id;
    }
    return before ? before : after;
  };
  std::int64_t other = partner([&](auto& r) { return r.model.name == it->model.name; });
  if (!other) other = partner([&](auto& r) { return r.model.alphabet == it->model.alphabet; });
  if (!other) other = partner([](auto&) { return true; });
  compare(other ? other : run, run);
  return true;
}

std::int64_t CompareView::leftRun() const { return left_->currentData().toLongLong(); }

std::int64_t CompareView::rightRun() const { return right_->currentData().toLongLong(); }

void CompareView::setScore(const QString& score) {
  score_->setCurrentIndex(score_->findText(score));
}

void CompareView::update() {
  if (updating_) return;
  struct Side {
    QString name, alphabet;
    std::vector<storage::SequenceRecord> sequences;
  };
  std::vector<Side> sides;
  try {
    for (auto* box : {left_, right_}) {
      const auto id = box->currentData().toLongLong();
      const auto it = std::find_if(runs_.begin(), runs_.end(), [&](auto& r) { return r.id == id; });
      if (it == runs_.end() || !loader_) continue;
      sides.push_back({QString::fromStdString(it->name), QString::fromStdString(it->model.alphabet),
                       loader_(id)});
    }
    message_->clear();
  } catch (const std::exception& e) {
    message_->setText(tr("Cannot read the runs: %1").arg(QString::fromLocal8Bit(e.what())));
    sides.clear();
  }
  // Scores both runs have.
  std::set<std::string> common;
  for (std::size_t i = 0; i < sides.size(); ++i) {
    std::set<std::string> names;
    for (const auto& s : sides[i].sequences)
      for (const auto& [k, v] : s.scores) names.insert(k);
    if (i == 0) {
      common = names;
    } else {
      std::set<std::string> both;
      std::set_intersection(common.begin(), common.end(), names.begin(), names.end(),
                            std::inserter(both, both.begin()));
      common = both;
    }
  }
  const QString chosen = score_->currentText();
  {
    const QSignalBlocker block(score_);
    score_->clear();
    for (const auto& n : common) score_->addItem(QString::fromStdString(n));
    const int keep = score_->findText(chosen);
    score_->setCurrentIndex(keep >= 0 ? keep : 0);
  }
  const QString score = score_->currentText();
  QVector<NamedValues> samples;
  for (const auto& side : sides) {
    NamedValues v{side.name, {}};
    for (const auto& s : side.sequences)
      if (const auto it = s.scores.find(score.toStdString()); it != s.scores.end())
        v.values.append(it->second);
    samples.append(v);
  }
  histogram_->setTitle(score.isEmpty() ? tr("Score distribution") : tr("Distribution of %1").arg(score));
  histogram_->setXTitle(score);
  histogram_->setSamples(score.isEmpty() ? QVector<NamedValues>{} : samples);

  // k-mer composition, when both runs share an alphabet.
  const QString letters = sides.empty() ? QString() : alphabetLetters(sides.front().alphabet);
  const bool same = !letters.isEmpty() && std::all_of(sides.begin(), sides.end(), [&](auto& s) {
    return s.alphabet == sides.front().alphabet;
  });
  if (!same) {
    bars_->setBars({}, {});
    if (!sides.empty() && message_->text().isEmpty())
      message_->setText(tr("The runs use different alphabets: no k-mer comparison"));
    return;
  }
  const int k = k_->value();
  const auto& alphabet = engine::alphabet_by_name(sides.front().alphabet.toStdString());
  std::vector<std::vector<double>> freqs;
  try {
    for (const auto& side : sides) freqs.push_back(kmerFrequencies(side.sequences, alphabet, k));
  } catch (const std::exception& e) {
    bars_->setBars({}, {});
    message_->setText(tr("Cannot count k-mers: %1").arg(QString::fromLocal8Bit(e.what())));
    return;
  }
  // The most frequent k-mers over both runs (at most 30, so the bars stay readable).
  std::vector<std::size_t> order(freqs.front().size());
  std::iota(order.begin(), order.end(), 0);
  const auto mass = [&](std::size_t c) {
    double m = 0.0;
    for (const auto& f : freqs) m += f[c];
    return m;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return mass(a) > mass(b); });
  if (order.size() > 30) order.resize(30);
  QStringList categories;
  for (const auto c : order) categories << kmerName(c, letters, k);
  QVector<NamedValues> sets;
  for (std::size_t i = 0; i < sides.size(); ++i) {
    NamedValues v{sides[i].name, {}};
    for (const auto c : order) v.values.append(freqs[i][c]);
    sets.append(v);
  }
  bars_->setTitle(order.size() < freqs.front().size()
                      ? tr("%1-mer frequencies (30 most frequent)").arg(k)
                      : tr("%1-mer frequencies").arg(k));
  bars_->setYTitle(tr("frequency"));
  bars_->setBars(categories, sets);
}

}  // namespace gsflow::ui
