// `gsflow-compute`: every gsflow command, including those that load models (LibTorch). The
// `gsflow` front end runs the quick store commands itself and hands everything else to this
// binary (exec, same process id). Never links Qt.
#include <malloc.h>

#include "bench_classifier.hpp"
#include "bench_generate.hpp"
#include "bench_kernels.hpp"
#include "bench_store.hpp"
#include "bench_toy.hpp"
#include "cli_main.hpp"
#include "data_commands.hpp"
#include "design_eval_commands.hpp"
#include "gsflow/models/blas_kernels.hpp"
#include "gsflow/pipeline/signals.hpp"
#include "model_commands.hpp"
#include "score_command.hpp"
#include "store_commands.hpp"

int main(int argc, char** argv) {
  // Before any thread starts: a signal must never land on a LibTorch/oneDNN thread (signals.hpp).
  gsflow::pipeline::route_signals_to_one_thread();
  // Fresh pages cost ~14 us each on these VMs: keep big buffers in the heap and do not trim it.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);

  auto app = gsflow::app::make_cli(
      [] { return "BLAS for the networks: " + gsflow::models::choose_blas_kernels(); });
  auto* bench =
      app->add_subcommand("bench", "Measure performance against baselines in the same run");
  bench->require_subcommand(1);
  gsflow::app::add_bench_kernels(*bench);
  gsflow::app::add_bench_toy(*bench);
  gsflow::app::add_bench_store(*bench);
  gsflow::app::add_bench_classifier(*bench);
  gsflow::app::add_bench_generate(*bench);
  gsflow::app::add_train_command(*app);
  gsflow::app::add_train_classifier_command(*app);
  gsflow::app::add_generate_command(*app);
  gsflow::app::add_eval_command(*app);
  gsflow::app::add_score_command(*app);
  gsflow::app::add_train_judge_command(*app);
  gsflow::app::add_eval_guidance_command(*app);
  gsflow::app::add_profile_command(*app);
  gsflow::app::add_objectives_command(*app);
  gsflow::app::add_models_command(*app);
  gsflow::app::add_eval_design_command(*app);
  gsflow::app::add_eval_edits_command(*app);
  gsflow::app::add_rerun_command(*app);
  gsflow::app::add_data_commands(*app);
  gsflow::app::add_runs_commands(*app);
  gsflow::app::add_export_command(*app);
  return gsflow::app::run_cli(*app, argc, argv);
}
