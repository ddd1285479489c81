/* The other file of test/Integration/opaque-call-writes-escaped-memory.c:
 * scales an element of the array the global points to. */
double *scratchSeen;
void rescaleSeen(void) { scratchSeen[2] *= 1.5; }
