#include <math.h>
double wave(double x, double y) { return sin(x * y); }
