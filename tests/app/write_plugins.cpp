// Writes misbehaving TorchScript guidance classifiers with their JSON descriptors for the
// reliability tests (tests/app/reliability_cli.sh): usage: gsflow-test-plugins DIR.
//   nan.json   scores every sequence NaN
//   hang.json  never returns
#include <torch/script.h>

#include <fstream>
#include <iostream>
#include <string>

namespace {

void write(const std::string& dir, const std::string& name, const std::string& body) {
  torch::jit::Module m("Plugin");
  m.define(body);
  m.save(dir + "/" + name + ".pt");
  std::ofstream(dir + "/" + name + ".json")
      << R"({"format": "gsflow-classifier-1", "name": ")" << name << R"(", "torchscript": ")"
      << name << R"(.pt", "alphabet": "dna", "min_length": 1, "max_length": 4096, )"
      << R"("output": "score", "positive": "test", "differentiable": true})" << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: gsflow-test-plugins DIR\n";
    return 1;
  }
  write(argv[1], "nan", R"(
def forward(self, x):
    return (x[:, :, 1].sum(1) * 0.0 - 1.0).sqrt()
)");
  write(argv[1], "hang", R"(
def forward(self, x):
    i = 0
    while i >= 0:
        i = i + 1
    return x[:, :, 1].sum(1)
)");
  return 0;
}
