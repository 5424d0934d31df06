// gsflow-studio: the desktop app's entry point; all widgets live in the ui layer.
// --db FILE picks the run store (default: the same as `gsflow`); --reopen RUN shows a stored run;
// --tab NAME opens a tab; --screenshot FILE renders the main window (offscreen works), saves it as
// PNG and exits (exit code 2 when the run cannot be reopened or the file cannot be written).
#include <QApplication>
#include <QCommandLineParser>
#include <QTabWidget>
#include <QTimer>
#include <cstdio>

#include <unistd.h>

#include "gsflow/ui/main_window.hpp"
#include "gsflow/ui/user_settings.hpp"
#include "gsflow/version.hpp"
#include "gsflow/pipeline/openmp_env.hpp"
#include "gsflow/pipeline/signals.hpp"

int main(int argc, char** argv) {
  // Before any thread starts: a signal must never land on the run's compute thread
  // (signals.hpp). SIGINT/SIGTERM/SIGHUP close the window, which cancels the run and keeps its
  // finished batches.
  gsflow::pipeline::route_signals_to_one_thread();
  gsflow::pipeline::set_signal_handler([](int) {
    QMetaObject::invokeMethod(
        qApp, [] { QApplication::closeAllWindows(); QApplication::quit(); }, Qt::QueuedConnection);
  });
  // libgomp (LibTorch) has already read its wait policy: start again with the passive default
  // (openmp_env.hpp). If that fails, carry on with the default.
  if (gsflow::pipeline::default_passive_openmp()) execv("/proc/self/exe", argv);
  QApplication app(argc, argv);
  QApplication::setApplicationName("gsflow-studio");
  QApplication::setOrganizationName("gsflow");
  QApplication::setApplicationVersion(gsflow::kVersion);
  // Settings are the user's own: no system-wide fallback, never a folder users share.
  gsflow::ui::useUserSettings();

  QCommandLineParser parser;
  parser.setApplicationDescription(
      "gsflow-studio: interactive design of DNA and peptide sequences");
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption screenshot("screenshot",
                                      "Save the main window as a PNG to <file> and exit.", "file");
  parser.addOption(screenshot);
  const QCommandLineOption db("db", "Run store <file> (default: $GSFLOW_DB or the user's store).",
                              "file");
  parser.addOption(db);
  const QCommandLineOption reopen("reopen", "Show the stored run <run> (name or id).", "run");
  parser.addOption(reopen);
  const QCommandLineOption tab(
      "tab", "Open tab <name>: trajectory, results, compare, history or models.", "name");
  parser.addOption(tab);
  parser.process(app);

  gsflow::ui::MainWindow window(parser.value(db));
  window.show();
  bool reopened = true;
  if (parser.isSet(reopen)) reopened = window.reopenRun(parser.value(reopen));
  if (parser.isSet(tab)) {
    const QStringList tabs = {"trajectory", "results", "compare", "history", "models"};
    const int index = tabs.indexOf(parser.value(tab).toLower());
    if (index < 0) {
      std::fprintf(stderr, "gsflow-studio: --tab %s: expected one of %s\n",
                   qPrintable(parser.value(tab)), qPrintable(tabs.join(", ")));
      return 1;
    }
    window.tabs()->setCurrentIndex(index);
  }
  if (parser.isSet(screenshot)) {
    if (!reopened) {
      std::fprintf(stderr, "gsflow-studio: cannot reopen run %s\n", qPrintable(parser.value(reopen)));
      return 2;
    }
    const QString path = parser.value(screenshot);
    QTimer::singleShot(0, &window, [&window, path] {
      if (!window.grab().save(path, "PNG")) {
        std::fprintf(stderr, "gsflow-studio: cannot write screenshot %s\n", qPrintable(path));
        QApplication::exit(2);
        return;
      }
      QApplication::exit(0);
    });
  }
  return QApplication::exec();
}
