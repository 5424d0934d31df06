// The trajectory view (see trajectory_view.hpp).
#include "gsflow/ui/trajectory_view.hpp"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/design/fixed_letters.hpp"
#include "gsflow/ui/plots/heatmap_view.hpp"
#include "gsflow/ui/plots/line_chart.hpp"
#include "gsflow/ui/sequence_text.hpp"
#include "gsflow/storage/run_export.hpp"

namespace gsflow::ui {

namespace {

// Mean over positions of the Shannon entropy (bits) of the position's letter distribution.
double meanEntropyBits(const std::vector<float>& x, std::size_t length, std::size_t k) {
  if (length == 0 || k == 0) return 0.0;
  double total = 0.0;
  for (std::size_t i = 0; i < length; ++i)
    for (std::size_t a = 0; a < k; ++a) {
      const double p = x[i * k + a];
      if (p > 0.0) total -= p * std::log2(p);
    }
  return total / static_cast<double>(length);
}

}  // namespace

QVector<bool> fixedPositions(const pipeline::DesignOptions& design, const QString& alphabet,
                             std::size_t sequence, std::size_t length) {
  if (!design.has_fixed() || length == 0 || alphabet.isEmpty()) return {};
  try {
    const auto& letters = engine::alphabet_by_name(alphabet.toStdString());
    engine::FixedLetters fixed(length, engine::kFree);
    if (!design.templates.empty()) {
      const auto& text = design.templates[sequence % design.templates.size()];
      if (text.size() == length) fixed = engine::parse_template(text, letters);
    }
    for (const auto& motif : design.fix)
      engine::apply_fixed_motif(fixed, engine::parse_fixed_motif(motif, letters), letters);
    QVector<bool> out(static_cast<qsizetype>(length));
    for (std::size_t i = 0; i < length; ++i)
      out[static_cast<qsizetype>(i)] = fixed[i] != engine::kFree;
    return out.contains(true) ? out : QVector<bool>();
  } catch (const std::exception&) {  // the run refused the same design and said why
    return {};
  }
}

TrajectoryView::TrajectoryView(QWidget* parent) : QWidget(parent) {
  heatmap_ = new HeatmapView(this);
  entropy_ = new LineChart(this);
  entropy_->setTitle(tr("Entropy of the sequence"));
  entropy_->setAxisTitles(tr("time t"), tr("mean entropy per position (bits)"));
  scores_ = new LineChart(this);
  scores_->setTitle(tr("Guidance scores"));
  scores_->setAxisTitles(tr("step"), tr("mean score of the batch"));

  sequence_ = new QSpinBox(this);
  sequence_->setRange(1, 1);
  sequence_->setToolTip(
      tr("Which sequence's trajectory to show (its record number: # in the results)"));
  which_ = new QComboBox(this);
  which_->addItem(tr("state"));
  which_->addItem(tr("prediction"));
  which_->setToolTip(tr("The sampler's state x_t, or the denoiser's prediction of the clean "
                        "sequence at that time"));
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setRange(0, 0);
  slider_->setToolTip(tr("Trajectory frame"));
  play_ = new QPushButton(tr("Play"), this);
  play_->setCheckable(true);
  play_->setToolTip(tr("Play the trajectory (Space)"));
  time_ = new QLabel(tr("no frames"), this);
  time_->setMinimumWidth(160);
  timer_ = new QTimer(this);
  timer_->setInterval(120);
  selection_ = new QLabel(this);
  lock_ = new QAction(tr("Lock selection"), this);
  lock_->setObjectName(QStringLiteral("lockSelection"));
  lock_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
  lock_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  lock_->setToolTip(
      tr("Write this sequence's letters at the selected positions into the design's "
         "template, so the next run keeps them (Ctrl+L)"));
  addAction(lock_);
  auto* lockButton = new QToolButton(this);
  lockButton->setDefaultAction(lock_);
  textLabel_ = new QLabel(this);
  textLabel_->setWordWrap(true);
  text_ = new SequenceText(this);
  text_->setObjectName(QStringLiteral("finalSequence"));

  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Sequence"), this));
  controls->addWidget(sequence_);
  controls->addWidget(which_);
  controls->addWidget(play_);
  controls->addWidget(slider_, 1);
  controls->addWidget(time_);

  auto* charts = new QSplitter(Qt::Horizontal, this);
  charts->addWidget(entropy_);
  charts->addWidget(scores_);
  auto* textPanel = new QWidget(this);
  auto* textLayout = new QVBoxLayout(textPanel);
  textLayout->setContentsMargins(0, 0, 0, 0);
  textLayout->addWidget(textLabel_);
  textLayout->addWidget(text_, 1);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(heatmap_);
  split->addWidget(textPanel);
  split->addWidget(charts);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  split->setStretchFactor(2, 2);
  split->setSizes({340, 110, 300});

  auto* selectionRow = new QHBoxLayout;
  selectionRow->addWidget(selection_, 1);
  selectionRow->addWidget(lockButton);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addLayout(selectionRow);
  layout->addWidget(split, 1);

  connect(heatmap_, &HeatmapView::selectionChanged, this, [this] { updateSelection(); });
  connect(lock_, &QAction::triggered, this, [this] {
    if (!heatmap_->hasSelection()) return;
    const auto [first, last] = heatmap_->selection();
    emit lockRequested(currentSequence(), first, last);
  });

  connect(slider_, &QSlider::valueChanged, this, [this] { showFrame(); });
  connect(slider_, &QSlider::sliderMoved, this, [this] { followLive_ = false; });
  connect(which_, &QComboBox::currentIndexChanged, this, [this] { showFrame(); });
  connect(sequence_, &QSpinBox::valueChanged, this, [this](int value) {
    const auto s = static_cast<std::size_t>(value - 1);
    if (!hasFrames(s)) emit framesWanted(s);
    followLive_ = true;
    slider_->setRange(0, std::max(0, frameCount() - 1));
    slider_->setValue(slider_->maximum());
    showFrame();
    updateEntropy();
    updateSequenceText();
  });
  connect(play_, &QPushButton::toggled, this, &TrajectoryView::play);
  // Space plays and pauses while the view has the focus.
  auto* playKey = new QAction(this);
  playKey->setShortcut(QKeySequence(Qt::Key_Space));
  playKey->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  connect(playKey, &QAction::triggered, play_, &QPushButton::toggle);
  addAction(playKey);
  connect(timer_, &QTimer::timeout, this, [this] {
    if (slider_->value() >= slider_->maximum()) {
      play_->setChecked(false);
      return;
    }
    slider_->setValue(slider_->value() + 1);
  });
  reset(QString(), 0);
}

void TrajectoryView::reset(const QString& letters, int sequences) {
  play_->setChecked(false);
  letters_ = letters;
  frames_.clear();
  scoreSums_.clear();
  finals_.clear();
  run_.clear();
  followLive_ = true;
  {
    const QSignalBlocker block(sequence_);
    sequence_->setRange(1, std::max(1, sequences));
    sequence_->setValue(1);
  }
  slider_->setRange(0, 0);
  design_ = {};
  alphabet_.clear();
  heatmap_->clear();
  heatmap_->setFixedPositions({});
  updateSelection();
  entropy_->setSeries({});
  entropy_->setMarker(std::nullopt);
  updateScores();
  time_->setText(tr("no frames"));
  updateSequenceText();
}

void TrajectoryView::addFrame(const storage::FrameRecord& frame) {
  auto& frames = frames_[frame.sequence];
  frames.push_back(frame);
  if (frame.sequence != currentSequence()) return;
  const QSignalBlocker block(slider_);
  slider_->setRange(0, static_cast<int>(frames.size()) - 1);
  if (followLive_) slider_->setValue(slider_->maximum());
  showFrame();
  updateEntropy();
}

void TrajectoryView::setFrames(std::size_t sequence, std::vector<storage::FrameRecord> frames) {
  std::sort(frames.begin(), frames.end(),
            [](const auto& a, const auto& b) { return a.step < b.step; });
  // None yet (its batch is still running): asked again when chosen again.
  if (frames.empty())
    frames_.erase(sequence);
  else
    frames_[sequence] = std::move(frames);
  if (sequence != currentSequence()) return;
  const QSignalBlocker block(slider_);
  slider_->setRange(0, std::max(0, frameCount() - 1));
  slider_->setValue(slider_->maximum());
  showFrame();
  updateEntropy();
}

void TrajectoryView::addStepScores(const std::vector<storage::StepScore>& scores) {
  if (scores.empty()) return;
  for (const auto& s : scores) {
    auto& cell = scoreSums_[s.objective][s.step];
    cell.first += s.mean;
    cell.second += 1;
  }
  updateScores();
}

void TrajectoryView::setDesign(const pipeline::DesignOptions& design, const QString& alphabet) {
  design_ = design;
  alphabet_ = alphabet;
  showFrame();
  updateSequenceText();
}

void TrajectoryView::setRunName(const QString& run) {
  run_ = run;
  updateSequenceText();
}

void TrajectoryView::addSequences(const std::vector<storage::SequenceRecord>& sequences) {
  bool current = false;
  for (const auto& s : sequences) {
    finals_[s.index] = QString::fromStdString(s.text);
    current = current || s.index == currentSequence();
  }
  if (!current) return;
  showFrame();
  updateSequenceText();
}

QString TrajectoryView::finalSequence(std::size_t sequence) const {
  const auto it = finals_.find(sequence);
  return it == finals_.end() ? QString() : it->second;
}

QVector<bool> TrajectoryView::fixedOf(std::size_t sequence, std::size_t length) const {
  return fixedPositions(design_, alphabet_, sequence, length);
}

// The start sequence `sequence` was made from (sequence i starts from start i mod count), when
// it has the sequence's length.
QString TrajectoryView::startOf(std::size_t sequence, std::size_t length) const {
  if (design_.starts.empty()) return {};
  const auto& start = design_.starts[sequence % design_.starts.size()];
  return start.size() == length ? QString::fromStdString(start) : QString();
}

void TrajectoryView::updateSequenceText() {
  const std::size_t sequence = currentSequence();
  const QString letters = finalSequence(sequence);
  const auto length = static_cast<std::size_t>(letters.size());
  const QVector<bool> fixed = fixedOf(sequence, length);
  const QString start = startOf(sequence, length);
  QVector<bool> edited;
  if (!start.isEmpty()) {
    edited.resize(letters.size());
    for (qsizetype i = 0; i < letters.size(); ++i) edited[i] = letters[i] != start[i];
  }
  text_->setSequence(letters, fixed, edited);
  const auto [first, last] = heatmap_->selection();
  text_->setSelection(first, last);
  const QString id =
      run_.isEmpty() ? QString()
                     : QString::fromStdString(storage::sequence_id(
                           run_.toStdString(), storage::SequenceRecord{sequence, {}, {}, {}}));
  if (letters.isEmpty()) {
    textLabel_->setText(tr("Final sequence %1: not finished yet").arg(sequence + 1));
    return;
  }
  QStringList marks;
  if (fixed.contains(true))
    marks << tr("<span style=\"background-color:%1\">&nbsp;fixed by the design&nbsp;</span> %2")
                 .arg(SequenceText::fixedBackground().name())
                 .arg(fixed.count(true));
  if (!edited.isEmpty())
    marks << tr("<b style=\"color:%1\">edited from the start sequence</b> %2")
                 .arg(SequenceText::editedColor().name())
                 .arg(edited.count(true));
  textLabel_->setText(tr("<b>Final sequence %1</b>%2 · %3 letters%4")
                          .arg(sequence + 1)
                          .arg(id.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(id))
                          .arg(letters.size())
                          .arg(marks.isEmpty() ? QString()
                                               : QStringLiteral(" · ") +
                                                     marks.join(QStringLiteral(" · "))));
}

void TrajectoryView::updateSelection() {
  const auto [first, last] = heatmap_->selection();
  lock_->setEnabled(first >= 0);
  text_->setSelection(first, last);
  selection_->setText(
      first < 0 ? tr("Drag across the heatmap to select positions")
      : first == last
          ? tr("Position %1 selected").arg(first + 1)
          : tr("Positions %1–%2 selected (%3)").arg(first + 1).arg(last + 1).arg(last - first + 1));
}

std::size_t TrajectoryView::currentSequence() const {
  return static_cast<std::size_t>(sequence_->value() - 1);
}

void TrajectoryView::setCurrentSequence(std::size_t sequence) {
  sequence_->setValue(static_cast<int>(sequence) + 1);
}

const std::vector<storage::FrameRecord>* TrajectoryView::currentFrames() const {
  const auto it = frames_.find(currentSequence());
  return it == frames_.end() ? nullptr : &it->second;
}

int TrajectoryView::frameCount() const {
  const auto* frames = currentFrames();
  return frames ? static_cast<int>(frames->size()) : 0;
}

int TrajectoryView::currentFrame() const { return slider_->value(); }

void TrajectoryView::setCurrentFrame(int index) {
  followLive_ = false;
  slider_->setValue(index);
}

bool TrajectoryView::hasFrames(std::size_t sequence) const { return frames_.count(sequence) > 0; }

bool TrajectoryView::isPlaying() const { return timer_->isActive(); }

void TrajectoryView::play(bool on) {
  if (play_->isChecked() != on) {
    play_->setChecked(on);  // re-enters through toggled
    return;
  }
  if (on) {
    if (slider_->value() >= slider_->maximum()) slider_->setValue(0);
    followLive_ = false;
    play_->setText(tr("Pause"));
    timer_->start();
  } else {
    play_->setText(tr("Play"));
    timer_->stop();
  }
}

void TrajectoryView::showFrame() {
  const auto* frames = currentFrames();
  const int index = slider_->value();
  if (!frames || index < 0 || index >= static_cast<int>(frames->size())) {
    heatmap_->clear();
    time_->setText(tr("no frames"));
    entropy_->setMarker(std::nullopt);
    return;
  }
  const auto& f = (*frames)[static_cast<std::size_t>(index)];
  const bool prediction = which_->currentIndex() == 1 && !f.xhat.empty();
  const auto& values = prediction ? f.xhat : f.x;
  const QVector<bool> fixed = fixedOf(f.sequence, f.length);
  const auto nFixed = fixed.count(true);
  const QString kind = prediction ? tr("prediction") : tr("state");
  heatmap_->setFixedPositions(fixed);
  heatmap_->setFrameLabel(tr("step %1 of the trajectory (t = %2), %3")
                              .arg(f.step)
                              .arg(f.t, 0, 'f', 3)
                              .arg(kind));
  const QString finalLetters = finalSequence(f.sequence);
  heatmap_->setFinalSequence(static_cast<std::size_t>(finalLetters.size()) == f.length
                                 ? finalLetters
                                 : QString());
  heatmap_->setStartSequence(startOf(f.sequence, f.length));
  heatmap_->setFrame(QVector<float>(values.begin(), values.end()), static_cast<int>(f.length),
                     letters_,
                     tr("sequence %1, %2 at step %3 (t = %4)")
                             .arg(f.sequence + 1)
                             .arg(kind)
                             .arg(f.step)
                             .arg(f.t, 0, 'f', 3) +
                         (nFixed == 0   ? QString()
                          : nFixed == 1 ? tr("; 1 position fixed (orange)")
                                        : tr("; %1 positions fixed (orange)").arg(nFixed)));
  time_->setText(tr("frame %1 of %2, step %3, t = %4")
                     .arg(index + 1)
                     .arg(frames->size())
                     .arg(f.step)
                     .arg(f.t, 0, 'f', 3));
  entropy_->setMarker(f.t);
}

void TrajectoryView::updateEntropy() {
  const auto* frames = currentFrames();
  if (!frames || frames->empty()) {
    entropy_->setSeries({});
    return;
  }
  ChartSeries state{tr("state"), {}, {}};
  ChartSeries prediction{tr("prediction"), {}, {}};
  for (const auto& f : *frames) {
    state.points.append({f.t, meanEntropyBits(f.x, f.length, f.k)});
    if (!f.xhat.empty()) prediction.points.append({f.t, meanEntropyBits(f.xhat, f.length, f.k)});
  }
  QVector<ChartSeries> series{state};
  if (!prediction.points.isEmpty()) series.append(prediction);
  entropy_->setSeries(series);
}

void TrajectoryView::updateScores() {
  QVector<ChartSeries> series;
  for (const auto& [objective, steps] : scoreSums_) {
    ChartSeries s{QString::fromStdString(objective), {}, {}};
    for (const auto& [step, sum] : steps) s.points.append({double(step), sum.first / sum.second});
    series.append(s);
  }
  // One objective: its name in the title (the chart draws a legend only for several).
  scores_->setTitle(series.size() == 1 ? tr("Guidance score: %1").arg(series.front().name)
                                       : tr("Guidance scores"));
  scores_->setSeries(series);
}

}  // namespace gsflow::ui
