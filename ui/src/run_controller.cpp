// The run controller and its worker (see run_controller.hpp).
#include "gsflow/ui/run_controller.hpp"

#include <exception>

namespace gsflow::ui {

namespace {

// Lives in the controller's thread; every signal it emits crosses to the UI thread queued.
class RunWorker : public QObject {
  Q_OBJECT

 public:
  RunWorker(RunController* controller, const std::atomic<bool>* cancel)
      : controller_(controller), cancel_(cancel) {}

 public slots:
  void run(const gsflow::pipeline::StoredRunOptions& options) {
    pipeline::StoredRunHooks hooks;
    hooks.cancel = cancel_;
    hooks.started = [this](const pipeline::StoredRunOutcome& run) {
      emit controller_->started(run);
    };
    // Progress at most every 1 % or final: the UI thread repaints on each.
    std::size_t last = 0;
    hooks.progress = [this, &last](std::size_t done, std::size_t total) {
      if (done == total || done == 0 || (done - last) * 100 >= total) {
        last = done;
        emit controller_->progress(done, total);
      }
    };
    hooks.frame = [this](const storage::FrameRecord& f) {
      if (f.sequence < RunController::kLiveSequences) emit controller_->frame(f);
    };
    hooks.batch = [this](const storage::Batch& b) {
      emit controller_->batchDone(b.sequences, b.step_scores);
    };
    hooks.notice = [this](const std::string& text) {
      emit controller_->notice(QString::fromStdString(text));
    };
    try {
      emit controller_->finished(pipeline::run_and_store(options, hooks));
    } catch (const std::exception& e) {
      emit controller_->failed(QString::fromStdString(e.what()));
    } catch (...) {
      emit controller_->failed(QStringLiteral("unknown error"));
    }
  }

 private:
  RunController* controller_;
  const std::atomic<bool>* cancel_;
};

}  // namespace

RunController::RunController(QObject* parent) : QObject(parent) {
  qRegisterMetaType<pipeline::StoredRunOptions>();
  qRegisterMetaType<pipeline::StoredRunOutcome>();
  qRegisterMetaType<storage::FrameRecord>();
  qRegisterMetaType<std::vector<storage::SequenceRecord>>();
  qRegisterMetaType<std::vector<storage::StepScore>>();
  auto* worker = new RunWorker(this, &cancel_);
  worker->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, worker, &QObject::deleteLater);
  connect(this, &RunController::runRequested, worker, &RunWorker::run, Qt::QueuedConnection);
  // The controller's own bookkeeping runs first (connected before anyone else's slots).
  connect(this, &RunController::finished, this, [this] { running_ = false; });
  connect(this, &RunController::failed, this, [this] { running_ = false; });
  thread_.setObjectName(QStringLiteral("gsflow-run"));
  thread_.start();
}

RunController::~RunController() {
  cancel_.store(true);
  thread_.quit();
  thread_.wait();
}

bool RunController::start(const pipeline::StoredRunOptions& options) {
  if (running_) return false;
  running_ = true;
  cancel_.store(false);
  emit runRequested(options);
  return true;
}

void RunController::cancel() {
  if (running_) cancel_.store(true);
}

}  // namespace gsflow::ui

#include "run_controller.moc"
