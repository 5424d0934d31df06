// Trains a model from the studio by running the command line users have (`gsflow train-classifier
// --name`, `gsflow train --name ... --init`) as a child process: one implementation of reading,
// checking and splitting the data, training, early stopping and the model card, the same files
// and messages as in a terminal. Progress lines on stderr become points of the training and
// validation curves; "gsflow: error:" lines become the error shown. The child runs beside the UI
// thread; cancelling sends it SIGTERM (it stops and writes nothing), then SIGKILL after 3 s.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <optional>

class QProcess;

namespace gsflow::ui {

// What to train, as the training dialog collects it.
struct TrainingRequest {
  enum class Kind { Classifier, Generator };
  Kind kind = Kind::Classifier;
  QString name;                  // the model's name (file stem, --model / --guide NAME)
  QString positives, negatives;  // classifier: two FASTA files ...
  QString table;                 // ... or a CSV table with a header row
  QString sequenceColumn = QStringLiteral("sequence"), labelColumn = QStringLiteral("label");
  bool regression = false;                        // CSV: numeric values, a regressor
  QString family;                                 // generator: the family's FASTA
  QString base = QStringLiteral("dna-promoter");  // generator: the model fine-tuning starts from
  int steps = 0;           // 0 = the command's default (from the data's size)
  int threads = 0;         // 0 = the command's default
  int evalSequences = -1;  // generator: the card's eval sequences; < 0 = default

  // The `gsflow` arguments. Throws std::invalid_argument naming the field that is missing.
  QStringList arguments() const;
};

// One progress line: "train NAME: step 20/200 loss 0.4800 val 0.4700 ..." (a generator; val is
// the held-out loss) or "train-classifier NAME: step 10/40 loss 0.69 val AUROC 0.61 ..." (val is
// the selection metric: AUROC, Spearman).
struct TrainingPoint {
  qint64 step = 0, total = 0;
  double loss = 0.0;        // the training batches'
  double validation = 0.0;  // NaN when the line has none ("val -")
  QString metric;           // "loss", "AUROC", "Spearman"
};
std::optional<TrainingPoint> parseTrainingLine(const QString& line);

class TrainingProcess : public QObject {
  Q_OBJECT

 public:
  explicit TrainingProcess(QObject* parent = nullptr);
  ~TrainingProcess() override;  // stops a training in progress (nothing is written) and waits

  // `gsflow` beside the running executable (build/app/, <prefix>/bin/), else the one on PATH;
  // "" when there is none.
  static QString defaultProgram();
  void setProgram(const QString& program) { program_ = program; }
  QString program() const { return program_; }

  // Starts a training; false (and failed() emitted) when the request is incomplete or the
  // program cannot be found; false without a signal while one is running.
  bool start(const TrainingRequest& request);
  // Stops the training in progress: nothing is written; ends with cancelled().
  void cancel();
  bool isRunning() const { return process_ != nullptr; }
  // Everything the command printed so far (stderr and stdout), one entry per line.
  const QStringList& log() const { return log_; }

 signals:
  void line(const QString& text);
  void point(const gsflow::ui::TrainingPoint& point);
  void succeeded(const QString& name);  // the model and its card are written
  void cancelled();
  void failed(const QString& message);  // the command's error (bad input: naming file and line)

 private:
  void readLines(bool errors);
  void ended(int exitCode, bool crashed);

  QString program_;
  QProcess* process_ = nullptr;
  QString name_;
  QByteArray partial_[2];  // an unfinished line of stdout, stderr
  QStringList log_, errors_;
  bool cancelling_ = false;
};

}  // namespace gsflow::ui
