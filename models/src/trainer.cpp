// The one training loop (see src/trainer.hpp): warm-up + cosine AdamW, clipping, EMA, validation,
// progress, checkpoints and resume for every task.
#include "trainer.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace gsflow::models {

namespace {

std::string save_optimizer(torch::optim::Optimizer& optimizer) {
  torch::serialize::OutputArchive archive;
  optimizer.save(archive);
  std::ostringstream out;
  archive.save_to(out);
  return out.str();
}

void load_optimizer(torch::optim::Optimizer& optimizer, const std::string& state) {
  std::istringstream in(state);
  torch::serialize::InputArchive archive;
  archive.load_from(in);
  optimizer.load(archive);
}

void ema_update(torch::nn::Module& ema, const torch::nn::Module& net, double decay) {
  torch::NoGradGuard guard;
  const auto src = net.named_parameters();
  for (auto& p : ema.named_parameters()) p.value().mul_(decay).add_(src[p.key()], 1.0 - decay);
}

}  // namespace

double learning_rate(const TrainerOptions& o, std::int64_t step) {
  if (step < o.warmup) return o.lr * static_cast<double>(step + 1) / static_cast<double>(o.warmup);
  const double span = static_cast<double>(std::max<std::int64_t>(1, o.steps - o.warmup));
  const double progress = std::min(1.0, static_cast<double>(step - o.warmup) / span);
  const double cosine = 0.5 * (1.0 + std::cos(M_PI * progress));
  return o.lr * (o.min_lr_ratio + (1.0 - o.min_lr_ratio) * cosine);
}

Trainer::Trainer(const TrainerOptions& options)
    : options_(options), start_(std::chrono::steady_clock::now()) {
  at::set_num_threads(options.threads);
}

double Trainer::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Trainer::run(TrainingTask& task, TrainerResult& result, const TrainProgressSink& progress,
                  std::int64_t report_every, const std::atomic<bool>* cancel) const {
  const TrainerOptions& o = options_;
  torch::nn::Module& net = task.network();
  torch::optim::AdamW optimizer(net.parameters(),
                                torch::optim::AdamWOptions(o.lr).weight_decay(o.weight_decay));
  if (const std::string state = task.optimizer_state(); !state.empty())
    load_optimizer(optimizer, state);
  const auto checkpoint = [&] {
    if (!o.checkpoint_file.empty()) task.save_checkpoint(save_optimizer(optimizer));
  };

  TrainProgress p;
  p.total = o.steps;
  const std::int64_t first = task.steps_taken();
  std::int64_t step = first, last_validated = -1;
  const bool validating = task.has_validation();
  const auto validate = [&] {
    task.validate(step, p);
    last_validated = step;
  };
  if (validating && task.validate_first() && step < o.steps) validate();

  double loss_sum = 0.0;
  std::int64_t loss_count = 0;
  while (step < o.steps) {
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      result.cancelled = true;
      break;
    }
    if (o.max_minutes > 0.0 && seconds() > 60.0 * o.max_minutes) {
      result.over_time = true;
      break;
    }
    const double lr = learning_rate(o, step);
    for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);
    optimizer.zero_grad();
    const torch::Tensor loss = task.loss(step);
    loss.backward();
    if (o.clip > 0.0) torch::nn::utils::clip_grad_norm_(net.parameters(), o.clip);
    optimizer.step();
    // The decay grows as (1 + step) / (10 + step) up to options.ema, so that the average does not
    // hold on to the initial weights.
    if (torch::nn::Module* ema = task.ema())
      ema_update(*ema, net, std::min(o.ema, (1.0 + step) / (10.0 + step)));
    loss_sum += loss.item<double>();
    ++loss_count;
    ++step;
    ++result.steps_done;
    task.step_taken(step);
    const bool last = step == o.steps;
    bool report = report_every > 0 && step % report_every == 0;
    if (validating && ((o.validate_every > 0 && step % o.validate_every == 0) || last)) {
      validate();
      report = true;
    }
    if (o.checkpoint_every > 0 && step % o.checkpoint_every == 0 && !last) checkpoint();
    if ((report || last) && progress) {
      p.step = step;
      p.loss = loss_sum / static_cast<double>(std::max<std::int64_t>(1, loss_count));
      p.lr = lr;
      p.seconds = seconds();
      progress(p);
      loss_sum = 0.0;
      loss_count = 0;
    }
  }
  if (validating && task.validate_when_stopped() && step > first && last_validated != step)
    validate();
  task.finish(seconds());
  checkpoint();
  result.seconds = seconds();
}

}  // namespace gsflow::models
