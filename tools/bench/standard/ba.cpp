// Bundle adjustment (ADBench/GradBench "ba"), on ADBench's inputs (one
// camera, point, weight and feature replicated to n cameras, m points and
// p observations; observation i sees camera i mod n and point i mod m).
// Residuals: per observation the 2 weighted reprojection errors (w times the
// Rodrigues-rotated, projected, radially distorted point minus the feature)
// and the weight error 1 - w^2. The derivative is the Jacobian's non-zeros:
// per observation a 2 x 15 block (camera 11, point 3, weight 1) and the
// weight error's derivative. Tapestry computes each block by one batch
// reverse sweep of width 2 (enzyme_width 2, each row's seed in its own
// lane: the primal and the tape once; two scalar sweeps, as ADBench's
// Enzyme port does, took 5.4 ms against 3.1 ms, small, 7 Dec 2026), Sacado
// by two reverse sweeps (one per residual row), ADOL-C by jacobian() on a
// tape of one observation, as ADBench's ADOL-C port does. Hand-written: the
// chain rule, with the derivative of the rotation by Gallego and Yezzi's
// formula d(R u)/dr = -R [u]x (r r^T + (R^T - I)[r]x) / |r|^2. Sizes:
// ba1_n49_m7776_p31843 / ba2_n21_m11315_p36455 / ba3_n161_m48126_p182072.
#include "common.h"

enum { NCam = 11, NIn = 15 };

template <class T> static void rodrigues(const T *rot, const T *pt, T *out) {
  T sqtheta = rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2];
  if (sqtheta != 0) {
    T theta = sqrt(sqtheta), c = cos(theta), s = sin(theta);
    T w[3] = {rot[0] / theta, rot[1] / theta, rot[2] / theta};
    T wx[3] = {w[1] * pt[2] - w[2] * pt[1], w[2] * pt[0] - w[0] * pt[2],
               w[0] * pt[1] - w[1] * pt[0]};
    T tmp = (w[0] * pt[0] + w[1] * pt[1] + w[2] * pt[2]) * (1 - c);
    for (int i = 0; i < 3; i++)
      out[i] = pt[i] * c + wx[i] * s + w[i] * tmp;
  } else {
    out[0] = pt[0] + rot[1] * pt[2] - rot[2] * pt[1];
    out[1] = pt[1] + rot[2] * pt[0] - rot[0] * pt[2];
    out[2] = pt[2] + rot[0] * pt[1] - rot[1] * pt[0];
  }
}

template <class T>
void reprojError(const T *__restrict cam, const T *__restrict X,
                 const T *__restrict w, const double *__restrict feat,
                 T *__restrict err) {
  T Y[3] = {X[0] - cam[3], X[1] - cam[4], X[2] - cam[5]}, Xc[3];
  rodrigues(cam, Y, Xc);
  T p0 = Xc[0] / Xc[2], p1 = Xc[1] / Xc[2];
  T rsq = p0 * p0 + p1 * p1;
  T L = 1 + cam[9] * rsq + cam[10] * rsq * rsq;
  err[0] = *w * (p0 * L * cam[6] + cam[7] - feat[0]);
  err[1] = *w * (p1 * L * cam[6] + cam[8] - feat[1]);
}

template <class T> void weightError(const T *w, T *err) { *err = 1 - *w * *w; }

// The 2 x 15 block of one observation (row-major) by the chain rule.
static void handBlock(const double *cam, const double *X, double w,
                      const double *feat, double *J) {
  const double *r = cam;
  double Y[3] = {X[0] - cam[3], X[1] - cam[4], X[2] - cam[5]};
  double th2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2], th = sqrt(th2);
  double c = cos(th), s = sin(th), k[3] = {r[0] / th, r[1] / th, r[2] / th};
  // R = c I + s [k]x + (1 - c) k k^T.
  double Kx[3][3] = {{0, -k[2], k[1]}, {k[2], 0, -k[0]}, {-k[1], k[0], 0}};
  double R[3][3], Xc[3] = {0, 0, 0};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      R[i][j] = (i == j) * c + s * Kx[i][j] + (1 - c) * k[i] * k[j];
      Xc[i] += R[i][j] * Y[j];
    }
  // dXc/dr = -R [Y]x (r r^T + (R^T - I)[r]x) / th2.
  double Yx[3][3] = {{0, -Y[2], Y[1]}, {Y[2], 0, -Y[0]}, {-Y[1], Y[0], 0}};
  double rx[3][3] = {{0, -r[2], r[1]}, {r[2], 0, -r[0]}, {-r[1], r[0], 0}};
  double M[3][3], RY[3][3], dXdr[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      M[i][j] = r[i] * r[j];
      for (int l = 0; l < 3; l++)
        M[i][j] += (R[l][i] - (l == i)) * rx[l][j];
      RY[i][j] = 0;
      for (int l = 0; l < 3; l++)
        RY[i][j] += R[i][l] * Yx[l][j];
    }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      dXdr[i][j] = 0;
      for (int l = 0; l < 3; l++)
        dXdr[i][j] -= RY[i][l] * M[l][j] / th2;
    }
  double z = Xc[2], p[2] = {Xc[0] / z, Xc[1] / z};
  double dpdX[2][3] = {{1 / z, 0, -p[0] / z}, {0, 1 / z, -p[1] / z}};
  double rsq = p[0] * p[0] + p[1] * p[1];
  double k1 = cam[9], k2 = cam[10], f = cam[6];
  double L = 1 + k1 * rsq + k2 * rsq * rsq, dL = 2 * (k1 + 2 * k2 * rsq);
  // dproj/dp = f (L I + p dL/dp^T), dL/dp = dL * p.
  double dproj[2][2];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      dproj[i][j] = f * ((i == j) * L + p[i] * dL * p[j]);
  for (int row = 0; row < 2; row++) {
    double *Jr = J + row * NIn;
    std::fill(Jr, Jr + NIn, 0.0);
    double dXc[3] = {0, 0, 0}; // d err_row / d Xc, before the weight
    for (int j = 0; j < 3; j++)
      for (int l = 0; l < 2; l++)
        dXc[j] += dproj[row][l] * dpdX[l][j];
    for (int j = 0; j < 3; j++)
      for (int l = 0; l < 3; l++) {
        Jr[j] += w * dXc[l] * dXdr[l][j];   // rotation
        Jr[11 + j] += w * dXc[l] * R[l][j]; // point
        Jr[3 + j] -= w * dXc[l] * R[l][j];  // camera centre
      }
    Jr[6] = w * L * p[row];
    Jr[7 + row] = w;
    Jr[9] = w * f * p[row] * rsq;
    Jr[10] = w * f * p[row] * rsq * rsq;
    Jr[14] = p[row] * L * f + cam[7 + row] - feat[row];
  }
}

#if defined(TOOL_TAPESTRY)
// Both residual rows in one batch reverse sweep: lane r's output seed is
// e_r, and its input shadows are row r of the block.
static void tapestryBlock(double *cam, double *X, double *w, double *feat,
                          double *J) {
  double err[2], derr[4] = {1.0, 0.0, 0.0, 1.0};
  std::fill(J, J + 2 * NIn, 0.0);
  __enzyme_autodiff((void *)reprojError<double>, enzyme_width, 2, enzyme_dupv,
                    NIn * sizeof(double), cam, J, enzyme_dupv,
                    NIn * sizeof(double), X, J + NCam, enzyme_dupv,
                    NIn * sizeof(double), w, J + 14, enzyme_const, feat,
                    enzyme_dupnoneedv, 2 * sizeof(double), err, derr);
}
#endif

int main(int argc, char **argv) {
  bench::Args a(argc, argv);
  FILE *f = bench::openData(a.pick("ba/ba1_n49_m7776_p31843.txt",
                                   "ba/ba2_n21_m11315_p36455.txt",
                                   "ba/ba3_n161_m48126_p182072.txt"));
  int n, m, p;
  if (fscanf(f, "%d %d %d", &n, &m, &p) != 3)
    return 2;
  double cam0[NCam], X0[3], w0, feat0[2];
  bench::readDoubles(f, cam0, NCam);
  bench::readDoubles(f, X0, 3);
  bench::readDoubles(f, &w0, 1);
  bench::readDoubles(f, feat0, 2);
  fclose(f);
  std::vector<double> cams(n * NCam), X(m * 3), w(p, w0), feats(p * 2);
  for (int i = 0; i < n; i++)
    std::copy(cam0, cam0 + NCam, &cams[i * NCam]);
  for (int i = 0; i < m; i++)
    std::copy(X0, X0 + 3, &X[i * 3]);
  for (int i = 0; i < p; i++)
    std::copy(feat0, feat0 + 2, &feats[i * 2]);
  // The Jacobian's non-zeros: p blocks of 2 x 15, then p weight entries.
  std::vector<double> J((size_t)p * 2 * NIn + p), err(2 * p + p);
  double *Jw = &J[(size_t)p * 2 * NIn];

  auto primal = [&] {
    for (int i = 0; i < p; i++)
      reprojError(&cams[(i % n) * NCam], &X[(i % m) * 3], &w[i], &feats[i * 2],
                  &err[2 * i]);
    for (int i = 0; i < p; i++)
      weightError(&w[i], &err[2 * p + i]);
    bench::sink = err[0];
  };
  auto hand = [&](double *Jout) {
    for (int i = 0; i < p; i++)
      handBlock(&cams[(i % n) * NCam], &X[(i % m) * 3], w[i], &feats[i * 2],
                &Jout[(size_t)i * 2 * NIn]);
    for (int i = 0; i < p; i++)
      Jout[(size_t)p * 2 * NIn + i] = -2 * w[i];
  };
#if defined(TOOL_HAND)
  auto deriv = [&] { hand(J.data()); };
#elif defined(TOOL_TAPESTRY)
  auto deriv = [&] {
    for (int i = 0; i < p; i++)
      tapestryBlock(&cams[(i % n) * NCam], &X[(i % m) * 3], &w[i],
                    &feats[i * 2], &J[(size_t)i * 2 * NIn]);
    for (int i = 0; i < p; i++) {
      double e, de = 1;
      Jw[i] = 0;
      __enzyme_autodiff((void *)weightError<double>, enzyme_dup, &w[i], &Jw[i],
                        enzyme_dupnoneed, &e, &de);
    }
  };
#elif defined(TOOL_ADOLC)
  auto deriv = [&] {
    double in[NIn], out[2];
    std::copy(cam0, cam0 + NCam, in);
    std::copy(X0, X0 + 3, in + NCam);
    in[14] = w0;
    trace_on(1);
    std::vector<adouble> ain(NIn), aerr(2);
    for (int j = 0; j < NIn; j++)
      ain[j] <<= in[j];
    reprojError(&ain[0], &ain[NCam], &ain[14], feat0, aerr.data());
    aerr[0] >>= out[0];
    aerr[1] >>= out[1];
    trace_off();
    trace_on(2);
    adouble aw, ae;
    aw <<= w0;
    weightError(&aw, &ae);
    ae >>= out[0];
    trace_off();
    double *rows[2];
    for (int i = 0; i < p; i++) {
      std::copy(&cams[(i % n) * NCam], &cams[(i % n) * NCam] + NCam, in);
      std::copy(&X[(i % m) * 3], &X[(i % m) * 3] + 3, in + NCam);
      in[14] = w[i];
      rows[0] = &J[(size_t)i * 2 * NIn];
      rows[1] = rows[0] + NIn;
      // The tape's features are those of observation 0: all observations
      // share them in ADBench's inputs.
      jacobian(1, 2, NIn, in, rows);
    }
    for (int i = 0; i < p; i++) {
      double *row = &Jw[i];
      jacobian(2, 1, 1, &w[i], &row);
    }
  };
#elif defined(TOOL_SACADO)
  typedef Sacado::Rad::ADvar<double> R;
  auto deriv = [&] {
    for (int i = 0; i < p; i++) {
      const double *cam = &cams[(i % n) * NCam], *Xi = &X[(i % m) * 3];
      for (int row = 0; row < 2; row++) {
        R ac[NCam], aX[3], aw = w[i], ae[2];
        for (int j = 0; j < NCam; j++)
          ac[j] = cam[j];
        for (int j = 0; j < 3; j++)
          aX[j] = Xi[j];
        reprojError(ac, aX, &aw, &feats[i * 2], ae);
        R::Outvar_Gradcomp(ae[row]);
        double *Jr = &J[(size_t)i * 2 * NIn + row * NIn];
        for (int j = 0; j < NCam; j++)
          Jr[j] = ac[j].adj();
        for (int j = 0; j < 3; j++)
          Jr[NCam + j] = aX[j].adj();
        Jr[14] = aw.adj();
      }
    }
    for (int i = 0; i < p; i++) {
      R aw = w[i], ae;
      weightError(&aw, &ae);
      R::Outvar_Gradcomp(ae);
      Jw[i] = aw.adj();
    }
  };
#endif
  bench::Runner r("ba", a);
  return r.run(
      primal, deriv, J,
      [&] {
        std::vector<double> ref(J.size());
        hand(ref.data());
        return ref;
      },
      [&] {
        // Finite differences of observation 0's residuals, both rows.
        std::vector<double> in(NIn);
        std::copy(cam0, cam0 + NCam, in.begin());
        std::copy(X0, X0 + 3, in.begin() + NCam);
        in[14] = w0;
        double worst = 0;
        for (int row = 0; row < 2; row++) {
          std::vector<double> g(J.begin() + row * NIn,
                                J.begin() + (row + 1) * NIn);
          worst = std::max(worst, bench::fdCheck(
                                      in,
                                      [&] {
                                        double e[2];
                                        reprojError(&in[0], &in[NCam], &in[14],
                                                    feat0, e);
                                        return e[row];
                                      },
                                      g, NIn));
        }
        return worst;
      },
#if defined(TOOL_ADOLC)
      [&] { return adolcTapeBytes(1) + adolcTapeBytes(2); }
#else
      nullptr
#endif
  );
}
