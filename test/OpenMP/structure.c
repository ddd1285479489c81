// The structure of the derivatives of a parallel reduction over a stencil.
// Reverse mode: the forward sweep forks the body's augmented forward on a
// trampoline that stores each thread's tape in a block allocated before
// the fork; the reverse sweep forks the body's reverse on as many threads
// (__kmpc_push_num_threads of the recorded team size), then frees the
// block. The body's reverse adds the adjoints of the shared x with atomic
// adds when the team has several threads, and undoes the reduction's critical section in ticket order.
// Forward mode forks the body's tangent function with the shadows beside
// the shared pointers.
// RUN: %plain_cc -O1 -fopenmp -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: %opt -passes=tapestry -S %t.ll | FileCheck %s
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double stencil(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 1; i < n - 1; i++)
    s += x[i - 1] * x[i + 1];
  return s;
}

void grad(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)stencil, enzyme_dup, x, dx, enzyme_const, n);
}

double tangent(const double *x, double *dx, int n) {
  return __enzyme_fwddiff((void *)stencil, enzyme_dup, x, dx, enzyme_const, n);
}

// CHECK-LABEL: define internal {{.*}} @stencil.tapestry.rev_dc_ra(
// CHECK: %[[TAPES:[^ ]+]] = {{.*}}call {{.*}}ptr @malloc(
// CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr {{.*}}, ptr {{.*}}@[[AUG:[^ ,]+call\.fwd\.omp]], ptr {{.*}}%[[TAPES]],
// CHECK: %[[TEAM:[^ ]+]] = load i32, ptr %[[TAPES]]
// CHECK: call void @__kmpc_push_num_threads(ptr {{.*}}, i32 {{.*}}, i32 {{.*}}%[[TEAM]])
// CHECK-NEXT: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr {{.*}}, ptr {{.*}}@[[REV:[^ ,]+call\.rev\.omp]], ptr {{.*}}%[[TAPES]],
// CHECK-NEXT: call void @free(ptr {{.*}}%[[TAPES]])

// Several threads add atomically, one thread plainly.
// CHECK: define internal void @tapestry.omp.add.double(ptr %0, double %1)
// CHECK: load i8, ptr @tapestry.omp.shared
// CHECK: atomicrmw fadd ptr %0, double %1 monotonic, align 8
// CHECK: fadd double

// The body's augmented forward draws a ticket inside the critical section.
// CHECK: define internal {{.*}}augmented(
// CHECK: call void @__kmpc_critical(
// CHECK-NEXT: call i64 @tapestry.omp.ticket()

// CHECK: define internal {{.*}}reverse(
// CHECK: call void @tapestry.omp.add.double(
// CHECK: call void @tapestry.omp.wait(
// CHECK: call void @tapestry.omp.release(

// Each thread stores its tape at its thread number.
// CHECK: define internal void @[[AUG]](
// CHECK: store ptr {{.*}}, ptr @tapestry.omp.tickets
// CHECK: call {{.*}}call.fwd(
// CHECK: call i32 @omp_get_thread_num()

// CHECK: define internal void @[[REV]](
// CHECK: call i32 @omp_get_thread_num()
// CHECK: %[[TEAM2:[^ ]+]] = call i32 @omp_get_num_threads()
// CHECK: icmp sgt i32 %[[TEAM2]], 1
// CHECK: store i8 {{.*}}, ptr @tapestry.omp.shared
// CHECK: call void {{.*}}call.rev(


// CHECK-LABEL: define internal {{.*}} @stencil.tapestry.fwd_dc_ra(
// CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr {{.*}}, i32 6, ptr {{.*}}fwd_ccddd_omp.omp,
