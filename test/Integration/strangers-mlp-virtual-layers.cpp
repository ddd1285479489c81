// A machine-learning user's C++ program: a small multilayer perceptron
// built from a class hierarchy (an abstract Layer with a virtual forward
// pass, Dense and Activation layers deriving from it, held in a
// std::vector of std::unique_ptr<Layer>), all weights in one flat
// std::vector<double> that the layers index into. The mean-squared-error
// loss over a small batch is a lambda capturing the network and the data by
// reference, differentiated with <enzyme/enzyme> as
// enzyme::autodiff<enzyme::Reverse>(loss, enzyme::Duplicated<const double *>
// (w, dw)); a Forward call gives a directional derivative. Expected:
// central finite differences of the loss for every weight, and the
// directional derivative equal to dw . v.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx_enzyme -std=c++17 -O2 %s -S -emit-llvm -o - | lli - | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <enzyme/enzyme>
#include <memory>
#include <vector>

struct Layer {
  virtual ~Layer() = default;
  virtual int outputs() const = 0;
  virtual void forward(const double *w, const double *in, double *out) const = 0;
};

struct Dense : Layer {
  int nin, nout, offset;
  Dense(int i, int o, int off) : nin(i), nout(o), offset(off) {}
  int outputs() const override { return nout; }
  int params() const { return nout * (nin + 1); }
  void forward(const double *w, const double *in, double *out) const override {
    const double *W = w + offset, *b = W + nout * nin;
    for (int r = 0; r < nout; r++) {
      double s = b[r];
      for (int c = 0; c < nin; c++)
        s += W[r * nin + c] * in[c];
      out[r] = s;
    }
  }
};

struct Activation : Layer {
  int n;
  explicit Activation(int n_) : n(n_) {}
  int outputs() const override { return n; }
  void forward(const double *, const double *in, double *out) const override {
    for (int i = 0; i < n; i++)
      out[i] = std::tanh(in[i]);
  }
};

struct Network {
  std::vector<std::unique_ptr<Layer>> layers;
  int nparams = 0;
  int ninputs;
  explicit Network(int nin) : ninputs(nin) {}
  void dense(int nout) {
    int nin = layers.empty() ? ninputs : layers.back()->outputs();
    auto d = std::make_unique<Dense>(nin, nout, nparams);
    nparams += d->params();
    layers.push_back(std::move(d));
  }
  void tanh_layer() {
    layers.push_back(std::make_unique<Activation>(layers.back()->outputs()));
  }
  double predict(const double *w, const double *x) const {
    double a[8], b[8];
    for (int i = 0; i < ninputs; i++)
      a[i] = x[i];
    for (const auto &l : layers) {
      l->forward(w, a, b);
      for (int i = 0; i < l->outputs(); i++)
        a[i] = b[i];
    }
    return a[0];
  }
};

int main() {
  Network net(2);
  net.dense(4);
  net.tanh_layer();
  net.dense(3);
  net.tanh_layer();
  net.dense(1);
  std::vector<double> w(net.nparams);
  for (int i = 0; i < net.nparams; i++)
    w[i] = 0.4 * std::sin(1.7 * i + 0.3);
  const int rows = 5;
  std::vector<double> X, Y;
  for (int r = 0; r < rows; r++) {
    X.push_back(0.3 * r - 0.5);
    X.push_back(std::cos(0.9 * r));
    Y.push_back(std::sin(r + 0.25));
  }

  auto loss = [&](const double *wp) {
    double s = 0;
    for (int r = 0; r < rows; r++) {
      double e = net.predict(wp, &X[2 * r]) - Y[r];
      s += e * e;
    }
    return s / rows;
  };

  std::vector<double> dw(net.nparams, 0.0);
  enzyme::autodiff<enzyme::Reverse>(
      loss, enzyme::Duplicated<const double *>(w.data(), dw.data()));

  const double h = 1e-6;
  for (int i = 0; i < net.nparams; i++) {
    std::vector<double> a = w, b = w;
    a[i] += h;
    b[i] -= h;
    double fd = (loss(a.data()) - loss(b.data())) / (2 * h);
    char name[32];
    snprintf(name, sizeof name, "dL/dw[%d]", i);
    check_close(name, dw[i], fd, 1e-6);
  }

  std::vector<double> v(net.nparams);
  double want = 0;
  for (int i = 0; i < net.nparams; i++) {
    v[i] = std::cos(0.3 * i);
    want += v[i] * dw[i];
  }
  double dir = enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
      loss, enzyme::Duplicated<const double *>(w.data(), v.data())));
  check_close("directional derivative", dir, want, 1e-12);
  return check_report();
}
