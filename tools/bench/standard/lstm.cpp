// LSTM (ADBench/GradBench "lstm"), on ADBench's inputs: an l-layer LSTM with
// diagonal weights (hidden size b = 14) run over a sequence of c characters;
// the loss is minus the mean log-probability the model's prediction (a
// log-softmax with ADBench's log(sum exp + 2) normaliser) gives each next
// character. Gradient w.r.t. the main parameters (per layer 4 weights and 4
// biases per hidden unit) and the extra ones (input weight, output weight
// and output bias). The initial state is an input, copied before use.
// Hand-written: back-propagation through time, every step's gates stored.
// Sizes: lstm_l2_c1024 / lstm_l4_c1024 / lstm_l2_c4096.
#include "common.h"

template <class T> static T sigmoid(T x) { return 1 / (1 + exp(-x)); }

// log(2 + sum_i exp(x_i)), as ADBench defines it.
template <class T> static T logSumExp2(const T *x, int n) {
  T s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i]);
  return log(s + 2);
}

// One layer, one step: w and bias hold the forget, input, output and change
// gates' b values each; hidden and cell are updated in place.
template <class T>
static void lstmModel(int b, const T *w, const T *bias, T *hidden, T *cell,
                      const T *input) {
  for (int i = 0; i < b; i++) {
    T f = sigmoid<T>(input[i] * w[i] + bias[i]);
    T ig = sigmoid<T>(hidden[i] * w[b + i] + bias[b + i]);
    T o = sigmoid<T>(input[i] * w[2 * b + i] + bias[2 * b + i]);
    T ch = tanh(hidden[i] * w[3 * b + i] + bias[3 * b + i]);
    cell[i] = cell[i] * f + ig * ch;
    hidden[i] = o * tanh(cell[i]);
  }
}

template <class T>
static void lstmPredict(int l, int b, const T *mainp, const T *extra, T *state,
                        const double *x, T *out) {
  for (int i = 0; i < b; i++)
    out[i] = x[i] * extra[i];
  const T *in = out;
  for (int L = 0; L < l; L++) {
    lstmModel(b, &mainp[8 * b * L], &mainp[8 * b * L + 4 * b],
              &state[2 * b * L], &state[2 * b * L + b], in);
    in = &state[2 * b * L];
  }
  for (int i = 0; i < b; i++)
    out[i] = in[i] * extra[b + i] + extra[2 * b + i];
}

template <class T>
void lstmObjective(int l, int c, int b, const T *mainp, const T *extra,
                   const double *state0, const double *seq, T *loss) {
  std::vector<T> state(state0, state0 + 2 * l * b), ypred(b);
  T total = 0;
  int count = 0;
  for (int t = 0; t < c - 1; t++) {
    lstmPredict(l, b, mainp, extra, state.data(), &seq[t * b], ypred.data());
    T lse = logSumExp2(ypred.data(), b);
    const double *ygold = &seq[(t + 1) * b];
    for (int i = 0; i < b; i++)
      total += ygold[i] * (ypred[i] - lse);
    count += b;
  }
  *loss = -total / count;
}

// Back-propagation through time. g: main parameters' gradient, then the
// extra parameters'.
static void handGradient(int l, int c, int b, const double *mainp,
                         const double *extra, const double *state0,
                         const double *seq, double *g) {
  int steps = c - 1, np = 8 * b * l;
  double *gm = g, *ge = g + np;
  std::fill(g, g + np + 3 * b, 0.0);
  // Per step and layer: input x, previous hidden h and cell cp, gates f, ig,
  // o, ch and the new cell cn (b values each).
  enum { X, H, CP, F, IG, O, CH, CN, NRec };
  std::vector<double> rec((size_t)steps * l * NRec * b);
  auto at = [&](int t, int L, int k) {
    return &rec[(((size_t)t * l + L) * NRec + k) * b];
  };
  std::vector<double> state(state0, state0 + 2 * l * b), x0(b), ypred(b);
  std::vector<double> gy((size_t)steps * b); // d loss / d ypred per step
  double count = (double)steps * b;
  for (int t = 0; t < steps; t++) {
    const double *xin = &seq[t * b];
    for (int i = 0; i < b; i++)
      x0[i] = xin[i] * extra[i];
    const double *in = x0.data();
    for (int L = 0; L < l; L++) {
      const double *w = &mainp[8 * b * L], *bi = w + 4 * b;
      double *h = &state[2 * b * L], *cell = h + b;
      std::copy(in, in + b, at(t, L, X));
      std::copy(h, h + b, at(t, L, H));
      std::copy(cell, cell + b, at(t, L, CP));
      for (int i = 0; i < b; i++) {
        double f = sigmoid(in[i] * w[i] + bi[i]);
        double ig = sigmoid(h[i] * w[b + i] + bi[b + i]);
        double o = sigmoid(in[i] * w[2 * b + i] + bi[2 * b + i]);
        double ch = tanh(h[i] * w[3 * b + i] + bi[3 * b + i]);
        at(t, L, F)[i] = f;
        at(t, L, IG)[i] = ig;
        at(t, L, O)[i] = o;
        at(t, L, CH)[i] = ch;
        cell[i] = cell[i] * f + ig * ch;
        at(t, L, CN)[i] = cell[i];
        h[i] = o * tanh(cell[i]);
      }
      in = h;
    }
    double s = 2, sg = 0;
    for (int i = 0; i < b; i++) {
      ypred[i] = in[i] * extra[b + i] + extra[2 * b + i];
      s += exp(ypred[i]);
    }
    const double *ygold = &seq[(t + 1) * b];
    for (int i = 0; i < b; i++)
      sg += ygold[i];
    // loss = -(1/count) sum_i ygold_i (ypred_i - lse).
    for (int i = 0; i < b; i++)
      gy[(size_t)t * b + i] = -(ygold[i] - sg * exp(ypred[i]) / s) / count;
  }
  // Adjoints of each layer's hidden and cell state, flowing back in time.
  std::vector<double> dh((size_t)l * b, 0.0), dc((size_t)l * b, 0.0), dx(b);
  for (int t = steps - 1; t >= 0; t--) {
    const double *hl = at(t, l - 1, CN); // hidden = o tanh(cn)
    for (int i = 0; i < b; i++) {
      double hv = at(t, l - 1, O)[i] * tanh(hl[i]), gyi = gy[(size_t)t * b + i];
      ge[b + i] += gyi * hv;
      ge[2 * b + i] += gyi;
      dh[(l - 1) * b + i] += gyi * extra[b + i];
    }
    for (int L = l - 1; L >= 0; L--) {
      const double *w = &mainp[8 * b * L];
      double *gw = &gm[8 * b * L], *gb = gw + 4 * b;
      const double *x = at(t, L, X), *h = at(t, L, H), *cp = at(t, L, CP);
      for (int i = 0; i < b; i++) {
        double f = at(t, L, F)[i], ig = at(t, L, IG)[i], o = at(t, L, O)[i],
               ch = at(t, L, CH)[i], tc = tanh(at(t, L, CN)[i]);
        double dhn = dh[L * b + i];
        double dcn = dc[L * b + i] + dhn * o * (1 - tc * tc);
        double zf = dcn * cp[i] * f * (1 - f);
        double zi = dcn * ch * ig * (1 - ig);
        double zo = dhn * tc * o * (1 - o);
        double zc = dcn * ig * (1 - ch * ch);
        gw[i] += zf * x[i];
        gb[i] += zf;
        gw[b + i] += zi * h[i];
        gb[b + i] += zi;
        gw[2 * b + i] += zo * x[i];
        gb[2 * b + i] += zo;
        gw[3 * b + i] += zc * h[i];
        gb[3 * b + i] += zc;
        dx[i] = zf * w[i] + zo * w[2 * b + i];
        dh[L * b + i] = zi * w[b + i] + zc * w[3 * b + i];
        dc[L * b + i] = dcn * f;
      }
      if (L > 0)
        for (int i = 0; i < b; i++)
          dh[(L - 1) * b + i] += dx[i];
      else
        for (int i = 0; i < b; i++)
          ge[i] += dx[i] * seq[t * b + i];
    }
  }
}

int main(int argc, char **argv) {
  bench::Args a(argc, argv);
  FILE *f =
      bench::openData(a.pick("lstm/lstm_l2_c1024.txt", "lstm/lstm_l4_c1024.txt",
                             "lstm/lstm_l2_c4096.txt"));
  int l, c, b;
  if (fscanf(f, "%d %d %d", &l, &c, &b) != 3)
    return 2;
  int nm = 8 * b * l, np = nm + 3 * b;
  std::vector<double> p(np), state(2 * l * b), seq(c * b), g(np);
  bench::readDoubles(f, p.data(), np);
  bench::readDoubles(f, state.data(), 2 * l * b);
  bench::readDoubles(f, seq.data(), c * b);
  fclose(f);
  double loss;
  auto primal = [&] {
    lstmObjective(l, c, b, &p[0], &p[nm], state.data(), seq.data(), &loss);
    bench::sink = loss;
  };
#if defined(TOOL_HAND)
  auto deriv = [&] {
    handGradient(l, c, b, &p[0], &p[nm], state.data(), seq.data(), g.data());
  };
#elif defined(TOOL_TAPESTRY)
  auto deriv = [&] {
    std::fill(g.begin(), g.end(), 0.0);
    double dloss = 1;
    __enzyme_autodiff((void *)lstmObjective<double>, enzyme_const, l,
                      enzyme_const, c, enzyme_const, b, enzyme_dup, &p[0],
                      &g[0], enzyme_dup, &p[nm], &g[nm], enzyme_const,
                      state.data(), enzyme_const, seq.data(), enzyme_dup, &loss,
                      &dloss);
  };
#elif defined(TOOL_ADOLC)
  auto deriv = [&] {
    trace_on(1);
    std::vector<adouble> ap(np);
    for (int i = 0; i < np; i++)
      ap[i] <<= p[i];
    adouble y;
    lstmObjective(l, c, b, &ap[0], &ap[nm], state.data(), seq.data(), &y);
    double yv;
    y >>= yv;
    trace_off();
    gradient(1, np, p.data(), g.data());
  };
#elif defined(TOOL_SACADO)
  typedef Sacado::Rad::ADvar<double> R;
  auto deriv = [&] {
    std::vector<R> ap(p.begin(), p.end());
    R y;
    lstmObjective(l, c, b, &ap[0], &ap[nm], state.data(), seq.data(), &y);
    R::Outvar_Gradcomp(y);
    for (int i = 0; i < np; i++)
      g[i] = ap[i].adj();
  };
#endif
  bench::Runner r("lstm", a);
  return r.run(
      primal, deriv, g,
      [&] {
        std::vector<double> ref(np);
        handGradient(l, c, b, &p[0], &p[nm], state.data(), seq.data(),
                     ref.data());
        return ref;
      },
      [&] {
        return bench::fdCheck(
            p,
            [&] {
              lstmObjective(l, c, b, &p[0], &p[nm], state.data(), seq.data(),
                            &loss);
              return loss;
            },
            g, 40);
      },
#if defined(TOOL_ADOLC)
      [&] { return adolcTapeBytes(1); }
#else
      nullptr
#endif
  );
}
