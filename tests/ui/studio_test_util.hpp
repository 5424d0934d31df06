// What the studio's end-to-end tests share: a main window on a store, the design form set up for
// a small unguided run, and waiting for a run to end.
#pragma once

#include <QCoreApplication>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QString>
#include <memory>

#include "gsflow/ui/design_panel.hpp"
#include "gsflow/ui/main_window.hpp"

namespace gsflow::ui::testing {

// Keeps the test's settings in `dir` (never the user's), names the application `app`, and returns
// the screenshot folder ($GSFLOW_SCREENSHOT_DIR, else ./screenshots), created; "" if it cannot be.
inline QString isolateStudio(const QTemporaryDir& dir, const QString& app) {
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.filePath("settings"));
  QCoreApplication::setOrganizationName(QStringLiteral("gsflow-tests"));
  QCoreApplication::setApplicationName(app);
  const QString shots = qEnvironmentVariable("GSFLOW_SCREENSHOT_DIR",
                                             QDir::current().filePath(QStringLiteral("screenshots")));
  return QDir().mkpath(shots) ? shots : QString();
}

// A shown main window on the store `db`, at the size the screenshots use.
inline std::unique_ptr<MainWindow> openWindow(const QString& db) {
  auto w = std::make_unique<MainWindow>(db);
  w->resize(1400, 900);
  w->show();
  return w;
}

// A small unguided dna-promoter run set up through the form's widgets, one batch, design fields
// cleared.
inline void designUnguided(MainWindow& w, int n, int steps, int frames, const QString& seed) {
  auto* d = w.designPanel();
  d->setModel(QStringLiteral("dna-promoter"));
  d->numberBox()->setValue(n);
  d->stepsBox()->setValue(steps);
  d->batchBox()->setValue(n);
  d->framesBox()->setValue(frames);
  d->seedEdit()->setText(seed);
  d->clearObjectives();
  d->gammaBox()->setValue(0.0);
  d->setRunName(QString());
  d->templateEdit()->clear();
  d->fixEdit()->clear();
  d->startEdit()->clear();
  d->avoidEdit()->clear();
  d->maxRunBox()->setValue(0);
  d->omitEdit()->clear();
}

// The status the run ended with ("completed", "interrupted", "failed"), or "(timed out)".
inline QString waitForEnd(MainWindow& w, int seconds) {
  QSignalSpy ended(&w, &MainWindow::runEnded);
  if (!ended.wait(seconds * 1000)) return QStringLiteral("(timed out)");
  return ended.front().front().toString();
}

}  // namespace gsflow::ui::testing
