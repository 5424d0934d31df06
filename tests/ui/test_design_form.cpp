// The studio's design form against the run schema: every numeric field's range and default are
// the schema's (the same ranges `gsflow generate` and a stored run's JSON accept), and every
// choice offers the schema's names.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QtTest>

#include "gsflow/pipeline/run_schema.hpp"
#include "gsflow/ui/design_panel.hpp"

using namespace gsflow;

class DesignFormTest : public QObject {
  Q_OBJECT

 private slots:
  void rangesAndDefaultsAreTheSchemas() {
    ui::DesignPanel panel;
    const pipeline::RunParams defaults;
    int numeric = 0;
    for (const auto& row : pipeline::run_schema()) {
      const QString key = QString::fromStdString(row.key);
      if (auto* box = panel.findChild<QSpinBox*>(key)) {
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
    // n, length, steps, temperature, frames_every, batch, threads, gamma, guide_samples.
    QCOMPARE(numeric, 9);
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
    QCOMPARE(combos, 4);  // method, integrator, gamma_schedule, guide_from
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
