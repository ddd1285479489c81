; A heap block that only holds integers free of floating-point bits carries
; no derivative and gets no shadow (Analysis/PlainHeapBlocks.h): indices
; and branch flags, a block grown by a copy into a bigger one (realloc as
; the plugin lowers it), merged by a phi. A block that may hold a float's
; bits, or whose pointer goes somewhere unknown, keeps its shadow. So does
; a library object's (@stream): constructed, written to and closed by the
; library's inactive functions (a double printed through it is text), its
; virtual table read only to call the library's virtual functions with the
; object, constants and integers (`delete` through the virtual destructor,
; a stream buffer's xsputn), also where an indirect call was dispatched over
; the file's functions. A double's bits passed to a virtual function
; (@stream_bits) or a virtual function read and stored elsewhere
; (@stream_table_kept) keep the shadow.
; RUN: %opt -passes='print<tapestry-activity>' -disable-output %s | FileCheck %s

declare ptr @malloc(i64)
declare ptr @calloc(i64, i64)
declare void @free(ptr)
declare i64 @malloc_usable_size(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @use(ptr)

; Flags of x > 0 and the integer part of x, read back to choose.
define double @flags(double %x) #0 {
  %buf = call ptr @malloc(i64 16)
  %pos = fcmp ogt double %x, 0.0
  %flag = zext i1 %pos to i32
  store i32 %flag, ptr %buf
  %ip = fptosi double %x to i64
  %slot = getelementptr inbounds i64, ptr %buf, i64 1
  %twice = shl i64 %ip, 1
  store i64 %twice, ptr %slot
  %f = load i32, ptr %buf
  %c = icmp ne i32 %f, 0
  %sq = fmul double %x, %x
  %r = select i1 %c, double %sq, double %x
  call void @free(ptr %buf)
  ret double %r
}

; CHECK-LABEL: activity of 'flags':
; CHECK-NEXT:    arg %x: active
; CHECK-NEXT:    %buf: inactive
; CHECK:         %slot: inactive
; CHECK:         %sq: active
; CHECK-NEXT:    %r: active
; CHECK-NOT:     {{^  }}

; Records grown as the plugin lowers realloc: a bigger block, a copy of the
; old one into it (malloc_usable_size bytes), the old one freed.
define double @grown(double %x, i64 %n) #1 {
entry:
  %first = call ptr @calloc(i64 1, i64 8)
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %rec = phi ptr [ %first, %entry ], [ %bigger, %loop ]
  %v = phi double [ %x, %entry ], [ %v.next, %loop ]
  %bytes = shl i64 %i, 4
  %bigger = call ptr @malloc(i64 %bytes)
  %old = call i64 @malloc_usable_size(ptr %rec)
  call void @llvm.memcpy.p0.p0.i64(ptr %bigger, ptr %rec, i64 %old, i1 false)
  call void @free(ptr %rec)
  %at = getelementptr inbounds i32, ptr %bigger, i64 %i
  %t = trunc i64 %i to i32
  store i32 %t, ptr %at
  %v.next = fmul double %v, %x
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  call void @free(ptr %bigger)
  ret double %v.next
}

; CHECK-LABEL: activity of 'grown':
; CHECK:         %first: inactive
; CHECK:         %rec: inactive
; CHECK:         %bigger: inactive
; CHECK:         %at: inactive
; CHECK:         %v.next: active

; An i64 loaded from the caller's doubles may be a double's bits: stored,
; the block keeps its shadow (and so does one merged with it by a phi).
define double @bits(ptr %xs, i1 %c) #2 {
  %a = call ptr @malloc(i64 8)
  %b = call ptr @malloc(i64 8)
  %bits = load i64, ptr %xs
  store i64 %bits, ptr %a
  %p = select i1 %c, ptr %a, ptr %b
  %back = load i64, ptr %p
  %d = bitcast i64 %back to double
  call void @free(ptr %a)
  call void @free(ptr %b)
  ret double %d
}

; CHECK-LABEL: activity of 'bits':
; CHECK:         %a: shadowed
; CHECK-NEXT:    %b: shadowed
; CHECK:         %p: shadowed

; A float's bits as an integer: shadowed.
define double @cast(double %x) #0 {
  %buf = call ptr @malloc(i64 8)
  %i = bitcast double %x to i64
  store i64 %i, ptr %buf
  %back = load i64, ptr %buf
  %d = bitcast i64 %back to double
  call void @free(ptr %buf)
  ret double %d
}

; CHECK-LABEL: activity of 'cast':
; CHECK:         %buf: shadowed

; A block whose address goes to an unknown function, or is stored: shadowed.
define double @escapes(double %x, ptr %out) #1 {
  %a = call ptr @malloc(i64 8)
  store i32 1, ptr %a
  call void @use(ptr %a)
  %b = call ptr @malloc(i64 8)
  store i32 2, ptr %b
  store ptr %b, ptr %out
  %sq = fmul double %x, %x
  ret double %sq
}

; CHECK-LABEL: activity of 'escapes':
; CHECK:         %a: shadowed
; CHECK:         %b: shadowed

; A block merged with a pointer the caller passed: shadowed.
define double @merged(ptr %in, i1 %c, double %x) #3 {
  %a = call ptr @malloc(i64 8)
  %p = select i1 %c, ptr %a, ptr %in
  store i32 1, ptr %p
  %sq = fmul double %x, %x
  ret double %sq
}

; CHECK-LABEL: activity of 'merged':
; CHECK:         %a: shadowed

%"class.std::basic_ofstream" = type { [512 x i8] }
declare ptr @_Znwm(i64)
declare void @_ZNSt14basic_ofstreamIcSt11char_traitsIcEEC1EPKcSt13_Ios_Openmode(ptr, ptr, i32)
declare ptr @_ZNSolsEd(ptr, double)
declare void @_ZNSt8ios_base4InitD1Ev(ptr)
@.path = private constant [10 x i8] c"/dev/null\00"
@.text = private constant [3 x i8] c"ab\00"

; new std::ofstream, x*x printed, sputn through the table, delete.
define double @stream(double %x) #0 {
  %sq = fmul double %x, %x
  %s = call ptr @_Znwm(i64 512)
  call void @_ZNSt14basic_ofstreamIcSt11char_traitsIcEEC1EPKcSt13_Ios_Openmode(ptr %s, ptr @.path, i32 16)
  %o = call ptr @_ZNSolsEd(ptr %s, double %sq)
  %vt = load ptr, ptr %s
  %put.slot = getelementptr inbounds ptr, ptr %vt, i64 12
  %put = load ptr, ptr %put.slot
  %n = call i64 %put(ptr %s, ptr @.text, i64 2)
  %vt2 = load ptr, ptr %s
  %dtor.slot = getelementptr inbounds ptr, ptr %vt2, i64 1
  %dtor = load ptr, ptr %dtor.slot
  %known = icmp eq ptr %dtor, @_ZNSt8ios_base4InitD1Ev
  br i1 %known, label %direct, label %indirect
direct:
  call void @_ZNSt8ios_base4InitD1Ev(ptr %s)
  br label %done
indirect:
  call void %dtor(ptr %s)
  br label %done
done:
  ret double %sq
}

; CHECK-LABEL: activity of 'stream':
; CHECK:         %sq: active
; CHECK-NEXT:    %s: inactive

define double @stream_bits(double %x) #0 {
  %s = call ptr @_Znwm(i64 512)
  call void @_ZNSt14basic_ofstreamIcSt11char_traitsIcEEC1EPKcSt13_Ios_Openmode(ptr %s, ptr @.path, i32 16)
  %vt = load ptr, ptr %s
  %put.slot = getelementptr inbounds ptr, ptr %vt, i64 12
  %put = load ptr, ptr %put.slot
  %bits = bitcast double %x to i64
  %n = call i64 %put(ptr %s, ptr @.text, i64 %bits)
  %sq = fmul double %x, %x
  ret double %sq
}

; CHECK-LABEL: activity of 'stream_bits':
; CHECK:         %s: shadowed

define double @stream_table_kept(double %x, ptr %out) #1 {
  %s = call ptr @_Znwm(i64 512)
  call void @_ZNSt14basic_ofstreamIcSt11char_traitsIcEEC1EPKcSt13_Ios_Openmode(ptr %s, ptr @.path, i32 16)
  %vt = load ptr, ptr %s
  %dtor.slot = getelementptr inbounds ptr, ptr %vt, i64 1
  %dtor = load ptr, ptr %dtor.slot
  store ptr %dtor, ptr %out
  %sq = fmul double %x, %x
  ret double %sq
}

; CHECK-LABEL: activity of 'stream_table_kept':
; CHECK:         %s: shadowed

attributes #0 = { "tapestry-activity"="a" }
attributes #1 = { "tapestry-activity"="ac" }
attributes #2 = { "tapestry-activity"="dc" }
attributes #3 = { "tapestry-activity"="cca" }
