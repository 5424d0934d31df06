// The main window's exports: sequences as FASTA (the command line's headers) or CSV, and plots as
// PNG or SVG, with their file dialogs (see main_window.hpp).
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <filesystem>
#include <fstream>

#include "gsflow/pipeline/run_params.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/storage/run_export.hpp"
#include "gsflow/ui/compare_view.hpp"
#include "gsflow/ui/main_window.hpp"
#include "gsflow/ui/plots/comparison_charts.hpp"
#include "gsflow/ui/plots/heatmap_view.hpp"
#include "gsflow/ui/plots/sequence_logo.hpp"
#include "gsflow/ui/results_view.hpp"
#include "gsflow/ui/trajectory_view.hpp"
#include "gsflow/ui/user_settings.hpp"

namespace gsflow::ui {

namespace {

bool isFasta(const QString& suffix) {
  return QStringList{"fa", "fasta", "fna", "faa", "fas"}.contains(suffix.toLower());
}

}  // namespace

std::string MainWindow::fastaHeader(const storage::SequenceRecord& sequence) const {
  return storage::fasta_header(current_.name.toStdString(), current_.model.toStdString(),
                               current_.method.toStdString(), current_.seed, current_.steps,
                               sequence, current_.madeWith);
}

QString MainWindow::exportSequences(const QString& file) {
  return exportSequences(file, results_->shownSequences());
}

QString MainWindow::exportSequences(const QString& file,
                                    const std::vector<storage::SequenceRecord>& sequences) {
  QString error;
  const QString suffix = QFileInfo(file).suffix();
  try {
    if (sequences.empty()) throw std::runtime_error("there are no sequences to export");
    std::ofstream out(file.toStdString());
    if (!out) throw std::runtime_error(file.toStdString() + ": cannot create the file");
    if (isFasta(suffix)) {
      engine::FastaWriter writer(out, {60});
      for (const auto& s : sequences) writer.write(fastaHeader(s), s.text);
    } else if (suffix.compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0) {
      storage::write_csv(out, current_.name.toStdString(), sequences);
    } else {
      out.close();
      std::filesystem::remove(file.toStdString());
      throw std::runtime_error(file.toStdString() +
                               ": unknown file type (use .fasta, .fa, .faa, .fna or .csv)");
    }
    out.flush();
    if (!out) throw std::runtime_error(file.toStdString() + ": write failed");
  } catch (const std::exception& e) {
    error = QString::fromLocal8Bit(e.what());
    showError(tr("Cannot export the sequences"), error);
    return error;
  }
  statusBar()->showMessage(tr("Wrote %1 sequences to %2").arg(sequences.size()).arg(file), 10000);
  return {};
}

QString MainWindow::exportPlot(PlotWidget* plot, const QString& file) {
  const QString error = plot ? plot->savePlot(file) : tr("there is no plot in this view");
  if (!error.isEmpty())
    showError(tr("Cannot export the plot"), error);
  else
    statusBar()->showMessage(tr("Wrote %1").arg(file), 10000);
  return error;
}

PlotWidget* MainWindow::currentPlot() const {
  QWidget* tab = tabs_->currentWidget();
  if (tab == results_) return results_->logo();
  if (tab == compare_) return compare_->histogram();
  return trajectory_->heatmap();
}

void MainWindow::exportSequencesDialog(const std::vector<storage::SequenceRecord>& sequences) {
  const auto settings = userSettings();
  const QString dir = settings->value(QStringLiteral("export/dir")).toString();
  const QString base = current_.name.isEmpty() ? QStringLiteral("sequences") : current_.name;
  QString selected;
  const QString file = QFileDialog::getSaveFileName(
      this, tr("Export sequences"), QDir(dir).filePath(base + QStringLiteral(".fasta")),
      tr("FASTA (*.fasta *.fa *.faa *.fna);;CSV (*.csv)"), &selected);
  if (file.isEmpty()) return;
  settings->setValue(QStringLiteral("export/dir"), QFileInfo(file).absolutePath());
  exportSequences(file, sequences);
}

void MainWindow::exportPlotDialog(PlotWidget* plot) {
  if (!plot) return;
  const auto settings = userSettings();
  const QString dir = settings->value(QStringLiteral("export/dir")).toString();
  const QString file = QFileDialog::getSaveFileName(
      this, tr("Export plot"), QDir(dir).filePath(plot->plotName() + QStringLiteral(".png")),
      tr("PNG image (*.png);;SVG drawing (*.svg)"));
  if (file.isEmpty()) return;
  settings->setValue(QStringLiteral("export/dir"), QFileInfo(file).absolutePath());
  exportPlot(plot, file);
}

}  // namespace gsflow::ui
