// gsflow-studio's main window. For now it shows what the app will do and which kernels this machine
// runs; the design, trajectory and results views arrive with the studio issue.
#pragma once

#include <QMainWindow>

namespace gsflow::ui {

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
};

}  // namespace gsflow::ui
