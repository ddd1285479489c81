/* The bodies of registered-target-declared-only.c's registered targets,
 * in another file. */
#include <math.h>
double fastLog(double a) { return log(a); }
double slowthing(double a) { return a * 4; }
