// `gsflow generate` and `gsflow rerun`'s run: the shared stored run plus the terminal's part.
#include "generation_run.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "global_options.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/storage/run_export.hpp"
#include "interrupt.hpp"
#include "output_file.hpp"
#include "progress.hpp"

namespace gsflow::app {

RunOutcome execute_run(RunOptions options, const InterruptGuard& interrupt) {
  options.params.consistent = global_options().consistent;
  refuse_store_as_output(options.out, options.db, "--out");
  std::unique_ptr<Progress> progress;
  pipeline::StoredRunHooks hooks;
  hooks.started = [&](const RunOutcome& run) {
    progress =
        std::make_unique<Progress>(fmt::format("generate {}", run.run_name), options.progress);
  };
  hooks.progress = [&](std::size_t done, std::size_t total) {
    if (progress) progress->update(done, total);
  };
  hooks.cancel = interrupt.cancel_now();
  hooks.stop = [&] { return interrupt.stop_requested(); };
  hooks.notice = [](const std::string& text) { std::cerr << "gsflow: " << text << "\n"; };
  RunOutcome outcome;
  try {
    outcome = pipeline::run_and_store(options, hooks);
  } catch (...) {
    interrupt.compute_finished();
    if (progress) progress->finish();
    throw;
  }
  interrupt.compute_finished();
  if (progress) progress->finish();

  if (!options.out.empty()) {
    OutputFile file(options.out);
    engine::FastaWriter writer(file.stream(), {options.width});
    const std::string& method = outcome.method;  // the model's (the params hold the request)
    for (const auto& s : outcome.sequences)
      writer.write(storage::fasta_header(outcome.run_name, outcome.model_name, method,
                                         options.params.sampler.seed, outcome.steps,
                                         s, pipeline::run_summary(options.params)),
                   s.text);
    file.commit();
  }
  return outcome;
}

}  // namespace gsflow::app
