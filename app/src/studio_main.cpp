// gsflow-studio: the desktop app's entry point; all widgets live in the ui layer.
// --db FILE picks the run store (default: the same as `gsflow`); --screenshot FILE renders the
// main window (offscreen works), saves it as PNG and exits.
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>

#include "gsflow/ui/main_window.hpp"
#include "gsflow/version.hpp"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("gsflow-studio");
  QApplication::setOrganizationName("gsflow");
  QApplication::setApplicationVersion(gsflow::kVersion);

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
  parser.process(app);

  gsflow::ui::MainWindow window(parser.value(db));
  window.show();
  if (parser.isSet(screenshot)) {
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
