#pragma once
// What df-pn (search/df_pn.h) and PNS (search/pns.h) compute alike from a node's
// children, in the negamax form: a node's question is true iff some child's is false, so
//
//   proof(n) = min over children of disproof(c)     disproof(n) = sum over children of proof(c)
//
// (sums saturate below kInfinite), the most-proving child (least disproof, then least
// proof), and, once the node is solved, what the result relied on (docs/SEARCH.md): a
// proof relied on one refuted child, the least dependent one; a refutation relied on
// every child, so it takes the least dependency of all, and the child shown as the best
// defence is the one that took the most work.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "search/proof_leaves.h"
#include "search/report.h"

namespace gs::search {

inline std::uint32_t sum_saturated(std::uint64_t sum) {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(sum, kMaxFinite));
}

struct ProofNumbers {
  std::uint32_t proof = 1;
  std::uint32_t disproof = 1;
  std::size_t most_proving = 0;      // the child of least disproof, then least proof
  std::uint32_t second = kInfinite;  // the least disproof among the other children
};

// The numbers of a node from its `count` (> 0) children, look(i) being the i-th's Look.
template <class LookOf>
ProofNumbers proof_numbers(std::size_t count, LookOf look) {
  ProofNumbers numbers;
  for (std::size_t i = 1; i < count; ++i) {
    const Look& c = look(i);
    const Look& f = look(numbers.most_proving);
    if (c.disproof < f.disproof || (c.disproof == f.disproof && c.proof < f.proof)) numbers.most_proving = i;
  }
  std::uint64_t disproof = 0;
  bool infinite = false;
  for (std::size_t i = 0; i < count; ++i) {
    const Look& c = look(i);
    if (i != numbers.most_proving) numbers.second = std::min(numbers.second, c.disproof);
    infinite = infinite || c.proof == kInfinite;
    disproof += c.proof;
  }
  numbers.proof = look(numbers.most_proving).disproof;
  numbers.disproof = infinite ? kInfinite : sum_saturated(disproof);
  return numbers;
}

struct Resolution {
  int dependency = kIndependent;
  std::size_t decisive = 0;  // the child that decides the node
};

// For a solved node (proven iff `proven`) of `count` (> 0) children: its dependency, and
// the child that decides it.
template <class LookOf>
Resolution resolve(bool proven, std::size_t count, LookOf look) {
  Resolution resolution;
  if (proven) {
    resolution.dependency = -1;
    for (std::size_t i = 0; i < count; ++i) {
      const Look& c = look(i);
      if (c.disproof == 0 && c.dependency > resolution.dependency) {
        resolution.dependency = c.dependency;
        resolution.decisive = i;
      }
    }
    return resolution;
  }
  std::uint32_t most = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const Look& c = look(i);
    resolution.dependency = std::min(resolution.dependency, c.dependency);
    if (i == 0 || c.work > most) {
      most = c.work;
      resolution.decisive = i;
    }
  }
  return resolution;
}

}  // namespace gs::search
