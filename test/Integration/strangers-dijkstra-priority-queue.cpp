// A routing user's C++ program: Dijkstra's shortest paths on a small road
// graph whose edge travel times are smooth functions of a congestion
// parameter per edge, t_e = L_e (1 + 0.15 (c_e)^4) (the BPR formula). The
// frontier is a std::priority_queue of std::pair<double, int> (active keys
// moved around by the heap), adjacency is a std::vector of std::vector of
// edge structs, and the objective is a weighted sum of the distances to a
// few destinations. The gradient with respect to the congestion levels
// (reverse, through <enzyme/enzyme> with Duplicated<const std::vector
// <double> &>) is nonzero exactly on the shortest-path tree's edges.
// Expected: the derivative of each destination's path time along its
// path, found by walking the predecessor tree of a plain run, and a
// central finite difference.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <enzyme/enzyme>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

struct Edge {
  int to, id;
  double length;
};

struct Graph {
  std::vector<std::vector<Edge>> adj;
  int edges = 0;
  explicit Graph(int n) : adj(n) {}
  void road(int a, int b, double len) {
    adj[a].push_back({b, edges, len});
    adj[b].push_back({a, edges, len});
    edges++;
  }
};

static double travel_time(double len, double c) {
  double c2 = c * c;
  return len * (1 + 0.15 * c2 * c2);
}

// Distances from node 0; pred[v] = edge id into v on the tree (or -1).
static void dijkstra(const Graph &g, const std::vector<double> &cong,
                     std::vector<double> &dist, std::vector<int> *pred) {
  int n = (int)g.adj.size();
  dist.assign(n, 1e300);
  if (pred)
    pred->assign(n, -1);
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> frontier;
  dist[0] = 0;
  frontier.push({0.0, 0});
  while (!frontier.empty()) {
    Item top = frontier.top();
    frontier.pop();
    int u = top.second;
    if (top.first > dist[u])
      continue;
    for (const Edge &e : g.adj[u]) {
      double nd = top.first + travel_time(e.length, cong[e.id]);
      if (nd < dist[e.to]) {
        dist[e.to] = nd;
        if (pred)
          (*pred)[e.to] = e.id;
        frontier.push({nd, e.to});
      }
    }
  }
}

static const int dests[3] = {4, 6, 7};
static const double weights[3] = {1.0, 0.5, 2.0};

double objective(const Graph &g, const std::vector<double> &cong) {
  std::vector<double> dist;
  dijkstra(g, cong, dist, nullptr);
  double s = 0;
  for (int k = 0; k < 3; k++)
    s += weights[k] * dist[dests[k]];
  return s;
}

int main() {
  Graph g(8);
  g.road(0, 1, 2.0);
  g.road(0, 2, 1.5);
  g.road(1, 3, 1.8);
  g.road(2, 3, 2.9);
  g.road(2, 5, 2.2);
  g.road(3, 4, 1.1);
  g.road(5, 4, 2.6);
  g.road(5, 6, 1.3);
  g.road(4, 7, 2.4);
  g.road(6, 7, 3.1);
  g.road(1, 6, 4.0);
  std::vector<double> cong(g.edges);
  for (int e = 0; e < g.edges; e++)
    cong[e] = 0.6 + 0.35 * std::sin(1.3 * e);

  std::vector<double> dcong(g.edges, 0.0);
  enzyme::autodiff<enzyme::Reverse>(
      objective, enzyme::Const<const Graph &>(g),
      enzyme::Duplicated<const std::vector<double> &>(cong, dcong));

  // Expected: walk each destination's predecessor chain.
  std::vector<double> dist;
  std::vector<int> pred;
  dijkstra(g, cong, dist, &pred);
  std::vector<double> want(g.edges, 0.0);
  std::vector<double> edge_len(g.edges);
  for (int u = 0; u < (int)g.adj.size(); u++)
    for (const Edge &e : g.adj[u])
      edge_len[e.id] = e.length;
  for (int k = 0; k < 3; k++) {
    int v = dests[k];
    while (pred[v] >= 0) {
      int id = pred[v];
      double c = cong[id];
      want[id] += weights[k] * edge_len[id] * 0.6 * c * c * c;
      // Step to the other end of edge id.
      for (const Edge &e : g.adj[v])
        if (e.id == id) {
          v = e.to;
          break;
        }
    }
  }
  const double h = 1e-6;
  for (int e = 0; e < g.edges; e++) {
    std::vector<double> a = cong, b = cong;
    a[e] += h;
    b[e] -= h;
    double fd = (objective(g, a) - objective(g, b)) / (2 * h);
    char name[32];
    snprintf(name, sizeof name, "dT/dc[%d]", e);
    check_close(name, dcong[e], want[e], 1e-12);
    snprintf(name, sizeof name, "dT/dc[%d] FD", e);
    check_close(name, dcong[e], fd, 1e-6);
  }
  return check_report();
}
