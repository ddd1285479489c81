// A small neural network written with classes and std::vector (issue 8 items
// 2 and 6): a 2-layer perceptron (3 inputs, 5 tanh hidden units, 2 linear
// outputs) with a mean-squared-error loss over a batch. The gradient of the
// loss w.r.t. all weights and biases, (a) with the network object passed
// enzyme_dup and a zero-initialised shadow network of the same shape (its
// std::vector members are shadowed by the shadow's vectors), and (b) with
// flat weights unpacked into a network built inside the differentiated
// function (std::vector allocations there); reverse and forward mode,
// checked against central finite differences.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <cstddef>
#include <vector>

extern "C" int enzyme_dup, enzyme_const, enzyme_out;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

class Dense {
public:
  Dense(int in, int out) : in_(in), out_(out), W(in * out), b(out) {}
  int in() const { return in_; }
  int out() const { return out_; }
  std::vector<double> forward(const std::vector<double> &x, bool act) const {
    std::vector<double> y(out_);
    for (int o = 0; o < out_; o++) {
      double s = b[o];
      for (int i = 0; i < in_; i++)
        s += W[o * in_ + i] * x[i];
      y[o] = act ? std::tanh(s) : s;
    }
    return y;
  }
  int in_, out_;
  std::vector<double> W, b;
};

class MLP {
public:
  MLP(int nin, int nhid, int nout) : l1(nin, nhid), l2(nhid, nout) {}
  std::vector<double> operator()(const std::vector<double> &x) const {
    return l2.forward(l1.forward(x, true), false);
  }
  std::size_t size() const { return l1.W.size() + l1.b.size() + l2.W.size() + l2.b.size(); }
  double &param(std::size_t k) {
    for (std::vector<double> *v : {&l1.W, &l1.b, &l2.W, &l2.b}) {
      if (k < v->size())
        return (*v)[k];
      k -= v->size();
    }
    return l2.b[0];
  }
  Dense l1, l2;
};

struct Batch {
  std::vector<std::vector<double>> X, Y;
};

double mse(const MLP &net, const Batch &data) {
  double s = 0;
  std::size_t m = 0;
  for (std::size_t n = 0; n < data.X.size(); n++) {
    std::vector<double> y = net(data.X[n]);
    for (std::size_t j = 0; j < y.size(); j++, m++) {
      double r = y[j] - data.Y[n][j];
      s += r * r;
    }
  }
  return s / m;
}

// flat parameters -> a network built here
double mse_flat(const double *w, const Batch &data) {
  MLP net(3, 5, 2);
  for (std::size_t k = 0; k < net.size(); k++)
    net.param(k) = w[k];
  return mse(net, data);
}

int main() {
  char what[128];
  MLP net(3, 5, 2);
  for (std::size_t k = 0; k < net.size(); k++)
    net.param(k) = 0.5 * std::sin(1.7 * k + 0.3);
  Batch data;
  for (int n = 0; n < 6; n++) {
    data.X.push_back({0.3 * n - 0.8, std::cos(n * 1.0), 0.1 * n * n - 0.5});
    data.Y.push_back({std::sin(0.5 * n), 0.2 * n - 0.4});
  }
  const std::size_t P = net.size(); // 3*5 + 5 + 5*2 + 2 = 32
  check_close("parameter count", P, 32, 0);

  /* (a) network object enzyme_dup with a shadow network */
  MLP dnet(3, 5, 2); // zero weights
  __enzyme_autodiff((void *)mse, enzyme_dup, &net, &dnet, enzyme_const, &data);
  std::vector<double> fd(P);
  double dir = 0;
  MLP tnet(3, 5, 2);
  for (std::size_t k = 0; k < P; k++) {
    double w0 = net.param(k);
    fd[k] = CENTRAL_DIFF((net.param(k) = t_, mse(net, data)), w0, 1e-6);
    net.param(k) = w0;
    snprintf(what, sizeof what, "MLP object reverse dL/dw[%zu]", k);
    check_close(what, dnet.param(k), fd[k], 1e-7);
    tnet.param(k) = std::cos(0.9 * k);
    dir += tnet.param(k) * fd[k];
  }
  check_close("MLP object forward direction",
              __enzyme_fwddiff((void *)mse, enzyme_dup, &net, &tnet, enzyme_const, &data),
              dir, 1e-7);

  /* (b) flat weights, network built inside */
  std::vector<double> w(P), dw(P, 0.0), tw(P);
  for (std::size_t k = 0; k < P; k++) {
    w[k] = net.param(k);
    tw[k] = tnet.param(k);
  }
  check_close("flat primal", mse_flat(w.data(), data), mse(net, data), 1e-15);
  __enzyme_autodiff((void *)mse_flat, enzyme_dup, w.data(), dw.data(), enzyme_const, &data);
  for (std::size_t k = 0; k < P; k++) {
    snprintf(what, sizeof what, "MLP flat reverse dL/dw[%zu]", k);
    check_close(what, dw[k], fd[k], 1e-7);
  }
  check_close("MLP flat forward direction",
              __enzyme_fwddiff((void *)mse_flat, enzyme_dup, w.data(), tw.data(),
                               enzyme_const, &data),
              dir, 1e-7);
  return check_report();
}
