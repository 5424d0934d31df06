// `gsflow runs list|show|delete|tag` and `gsflow merge`: browsing and managing the run store.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <map>

#include "gsflow/pipeline/design.hpp"
#include "gsflow/pipeline/run_params.hpp"
#include "run_records.hpp"
#include "store_commands.hpp"
#include "validators.hpp"

namespace gsflow::app {

namespace {

using nlohmann::json;

std::string join_tags(const std::vector<std::string>& tags) {
  std::string s;
  for (const auto& t : tags) s += (s.empty() ? "" : ",") + t;
  return s;
}

struct ListCli {
  std::string db;
  storage::RunFilter filter;
  bool json = false;
};

void run_list(ListCli cli) {
  const auto store = open_store(cli.db, false);
  // Streamed row by row: a store of 10,000 runs lists in a few tens of milliseconds.
  std::string out;
  std::size_t count = 0;
  if (cli.json) {
    out = "[";
    store.for_each_run(cli.filter, [&](const storage::RunInfo& r) {
      out += (count++ ? ",\n" : "\n") + run_json(r).dump();
    });
    std::cout << out << (count ? "\n]\n" : "]\n");
    return;
  }
  std::size_t w = 4;
  store.for_each_run(cli.filter, [&](const storage::RunInfo& r) {
    ++count;
    w = std::max(w, r.name.size());
  });
  if (count == 0) {
    std::cout << "no runs"
              << (cli.filter.text.empty() && cli.filter.tag.empty() && cli.filter.model.empty() &&
                          !cli.filter.status && cli.filter.since.empty()
                      ? ""
                      : " match")
              << " in " << store.file() << "\n";
    return;
  }
  out.reserve(count * (w + 100));
  out += fmt::format("{:>6}  {:<{}}  {:<11}  {:<20}  {:<6}  {:>9}  {:<20}  {}\n", "ID", "NAME", w,
                     "STATUS", "MODEL", "METHOD", "SEQUENCES", "CREATED", "TAGS");
  store.for_each_run(cli.filter, [&](const storage::RunInfo& r) {
    out += fmt::format("{:>6}  {:<{}}  {:<11}  {:<20}  {:<6}  {:>9}  {:<20}  {}\n", r.id, r.name,
                       w, storage::status_name(r.status), r.model.name, r.method,
                       fmt::format("{}/{}", r.completed, r.requested),
                       r.created_at.substr(0, 19), join_tags(r.tags));
  });
  std::cout << out;
}

void run_show(const std::string& db, const std::string& key, bool as_json) {
  const auto store = open_store(db, false);
  const auto r = store.find_run(key);
  const auto sequences = store.sequences(r.id);
  // Score summary per objective.
  std::map<std::string, std::vector<double>> scores;
  for (const auto& s : sequences)
    for (const auto& [k, v] : s.scores) scores[k].push_back(v);
  json summary = json::object();
  for (auto& [k, v] : scores) {
    std::sort(v.begin(), v.end());
    double mean = 0;
    for (const double x : v) mean += x / static_cast<double>(v.size());
    summary[k] = {{"mean", mean}, {"min", v.front()}, {"median", v[v.size() / 2]},
                  {"max", v.back()}};
  }
  json params = json::parse(r.params_json, nullptr, false);
  if (as_json) {
    auto j = run_json(r);
    j["params"] = params;
    j["scores"] = summary;
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::string out = fmt::format("run {} (id {}, uid {})\n", r.name, r.id, r.uid);
  out += fmt::format("  status     {}{}\n", storage::status_name(r.status), r.error.empty() ? "" : " (" + r.error + ")");
  out += fmt::format("  created    {}   finished {}\n", r.created_at,
                     r.finished_at.empty() ? "-" : r.finished_at);
  out += fmt::format("  model      {} ({}, {} {}x{}), hash {}\n             {}\n", r.model.name,
                     r.method, r.model.alphabet.empty() ? "K" : r.model.alphabet, r.model.length,
                     r.model.k, r.model.hash, r.model.file);
  out += fmt::format("  seed       {}\n", r.seed);
  out += fmt::format("  sequences  {} of {}, {} trajectory frames\n", r.completed, r.requested,
                     r.frames);
  out += fmt::format("  time       {:.2f} s (network {:.2f} s)\n", r.seconds_total,
                     r.seconds_network);
  if (r.shard.count > 1)
    out += fmt::format("  shard      {}/{} of '{}' ({} sequences)\n", r.shard.index,
                       r.shard.count, r.shard.group_name, r.shard.group_requested);
  out += fmt::format("  kernels    {}\n", join_tags(r.kernels));
  out += fmt::format("  version    gsflow {}\n", r.version);
  out += fmt::format("  tags       {}\n", r.tags.empty() ? "-" : join_tags(r.tags));
  if (!r.notes.empty()) out += fmt::format("  notes      {}\n", r.notes);
  try {  // guidance, fixed letters, constraints, start sequences, when the run had any
    const auto run_params = pipeline::parse_run_params(r.params_json);
    const std::string guided = pipeline::guidance_summary(run_params.guidance);
    if (!guided.empty()) out += fmt::format("  guidance   {}\n", guided);
    const std::string design = pipeline::design_summary(run_params.design);
    if (!design.empty()) out += fmt::format("  design     {}\n", design);
  } catch (const std::invalid_argument&) {  // an unreadable record: the raw parameters below
  }
  std::size_t width = 0;  // names aligned, never run into the figures
  for (const auto& [k, v] : summary.items()) width = std::max(width, k.size());
  for (const auto& [k, v] : summary.items())
    out += fmt::format("  score {:<{}}  mean {:.4g}  min {:.4g}  median {:.4g}  max {:.4g}\n", k,
                       width, v["mean"].get<double>(), v["min"].get<double>(),
                       v["median"].get<double>(), v["max"].get<double>());
  out += "  parameters " + (params.is_discarded() ? r.params_json : params.dump()) + "\n";
  std::cout << out;
}

}  // namespace

void add_runs_commands(CLI::App& app) {
  auto* runs = app.add_subcommand("runs", "Browse and manage the stored runs");
  runs->require_subcommand(1);

  auto list = std::make_shared<ListCli>();
  auto* l = runs->add_subcommand("list", "List runs, newest first");
  add_db_option(*l, list->db);
  l->add_option("--search", list->filter.text, "Only runs whose name or notes contain this");
  l->add_option("--tag", list->filter.tag, "Only runs with this tag");
  l->add_option("--model", list->filter.model, "Only runs of this model (name)");
  l->add_option_function<std::string>(
       "--status",
       [list](const std::string& s) { list->filter.status = storage::kRunStatusNames.parse(s, "--status"); },
       "Only runs with this status (" + storage::kRunStatusNames.expected() + ")")
      ->check(CLI::IsMember(storage::kRunStatusNames.names()));
  l->add_option("--since", list->filter.since, "Only runs created at or after (e.g. 2026-12-01)")
      ->check(kIsoDate);
  l->add_option("--limit", list->filter.limit, "At most this many (0 = all)")
      ->check(kUnsigned64)
      ->capture_default_str();
  l->add_flag("--json", list->json, "JSON array on stdout");
  l->callback([list] { run_list(*list); });

  struct ShowCli {
    std::string db, run;
    bool json = false;
  };
  auto show = std::make_shared<ShowCli>();
  auto* s = runs->add_subcommand("show", "Show one run: parameters, model, kernels, scores");
  add_db_option(*s, show->db);
  s->add_option("run", show->run, "Run name or id")->required();
  s->add_flag("--json", show->json, "JSON on stdout");
  s->callback([show] { run_show(show->db, show->run, show->json); });

  struct DeleteCli {
    std::string db;
    std::vector<std::string> runs;
  };
  auto del = std::make_shared<DeleteCli>();
  auto* d = runs->add_subcommand("delete", "Delete runs with their sequences and trajectories");
  add_db_option(*d, del->db);
  d->add_option("runs", del->runs, "Run names or ids")->required();
  d->callback([del] {
    auto store = open_store(del->db, true);
    // Resolve all first: an unknown name deletes nothing.
    std::vector<storage::RunInfo> found;
    for (const auto& key : del->runs) found.push_back(store.find_run(key));
    for (const auto& r : found) {
      store.delete_run(r.id);
      std::cerr << fmt::format("deleted run {} (id {}, {} sequences)\n", r.name, r.id,
                               r.completed);
    }
  });

  struct TagCli {
    std::string db, run, notes;
    std::vector<std::string> tags, remove;
    bool notes_given = false;
  };
  auto tag = std::make_shared<TagCli>();
  auto* t = runs->add_subcommand("tag", "Add or remove tags (and set notes) of a run");
  add_db_option(*t, tag->db);
  t->add_option("run", tag->run, "Run name or id")->required();
  t->add_option("tags", tag->tags, "Tags to add");
  t->add_option("--remove", tag->remove, "Tags to remove (repeatable)");
  auto* notes = t->add_option("--notes", tag->notes, "Replace the run's notes");
  t->callback([tag, notes] {
    auto store = open_store(tag->db, true);
    const auto r = store.find_run(tag->run);
    store.add_tags(r.id, tag->tags);
    store.remove_tags(r.id, tag->remove);
    if (notes->count()) store.set_notes(r.id, tag->notes);
    std::cerr << fmt::format("run {}: tags {}\n", r.name, join_tags(store.run(r.id).tags));
  });

  struct MergeCli {
    std::vector<std::string> inputs;
    std::string into;
  };
  auto merge = std::make_shared<MergeCli>();
  auto* m = app.add_subcommand(
      "merge", "Merge run stores (e.g. the shards of a batch from several machines) into one");
  m->add_option("inputs", merge->inputs, "Run stores to read")->required();
  m->add_option("--into", merge->into, "Run store to merge into (created if missing)")
      ->required();
  m->callback([merge] {
    // Every input must read as a run store before the destination is created or changed: a bad
    // input must not leave an empty destination behind, nor be blamed on it.
    for (const auto& input : merge->inputs) storage::RunStore(input, {.read_only = true});
    storage::RunStore into(merge->into);
    for (const auto& input : merge->inputs) {
      const auto report = into.merge_from(input);
      std::cerr << fmt::format(
          "merge {}: {} runs copied, {} shards joined, {} already present, {} brought up to date\n",
          input, report.runs_added, report.shards_joined, report.skipped, report.refreshed);
    }
    for (const auto& r : into.list_runs())
      if (r.shard.count == 1 && !r.shard.group_key.empty())
        std::cerr << fmt::format("merged run {}: {} of {} sequences, {}\n", r.name, r.completed,
                                 r.requested, storage::status_name(r.status));
  });
}

}  // namespace gsflow::app
