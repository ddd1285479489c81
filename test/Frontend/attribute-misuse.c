// Misused attributes are clang diagnostics at the attribute: a function_like
// without the function's name is an error, and an attribute on what it does
// not apply to is clang's usual warning; enzyme_shadow's argument must be
// another global of the same type.
// RUN: not %clang_fplugin -fsyntax-only %s 2>&1 | FileCheck %s

// CHECK: attribute-misuse.c:[[@LINE+1]]:16: error: 'enzyme_function_like' takes the name of the math function as a string literal, as in enzyme_function_like("sin")
__attribute__((enzyme_function_like(3))) double a(double x);

// CHECK: attribute-misuse.c:[[@LINE+1]]:16: error: 'enzyme_function_like' attribute takes one argument
__attribute__((enzyme_function_like)) double b(double x);

// CHECK: attribute-misuse.c:[[@LINE+1]]:16: error: 'enzyme_inactive' attribute takes no arguments
__attribute__((enzyme_inactive(1))) double c(double x);

struct S {
  // CHECK: attribute-misuse.c:[[@LINE+1]]:24: warning: 'enzyme_sparse_accumulate' attribute only applies to functions
  int n __attribute__((enzyme_sparse_accumulate));
};

void d(void) {
  // CHECK: attribute-misuse.c:[[@LINE+1]]:31: warning: 'enzyme_inactive' attribute only applies to functions and global variables
  double local __attribute__((enzyme_inactive)) = 0;
  (void)local;
}

double shadow_of_x;
float wrong_type_shadow;
// CHECK: attribute-misuse.c:[[@LINE+1]]:16: error: 'enzyme_shadow' takes another global variable of the same type, the shadow, as in __attribute__((enzyme_shadow(x_shadow))) double x
__attribute__((enzyme_shadow(wrong_type_shadow))) double e;
// CHECK: attribute-misuse.c:[[@LINE+1]]:16: error: 'enzyme_shadow' takes another global variable of the same type, the shadow, as in __attribute__((enzyme_shadow(x_shadow))) double x
__attribute__((enzyme_shadow(no_such_global))) double f;

void g(void) {
  // CHECK: attribute-misuse.c:[[@LINE+1]]:31: warning: 'enzyme_shadow' attribute only applies to global variables
  double local __attribute__((enzyme_shadow(shadow_of_x))) = 0;
  (void)local;
}
