// The training child process and its progress lines (see training_process.hpp).
#include "gsflow/ui/training_process.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace gsflow::ui {

namespace {

void require(const QString& value, const char* field) {
  if (value.trimmed().isEmpty()) throw std::invalid_argument(std::string(field) + ": required");
}

}  // namespace

QStringList TrainingRequest::arguments() const {
  require(name, "Name");
  QStringList a;
  if (kind == Kind::Generator) {
    require(family, "Family FASTA");
    require(base, "Base model");
    a << QStringLiteral("train") << QStringLiteral("--name") << name.trimmed()
      << QStringLiteral("--fasta") << family << QStringLiteral("--init") << base.trimmed();
    if (evalSequences >= 0) a << QStringLiteral("--eval-n") << QString::number(evalSequences);
  } else if (!table.isEmpty()) {
    require(sequenceColumn, "Sequence column");
    require(labelColumn, "Label column");
    a << QStringLiteral("train-classifier") << QStringLiteral("--name") << name.trimmed()
      << QStringLiteral("--table") << table << QStringLiteral("--sequence-column")
      << sequenceColumn.trimmed() << QStringLiteral("--label-column") << labelColumn.trimmed();
    if (regression) a << QStringLiteral("--task") << QStringLiteral("regression");
  } else {
    require(positives, "Positives FASTA");
    require(negatives, "Negatives FASTA");
    a << QStringLiteral("train-classifier") << QStringLiteral("--name") << name.trimmed()
      << QStringLiteral("--positives") << positives << QStringLiteral("--negatives") << negatives;
  }
  if (steps > 0) a << QStringLiteral("--steps") << QString::number(steps);
  if (threads > 0) a << QStringLiteral("--threads") << QString::number(threads);
  return a;
}

std::optional<TrainingPoint> parseTrainingLine(const QString& line) {
  // app/cli/own_classifier.cpp, train_classifier_command.cpp and generator_training.cpp print
  // these; the number after "val" is a loss unless a metric's name precedes it.
  static const QRegularExpression re(QStringLiteral(
      R"(^train(?:-classifier)? \S+: step (\d+)/(\d+) loss (\S+) val (?:(AUROC|Spearman) )?(\S+))"));
  const auto m = re.match(line);
  if (!m.hasMatch()) return std::nullopt;
  TrainingPoint p;
  bool ok = false;
  p.step = m.captured(1).toLongLong();
  p.total = m.captured(2).toLongLong();
  p.loss = m.captured(3).toDouble(&ok);
  if (!ok) p.loss = std::numeric_limits<double>::quiet_NaN();
  p.metric = m.captured(4).isEmpty() ? QStringLiteral("loss") : m.captured(4);
  p.validation = m.captured(5).toDouble(&ok);
  if (!ok) p.validation = std::numeric_limits<double>::quiet_NaN();
  return p;
}

TrainingProcess::TrainingProcess(QObject* parent) : QObject(parent), program_(defaultProgram()) {
  qRegisterMetaType<TrainingPoint>();
}

TrainingProcess::~TrainingProcess() {
  if (!process_) return;
  process_->disconnect(this);
  process_->terminate();
  if (!process_->waitForFinished(3000)) {
    process_->kill();
    process_->waitForFinished(3000);
  }
}

QString TrainingProcess::defaultProgram() {
  const QFileInfo beside(
      QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("gsflow")));
  if (beside.isExecutable()) return beside.absoluteFilePath();
  return QStandardPaths::findExecutable(QStringLiteral("gsflow"));
}

bool TrainingProcess::start(const TrainingRequest& request) {
  if (process_) return false;
  QStringList arguments;
  try {
    arguments = request.arguments();
  } catch (const std::exception& e) {
    emit failed(QString::fromStdString(e.what()));
    return false;
  }
  if (program_.isEmpty()) {
    emit failed(tr("cannot find the gsflow command beside %1 or on PATH; it trains the models")
                    .arg(QCoreApplication::applicationDirPath()));
    return false;
  }
  name_ = request.name.trimmed();
  log_.clear();
  errors_.clear();
  partial_[0].clear();
  partial_[1].clear();
  cancelling_ = false;
  process_ = new QProcess(this);
  process_->setProgram(program_);
  process_->setArguments(arguments);
  connect(process_, &QProcess::readyReadStandardOutput, this, [this] { readLines(false); });
  connect(process_, &QProcess::readyReadStandardError, this, [this] { readLines(true); });
  connect(process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
    ended(code, status == QProcess::CrashExit);
  });
  connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
    if (error == QProcess::FailedToStart) ended(-1, true);
  });
  log_ << QStringLiteral("$ gsflow ") + arguments.join(QLatin1Char(' '));
  emit line(log_.back());
  process_->start();
  return true;
}

void TrainingProcess::cancel() {
  if (!process_ || cancelling_) return;
  cancelling_ = true;
  process_->terminate();
  // A step in progress ends first; a hung one is not waited for (the checkpoint is written by a
  // temporary file and a rename at the very end, so nothing half-written is left).
  QTimer::singleShot(3000, process_, [p = process_] { p->kill(); });
}

void TrainingProcess::readLines(bool errors) {
  if (!process_) return;
  QByteArray& buffer = partial_[errors ? 1 : 0];
  buffer += errors ? process_->readAllStandardError() : process_->readAllStandardOutput();
  qsizetype end;
  while ((end = buffer.indexOf('\n')) >= 0) {
    const QString text = QString::fromUtf8(buffer.left(end)).trimmed();
    buffer.remove(0, end + 1);
    if (text.isEmpty()) continue;
    log_ << text;
    static const QString kError = QStringLiteral("gsflow: error: ");
    if (errors && text.startsWith(kError)) errors_ << text.mid(kError.size());
    emit line(text);
    if (errors)
      if (const auto p = parseTrainingLine(text)) emit point(*p);
  }
}

void TrainingProcess::ended(int exitCode, bool crashed) {
  if (!process_) return;
  QProcess* process = process_;
  readLines(false);
  readLines(true);
  const QString startError =
      process->error() == QProcess::FailedToStart ? process->errorString() : QString();
  process_ = nullptr;
  process->deleteLater();
  if (cancelling_) {
    emit cancelled();
    return;
  }
  if (!startError.isEmpty()) {
    emit failed(tr("cannot start %1: %2").arg(program_, startError));
    return;
  }
  if (!crashed && exitCode == 0) {
    emit succeeded(name_);
    return;
  }
  // The command's own message names the file and line; without one (a crash, a usage error),
  // its last lines.
  QString message = errors_.join(QLatin1Char('\n'));
  if (message.isEmpty()) {
    message = log_.mid(std::max<qsizetype>(1, log_.size() - 6)).join(QLatin1Char('\n'));
    message += crashed ? tr("\n(gsflow stopped unexpectedly)")
                       : tr("\n(gsflow exited with code %1)").arg(exitCode);
  }
  emit failed(message.trimmed());
}

}  // namespace gsflow::ui
