// The bundled generators (models/pretrained), loaded once per test process, and one set of
// kernels: what the tests of guidance and design through generate() share.
#pragma once

#include <map>
#include <string>

#include "gsflow/engine/kernels.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/models/model.hpp"

namespace gsflow::testing {

inline const models::Model& bundled(const std::string& name) {
  static std::map<std::string, models::Model> cache;
  auto it = cache.find(name);
  if (it == cache.end())
    it = cache.emplace(name, models::Model::load(models::resolve_model(name))).first;
  return it->second;
}

inline const engine::Kernels& kernels() {
  static const engine::Kernels k{engine::KernelOptions{}};
  return k;
}

}  // namespace gsflow::testing
