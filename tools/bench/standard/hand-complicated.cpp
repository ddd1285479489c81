// Hand tracking, complicated variant (ADBench "hand", points on triangles
// with barycentric parameters that are also variables): hand.cpp with
// HAND_COMPLICATED, a file of its own so that standard.sh builds it as a
// problem of its own ("hand-complicated"). Definition, derivative, sizes
// and seed: hand.cpp's header.
#define HAND_COMPLICATED
#include "hand.cpp"
