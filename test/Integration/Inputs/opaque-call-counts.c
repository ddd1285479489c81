/* The other file of test/Integration/opaque-call-local-scratch.c: counts
 * calls, and remembers a pointer without touching what it points to. */
int stepsSeen;
double *lastSeen;
void countStep(void) { stepsSeen++; }
void logStep(void) { stepsSeen += lastSeen != 0; }
