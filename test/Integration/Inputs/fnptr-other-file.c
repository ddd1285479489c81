/* A function the differentiated file never sees: its address reaches the
 * derivative only at run time. */
static double other_cube(double x) { return x * x * x; }
typedef double (*unary)(double);
unary other_file_function(void) { return other_cube; }
