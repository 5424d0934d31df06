// Runs generations off the UI thread: a worker object lives in a QThread owned by the controller,
// runs pipeline::run_and_store() (the same stored run as `gsflow generate`) and sends progress,
// trajectory frames, finished sequences and the outcome back as copied values through queued
// signals. Destroying the controller cancels the run and joins the thread.
#pragma once

#include <QObject>
#include <QString>
#include <QThread>
#include <atomic>
#include <vector>

#include "gsflow/pipeline/stored_run.hpp"
#include "gsflow/storage/records.hpp"

namespace gsflow::ui {

class RunController : public QObject {
  Q_OBJECT

 public:
  // Frames cross to the UI thread live only for the first sequences of a run (all of them are
  // stored): enough to watch, and a 1,000-sequence run does not queue a gigabyte of copies.
  static constexpr std::size_t kLiveSequences = 64;

  explicit RunController(QObject* parent = nullptr);
  ~RunController() override;  // cancels a run in progress and waits for the thread

  bool isRunning() const { return running_; }

  // Starts a run; false (and nothing started) when one is already running.
  bool start(const gsflow::pipeline::StoredRunOptions& options);
  // Stops the run in progress now: completed batches stay stored, the run ends `interrupted`.
  void cancel();

 signals:
  void started(const gsflow::pipeline::StoredRunOutcome& run);
  void progress(qulonglong done, qulonglong total);
  void frame(const gsflow::storage::FrameRecord& frame);  // sequences < kLiveSequences
  // A batch of finished sequences (stored already) and the step scores of its steps.
  void batchDone(const std::vector<gsflow::storage::SequenceRecord>& sequences,
                 const std::vector<gsflow::storage::StepScore>& stepScores);
  void notice(const QString& text);
  // The run ended (completed or interrupted); outcome.sequences holds everything made.
  void finished(const gsflow::pipeline::StoredRunOutcome& outcome);
  // The run could not start or stopped with an error (the store marks a begun run failed).
  void failed(const QString& message);

  // internal: hands the options to the worker thread
  void runRequested(const gsflow::pipeline::StoredRunOptions& options);

 private:
  QThread thread_;
  std::atomic<bool> cancel_{false};
  bool running_ = false;
};

}  // namespace gsflow::ui
