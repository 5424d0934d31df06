// The studio's design form against the run schema: every numeric field's range and default are
// the schema's (the same ranges `gsflow generate` and a stored run's JSON accept), every choice
// offers the schema's names, and every field's tooltip is its row's help. The Design section's
// fields become RunParams::design through the rows (round-tripping through the stored JSON and
// back into a form), and bad input is refused with a message naming the field.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "gsflow/engine/design/repair.hpp"
#include "gsflow/pipeline/run_params.hpp"
#include "gsflow/pipeline/run_schema.hpp"
#include "gsflow/ui/design_panel.hpp"

using namespace gsflow;

namespace {

// The message options() refuses the form with ("" when it is accepted).
QString refusal(const ui::DesignPanel& panel) {
  try {
    panel.options();
  } catch (const std::invalid_argument& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

std::vector<std::string> strings(std::initializer_list<const char*> items) {
  return {items.begin(), items.end()};
}

// The Design section's fields: run-schema keys (start_ids travels with the start records).
const char* const kDesignKeys[] = {
    "template",   "fix",       "fixed_hold",         "avoid", "max_run",
    "gc_min",     "gc_max",    "gc_window",          "omit",  "start",
    "start_time", "max_edits", "constraint_strength"};

}  // namespace

class DesignFormTest : public QObject {
  Q_OBJECT

 private slots:
  void rangesAndDefaultsAreTheSchemas() {
    ui::DesignPanel panel;
    const pipeline::RunParams defaults;
    int numeric = 0;
    for (const auto& row : pipeline::run_schema()) {
      const QString key = QString::fromStdString(row.key);
      if (auto* box = panel.findChild<QSpinBox*>(key); box && row.key == "max_edits") {
        // One below the schema's 0 is "none": no edit budget, the default.
        QCOMPARE(box->minimum(), static_cast<int>(row.min) - 1);
        QCOMPARE(box->maximum(), static_cast<int>(row.max));
        QCOMPARE(box->specialValueText(), QStringLiteral("none"));
        QCOMPARE(box->value(), box->minimum());
        QCOMPARE(row.get(defaults), std::to_string(engine::kNoEditBudget));
        ++numeric;
      } else if (box) {
        QCOMPARE(box->minimum(), static_cast<int>(row.min));
        QCOMPARE(box->maximum(), static_cast<int>(row.max));
        QCOMPARE(QString::number(box->value()), QString::fromStdString(row.get(defaults)));
        ++numeric;
      } else if (auto* dbox = panel.findChild<QDoubleSpinBox*>(key)) {
        QCOMPARE(dbox->minimum(), row.min);
        QCOMPARE(dbox->maximum(), row.max);
        QCOMPARE(dbox->value(), QString::fromStdString(row.get(defaults)).toDouble());
        ++numeric;
      }
    }
    // n, length, steps, temperature, frames_every, batch, threads, gamma, guide_samples; design:
    // max_run, gc_min, gc_max, gc_window, constraint_strength, start_time, max_edits.
    QCOMPARE(numeric, 16);
  }

  void choicesAreTheSchemas() {
    ui::DesignPanel panel;
    int combos = 0;
    for (const auto& row : pipeline::run_schema()) {
      auto* box = panel.findChild<QComboBox*>(QString::fromStdString(row.key));
      if (box == nullptr) continue;
      QStringList items;
      for (int i = 0; i < box->count(); ++i)
        if (!box->itemText(i).isEmpty() && (row.key != "method" || i > 0))
          items << box->itemText(i);
      QStringList expected;
      for (const auto& c : row.choices) expected << QString::fromStdString(c);
      QCOMPARE(items, expected);
      ++combos;
    }
    QCOMPARE(combos, 8);  // method, integrator, time_grid, precision, gamma_schedule,
                          // guidance_method, guide_from, fixed_hold
  }

  void designFieldsTakeTheirHelpFromTheSchema() {
    ui::DesignPanel panel;
    for (const char* key : kDesignKeys) {
      auto* field = panel.findChild<QWidget*>(QString::fromLatin1(key));
      QVERIFY2(field != nullptr, key);
      QCOMPARE(field->toolTip(), QString::fromStdString(pipeline::run_param(key).help));
    }
    QVERIFY(pipeline::find_run_param("start_ids") != nullptr);
    // Folded by default, and the header says nothing is active; it opens when asked.
    QVERIFY(!panel.isDesignExpanded());
    panel.setDesignExpanded(true);
    QVERIFY(panel.isDesignExpanded());
  }

  void designFieldsBecomeRunParams() {
    ui::DesignPanel panel;
    panel.setModel(QStringLiteral("dna-promoter"));
    QCOMPARE(panel.modelAlphabet(), QStringLiteral("dna"));
    const QString tmpl = QStringLiteral("NNNNNNNNNNTATAAAAGNNNNNNNNNNNNNNNNNNNNNN");  // 40 letters
    const QString s1 = QStringLiteral("ACGTACGTACGTACGTACGTACGTACGTACGTACGTACGT");
    const QString s2 = QStringLiteral("TTTTACGTACGTACGTACGTACGTACGTACGTACGTAAAA");
    panel.templateEdit()->setPlainText(tmpl.toLower());
    panel.fixEdit()->setText(QStringLiteral("-5=GGA, 3=cc"));
    panel.startEdit()->setPlainText(QStringLiteral(">first promoter\n") + s1.left(20) +
                                    QStringLiteral("\n") + s1.mid(20) +
                                    QStringLiteral("\n>second\n") + s2);
    panel.findChild<QDoubleSpinBox*>(QStringLiteral("start_time"))->setValue(0.7);
    panel.maxEditsBox()->setValue(12);
    panel.avoidEdit()->setText(QStringLiteral("EcoRI, bsai,CCWGG"));
    panel.maxRunBox()->setValue(6);
    panel.gcMinBox()->setValue(0.3);
    panel.gcMaxBox()->setValue(0.65);
    panel.gcWindowBox()->setValue(20);
    panel.omitEdit()->setText(QStringLiteral("c"));
    panel.findChild<QDoubleSpinBox*>(QStringLiteral("constraint_strength"))->setValue(2.5);
    panel.findChild<QComboBox*>(QStringLiteral("fixed_hold"))
        ->setCurrentText(QStringLiteral("path"));

    const auto p = panel.options().params;
    const auto& d = p.design;
    QCOMPARE(d.templates, std::vector<std::string>{tmpl.toStdString()});
    QCOMPARE(d.fix, strings({"-5=GGA", "3=cc"}));
    QVERIFY(d.fixed_hold == engine::FixedHold::path);
    QCOMPARE(d.starts, (std::vector<std::string>{s1.toStdString(), s2.toStdString()}));
    QCOMPARE(d.start_ids, strings({"first", "second"}));
    QCOMPARE(d.start_time, 0.7);
    QCOMPARE(d.max_edits, std::size_t{12});
    QCOMPARE(d.constraints.avoid, strings({"EcoRI", "bsai", "CCWGG"}));
    QCOMPARE(d.constraints.max_run, std::size_t{6});
    QCOMPARE(d.constraints.gc_min, 0.3);
    QCOMPARE(d.constraints.gc_max, 0.65);
    QCOMPARE(d.constraints.gc_window, std::size_t{20});
    QCOMPARE(d.constraints.omit, std::string("C"));
    QCOMPARE(d.constraint_strength, 2.5);
    QVERIFY(panel.findChild<QWidget*>(QStringLiteral("designToggle"))
                ->property("text")
                .toString()
                .contains(QStringLiteral("template")));

    // The stored JSON reads back to the same parameters, and a form filled from them (reopen,
    // rerun) gives them again.
    const std::string json = pipeline::run_params_json(p);
    const auto back = pipeline::parse_run_params(json);
    QCOMPARE(pipeline::run_params_json(back), json);
    QCOMPARE(back.design.templates, d.templates);
    QCOMPARE(back.design.start_ids, d.start_ids);
    QCOMPARE(back.design.constraints.avoid, d.constraints.avoid);
    ui::DesignPanel again;
    again.setParams(back, QStringLiteral("dna-promoter"));
    QVERIFY(again.isDesignExpanded());
    QCOMPARE(pipeline::run_params_json(again.options().params), json);

    // Without start sequences, start time and the budget are off and not sent.
    panel.startEdit()->clear();
    QVERIFY(!panel.maxEditsBox()->isEnabled());
    QVERIFY(panel.options().params.design.starts.empty());
    QCOMPARE(panel.options().params.design.max_edits, engine::kNoEditBudget);
  }

  void badDesignInputNamesTheField() {
    ui::DesignPanel panel;
    panel.setModel(QStringLiteral("dna-promoter"));
    // A letter outside the alphabet (checked against the model's alphabet) and a character that
    // is no letter at all (the schema row's check) both name the template field.
    panel.templateEdit()->setPlainText(QStringLiteral("NNNNACGZNN"));
    QString error = refusal(panel);
    QVERIFY2(error.startsWith(QStringLiteral("Template (--template): 'Z' at position 8")),
             qPrintable(error));
    panel.templateEdit()->setPlainText(QStringLiteral("NNNN\nACG1NN"));
    error = refusal(panel);
    QVERIFY2(error.startsWith(QStringLiteral("Template 2: ")), qPrintable(error));
    panel.templateEdit()->clear();

    panel.fixEdit()->setText(QStringLiteral("12TATA"));
    QVERIFY2(refusal(panel).startsWith(QStringLiteral("Fixed motifs (--fix")),
             qPrintable(refusal(panel)));
    panel.fixEdit()->clear();
    panel.avoidEdit()->setText(QStringLiteral("EcoRI, NoSuchI"));
    QVERIFY2(refusal(panel).startsWith(QStringLiteral("Avoid sites (--avoid")),
             qPrintable(refusal(panel)));
    panel.avoidEdit()->clear();
    panel.gcMinBox()->setValue(0.8);
    panel.gcMaxBox()->setValue(0.2);
    QVERIFY2(refusal(panel).startsWith(QStringLiteral("GC min")), qPrintable(refusal(panel)));
    panel.gcMinBox()->setValue(0.0);
    panel.gcMaxBox()->setValue(1.0);
    panel.omitEdit()->setText(QStringLiteral("ACGT"));
    QVERIFY2(refusal(panel).startsWith(QStringLiteral("Omit letters (--omit")),
             qPrintable(refusal(panel)));
    panel.omitEdit()->clear();
    panel.startEdit()->setPlainText(QStringLiteral(">a\nACGT\n>b\nAC-T"));
    QVERIFY2(refusal(panel).startsWith(QStringLiteral("Start sequences (b): ")),
             qPrintable(refusal(panel)));
    panel.startEdit()->clear();
    QCOMPARE(refusal(panel), QString());

    // Messages of a run name the form's field beside the option.
    QCOMPARE(
        ui::DesignPanel::fieldMessage(QStringLiteral("--template 2: 100 letters is not possible")),
        QStringLiteral("Template (--template 2): 100 letters is not possible"));
    QCOMPARE(ui::DesignPanel::fieldMessage(QStringLiteral("--start-time: must be in [0, 1)")),
             QStringLiteral("Start time (--start-time): must be in [0, 1)"));
    QCOMPARE(ui::DesignPanel::fieldMessage(QStringLiteral("length: 30 disagrees")),
             QStringLiteral("Length (length): 30 disagrees"));
    QCOMPARE(ui::DesignPanel::fieldMessage(QStringLiteral("model.ckpt: not a checkpoint")),
             QStringLiteral("model.ckpt: not a checkpoint"));
  }

  void peptideModelsTurnDnaConstraintsOff() {
    ui::DesignPanel panel;
    panel.setModel(QStringLiteral("peptide"));
    QCOMPARE(panel.modelAlphabet(), QStringLiteral("protein"));
    for (QWidget* w : std::initializer_list<QWidget*>{panel.avoidEdit(), panel.gcMinBox(),
                                                      panel.gcMaxBox(), panel.gcWindowBox()})
      QVERIFY(!w->isEnabled());
    QVERIFY(panel.maxRunBox()->isEnabled() && panel.omitEdit()->isEnabled());
    // A site left in the field from a DNA model does not go into a peptide run.
    panel.avoidEdit()->setText(QStringLiteral("EcoRI"));
    panel.omitEdit()->setText(QStringLiteral("C"));
    const auto p = panel.options().params;
    QVERIFY(p.design.constraints.avoid.empty());
    QCOMPARE(p.design.constraints.omit, std::string("C"));
    panel.setModel(QStringLiteral("dna-promoter"));
    QVERIFY(panel.avoidEdit()->isEnabled());
  }

  void templatesAndStartsImportFromFasta() {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("design.fa"));
    {
      QFile out(file);
      QVERIFY(out.open(QIODevice::WriteOnly));
      out.write(">t1 first\nNNNNTATA\nAAAGNNNN\n>t2\nGGGGNNNNNNNNCCCC\n");
    }
    ui::DesignPanel panel;
    QCOMPARE(panel.importTemplates(file, false), QString());
    QCOMPARE(panel.templateEdit()->toPlainText(), QStringLiteral("NNNNTATAAAAGNNNN"));
    QCOMPARE(panel.importTemplates(file, true), QString());
    QCOMPARE(panel.options().params.design.templates,
             strings({"NNNNTATAAAAGNNNN", "GGGGNNNNNNNNCCCC"}));
    panel.templateEdit()->clear();
    QCOMPARE(panel.importStarts(file), QString());
    QVERIFY(panel.isDesignExpanded());
    // N is a letter of no start sequence: the import keeps what the file says, the form refuses.
    QVERIFY(refusal(panel).startsWith(QStringLiteral("Start sequences (--start t1)")));
    const auto missing = panel.importStarts(dir.filePath(QStringLiteral("none.fa")));
    QVERIFY2(missing.contains(QStringLiteral("none.fa")), qPrintable(missing));
  }

  void lockingPositionsWritesTheTemplate() {
    ui::DesignPanel panel;
    const QString seq = QStringLiteral("ACGTACGTAC");
    QCOMPARE(panel.lockPositions(seq, 2, 4, QLatin1Char('N')), QStringLiteral("NNGTANNNNN"));
    // A second range merges into the template of the same length.
    QCOMPARE(panel.lockPositions(QStringLiteral("TTTTTTTTTT"), 8, 20, QLatin1Char('N')),
             QStringLiteral("NNGTANNNTT"));
    QCOMPARE(panel.templateEdit()->toPlainText(), QStringLiteral("NNGTANNNTT"));
    // Another length starts a new template; peptides use X.
    QCOMPARE(panel.lockPositions(QStringLiteral("MKLV"), 0, 1, QLatin1Char('X')),
             QStringLiteral("MKXX"));
  }

  void seedOutsideTheSchemaIsRefused() {
    ui::DesignPanel panel;
    auto* seed = panel.findChild<QLineEdit*>(QStringLiteral("seed"));
    QVERIFY(seed != nullptr);
    seed->setText(QStringLiteral("-1"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, panel.options());
    seed->setText(QStringLiteral("18446744073709551615"));
    QCOMPARE(panel.options().params.sampler.seed, 18446744073709551615ull);
  }
};

QTEST_MAIN(DesignFormTest)
#include "test_design_form.moc"
