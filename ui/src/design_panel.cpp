// The design form (see design_panel.hpp).
#include "gsflow/ui/design_panel.hpp"
#include "gsflow/ui/user_settings.hpp"

#include <QComboBox>
#include <QCompleter>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <stdexcept>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/design/constraints.hpp"
#include "gsflow/engine/design/fixed_letters.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/guidance/natural.hpp"
#include "gsflow/guidance/objective.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/models/model.hpp"
#include "gsflow/pipeline/design.hpp"
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

// A text field built from a run-schema row: the key as object name, the help as tooltip.
template <typename Edit>
Edit* textField(QWidget* parent, const char* key) {
  auto* edit = new Edit(parent);
  edit->setObjectName(QString::fromLatin1(key));
  edit->setToolTip(QString::fromStdString(pipeline::run_param(key).help));
  return edit;
}

QString withoutBlanks(QString text) {
  static const QRegularExpression blanks(QStringLiteral("\\s+"));
  return text.remove(blanks);
}

// One sequence of a multi-sequence field: its FASTA id ("" for plain lines) and letters.
struct TextRecord {
  QString id, letters;
  int line = 0;  // 1-based line of the field where it begins
};

// The records of a template or start field: FASTA text (">id" lines begin records) or one
// sequence per line; blanks inside sequences are dropped.
std::vector<TextRecord> textRecords(const QString& text) {
  const QStringList lines = text.split(QLatin1Char('\n'));
  bool fasta = false;
  for (const auto& line : lines) fasta = fasta || line.trimmed().startsWith(QLatin1Char('>'));
  std::vector<TextRecord> records;
  for (int i = 0; i < lines.size(); ++i) {
    const QString line = lines[i].trimmed();
    if (line.isEmpty()) continue;
    if (fasta && line.startsWith(QLatin1Char('>'))) {
      records.push_back({line.mid(1).trimmed().section(QLatin1Char(' '), 0, 0), QString(), i + 1});
    } else if (fasta && !records.empty()) {
      records.back().letters += withoutBlanks(line);
    } else {
      records.push_back({QString(), withoutBlanks(line), i + 1});
    }
  }
  return records;
}

// The form's labels of the `gsflow generate` options the design's errors name.
const std::vector<std::pair<QString, QString>>& fieldLabels() {
  static const std::vector<std::pair<QString, QString>> labels = {
      {QStringLiteral("--template"), QObject::tr("Template")},
      {QStringLiteral("--fix"), QObject::tr("Fixed motifs")},
      {QStringLiteral("--fixed-hold"), QObject::tr("Fixed letters")},
      {QStringLiteral("--start-time"), QObject::tr("Start time")},
      {QStringLiteral("--start"), QObject::tr("Start sequences")},
      {QStringLiteral("--max-edits"), QObject::tr("Max edits")},
      {QStringLiteral("--avoid"), QObject::tr("Avoid sites")},
      {QStringLiteral("--max-run"), QObject::tr("Max run")},
      {QStringLiteral("--gc-min"), QObject::tr("GC min")},
      {QStringLiteral("--gc-max"), QObject::tr("GC max")},
      {QStringLiteral("--gc-window"), QObject::tr("GC window")},
      {QStringLiteral("--omit"), QObject::tr("Omit letters")},
      {QStringLiteral("--constraint-strength"), QObject::tr("Constraint strength")},
  };
  return labels;
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
  steps_->setSpecialValueText(tr("auto"));
  method_ = new QComboBox(this);
  method_->setObjectName(QStringLiteral("method"));
  method_->addItem(tr("the model's"), QString());
  for (const auto& m : pipeline::run_param("method").choices)
    method_->addItem(QString::fromStdString(m), QString::fromStdString(m));
  method_->setToolTip(QString::fromStdString(pipeline::run_param("method").help));
  integrator_ = combo(this, "integrator", defaults);
  timeGrid_ = combo(this, "time_grid", defaults);
  precision_ = combo(this, "precision", defaults);
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
  form->addRow(tr("Time grid"), timeGrid_);
  form->addRow(tr("Precision"), precision_);
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
  objectives_->setToolTip(
      tr("STGFlow objectives: a bundled classifier (promoter, amp) or one "
         "of yours by name (Models tab), a property (gc:0.6, gravy, "
         "charge:2, motif, tata) or classifier:FILE.json"));
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
  guidanceMethod_ = combo(this, "guidance_method", defaults);
  naturalness_ = new QDoubleSpinBox(this);
  naturalness_->setObjectName("naturalness");
  naturalness_->setRange(0.0, 1000.0);
  naturalness_->setDecimals(1);
  naturalness_->setValue(guidance::kDefaultNaturalness);
  naturalness_->setToolTip(tr("Weight of the natural:NAME term added for the first objective "
                              "with a composition band (amp, promoter): keeps designs' letter "
                              "and pair fractions inside the real class's range; 0 = off"));
  auto* guidanceBox = new QGroupBox(tr("Guidance"), this);
  auto* guideForm = new QFormLayout(guidanceBox);
  guideForm->addRow(objectives_);
  guideForm->addRow(objectiveButtons);
  guideForm->addRow(tr("Method"), guidanceMethod_);
  guideForm->addRow(tr("γ"), gamma_);
  guideForm->addRow(tr("Naturalness"), naturalness_);
  guideForm->addRow(tr("Schedule"), schedule_);
  guideForm->addRow(tr("Samples M"), samples_);
  guideForm->addRow(tr("Draw from"), from_);

  name_ = new QLineEdit(this);
  name_->setPlaceholderText(tr("automatic (model-seedSEED)"));
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
  layout->addWidget(buildDesignSection());
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
    updateDesignState();
    emit modelChanged(text);
  });
  updateObjectiveNames();
  updateDesignState();
}

// The Design section: a header button that folds it, then fixed letters, start sequences and
// constraints. Every field is a run-schema row (object name = key, tooltip = help, range).
QWidget* DesignPanel::buildDesignSection() {
  const pipeline::RunParams defaults;
  auto* section = new QGroupBox(this);
  designToggle_ = new QToolButton(section);
  designToggle_->setObjectName(QStringLiteral("designToggle"));
  designToggle_->setCheckable(true);
  designToggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  designToggle_->setAutoRaise(true);
  designToggle_->setToolTip(tr("Templates, fixed motifs, start sequences and constraints"));
  designBody_ = new QWidget(section);

  template_ = textField<QPlainTextEdit>(designBody_, "template");
  template_->setPlaceholderText(tr("letters fixed, N / X designable; one template per line"));
  template_->setTabChangesFocus(true);
  template_->setFixedHeight(72);
  auto* importTemplate = new QPushButton(tr("Import FASTA…"), designBody_);
  importTemplate->setObjectName(QStringLiteral("importTemplate"));
  importTemplate->setToolTip(
      tr("Fill the template from a FASTA file: its first record, or every "
         "record as one template per sequence"));
  fix_ = textField<QLineEdit>(designBody_, "fix");
  fix_->setPlaceholderText(tr("POS=LETTERS, comma-separated (-30=TATAAAAG)"));
  fixedHold_ = combo(designBody_, "fixed_hold", defaults);

  start_ = textField<QPlainTextEdit>(designBody_, "start");
  start_->setPlaceholderText(tr("one sequence per line, or FASTA (>id lines)"));
  start_->setTabChangesFocus(true);
  start_->setFixedHeight(72);
  for (auto* edit : {template_, start_}) {
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit->setWordWrapMode(QTextOption::WrapAnywhere);  // sequences have no spaces to wrap at
  }
  auto* importStart = new QPushButton(tr("Import FASTA…"), designBody_);
  importStart->setObjectName(QStringLiteral("importStart"));
  importStart->setToolTip(
      tr("Start from the records of a FASTA file (sequence i from record i "
         "mod count); their ids are kept"));
  startTime_ = dspin(designBody_, "start_time", defaults, 0.05);
  // The schema's 0..max is a budget; one below it is "none" (no budget, the default).
  maxEdits_ = spin(designBody_, "max_edits", defaults);
  maxEdits_->setMinimum(maxEdits_->minimum() - 1);
  maxEdits_->setSpecialValueText(tr("none"));
  maxEdits_->setValue(maxEdits_->minimum());

  avoid_ = textField<QLineEdit>(designBody_, "avoid");
  avoid_->setPlaceholderText(tr("enzymes or IUPAC sites, comma-separated (EcoRI, BsaI, CCWGG)"));
  enzymes_ = new QToolButton(designBody_);
  enzymes_->setObjectName(QStringLiteral("enzymes"));
  enzymes_->setText(tr("Enzymes"));
  enzymes_->setToolTip(tr("Add a bundled restriction enzyme's site"));
  enzymes_->setPopupMode(QToolButton::InstantPopup);
  auto* enzymeMenu = new QMenu(enzymes_);
  for (const auto& [name, site] : engine::restriction_enzymes()) {
    const QString n = QString::fromStdString(name);
    auto* action = enzymeMenu->addAction(n + QStringLiteral("  (") + QString::fromStdString(site) +
                                         QLatin1Char(')'));
    connect(action, &QAction::triggered, this, [this, n] {
      QStringList items;
      for (const auto& item : avoid_->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!item.trimmed().isEmpty()) items << item.trimmed();
      if (!items.contains(n, Qt::CaseInsensitive)) items << n;
      avoid_->setText(items.join(QStringLiteral(", ")));
    });
  }
  enzymes_->setMenu(enzymeMenu);
  maxRun_ = spin(designBody_, "max_run", defaults);
  maxRun_->setSpecialValueText(tr("any"));
  gcMin_ = dspin(designBody_, "gc_min", defaults, 0.05);
  gcMax_ = dspin(designBody_, "gc_max", defaults, 0.05);
  gcWindow_ = spin(designBody_, "gc_window", defaults);
  gcWindow_->setSpecialValueText(tr("whole sequence"));
  omit_ = textField<QLineEdit>(designBody_, "omit");
  omit_->setPlaceholderText(tr("letters, e.g. C"));
  strength_ = dspin(designBody_, "constraint_strength", defaults, 0.5);

  const auto withButton = [](QWidget* field, QWidget* button) {
    auto* row = new QHBoxLayout;
    row->addWidget(field, 1);
    row->addWidget(button, 0, Qt::AlignTop);
    return row;
  };
  // A multi-line field keeps the form's width; its button goes below it.
  const auto buttonBelow = [](QWidget* field, QWidget* button) {
    auto* column = new QVBoxLayout;
    column->addWidget(field);
    column->addWidget(button, 0, Qt::AlignLeft);
    return column;
  };
  auto* form = new QFormLayout(designBody_);
  form->setContentsMargins(0, 0, 0, 0);
  // The sequence fields span the form's width (labels above them): sequences are long.
  form->addRow(new QLabel(tr("Template"), designBody_));
  form->addRow(buttonBelow(template_, importTemplate));
  form->addRow(tr("Fixed motifs"), fix_);
  form->addRow(tr("Fixed letters"), fixedHold_);
  form->addRow(new QLabel(tr("Start sequences"), designBody_));
  form->addRow(buttonBelow(start_, importStart));
  form->addRow(tr("Start time"), startTime_);
  form->addRow(tr("Max edits"), maxEdits_);
  form->addRow(tr("Avoid sites"), withButton(avoid_, enzymes_));
  form->addRow(tr("Max run"), maxRun_);
  form->addRow(tr("GC min"), gcMin_);
  form->addRow(tr("GC max"), gcMax_);
  form->addRow(tr("GC window"), gcWindow_);
  form->addRow(tr("Omit letters"), omit_);
  form->addRow(tr("Constraint strength"), strength_);

  auto* layout = new QVBoxLayout(section);
  layout->addWidget(designToggle_);
  layout->addWidget(designBody_);

  connect(designToggle_, &QToolButton::toggled, this, [this](bool on) {
    designBody_->setVisible(on);
    designToggle_->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
  });
  connect(importTemplate, &QPushButton::clicked, this, &DesignPanel::importTemplatesDialog);
  connect(importStart, &QPushButton::clicked, this, &DesignPanel::importStartsDialog);
  const auto changed = [this] { updateDesignState(); };
  for (auto* edit : {template_, start_}) connect(edit, &QPlainTextEdit::textChanged, this, changed);
  for (auto* edit : {fix_, avoid_, omit_}) connect(edit, &QLineEdit::textChanged, this, changed);
  for (auto* box : {maxRun_, maxEdits_}) connect(box, &QSpinBox::valueChanged, this, changed);
  for (auto* box : {gcMin_, gcMax_}) connect(box, &QDoubleSpinBox::valueChanged, this, changed);
  setDesignExpanded(false);
  return section;
}

bool DesignPanel::isDesignExpanded() const { return designToggle_->isChecked(); }

void DesignPanel::setDesignExpanded(bool expanded) {
  designToggle_->setChecked(expanded);
  designBody_->setVisible(expanded);
  designToggle_->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
}

// The DNA-only constraints (sites, GC) apply to DNA models, and while the model is unknown.
bool DesignPanel::dnaConstraints() const {
  return alphabet_.isEmpty() || alphabet_ == QLatin1String("dna");
}

// The header says what is active (so a folded section still shows that it shapes the run);
// DNA-only constraints are off for other alphabets; start time and budget need a start sequence.
void DesignPanel::updateDesignState() {
  const bool dna = dnaConstraints();
  const QString dnaOnly = tr(" [DNA models only]");
  for (QWidget* w : std::initializer_list<QWidget*>{avoid_, enzymes_, gcMin_, gcMax_, gcWindow_}) {
    w->setEnabled(dna);
    QString tip = w->toolTip();
    if (tip.endsWith(dnaOnly)) tip.chop(dnaOnly.size());
    w->setToolTip(dna ? tip : tip + dnaOnly);
  }
  const bool starts = !start_->toPlainText().trimmed().isEmpty();
  startTime_->setEnabled(starts);
  maxEdits_->setEnabled(starts);
  const QStringList active = activeDesign();
  designToggle_->setText(active.isEmpty()
                             ? tr("Design (templates, constraints, start)")
                             : tr("Design: %1").arg(active.join(QStringLiteral(", "))));
  designToggle_->setToolTip(
      active.isEmpty() ? tr("Templates, fixed motifs, start sequences and constraints")
                       : tr("Shaping the next run: %1").arg(active.join(QStringLiteral(", "))));
}

// What of the Design section will shape the next run, in words.
QStringList DesignPanel::activeDesign() const {
  const bool dna = dnaConstraints();
  QStringList active;
  if (!template_->toPlainText().trimmed().isEmpty()) active << tr("template");
  if (!fix_->text().trimmed().isEmpty()) active << tr("fixed motifs");
  if (!start_->toPlainText().trimmed().isEmpty()) active << tr("start sequences");
  if (dna && !avoid_->text().trimmed().isEmpty()) active << tr("avoid");
  if (maxRun_->value() > 0) active << tr("max run");
  if (dna && (gcMin_->value() > 0.0 || gcMax_->value() < 1.0)) active << tr("GC");
  if (!omit_->text().trimmed().isEmpty()) active << tr("omit");
  return active;
}

QString DesignPanel::fieldMessage(const QString& message) {
  if (message.startsWith(QLatin1String("length:")))
    return tr("Length") + QStringLiteral(" (length)") + message.mid(6);
  // A flag at the start of the message or after "CONTEXT: " (a wrapped error).
  static const QRegularExpression flag(QStringLiteral("(?:^|: )(--[a-z][a-z-]*)"));
  for (auto it = flag.globalMatch(message); it.hasNext();) {
    const auto match = it.next();
    for (const auto& [option, label] : fieldLabels())
      if (match.captured(1) == option) {
        // The option and what follows it up to the colon ("--template 2") stay in brackets.
        const qsizetype begin = match.capturedStart(1);
        const qsizetype colon = message.indexOf(QLatin1Char(':'), match.capturedEnd(1));
        const qsizetype end = colon < 0 ? message.size() : colon;
        return message.left(begin) + label + QStringLiteral(" (") +
               message.mid(begin, end - begin) + QLatin1Char(')') + message.mid(end);
      }
  }
  return message;
}

void DesignPanel::designOptions(pipeline::RunParams& p) const {
  const auto set = [&p](const char* key, const QString& text, const QString& field) {
    pipeline::run_param(key).set(p, text.toStdString(), field.toStdString());
  };
  const auto number = [](double v) { return QString::number(v, 'g', 17); };
  const auto templates = textRecords(template_->toPlainText());
  for (std::size_t t = 0; t < templates.size(); ++t)
    set("template", templates[t].letters,
        templates.size() == 1 ? tr("Template") : tr("Template %1").arg(t + 1));
  for (const auto& part : fix_->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
    if (!withoutBlanks(part).isEmpty()) set("fix", withoutBlanks(part), tr("Fixed motifs"));
  set("fixed_hold", fixedHold_->currentText(), tr("Fixed letters"));

  const auto starts = textRecords(start_->toPlainText());
  const bool ids = std::all_of(starts.begin(), starts.end(),
                               [](const TextRecord& r) { return !r.id.isEmpty(); });
  for (const auto& record : starts) {
    const QString which = record.id.isEmpty() ? tr("line %1").arg(record.line) : record.id;
    set("start", record.letters, tr("Start sequences (%1)").arg(which));
    if (ids) set("start_ids", record.id, tr("Start sequences"));
  }
  if (!starts.empty()) {
    set("start_time", number(startTime_->value()), tr("Start time"));
    if (maxEdits_->value() >= 0)
      set("max_edits", QString::number(maxEdits_->value()), tr("Max edits"));
  }

  const bool dna = dnaConstraints();
  if (dna)
    for (const auto& part : avoid_->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
      if (!withoutBlanks(part).isEmpty()) set("avoid", withoutBlanks(part), tr("Avoid sites"));
  set("max_run", QString::number(maxRun_->value()), tr("Max run"));
  if (dna) {
    set("gc_min", number(gcMin_->value()), tr("GC min"));
    set("gc_max", number(gcMax_->value()), tr("GC max"));
    set("gc_window", QString::number(gcWindow_->value()), tr("GC window"));
  }
  set("omit", withoutBlanks(omit_->text()).remove(QLatin1Char(',')), tr("Omit letters"));
  set("constraint_strength", number(strength_->value()), tr("Constraint strength"));

  // What the schema's rows cannot see alone (letters of the model's alphabet, the motif syntax,
  // enzyme names, GC min <= max) is checked here, so the dialog comes before any work.
  if (alphabet_.isEmpty() || !p.design.active()) return;
  try {
    const pipeline::Design check(p.design, engine::alphabet_by_name(alphabet_.toStdString()));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fieldMessage(QString::fromStdString(e.what())).toStdString());
  }
}

void DesignPanel::setDesignParams(const pipeline::DesignOptions& d) {
  QStringList templates;
  for (const auto& t : d.templates) templates << QString::fromStdString(t);
  template_->setPlainText(templates.join(QLatin1Char('\n')));
  QStringList fix;
  for (const auto& f : d.fix) fix << QString::fromStdString(f);
  fix_->setText(fix.join(QStringLiteral(", ")));
  fixedHold_->setCurrentText(QString::fromLatin1(engine::kFixedHoldNames.name(d.fixed_hold)));
  QStringList starts;
  const bool ids = d.start_ids.size() == d.starts.size();
  for (std::size_t s = 0; s < d.starts.size(); ++s) {
    if (ids) starts << QLatin1Char('>') + QString::fromStdString(d.start_ids[s]);
    starts << QString::fromStdString(d.starts[s]);
  }
  start_->setPlainText(starts.join(QLatin1Char('\n')));
  startTime_->setValue(d.start_time);
  maxEdits_->setValue(
      d.max_edits == engine::kNoEditBudget
          ? maxEdits_->minimum()
          : static_cast<int>(std::min<std::size_t>(d.max_edits, maxEdits_->maximum())));
  QStringList avoid;
  for (const auto& a : d.constraints.avoid) avoid << QString::fromStdString(a);
  avoid_->setText(avoid.join(QStringLiteral(", ")));
  maxRun_->setValue(static_cast<int>(d.constraints.max_run));
  gcMin_->setValue(d.constraints.gc_min);
  gcMax_->setValue(d.constraints.gc_max);
  gcWindow_->setValue(static_cast<int>(d.constraints.gc_window));
  omit_->setText(QString::fromStdString(d.constraints.omit));
  strength_->setValue(d.constraint_strength);
  if (d.active()) setDesignExpanded(true);
  updateDesignState();
}

QString DesignPanel::importTemplates(const QString& file, bool all) {
  try {
    const auto records = engine::read_fasta(file.toStdString());
    if (records.empty()) return tr("%1: no FASTA records").arg(file);
    QStringList lines;
    for (const auto& r : records) {
      lines << QString::fromStdString(r.sequence);
      if (!all) break;
    }
    template_->setPlainText(lines.join(QLatin1Char('\n')));
    setDesignExpanded(true);
    return {};
  } catch (const std::exception& e) {
    return QString::fromLocal8Bit(e.what());
  }
}

QString DesignPanel::importStarts(const QString& file) {
  try {
    const auto records = engine::read_fasta(file.toStdString());
    if (records.empty()) return tr("%1: no FASTA records").arg(file);
    QStringList lines;
    for (const auto& r : records)
      lines << QLatin1Char('>') + QString::fromStdString(r.id)
            << QString::fromStdString(r.sequence);
    start_->setPlainText(lines.join(QLatin1Char('\n')));
    setDesignExpanded(true);
    return {};
  } catch (const std::exception& e) {
    return QString::fromLocal8Bit(e.what());
  }
}

namespace {
QString chooseFasta(QWidget* parent, const QString& title) {
  const auto stored = userSettings();  // the user's own file, no system-wide fallbacks
  QSettings& settings = *stored;
  const QString dir = settings.value(QStringLiteral("design/fastaDir")).toString();
  const QString file = QFileDialog::getOpenFileName(
      parent, title, dir,
      QObject::tr("FASTA (*.fasta *.fa *.faa *.fna *.fasta.gz *.fa.gz);;All files (*)"));
  if (!file.isEmpty())
    settings.setValue(QStringLiteral("design/fastaDir"), QFileInfo(file).absolutePath());
  return file;
}
}  // namespace

void DesignPanel::importTemplatesDialog() {
  const QString file = chooseFasta(this, tr("Templates from a FASTA file"));
  if (file.isEmpty()) return;
  bool all = false;
  try {
    engine::FastaReader reader(file.toStdString());
    if (reader.next() && reader.next()) {
      QMessageBox ask(QMessageBox::Question, tr("Several records"),
                      tr("%1 holds several records. Use the first as the template of every "
                         "sequence, or each record as one template (sequence i uses record i mod "
                         "count)?")
                          .arg(QFileInfo(file).fileName()),
                      QMessageBox::Cancel, this);
      auto* first = ask.addButton(tr("First record"), QMessageBox::AcceptRole);
      auto* each = ask.addButton(tr("One per sequence"), QMessageBox::AcceptRole);
      ask.exec();
      if (ask.clickedButton() != first && ask.clickedButton() != each) return;
      all = ask.clickedButton() == each;
    }
  } catch (const std::exception&) {  // importTemplates reports it
  }
  const QString error = importTemplates(file, all);
  if (!error.isEmpty()) QMessageBox::warning(this, tr("Cannot import the template"), error);
}

void DesignPanel::importStartsDialog() {
  const QString file = chooseFasta(this, tr("Start sequences from a FASTA file"));
  if (file.isEmpty()) return;
  const QString error = importStarts(file);
  if (!error.isEmpty()) QMessageBox::warning(this, tr("Cannot import the start sequences"), error);
}

QString DesignPanel::lockPositions(const QString& sequence, int first, int last, QChar freeLetter) {
  const int length = static_cast<int>(sequence.size());
  first = std::max(0, first);
  last = std::min(length - 1, last);
  const auto records = textRecords(template_->toPlainText());
  QString merged;
  if (records.size() == 1 && records.front().letters.size() == length)
    merged = records.front().letters;
  else
    merged = QString(length, freeLetter);
  for (int i = first; i <= last; ++i) merged[i] = sequence[i].toUpper();
  template_->setPlainText(merged);
  setDesignExpanded(true);
  return merged;
}

void DesignPanel::browseModel() {
  const QString file = QFileDialog::getOpenFileName(this, tr("Choose a model checkpoint"),
                                                    QString(), tr("Checkpoints (*.ckpt);;All files (*)"));
  if (!file.isEmpty()) setModel(file);
}

// The objective names offered for the model's alphabet (read from the checkpoint's metadata).
void DesignPanel::updateObjectiveNames() {
  objectiveNames_.clear();
  alphabet_.clear();
  try {
    const auto file = models::resolve_model(model_->currentText().trimmed().toStdString());
    const auto alphabet = models::Model::load(file).spec().alphabet;
    alphabet_ = QString::fromStdString(alphabet);
    for (const auto& n : guidance::objective_names(alphabet))
      objectiveNames_ << QString::fromStdString(n);
  } catch (const std::exception&) {
    // Not a model (yet, while typing): no suggestions; starting a run reports the cause.
  }
}

void DesignPanel::setModel(const QString& model) { model_->setCurrentText(model); }

void DesignPanel::refreshModels() {
  const QString current = model_->currentText();
  {
    const QSignalBlocker block(model_);
    model_->clear();
    for (const auto& name : models::bundled_models()) model_->addItem(QString::fromStdString(name));
    model_->setCurrentText(current);
  }
  updateObjectiveNames();
  for (int row = 0; row < objectives_->rowCount(); ++row) {
    auto* name = qobject_cast<QComboBox*>(objectives_->cellWidget(row, 0));
    if (!name) continue;
    const QString objective = name->currentText();
    name->clear();
    name->addItems(objectiveNames_);
    name->setCurrentText(objective);
  }
}

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
  p.sampler.grid = engine::kTimeGridNames.parse(timeGrid_->currentText().toStdString(), "Time grid");
  p.precision = models::kPrecisionNames.parse(precision_->currentText().toStdString(), "Precision");
  p.sampler.temperature = temperature_->value();
  pipeline::run_param("seed").set(p, seed_->text().trimmed().toStdString(), "Seed");
  p.sampler.frames_every = frames_->value();
  p.sampler.batch = static_cast<std::size_t>(batch_->value());
  p.guidance.terms = objectiveTerms();
  for (std::size_t row = 0; row < p.guidance.terms.size(); ++row)
    if (p.guidance.terms[row].objective.empty())
      throw std::invalid_argument("Guidance objective " + std::to_string(row + 1) +
                                  ": empty (choose one or remove the row)");
  guidance::add_naturalness(p.guidance.terms, naturalness_->value());
  p.guidance.gamma = gamma_->value();
  p.guidance.schedule = guidance::parse_gamma_schedule(schedule_->currentText().toStdString(), "Schedule");
  p.guidance.samples = samples_->value();
  p.guidance.from = guidance::parse_guide_from(from_->currentText().toStdString(), "Draw from");
  p.guidance.method = guidance::kGuidanceMethodNames.parse(
      guidanceMethod_->currentText().toStdString(), "Guidance method");
  guidance::check_guidance(p.guidance);
  designOptions(p);
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
  timeGrid_->setCurrentText(QString::fromLatin1(engine::kTimeGridNames.name(p.sampler.grid)));
  precision_->setCurrentText(QString::fromLatin1(models::kPrecisionNames.name(p.precision)));
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
  guidanceMethod_->setCurrentText(
      QString::fromLatin1(guidance::kGuidanceMethodNames.name(p.guidance.method)));
  setDesignParams(p.design);
}

// The form's plain fields under their settings keys (model and objectives are handled apart).
std::vector<std::pair<QString, QWidget*>> DesignPanel::settingsFields() const {
  return {{"n", number_},
          {"length", length_},
          {"steps", steps_},
          {"method", method_},
          {"integrator", integrator_},
          {"time_grid", timeGrid_},
          {"precision", precision_},
          {"temperature", temperature_},
          {"seed", seed_},
          {"frames", frames_},
          {"batch", batch_},
          {"threads", threads_},
          {"gamma", gamma_},
          {"schedule", schedule_},
          {"samples", samples_},
          {"from", from_},
          {"guidance_method", guidanceMethod_},
          {"tags", tags_},
          // Design section
          {"template", template_},
          {"fix", fix_},
          {"fixed_hold", fixedHold_},
          {"start", start_},
          {"start_time", startTime_},
          {"max_edits", maxEdits_},
          {"avoid", avoid_},
          {"max_run", maxRun_},
          {"gc_min", gcMin_},
          {"gc_max", gcMax_},
          {"gc_window", gcWindow_},
          {"omit", omit_},
          {"constraint_strength", strength_}};
}

void DesignPanel::saveSettings(QSettings& s) const {
  s.beginGroup(QStringLiteral("design"));
  s.setValue(QStringLiteral("model"), model());
  for (const auto& [key, widget] : settingsFields()) {
    if (const auto* box = qobject_cast<const QSpinBox*>(widget)) s.setValue(key, box->value());
    if (const auto* box = qobject_cast<const QDoubleSpinBox*>(widget)) s.setValue(key, box->value());
    if (const auto* box = qobject_cast<const QComboBox*>(widget)) s.setValue(key, box->currentIndex());
    if (const auto* edit = qobject_cast<const QLineEdit*>(widget)) s.setValue(key, edit->text());
    if (const auto* edit = qobject_cast<const QPlainTextEdit*>(widget))
      s.setValue(key, edit->toPlainText());
  }
  s.setValue(QStringLiteral("design_expanded"), isDesignExpanded());
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
    if (auto* edit = qobject_cast<QPlainTextEdit*>(widget)) edit->setPlainText(value.toString());
  }
  // Open when it was left open, or when it holds a design (it shapes the next run).
  updateDesignState();
  setDesignExpanded(get("design_expanded").toBool() || !activeDesign().isEmpty());
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
