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
#include "gsflow/pipeline/run_schema.hpp"

namespace gsflow::ui {

namespace {

// Form fields built from the run schema (gsflow/pipeline/run_schema.hpp): range, tooltip and
// choices come from the parameter's row, the value from `defaults`, and the object name is the
// parameter's key (tests compare the ranges with the schema's).
QSpinBox* spin(QWidget* parent, const char* key, const pipeline::RunParams& defaults) {
  const auto& row = pipeline::run_param(key);
  auto* box = new QSpinBox(parent);
  box->setObjectName(QString::fromLatin1(key));
  box->setRange(static_cast<int>(row.min), static_cast<int>(row.max));
  box->setValue(QString::fromStdString(row.get(defaults)).toInt());
  box->setToolTip(QString::fromStdString(row.help));
  return box;
}

QDoubleSpinBox* dspin(QWidget* parent, const char* key, const pipeline::RunParams& defaults,
                      double step) {
  const auto& row = pipeline::run_param(key);
  auto* box = new QDoubleSpinBox(parent);
  box->setObjectName(QString::fromLatin1(key));
  box->setDecimals(3);
  box->setRange(row.min, row.max);
  box->setSingleStep(step);
  box->setValue(QString::fromStdString(row.get(defaults)).toDouble());
  box->setToolTip(QString::fromStdString(row.help));
  return box;
}

QComboBox* combo(QWidget* parent, const char* key, const pipeline::RunParams& defaults) {
  const auto& row = pipeline::run_param(key);
  auto* box = new QComboBox(parent);
  box->setObjectName(QString::fromLatin1(key));
  for (const auto& name : row.choices) box->addItem(QString::fromStdString(name));
  box->setCurrentText(QString::fromStdString(row.get(defaults)));
  box->setToolTip(QString::fromStdString(row.help));
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

  const pipeline::RunParams defaults;
  length_ = spin(this, "length", defaults);
  length_->setSpecialValueText(tr("model's"));
  number_ = spin(this, "n", defaults);
  steps_ = spin(this, "steps", defaults);
  method_ = new QComboBox(this);
  method_->setObjectName(QStringLiteral("method"));
  method_->addItem(tr("the model's"), QString());
  for (const auto& m : pipeline::run_param("method").choices)
    method_->addItem(QString::fromStdString(m), QString::fromStdString(m));
  method_->setToolTip(QString::fromStdString(pipeline::run_param("method").help));
  integrator_ = combo(this, "integrator", defaults);
  temperature_ = dspin(this, "temperature", defaults, 0.05);
  seed_ = new QLineEdit(QString::fromStdString(pipeline::run_param("seed").get(defaults)), this);
  seed_->setObjectName(QStringLiteral("seed"));
  seed_->setToolTip(QString::fromStdString(pipeline::run_param("seed").help));
  auto* dice = new QToolButton(this);
  dice->setText(tr("New"));
  dice->setToolTip(tr("A random seed"));
  auto* seedRow = new QHBoxLayout;
  seedRow->addWidget(seed_, 1);
  seedRow->addWidget(dice);
  frames_ = spin(this, "frames_every", defaults);
  batch_ = spin(this, "batch", defaults);
  threads_ = spin(this, "threads", defaults);

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
  gamma_ = dspin(this, "gamma", defaults, 0.5);
  schedule_ = combo(this, "gamma_schedule", defaults);
  samples_ = spin(this, "guide_samples", defaults);
  from_ = combo(this, "guide_from", defaults);
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

pipeline::StoredRunOptions DesignPanel::options() const {
  pipeline::StoredRunOptions o;
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
  pipeline::run_param("seed").set(p, seed_->text().trimmed().toStdString(), "Seed");
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

void DesignPanel::setParams(const pipeline::RunParams& p, const QString& model) {
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
