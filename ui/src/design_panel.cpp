// The design form (see design_panel.hpp).
#include "gsflow/ui/design_panel.hpp"

#include <QComboBox>
#include <QCompleter>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSettings>
#include <QSpinBox>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <stdexcept>

#include "gsflow/guidance/objective.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/models/model.hpp"

namespace gsflow::ui {

namespace {

QSpinBox* spin(QWidget* parent, int lo, int hi, int value, const QString& tip) {
  auto* box = new QSpinBox(parent);
  box->setRange(lo, hi);
  box->setValue(value);
  box->setToolTip(tip);
  return box;
}

QDoubleSpinBox* dspin(QWidget* parent, double lo, double hi, double value, double step,
                      const QString& tip) {
  auto* box = new QDoubleSpinBox(parent);
  box->setRange(lo, hi);
  box->setDecimals(3);
  box->setSingleStep(step);
  box->setValue(value);
  box->setToolTip(tip);
  return box;
}

QStringList splitTags(const QString& text) {
  QStringList tags;
  for (const auto& t : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
    if (!t.trimmed().isEmpty()) tags << t.trimmed();
  return tags;
}

}  // namespace

DesignPanel::DesignPanel(QWidget* parent) : QWidget(parent) {
  model_ = new QComboBox(this);
  model_->setEditable(true);
  for (const auto& name : models::bundled_models()) model_->addItem(QString::fromStdString(name));
  model_->setCurrentText(QStringLiteral("dna-promoter"));
  model_->setToolTip(tr("A bundled model by name, or a checkpoint file (.ckpt)"));
  auto* browse = new QToolButton(this);
  browse->setText(tr("…"));
  browse->setToolTip(tr("Choose a checkpoint file"));
  auto* modelRow = new QHBoxLayout;
  modelRow->addWidget(model_, 1);
  modelRow->addWidget(browse);

  const guidance::RunParams defaults;
  length_ = spin(this, 0, 100000, 0, tr("Letters per sequence; 0 = the model's length "
                                       "(peptides: drawn from the training lengths)"));
  length_->setSpecialValueText(tr("model's"));
  number_ = spin(this, 1, 1000000, 100, tr("How many sequences to generate"));
  steps_ = spin(this, 1, 100000, defaults.sampler.steps, tr("Sampling steps"));
  method_ = new QComboBox(this);
  method_->addItem(tr("the model's"), QString());
  for (const char* m : {"gsfm", "gssm", "linear"}) method_->addItem(QString::fromLatin1(m), QString::fromLatin1(m));
  method_->setToolTip(tr("Generation method; a bundled name picks the matching variant"));
  integrator_ = new QComboBox(this);
  integrator_->addItem(QStringLiteral("exponential"));
  integrator_->addItem(QStringLiteral("euler"));
  integrator_->setToolTip(tr("GSFM integrator (GSSM and Linear FM have their own)"));
  temperature_ = dspin(this, 0.05, 10.0, 1.0, 0.05,
                       tr("Inference temperature: the prediction is sharpened (< 1) or "
                          "flattened (> 1)"));
  seed_ = new QLineEdit(QStringLiteral("1"), this);
  seed_->setToolTip(tr("Same seed, same sequences"));
  auto* dice = new QToolButton(this);
  dice->setText(tr("New"));
  dice->setToolTip(tr("A random seed"));
  auto* seedRow = new QHBoxLayout;
  seedRow->addWidget(seed_, 1);
  seedRow->addWidget(dice);
  frames_ = spin(this, 0, 100000, 5, tr("Keep a trajectory frame every n-th step (0 = none)"));
  batch_ = spin(this, 1, 100000, 64, tr("Sequences per network call (and per stored batch)"));
  threads_ = spin(this, 1, 256, 2, tr("Network threads (never changes the sequences)"));

  auto* sampling = new QGroupBox(tr("Generation"), this);
  auto* form = new QFormLayout(sampling);
  form->addRow(tr("Model"), modelRow);
  form->addRow(tr("Sequences"), number_);
  form->addRow(tr("Length"), length_);
  form->addRow(tr("Steps"), steps_);
  form->addRow(tr("Method"), method_);
  form->addRow(tr("Integrator"), integrator_);
  form->addRow(tr("Temperature"), temperature_);
  form->addRow(tr("Seed"), seedRow);
  form->addRow(tr("Frame every"), frames_);
  form->addRow(tr("Batch"), batch_);
  form->addRow(tr("Threads"), threads_);

  objectives_ = new QTableWidget(0, 2, this);
  objectives_->setHorizontalHeaderLabels({tr("Objective"), tr("Weight")});
  objectives_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  objectives_->verticalHeader()->hide();
  objectives_->setMinimumHeight(90);
  objectives_->setToolTip(tr("STGFlow objectives: a bundled classifier (promoter, amp), a "
                             "property (gc:0.6, gravy, charge:2, motif, tata) or "
                             "classifier:FILE.json"));
  auto* add = new QPushButton(tr("Add"), this);
  auto* remove = new QPushButton(tr("Remove"), this);
  auto* objectiveButtons = new QHBoxLayout;
  objectiveButtons->addWidget(add);
  objectiveButtons->addWidget(remove);
  objectiveButtons->addStretch(1);
  gamma_ = dspin(this, 0.0, 1000.0, defaults.guidance.gamma, 0.5,
                 tr("Guidance strength γ (0 = unguided)"));
  schedule_ = new QComboBox(this);
  for (const char* s : {"constant", "rising", "falling"}) schedule_->addItem(QString::fromLatin1(s));
  schedule_->setToolTip(tr("γ over time: constant, or the same total push given late or early"));
  samples_ = spin(this, 1, 64, defaults.guidance.samples, tr("M: sequences drawn per step"));
  from_ = new QComboBox(this);
  for (const char* s : {"state", "prediction"}) from_->addItem(QString::fromLatin1(s));
  from_->setToolTip(tr("Draw the M sequences from the state x or the prediction x̂"));
  auto* guidanceBox = new QGroupBox(tr("Guidance (STGFlow)"), this);
  auto* guideForm = new QFormLayout(guidanceBox);
  guideForm->addRow(objectives_);
  guideForm->addRow(objectiveButtons);
  guideForm->addRow(tr("γ"), gamma_);
  guideForm->addRow(tr("Schedule"), schedule_);
  guideForm->addRow(tr("Samples M"), samples_);
  guideForm->addRow(tr("Draw from"), from_);

  name_ = new QLineEdit(this);
  name_->setPlaceholderText(tr("automatic (model-sSEED)"));
  tags_ = new QLineEdit(this);
  tags_->setPlaceholderText(tr("comma-separated"));
  notes_ = new QLineEdit(this);
  auto* runBox = new QGroupBox(tr("Run"), this);
  auto* runForm = new QFormLayout(runBox);
  runForm->addRow(tr("Name"), name_);
  runForm->addRow(tr("Tags"), tags_);
  runForm->addRow(tr("Notes"), notes_);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(sampling);
  layout->addWidget(guidanceBox);
  layout->addWidget(runBox);
  layout->addStretch(1);

  connect(browse, &QToolButton::clicked, this, &DesignPanel::browseModel);
  connect(dice, &QToolButton::clicked, this, [this] {
    seed_->setText(QString::number(QRandomGenerator::global()->bounded(1u << 30)));
  });
  connect(add, &QPushButton::clicked, this, [this] {
    addObjective(objectiveNames_.isEmpty() ? QString() : objectiveNames_.front());
  });
  connect(remove, &QPushButton::clicked, this, [this] {
    const int row = objectives_->currentRow();
    objectives_->removeRow(row >= 0 ? row : objectives_->rowCount() - 1);
  });
  connect(model_, &QComboBox::currentTextChanged, this, [this](const QString& text) {
    updateObjectiveNames();
    emit modelChanged(text);
  });
  updateObjectiveNames();
}

void DesignPanel::browseModel() {
  const QString file = QFileDialog::getOpenFileName(this, tr("Choose a model checkpoint"),
                                                    QString(), tr("Checkpoints (*.ckpt);;All files (*)"));
  if (!file.isEmpty()) setModel(file);
}

// The objective names offered for the model's alphabet (read from the checkpoint's metadata).
void DesignPanel::updateObjectiveNames() {
  objectiveNames_.clear();
  try {
    const auto file = models::resolve_model(model_->currentText().trimmed().toStdString());
    const auto alphabet = models::Model::load(file).spec().alphabet;
    for (const auto& n : guidance::objective_names(alphabet))
      objectiveNames_ << QString::fromStdString(n);
  } catch (const std::exception&) {
    // Not a model (yet, while typing): no suggestions; starting a run reports the cause.
  }
}

void DesignPanel::setModel(const QString& model) { model_->setCurrentText(model); }

QString DesignPanel::model() const { return model_->currentText().trimmed(); }

void DesignPanel::setRunName(const QString& name) { name_->setText(name); }

void DesignPanel::addObjective(const QString& objective, double weight) {
  const int row = objectives_->rowCount();
  objectives_->insertRow(row);
  auto* name = new QComboBox(objectives_);
  name->setEditable(true);
  name->addItems(objectiveNames_);
  name->setCurrentText(objective);
  objectives_->setCellWidget(row, 0, name);
  auto* w = new QDoubleSpinBox(objectives_);
  w->setRange(-1000.0, 1000.0);
  w->setDecimals(3);
  w->setValue(weight);
  objectives_->setCellWidget(row, 1, w);
}

void DesignPanel::clearObjectives() { objectives_->setRowCount(0); }

std::vector<guidance::GuideTerm> DesignPanel::objectiveTerms() const {
  std::vector<guidance::GuideTerm> terms;
  for (int row = 0; row < objectives_->rowCount(); ++row) {
    const auto* name = qobject_cast<QComboBox*>(objectives_->cellWidget(row, 0));
    const auto* weight = qobject_cast<QDoubleSpinBox*>(objectives_->cellWidget(row, 1));
    terms.push_back({name ? name->currentText().trimmed().toStdString() : std::string(),
                     weight ? weight->value() : 1.0});
  }
  return terms;
}

int DesignPanel::objectiveCount() const { return objectives_->rowCount(); }

guidance::StoredRunOptions DesignPanel::options() const {
  guidance::StoredRunOptions o;
  auto& p = o.params;
  p.model = model().toStdString();
  if (p.model.empty()) throw std::invalid_argument("Model: choose a bundled model or a checkpoint file");
  p.n = static_cast<std::size_t>(number_->value());
  p.length = static_cast<std::size_t>(length_->value());
  p.threads = threads_->value();
  p.sampler.steps = steps_->value();
  const QString method = method_->currentData().toString();
  if (!method.isEmpty()) {
    p.sampler.method = engine::parse_method(method.toStdString(), "Method");
    o.method_given = true;
  }
  p.sampler.integrator = engine::parse_integrator(integrator_->currentText().toStdString(), "Integrator");
  p.sampler.temperature = temperature_->value();
  bool ok = false;
  const qulonglong seed = seed_->text().trimmed().toULongLong(&ok);
  if (!ok)
    throw std::invalid_argument("Seed: '" + seed_->text().toStdString() +
                                "' is not a whole number from 0 to 18446744073709551615");
  p.sampler.seed = seed;
  p.sampler.frames_every = frames_->value();
  p.sampler.batch = static_cast<std::size_t>(batch_->value());
  p.guidance.terms = objectiveTerms();
  for (std::size_t row = 0; row < p.guidance.terms.size(); ++row)
    if (p.guidance.terms[row].objective.empty())
      throw std::invalid_argument("Guidance objective " + std::to_string(row + 1) +
                                  ": empty (choose one or remove the row)");
  p.guidance.gamma = gamma_->value();
  p.guidance.schedule = guidance::parse_gamma_schedule(schedule_->currentText().toStdString(), "Schedule");
  p.guidance.samples = samples_->value();
  p.guidance.from = guidance::parse_guide_from(from_->currentText().toStdString(), "Draw from");
  guidance::check_guidance(p.guidance);
  o.name = name_->text().trimmed().toStdString();
  o.rename_if_taken = o.name.empty();
  for (const auto& t : splitTags(tags_->text())) o.tags.push_back(t.toStdString());
  o.notes = notes_->text().trimmed().toStdString();
  return o;
}

void DesignPanel::setParams(const guidance::RunParams& p, const QString& model) {
  setModel(model);
  number_->setValue(static_cast<int>(p.n));
  length_->setValue(static_cast<int>(p.length));
  threads_->setValue(p.threads);
  steps_->setValue(p.sampler.steps);
  method_->setCurrentIndex(method_->findData(QString::fromLatin1(engine::method_name(p.sampler.method))));
  integrator_->setCurrentText(QString::fromLatin1(engine::integrator_name(p.sampler.integrator)));
  temperature_->setValue(p.sampler.temperature);
  seed_->setText(QString::number(p.sampler.seed));
  frames_->setValue(p.sampler.frames_every);
  batch_->setValue(static_cast<int>(p.sampler.batch));
  clearObjectives();
  for (const auto& t : p.guidance.terms) addObjective(QString::fromStdString(t.objective), t.weight);
  gamma_->setValue(p.guidance.gamma);
  schedule_->setCurrentText(QString::fromLatin1(guidance::gamma_schedule_name(p.guidance.schedule)));
  samples_->setValue(p.guidance.samples);
  from_->setCurrentText(QString::fromLatin1(guidance::guide_from_name(p.guidance.from)));
}

// The form's plain fields under their settings keys (model and objectives are handled apart).
std::vector<std::pair<QString, QWidget*>> DesignPanel::settingsFields() const {
  return {{"n", number_},           {"length", length_},         {"steps", steps_},
          {"method", method_},      {"integrator", integrator_}, {"temperature", temperature_},
          {"seed", seed_},          {"frames", frames_},         {"batch", batch_},
          {"threads", threads_},    {"gamma", gamma_},           {"schedule", schedule_},
          {"samples", samples_},    {"from", from_},             {"tags", tags_}};
}

void DesignPanel::saveSettings(QSettings& s) const {
  s.beginGroup(QStringLiteral("design"));
  s.setValue(QStringLiteral("model"), model());
  for (const auto& [key, widget] : settingsFields()) {
    if (const auto* box = qobject_cast<const QSpinBox*>(widget)) s.setValue(key, box->value());
    if (const auto* box = qobject_cast<const QDoubleSpinBox*>(widget)) s.setValue(key, box->value());
    if (const auto* box = qobject_cast<const QComboBox*>(widget)) s.setValue(key, box->currentIndex());
    if (const auto* edit = qobject_cast<const QLineEdit*>(widget)) s.setValue(key, edit->text());
  }
  QStringList objectives;
  for (const auto& term : objectiveTerms())
    objectives << QString::fromStdString(term.objective) + QLatin1Char('=') +
                      QString::number(term.weight);
  s.setValue(QStringLiteral("objectives"), objectives);
  s.endGroup();
}

void DesignPanel::restoreSettings(const QSettings& s) {
  const auto get = [&s](const QString& key) { return s.value(QStringLiteral("design/") + key); };
  if (get("model").isValid()) setModel(get("model").toString());
  for (const auto& [key, widget] : settingsFields()) {
    const QVariant value = get(key);
    if (!value.isValid()) continue;
    if (auto* box = qobject_cast<QSpinBox*>(widget)) box->setValue(value.toInt());
    if (auto* box = qobject_cast<QDoubleSpinBox*>(widget)) box->setValue(value.toDouble());
    if (auto* box = qobject_cast<QComboBox*>(widget)) box->setCurrentIndex(value.toInt());
    if (auto* edit = qobject_cast<QLineEdit*>(widget)) edit->setText(value.toString());
  }
  if (get("objectives").isValid()) {
    clearObjectives();
    for (const auto& text : get("objectives").toStringList()) {
      try {
        const auto term = guidance::parse_guide_term(text.toStdString());
        addObjective(QString::fromStdString(term.objective), term.weight);
      } catch (const std::invalid_argument&) {  // a hand-edited settings file: skip the row
      }
    }
  }
}

}  // namespace gsflow::ui
