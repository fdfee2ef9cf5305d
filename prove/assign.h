#pragma once
// Which worker runs each job of a pass where the workers keep their search tables from
// job to job (prove/manager.h): a job goes to the worker that ran its node's last job
// (or its parent's), whose tables hold what that job found, as far as that keeps the
// workers' loads even. Loads are counted in budgets, which double with each retry, not
// in jobs: a pass lasts as long as its busiest worker, and two workers with two jobs each,
// one of them a retry of four budgets, would wait on each other for half of it. The jobs
// that do not fit their worker's share go to the least loaded worker, the largest first.
// The assignment depends on the jobs alone, never on timing.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gs::prove {

// budgets[i]: job i's budget; affinity[i]: its preferred worker, or -1. Returns, per
// worker, the jobs it runs, in order.
inline std::vector<std::vector<std::size_t>> assign_jobs(const std::vector<std::uint64_t>& budgets,
                                                         const std::vector<int>& affinity,
                                                         std::size_t workers) {
  std::uint64_t total = 0;
  for (const std::uint64_t budget : budgets) total += budget;
  const std::uint64_t share = (total + workers - 1) / workers;
  std::vector<std::vector<std::size_t>> mine(workers);
  std::vector<std::uint64_t> load(workers, 0);
  std::vector<std::size_t> later;
  for (std::size_t i = 0; i < budgets.size(); ++i) {
    const int w = affinity[i];
    const auto u = static_cast<std::size_t>(w);
    if (w >= 0 && u < workers && load[u] + budgets[i] <= share) {
      mine[u].push_back(i);
      load[u] += budgets[i];
    } else {
      later.push_back(i);
    }
  }
  std::stable_sort(later.begin(), later.end(),
                   [&](std::size_t a, std::size_t b) { return budgets[a] > budgets[b]; });
  for (const std::size_t i : later) {
    const auto least = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    mine[least].push_back(i);
    load[least] += budgets[i];
  }
  return mine;
}

}  // namespace gs::prove
