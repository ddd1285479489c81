/* A function of another file: a derivative calling it has no rule for it. */
double other_file_function_value(double x) { return 3.0 * x; }
