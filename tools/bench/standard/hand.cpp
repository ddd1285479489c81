// Hand tracking (ADBench "hand"), on ADBench's inputs (hand/simple_small: the
// model's 22 bones, 544 vertices and 1084 triangles, and an instance of 26
// pose parameters theta and M target points with their correspondences).
// Definition (ADBench's): theta = 3 global rotation (angle-axis), 3 global
// translation, then per finger (thumb, index, middle, ring, pinky) 4 joint
// angles: 2 for the finger's second bone (about its x and z axes), 1 (x) for
// each of the third and fourth; every other bone has zero angles. Bone b's
// rotation from its angles (x, z, y) is Rz(z) Ry(y) Rx(x); its posed
// relative transform is base_relative_b [R 0; 0 1], composed along the bone
// hierarchy (parents come first) into absolute transforms A_b; the skinned
// vertex is p_v = sum_b w_bv (A_b inverse_base_absolute_b [base_v; 1])_{0..2}
// (linear blend skinning over all 22 bones); then q_v = R_g p_v + t with R_g
// the Rodrigues rotation of theta[0..2] (identity when |theta[0..2]| <
// 1e-4) and t = theta[3..5]. Residuals, 3 per point i:
//   simple:      err_i = point_i - q_{c_i}, c_i the correspondence (vertex);
//   complicated: err_i = point_i - (u_i0 q_a + u_i1 q_b + u_i2 q_c), with
//                u_i2 = 1 - u_i0 - u_i1 and (a, b, c) a triangle, the
//                barycentric u_i0 and u_i1 also variables.
// Derivative: the Jacobian of the 3M residuals, stored column by column
// (column-major, 3M entries each): simple, the dense 3M x 26 w.r.t. theta;
// complicated, those 26 columns then the u part, which is block diagonal
// (row 3i+j depends on u_i0 and u_i1 only), compressed into 2 columns
// (column 26: d err_{3i+j} / d u_i0, column 27: d err_{3i+j} / d u_i1).
// The complicated variant is compiled with -DHAND_COMPLICATED (problem name
// "hand-complicated"). ADBench reads its u from the complicated inputs; only
// the simple inputs are here, so point i uses the first triangle of
// triangles.txt (file order) that contains vertex c_i, and u_i0 = U(0, 1),
// u_i1 = U(0, 1 - u_i0) (a point of the triangle), drawn in point order,
// seed 7.
// Tools: Tapestry by one batch forward sweep, __enzyme_fwddiff with
// enzyme_width 26 (complicated 28: the u lanes seeded with every u_i0, then
// every u_i1), the columns as the lanes (enzyme_dupv seeds, enzyme_dupnoneedv
// into J); the Enzyme port of ADBench's hand does 26 scalar sweeps, which
// took twice as long (1.34 ms against 0.62 ms, small, 7 Dec 2026); ADOL-C
// by a tape of the whole objective (taped again each call), then jacobian()
// (simple) or fov_forward() with the same 28 compressed directions
// (complicated);
// Sacado by one Rad tape of the whole objective and one reverse sweep per
// residual row (ADvar::Weighted_Gradcomp with the row's unit weights,
// reusing the tape): reverse mode, 3M sweeps for 26 columns, Sacado's
// forward types being unusable here (see the README). Hand-written: the
// chain rule: the derivative of the global rotation by Gallego and Yezzi's
// formula d(R u)/dr = -R [u]x (r r^T + (R^T - I)[r]x) / |r|^2, and for each
// joint angle the derivative of the bone's rotation carried down its
// sub-tree (dA_c = dA_parent(c) relative_c), only for the vertices the
// residuals use.
// Files (':'-separated): bones.txt, per bone name, parent, the base relative
// and the inverse base absolute transforms (4 x 4, row-major); vertices.txt,
// per vertex position, normal, uv, then bone count and (bone, weight) pairs;
// triangles.txt, 3 vertices; the instance, "M 26", M lines "c x y z", theta.
// Sizes: hand1_t26_c100 / hand2_t26_c192 / hand4_t26_c400 (M = 100 / 192 /
// 400).
#include "common.h"

enum { NTheta = 26 };

struct HandModel {
  int nb = 0, nv = 0;
  std::vector<int> parent;
  std::vector<double> baseRel, invBaseAbs; // 16 per bone, row-major 4 x 4
  std::vector<double> base;                // 3 per vertex
  std::vector<double> weight;              // nb x nv
  std::vector<int> tri;                    // 3 per triangle
};

struct HandData {
  int m = 0;                  // points
  std::vector<int> corr;      // vertex of each point
  std::vector<int> corrTri;   // triangle of each point (complicated)
  std::vector<double> points; // 3 per point
};

// C = A B, 4 x 4 row-major; A or B may be constant (double).
template <class T, class A, class B>
static void mul4(const A *a, const B *b, T *c) {
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      T s = a[4 * i] * b[j];
      for (int k = 1; k < 4; k++)
        s += a[4 * i + k] * b[4 * k + j];
      c[4 * i + j] = s;
    }
}

template <class T> static void mul3(const T *a, const T *b, T *c) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      c[3 * i + j] =
          a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
}

// R = Rz(e[1]) Ry(e[2]) Rx(e[0]), 3 x 3 row-major.
template <class T> static void eulerRotation(const T *e, T *R) {
  T cx = cos(e[0]), sx = sin(e[0]), cz = cos(e[1]), sz = sin(e[1]);
  T cy = cos(e[2]), sy = sin(e[2]);
  T Rx[9] = {1, 0, 0, 0, cx, -sx, 0, sx, cx};
  T Ry[9] = {cy, 0, sy, 0, 1, 0, -sy, 0, cy};
  T Rz[9] = {cz, -sz, 0, sz, cz, 0, 0, 0, 1};
  T tmp[9];
  mul3(Rz, Ry, tmp);
  mul3(tmp, Rx, R);
}

// Rodrigues rotation of the angle-axis r (identity for |r| < 1e-4).
template <class T> static void angleAxisRotation(const T *r, T *R) {
  T norm = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  if (norm < 1e-4) {
    for (int i = 0; i < 9; i++)
      R[i] = (i % 4 == 0) ? 1.0 : 0.0;
    return;
  }
  T x = r[0] / norm, y = r[1] / norm, z = r[2] / norm;
  T s = sin(norm), c = cos(norm), d = 1 - c;
  R[0] = x * x * d + c;
  R[1] = x * y * d - z * s;
  R[2] = x * z * d + y * s;
  R[3] = x * y * d + z * s;
  R[4] = y * y * d + c;
  R[5] = y * z * d - x * s;
  R[6] = x * z * d - y * s;
  R[7] = y * z * d + x * s;
  R[8] = z * z * d + c;
}

// The bone of finger f's posed joint j (0..2): bones 2-4 (thumb), 6-8, ...
static inline int jointBone(int f, int j) { return 2 + 4 * f + j; }

// The posed, globally transformed positions of all vertices (3 per vertex).
template <class T>
void skinnedVertices(const T *theta, const HandModel *m, std::vector<T> &q) {
  int nb = m->nb, nv = m->nv;
  std::vector<T> angles(3 * nb, T(0.0));
  int it = 6;
  for (int f = 0; f < 5; f++)
    for (int j = 0; j < 3; j++) {
      int b = jointBone(f, j);
      angles[3 * b] = theta[it++];
      if (j == 0)
        angles[3 * b + 1] = theta[it++];
    }
  std::vector<T> absolute(16 * nb), transform(16 * nb);
  for (int b = 0; b < nb; b++) {
    T R[9], posed[16], rel[16];
    eulerRotation(&angles[3 * b], R);
    for (int i = 0; i < 16; i++)
      posed[i] = (i == 15) ? 1.0 : 0.0;
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        posed[4 * i + j] = R[3 * i + j];
    mul4(&m->baseRel[16 * b], posed, rel);
    int p = m->parent[b];
    if (p < 0)
      std::copy(rel, rel + 16, &absolute[16 * b]);
    else
      mul4(&absolute[16 * p], rel, &absolute[16 * b]);
    mul4(&absolute[16 * b], &m->invBaseAbs[16 * b], &transform[16 * b]);
  }
  std::vector<T> pos(3 * nv, T(0.0));
  for (int b = 0; b < nb; b++) {
    const T *X = &transform[16 * b];
    for (int v = 0; v < nv; v++) {
      const double *x = &m->base[3 * v];
      double w = m->weight[(size_t)b * nv + v];
      for (int i = 0; i < 3; i++)
        pos[3 * v + i] += (X[4 * i] * x[0] + X[4 * i + 1] * x[1] +
                           X[4 * i + 2] * x[2] + X[4 * i + 3]) *
                          w;
    }
  }
  T Rg[9];
  angleAxisRotation(theta, Rg);
  q.resize(3 * nv);
  for (int v = 0; v < nv; v++)
    for (int i = 0; i < 3; i++)
      q[3 * v + i] = Rg[3 * i] * pos[3 * v] + Rg[3 * i + 1] * pos[3 * v + 1] +
                     Rg[3 * i + 2] * pos[3 * v + 2] + theta[3 + i];
}

template <class T>
void handObjective(const T *theta, const HandModel *m, const HandData *d,
                   T *err) {
  std::vector<T> q;
  skinnedVertices(theta, m, q);
  for (int i = 0; i < d->m; i++)
    for (int j = 0; j < 3; j++)
      err[3 * i + j] = d->points[3 * i + j] - q[3 * d->corr[i] + j];
}

template <class T>
void handObjectiveComplicated(const T *theta, const T *us, const HandModel *m,
                              const HandData *d, T *err) {
  std::vector<T> q;
  skinnedVertices(theta, m, q);
  for (int i = 0; i < d->m; i++) {
    const int *t = &m->tri[3 * d->corrTri[i]];
    const T *u = &us[2 * i];
    for (int j = 0; j < 3; j++) {
      T point = u[0] * q[3 * t[0] + j] + u[1] * q[3 * t[1] + j] +
                (1.0 - u[0] - u[1]) * q[3 * t[2] + j];
      err[3 * i + j] = d->points[3 * i + j] - point;
    }
  }
}

// The hand-written derivative: the primal's pieces and, per joint angle,
// the derivative of every transform of the bone's sub-tree.
struct HandJacobian {
  const HandModel *m;
  double Rg[9], r[3]; // global rotation and its angle-axis
  bool rotZero;
  std::vector<double> pos; // skinned, before the global transform
  std::vector<double> q;   // final positions
  std::vector<double> dX;  // 20 x nb x 16: d transform_c / d angle k
  std::vector<char> inSub; // 20 x nb
  std::vector<int> paramBone, paramAxis;

  explicit HandJacobian(const HandModel *model) : m(model) {
    for (int f = 0; f < 5; f++)
      for (int j = 0; j < 3; j++) {
        paramBone.push_back(jointBone(f, j));
        paramAxis.push_back(0);
        if (j == 0) {
          paramBone.push_back(jointBone(f, j));
          paramAxis.push_back(1);
        }
      }
  }

  void prepare(const double *theta) {
    int nb = m->nb, nv = m->nv, np = NTheta - 6;
    std::vector<double> angles(3 * nb, 0.0);
    for (int k = 0; k < np; k++)
      angles[3 * paramBone[k] + paramAxis[k]] = theta[6 + k];
    std::vector<double> rel(16 * nb), absolute(16 * nb), X(16 * nb);
    for (int b = 0; b < nb; b++) {
      double R[9], posed[16] = {0};
      eulerRotation(&angles[3 * b], R);
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
          posed[4 * i + j] = R[3 * i + j];
      posed[15] = 1;
      mul4(&m->baseRel[16 * b], posed, &rel[16 * b]);
      int p = m->parent[b];
      if (p < 0)
        std::copy(&rel[16 * b], &rel[16 * b] + 16, &absolute[16 * b]);
      else
        mul4(&absolute[16 * p], &rel[16 * b], &absolute[16 * b]);
      mul4(&absolute[16 * b], &m->invBaseAbs[16 * b], &X[16 * b]);
    }
    pos.assign(3 * nv, 0.0);
    for (int b = 0; b < nb; b++)
      for (int v = 0; v < nv; v++) {
        double w = m->weight[(size_t)b * nv + v];
        if (w == 0)
          continue;
        const double *x = &m->base[3 * v], *T = &X[16 * b];
        for (int i = 0; i < 3; i++)
          pos[3 * v + i] += w * (T[4 * i] * x[0] + T[4 * i + 1] * x[1] +
                                 T[4 * i + 2] * x[2] + T[4 * i + 3]);
      }
    std::copy(theta, theta + 3, r);
    rotZero = !(sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]) >= 1e-4);
    angleAxisRotation(r, Rg);
    q.resize(3 * nv);
    for (int v = 0; v < nv; v++)
      for (int i = 0; i < 3; i++)
        q[3 * v + i] = Rg[3 * i] * pos[3 * v] + Rg[3 * i + 1] * pos[3 * v + 1] +
                       Rg[3 * i + 2] * pos[3 * v + 2] + theta[3 + i];
    // Per joint angle k of bone b: dR_b, then the sub-tree's transforms.
    dX.assign((size_t)np * nb * 16, 0.0);
    inSub.assign((size_t)np * nb, 0);
    std::vector<double> dAbs(16 * nb);
    for (int k = 0; k < np; k++) {
      int b = paramBone[k];
      const double *e = &angles[3 * b];
      double cx = cos(e[0]), sx = sin(e[0]), cz = cos(e[1]), sz = sin(e[1]);
      double cy = cos(e[2]), sy = sin(e[2]);
      double Rx[9] = {1, 0, 0, 0, cx, -sx, 0, sx, cx};
      double Ry[9] = {cy, 0, sy, 0, 1, 0, -sy, 0, cy};
      double Rz[9] = {cz, -sz, 0, sz, cz, 0, 0, 0, 1};
      double dRx[9] = {0, 0, 0, 0, -sx, -cx, 0, cx, -sx};
      double dRz[9] = {-sz, -cz, 0, cz, -sz, 0, 0, 0, 0};
      double tmp[9], dR[9];
      if (paramAxis[k] == 0) {
        mul3(Rz, Ry, tmp);
        mul3(tmp, dRx, dR);
      } else {
        mul3(dRz, Ry, tmp);
        mul3(tmp, Rx, dR);
      }
      double dPosed[16] = {0}, dRel[16];
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
          dPosed[4 * i + j] = dR[3 * i + j];
      mul4(&m->baseRel[16 * b], dPosed, dRel);
      char *sub = &inSub[(size_t)k * nb];
      int p = m->parent[b];
      if (p < 0)
        std::copy(dRel, dRel + 16, &dAbs[16 * b]);
      else
        mul4(&absolute[16 * p], dRel, &dAbs[16 * b]);
      sub[b] = 1;
      for (int c = b + 1; c < nb; c++)
        if (m->parent[c] >= 0 && sub[m->parent[c]]) {
          sub[c] = 1;
          mul4(&dAbs[16 * m->parent[c]], &rel[16 * c], &dAbs[16 * c]);
        }
      for (int c = 0; c < nb; c++)
        if (sub[c])
          mul4(&dAbs[16 * c], &m->invBaseAbs[16 * c],
               &dX[((size_t)k * nb + c) * 16]);
    }
  }

  // dq_v / dtheta, 3 x 26 row-major.
  void vertex(int v, double *J) const {
    int nb = m->nb, nv = m->nv, np = NTheta - 6;
    const double *p = &pos[3 * v];
    std::fill(J, J + 3 * NTheta, 0.0);
    if (!rotZero) {
      // d(R p)/dr = -R [p]x (r r^T + (R^T - I)[r]x) / |r|^2.
      double th2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
      double px[9] = {0, -p[2], p[1], p[2], 0, -p[0], -p[1], p[0], 0};
      double rx[9] = {0, -r[2], r[1], r[2], 0, -r[0], -r[1], r[0], 0};
      double M[9], RP[9];
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          M[3 * i + j] = r[i] * r[j];
          for (int l = 0; l < 3; l++)
            M[3 * i + j] += (Rg[3 * l + i] - (l == i)) * rx[3 * l + j];
        }
      mul3(Rg, px, RP);
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          double s = 0;
          for (int l = 0; l < 3; l++)
            s += RP[3 * i + l] * M[3 * l + j];
          J[NTheta * i + j] = -s / th2;
        }
    }
    for (int i = 0; i < 3; i++)
      J[NTheta * i + 3 + i] = 1;
    const double *x = &m->base[3 * v];
    for (int k = 0; k < np; k++) {
      double dp[3] = {0, 0, 0};
      for (int c = 0; c < nb; c++) {
        double w = m->weight[(size_t)c * nv + v];
        if (!inSub[(size_t)k * nb + c] || w == 0)
          continue;
        const double *T = &dX[((size_t)k * nb + c) * 16];
        for (int i = 0; i < 3; i++)
          dp[i] += w * (T[4 * i] * x[0] + T[4 * i + 1] * x[1] +
                        T[4 * i + 2] * x[2] + T[4 * i + 3]);
      }
      for (int i = 0; i < 3; i++)
        J[NTheta * i + 6 + k] =
            Rg[3 * i] * dp[0] + Rg[3 * i + 1] * dp[1] + Rg[3 * i + 2] * dp[2];
    }
  }
};

static void readModel(const std::string &dir, HandModel &m) {
  FILE *f = bench::openData(dir + "/bones.txt");
  char name[64];
  int parent;
  while (fscanf(f, " %63[^:]:%d", name, &parent) == 2) {
    m.parent.push_back(parent);
    double v[32];
    for (int i = 0; i < 32; i++)
      if (fscanf(f, ":%lf", &v[i]) != 1) {
        fprintf(stderr, "bad bones.txt\n");
        exit(2);
      }
    m.baseRel.insert(m.baseRel.end(), v, v + 16);
    m.invBaseAbs.insert(m.invBaseAbs.end(), v + 16, v + 32);
  }
  fclose(f);
  m.nb = (int)m.parent.size();
  std::vector<std::pair<int, double>> bw;
  std::vector<int> start{0};
  f = bench::openData(dir + "/vertices.txt");
  double x[8];
  int n;
  while (fscanf(f, "%lf:%lf:%lf:%lf:%lf:%lf:%lf:%lf:%d", &x[0], &x[1], &x[2],
                &x[3], &x[4], &x[5], &x[6], &x[7], &n) == 9) {
    m.base.insert(m.base.end(), x, x + 3);
    for (int j = 0; j < n; j++) {
      int b;
      double w;
      if (fscanf(f, ":%d:%lf", &b, &w) != 2) {
        fprintf(stderr, "bad vertices.txt\n");
        exit(2);
      }
      bw.push_back({b, w});
    }
    start.push_back((int)bw.size());
  }
  fclose(f);
  m.nv = (int)m.base.size() / 3;
  m.weight.assign((size_t)m.nb * m.nv, 0.0);
  for (int v = 0; v < m.nv; v++)
    for (int j = start[v]; j < start[v + 1]; j++)
      m.weight[(size_t)bw[j].first * m.nv + v] = bw[j].second;
  f = bench::openData(dir + "/triangles.txt");
  int t[3];
  while (fscanf(f, "%d:%d:%d", &t[0], &t[1], &t[2]) == 3)
    m.tri.insert(m.tri.end(), t, t + 3);
  fclose(f);
}

#if defined(HAND_COMPLICATED)
#define PROBLEM "hand-complicated"
enum { NCol = NTheta + 2 };
#else
#define PROBLEM "hand"
enum { NCol = NTheta };
#endif

int main(int argc, char **argv) {
  bench::Args a(argc, argv);
  HandModel model;
  readModel("hand/simple_small/model", model);
  HandData data;
  std::vector<double> theta(NTheta);
  {
    FILE *f = bench::openData(std::string("hand/simple_small/") +
                              a.pick("hand1_t26_c100.txt", "hand2_t26_c192.txt",
                                     "hand4_t26_c400.txt"));
    int nt;
    if (fscanf(f, "%d %d", &data.m, &nt) != 2 || nt != NTheta)
      return 2;
    data.corr.resize(data.m);
    data.points.resize(3 * data.m);
    for (int i = 0; i < data.m; i++)
      if (fscanf(f, "%d", &data.corr[i]) != 1)
        return 2;
      else
        bench::readDoubles(f, &data.points[3 * i], 3);
    bench::readDoubles(f, theta.data(), NTheta);
    fclose(f);
  }
  const int M = data.m, rows = 3 * M;
  // Complicated: each point's triangle and barycentric u (seed 7).
  std::vector<double> us(2 * M);
  {
    std::vector<int> firstTri(model.nv, -1);
    for (int t = (int)model.tri.size() / 3 - 1; t >= 0; t--)
      for (int j = 0; j < 3; j++)
        firstTri[model.tri[3 * t + j]] = t;
    bench::Rng rng(7);
    for (int i = 0; i < M; i++) {
      data.corrTri.push_back(firstTri[data.corr[i]]);
      us[2 * i] = rng.uniform();
      us[2 * i + 1] = rng.uniform(0, 1 - us[2 * i]);
    }
  }
  // The Jacobian, column-major: NCol columns of 3M.
  std::vector<double> J((size_t)NCol * rows), err(rows);

#if defined(HAND_COMPLICATED)
  auto objective = [&](const double *th, const double *u, double *e) {
    handObjectiveComplicated(th, u, &model, &data, e);
  };
  auto primal = [&] {
    objective(theta.data(), us.data(), err.data());
    bench::sink = err[0];
  };
#else
  auto objective = [&](const double *th, const double *, double *e) {
    handObjective(th, &model, &data, e);
  };
  auto primal = [&] {
    objective(theta.data(), nullptr, err.data());
    bench::sink = err[0];
  };
#endif

  HandJacobian hj(&model);
  auto hand = [&](double *Jout) {
    hj.prepare(theta.data());
    double Jv[3][3 * NTheta];
    for (int i = 0; i < M; i++) {
#if defined(HAND_COMPLICATED)
      const int *t = &model.tri[3 * data.corrTri[i]];
      double w[3] = {us[2 * i], us[2 * i + 1], 1 - us[2 * i] - us[2 * i + 1]};
      for (int l = 0; l < 3; l++)
        hj.vertex(t[l], Jv[l]);
      for (int j = 0; j < 3; j++) {
        int row = 3 * i + j;
        for (int k = 0; k < NTheta; k++)
          Jout[(size_t)k * rows + row] =
              -(w[0] * Jv[0][NTheta * j + k] + w[1] * Jv[1][NTheta * j + k] +
                w[2] * Jv[2][NTheta * j + k]);
        double qc = hj.q[3 * t[2] + j];
        Jout[(size_t)NTheta * rows + row] = -(hj.q[3 * t[0] + j] - qc);
        Jout[(size_t)(NTheta + 1) * rows + row] = -(hj.q[3 * t[1] + j] - qc);
      }
#else
      hj.vertex(data.corr[i], Jv[0]);
      for (int j = 0; j < 3; j++)
        for (int k = 0; k < NTheta; k++)
          Jout[(size_t)k * rows + 3 * i + j] = -Jv[0][NTheta * j + k];
#endif
    }
  };

#if defined(TOOL_HAND)
  auto deriv = [&] { hand(J.data()); };
#elif defined(TOOL_TAPESTRY)
  // The seeds of the NCol lanes (lane k's at k * NTheta and k * 2M): the
  // unit vectors of theta, then (complicated) every u_i0, every u_i1.
  std::vector<double> dtheta((size_t)NCol * NTheta), dus((size_t)NCol * 2 * M);
  for (int k = 0; k < NTheta; k++)
    dtheta[(size_t)k * NTheta + k] = 1;
#if defined(HAND_COMPLICATED)
  for (int i = 0; i < M; i++) {
    dus[(size_t)NTheta * 2 * M + 2 * i] = 1;
    dus[(size_t)(NTheta + 1) * 2 * M + 2 * i + 1] = 1;
  }
#endif
  auto deriv = [&] {
#if defined(HAND_COMPLICATED)
    __enzyme_fwddiff(
        (void *)handObjectiveComplicated<double>, enzyme_width, (int)NCol,
        enzyme_dupv, NTheta * sizeof(double), theta.data(), dtheta.data(),
        enzyme_dupv, 2 * M * sizeof(double), us.data(), dus.data(),
        enzyme_const, &model, enzyme_const, &data, enzyme_dupnoneedv,
        rows * sizeof(double), err.data(), J.data());
#else
    __enzyme_fwddiff((void *)handObjective<double>, enzyme_width, (int)NCol,
                     enzyme_dupv, NTheta * sizeof(double), theta.data(),
                     dtheta.data(), enzyme_const, &model, enzyme_const, &data,
                     enzyme_dupnoneedv, rows * sizeof(double), err.data(),
                     J.data());
#endif
  };
#elif defined(TOOL_ADOLC)
  std::vector<double> Jrows((size_t)rows * NCol), y(rows);
  auto deriv = [&] {
    trace_on(1);
    std::vector<adouble> ath(NTheta), ae(rows);
    for (int k = 0; k < NTheta; k++)
      ath[k] <<= theta[k];
#if defined(HAND_COMPLICATED)
    std::vector<adouble> au(2 * M);
    for (int i = 0; i < 2 * M; i++)
      au[i] <<= us[i];
    handObjectiveComplicated(ath.data(), au.data(), &model, &data, ae.data());
#else
    handObjective(ath.data(), &model, &data, ae.data());
#endif
    for (int r = 0; r < rows; r++)
      ae[r] >>= y[r];
    trace_off();
    std::vector<double *> rp(rows);
    for (int r = 0; r < rows; r++)
      rp[r] = &Jrows[(size_t)r * NCol];
#if defined(HAND_COMPLICATED)
    // Compressed seed: theta's 26 unit directions, every u_i0, every u_i1.
    int n = NTheta + 2 * M;
    std::vector<double> x(n), seed((size_t)n * NCol, 0.0);
    std::vector<double *> sp(n);
    std::copy(theta.begin(), theta.end(), x.begin());
    std::copy(us.begin(), us.end(), x.begin() + NTheta);
    for (int i = 0; i < n; i++)
      sp[i] = &seed[(size_t)i * NCol];
    for (int k = 0; k < NTheta; k++)
      sp[k][k] = 1;
    for (int i = 0; i < 2 * M; i++)
      sp[NTheta + i][NTheta + i % 2] = 1;
    fov_forward(1, rows, n, NCol, x.data(), sp.data(), y.data(), rp.data());
#else
    jacobian(1, rows, NTheta, theta.data(), rp.data());
#endif
    for (int r = 0; r < rows; r++)
      for (int k = 0; k < NCol; k++)
        J[(size_t)k * rows + r] = rp[r][k];
  };
#elif defined(TOOL_SACADO)
  typedef Sacado::Rad::ADvar<double> R;
  std::vector<double> wts(rows, 0.0);
  auto deriv = [&] {
    std::vector<R> ath(NTheta), ae(rows);
    for (int k = 0; k < NTheta; k++)
      ath[k] = theta[k];
#if defined(HAND_COMPLICATED)
    std::vector<R> au(2 * M);
    for (int i = 0; i < 2 * M; i++)
      au[i] = us[i];
    handObjectiveComplicated(ath.data(), au.data(), &model, &data, ae.data());
#else
    handObjective(ath.data(), &model, &data, ae.data());
#endif
    std::vector<R *> outs(rows);
    for (int r = 0; r < rows; r++)
      outs[r] = &ae[r];
    for (int r = 0; r < rows; r++) {
      wts[r] = 1;
      R::Weighted_Gradcomp(rows, outs.data(), wts.data());
      wts[r] = 0;
      for (int k = 0; k < NTheta; k++)
        J[(size_t)k * rows + r] = ath[k].adj();
#if defined(HAND_COMPLICATED)
      J[(size_t)NTheta * rows + r] = au[2 * (r / 3)].adj();
      J[(size_t)(NTheta + 1) * rows + r] = au[2 * (r / 3) + 1].adj();
#endif
    }
  };
#endif

  bench::Runner run(PROBLEM, a);
  return run.run(
      primal, deriv, J,
      [&] {
        std::vector<double> ref(J.size());
        hand(ref.data());
        return ref;
      },
      [&] {
        // Finite differences of a few rows, w.r.t. every coordinate they
        // depend on (theta; complicated, also the row's point's u).
        std::vector<double> u(us), e(rows);
        double worst = 0;
        for (int i = 0; i < M; i += std::max(1, M / 4))
          for (int j = 0; j < 3; j++) {
            int row = 3 * i + j;
            std::vector<double> in(theta), g(NCol);
            for (int k = 0; k < NCol; k++)
              g[k] = J[(size_t)k * rows + row];
#if defined(HAND_COMPLICATED)
            in.push_back(us[2 * i]);
            in.push_back(us[2 * i + 1]);
#endif
            auto value = [&] {
#if defined(HAND_COMPLICATED)
              u[2 * i] = in[NTheta];
              u[2 * i + 1] = in[NTheta + 1];
#endif
              objective(in.data(), u.data(), e.data());
              return e[row];
            };
            worst = std::max(worst, bench::fdCheck(in, value, g, NCol));
            u = us;
          }
        return worst;
      },
#if defined(TOOL_ADOLC)
      [&] { return adolcTapeBytes(1); }
#else
      nullptr
#endif
  );
}
