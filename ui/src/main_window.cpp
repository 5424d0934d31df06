// gsflow-studio main window (placeholder until the studio issue): a status page, not a fake UI.
#include "gsflow/ui/main_window.hpp"

#include <QLabel>
#include <QStatusBar>

#include "gsflow/engine/kernels.hpp"

namespace gsflow::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle(tr("gsflow-studio"));
  auto* label = new QLabel(
      tr("<h2>gsflow-studio</h2>"
         "<p>Design, generation and trajectory views are not built yet.</p>"
         "<p>Use the <tt>gsflow</tt> command line meanwhile (<tt>gsflow --help</tt>).</p>"),
      this);
  label->setAlignment(Qt::AlignCenter);
  label->setMargin(24);
  setCentralWidget(label);
  statusBar()->showMessage(
      tr("Kernels: %1").arg(QString::fromLatin1(engine::isa_name(engine::detect_best_isa()))));
  resize(640, 400);
}

}  // namespace gsflow::ui
