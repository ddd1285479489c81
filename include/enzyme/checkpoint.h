/*===- enzyme/checkpoint.h - Enzyme's checkpointed loops ------------*- C -*-===
 *
 * Enzyme's programs include this header for user control of checkpointing:
 * __enzyme_checkpoint_for(step, start, n, markers..., args...) runs
 *   for (int64_t i = start; i < start + n; i++) step(i, args...);
 * and __enzyme_checkpoint_while(step, markers..., args...) runs
 *   int64_t i = 0; while (step(i++, args...));
 * and Enzyme's reverse mode takes snapshots of the state before the steps a
 * checkpointing scheme (enzyme_scheme, &scheme, &config) chooses, as the
 * scheme's callbacks say, restoring and re-running steps instead of taping
 * them all. The scheme's interface, its configuration and its statistics are
 * declared here with Enzyme's names and layouts, with Enzyme's three
 * reference schemes (EnzymeCkptRevolve, EnzymeCkptPeriodic,
 * EnzymeCkptStoreAll).
 *
 * Tapestry declares them so that such programs compile up to the call, where
 * Tapestry stops with an error naming the feature: it does not hand its
 * checkpointing to a user's scheme, whose callbacks and statistics a program
 * can observe, so it never runs the loop any other way silently. Writing the
 * loop itself gives the same derivatives, with Tapestry's own choice of what
 * to store and what to recompute (docs/enzyme-compatibility.md). The
 * reference schemes are declared, not defined: Tapestry has no definition to
 * link.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TAPESTRY_ENZYME_CHECKPOINT_H
#define TAPESTRY_ENZYME_CHECKPOINT_H

/* A system header, as the standard library's are: the warnings users turn
 * on (-Wreserved-identifier) are about their code, not this header's. */
#pragma GCC system_header

#include <stddef.h>
#include <stdint.h>
/* As Enzyme's header: programs written for it call memset, malloc and
 * printf with only this header included. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ENZYME_CKPT_ABI_VERSION 1

/* What a scheme asks the driver to do next (EnzymeCkptAction::flag). */
enum {
  ENZYME_CKPT_NONE = 0,
  ENZYME_CKPT_STORE = 1,
  ENZYME_CKPT_RESTORE = 2,
  ENZYME_CKPT_FORWARD = 3,
  ENZYME_CKPT_FIRSTUTURN = 4,
  ENZYME_CKPT_UTURN = 5,
  ENZYME_CKPT_ERROR = 6,
  ENZYME_CKPT_DONE = 7
};

typedef struct EnzymeCkptAction {
  int32_t flag;
  int64_t iteration;
  int64_t startiteration;
  int64_t cpnum;
} EnzymeCkptAction;

/* A piece of memory that a snapshot holds. */
typedef struct EnzymeCkptRegion {
  void *ptr;
  uint64_t bytes;
  uint32_t addrspace;
  uint32_t flags;
} EnzymeCkptRegion;

/* A checkpointing scheme: its callbacks. */
typedef struct EnzymeCheckpointScheme {
  uint32_t version;
  void *(*init)(void *__data, int64_t __nsteps, uint64_t __snapshot_bytes);
  void (*next_action)(void *__state, EnzymeCkptAction *__out);
  void (*store)(void *__state, int64_t __slot, int64_t __step,
                const EnzymeCkptRegion *__regions, uint64_t __nregions);
  void (*restore)(void *__state, int64_t __slot, int64_t __step,
                  const EnzymeCkptRegion *__regions, uint64_t __nregions);
  void (*set_nsteps)(void *__state, int64_t __nsteps);
  void (*finalize)(void *__state);
  void (*save_state)(void *__state, int64_t __slot, int64_t __step,
                     void *__env);
  void (*load_state)(void *__state, int64_t __slot, int64_t __step,
                     void *__env);
  void (*set_paths)(void *__state, const int64_t *__paths, uint64_t __len);
} EnzymeCheckpointScheme;

/* Markers: enzyme_scheme, &scheme, &config; enzyme_checkpoint_region, ptr,
 * bytes. */
extern int enzyme_scheme;
extern int enzyme_checkpoint_region;

void __enzyme_checkpoint_for(void *__step, int64_t __start, int64_t __n, ...);
void __enzyme_checkpoint_while(void *__step, ...);

/* The reference schemes' statistics and configuration. */
typedef struct EnzymeCkptStats {
  int64_t forward_steps;
  int64_t taped_steps;
  int64_t stores;
  int64_t restores;
  int64_t max_slots;
  uint64_t max_bytes;
} EnzymeCkptStats;

typedef struct EnzymeCkptConfig {
  int64_t snapshots;
  int verbose;
  const char *spill_dir;
  uint64_t mem_budget;
  EnzymeCkptStats *stats;
} EnzymeCkptConfig;

/* Enzyme's reference schemes: binomial (Revolve), periodic, and a snapshot
 * before every step. */
extern const EnzymeCheckpointScheme EnzymeCkptRevolve;
extern const EnzymeCheckpointScheme EnzymeCkptPeriodic;
extern const EnzymeCheckpointScheme EnzymeCkptStoreAll;

#ifdef __cplusplus
}
#endif

#endif /* TAPESTRY_ENZYME_CHECKPOINT_H */
