# mmfuzz: a fuzzing and stress tester for allocator concurrency.
#
#   make                          build/mmfuzz (clang, -O2)
#   make SANITIZER=address,undefined   build-asan/mmfuzz
#   make SANITIZER=thread         build-tsan/mmfuzz
#   make test                     the suite in the plain, ASan/UBSan and TSan builds
#   make fuzz                     the default campaign on the shipped corpus
#   make bench                    fiber switch cost and deterministic/sequential ratio
#   make ENGINE=libfuzzer [SANITIZER=thread] fuzz-bins    the fuzz targets (fuzz/)
#   make ENGINE=afl [SANITIZER=address] fuzz-bins
#
# Run as root on a fresh Debian 12, the first build installs the Debian
# packages it needs; as another user it prints the apt-get line and stops.

ifeq ($(origin CC),default)
CC := clang
endif
SANITIZER ?=
WERROR ?= 1
O ?=

DEB_PKGS := clang-14 libclang-rt-14-dev clang-19 libclang-rt-19-dev liburcu-dev python3-yaml \
	    libfuzzer-14-dev afl++ gnuplot-nox zip

# The program fuzz targets: each a struct fuzz_target of the same name in
# src/prog/ops_*.c (a layer adds its own); the all and mm targets take every
# operation (all: the default campaign's, each layer a share of the folded
# codes; mm: the old default, its fold list pinned for its corpora).
FUZZ_TARGETS := all mm pagealloc kernel tlb slub deferred

# Fuzz builds: the same sources compiled with the engine's instrumentation.
ENGINE ?=
FUZZ_COMPILE :=
ifeq ($(ENGINE),libfuzzer)
ifeq ($(SANITIZER),)
SANITIZER := address,undefined
endif
# clang 19 for every libFuzzer build: clang 14 and 16 instrument libFuzzer's
# own counters (false races on fibers under TSan), and libFuzzer 14 keeps the
# inputs a target rejects with -1 (fuzz-ecosystem.md 1.4, 1.6)
CC := clang-19
LIB_FUZZING_ENGINE ?= -fsanitize=fuzzer
# No comparison tracing (FUZZ_CMP=1 brings it back): the model's compares
# are against its own state, not input bytes (decoding folds every byte
# into range), and tracing them cost a quarter of every execution.
FUZZ_COMPILE := -fsanitize=fuzzer-no-link -fno-sanitize-coverage=stack-depth -DMMFUZZ_ILV_SINK=1 \
	$(if $(filter 1,$(FUZZ_CMP)),,-fno-sanitize-coverage=trace-cmp)
BUILD ?= build-fuzz-libfuzzer-$(subst $(comma),-,$(SANITIZER))$(if $(filter 1,$(FUZZ_CMP)),-cmp)
else ifeq ($(ENGINE),afl)
CC := afl-clang-fast
LIB_FUZZING_ENGINE ?= -fsanitize=fuzzer
FUZZ_COMPILE := -DMMFUZZ_ILV_SINK=2
BUILD ?= build-fuzz-afl-$(if $(SANITIZER),$(subst $(comma),-,$(SANITIZER)),plain)
ifeq ($(SANITIZER),thread)
export AFL_LLVM_THREADSAFE_INST := 1
endif
export AFL_QUIET := 1
else ifneq ($(ENGINE),)
$(error ENGINE is libfuzzer or afl)
endif
# What the ASan fuzz builds leave out of the sanitizers' checks, for the
# execution rate (each measured against the fuzz target's executions a
# second when it was chosen):
#  - fake stack frames for stack-use-after-return: clang 19's runtime
#    turns detect_stack_use_after_return on by default, a fake frame for
#    every call with an addressed local (1.14x the model's rate without);
#    it finds a C bug of the tool, not of the allocator it models, and
#    make test's ASan build (clang 14, runtime default off) never had it;
#  - UBSan's pointer-overflow, null and alignment checks, a third of
#    UBSan's instructions (1.22x the model's rate without): a pointer that
#    wraps or is null is a bad address ASan reports where it is used (a
#    SEGV with its stack for null), and the model makes no pointer by byte
#    arithmetic but container_of and the world's block header, so a
#    misaligned one (harmless on x86) cannot come of the allocator's logic.
#    The checks that find model bugs stay: shift and signed overflow
#    (1 << order, counters), bounds (an index past free_area[] or a pcp
#    list array), bool and enum loads, the rest.  FUZZ_UB=full keeps every
#    check; make test's builds keep them all.
# -O2 instead of -O1 bought nothing measurable on top of these (0.88 s
# against 0.88 s, bench_replay over the grown corpus): the fuzz builds keep
# -O1, the other sanitizer builds' level.
ifneq ($(ENGINE),)
ifneq ($(filter address%,$(SANITIZER)),)
FUZZ_COMPILE += -fsanitize-address-use-after-return=never
ifneq ($(FUZZ_UB),full)
ifneq ($(filter %undefined,$(SANITIZER)),)
FUZZ_COMPILE += -fno-sanitize=pointer-overflow,null,alignment
endif
endif
endif
endif

ifeq ($(SANITIZER),)
BUILD ?= build
SANFLAGS :=
OPT ?= -O2
else ifeq ($(SANITIZER),thread)
BUILD ?= build-tsan
SANFLAGS := -fsanitize=thread
OPT ?= -O1
else ifneq ($(filter address%,$(SANITIZER)),)
BUILD ?= build-asan
SANFLAGS := -fsanitize=$(SANITIZER)
OPT ?= -O1
else
BUILD ?= build-$(subst $(comma),-,$(SANITIZER))
SANFLAGS := -fsanitize=$(SANITIZER)
OPT ?= -O1
endif
comma := ,
ifneq ($(SANFLAGS),)
SANFLAGS += -fno-sanitize-recover=all -fno-omit-frame-pointer
endif

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wno-unused-parameter -Wno-missing-field-initializers
ifeq ($(WERROR),1)
WARN += -Werror
endif
CFLAGS ?= $(OPT) -g -gdwarf-4
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) $(SANFLAGS) $(FUZZ_COMPILE) $(CFLAGS) -MMD -MP
LDFLAGS ?=
LDLIBS := -lpthread -lm

LIB_DIRS := src/sched src/world src/kernel src/bugs src/mm src/check src/prog
LIB_SRCS := $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c))
LIB_ASM := $(wildcard src/sched/*.S)
CLI_SRCS := $(wildcard src/cli/*.c)
TEST_SRCS := $(wildcard tests/*.c)

LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o) $(LIB_ASM:%.S=$(BUILD)/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)

ifeq ($(V),1)
Q :=
else
Q := @
endif

LIB := $(BUILD)/libmmfuzz.a
# Layers, their operations, checkers and config keys register themselves in
# linker sections that nothing else references: link the whole archive.
LINK_LIB = -Wl,--whole-archive $(LIB) -Wl,--no-whole-archive
MMFUZZ := $(BUILD)/mmfuzz
DEPS_STAMP := $(BUILD)/.deps-ok

.PHONY: FORCE all deps test test-plain test-asan test-tsan check clean bench
all: $(MMFUZZ) $(TEST_BINS)

# ---- Debian packages ----
# DEPS=none skips the check (a build image that brings its own compilers)
deps: $(DEPS_STAMP)
$(DEPS_STAMP):
	@[ "$(DEPS)" = none ] || { missing=""; for p in $(DEB_PKGS); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else \
	    echo "mmfuzz needs Debian packages that are missing; run as root:"; \
	    echo "  apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi; }
	@mkdir -p $(BUILD) && touch $@

# ---- objects ----
# Objects depend on the flags they were built with: a change rebuilds them.
FLAGS_STAMP := $(BUILD)/.flags
$(FLAGS_STAMP): FORCE
	@mkdir -p $(BUILD)
	@echo '$(CC) $(ALL_CFLAGS)' | cmp -s - $@ || echo '$(CC) $(ALL_CFLAGS)' > $@
FORCE:

# The model's files (src/mm, and the kernel layer src/kernel/ktorture.c)
# are compiled with MMFUZZ_MODEL: there its racy accesses (READ_ONCE,
# WRITE_ONCE, data_race, atomic reads and sets) are yield points, and
# nowhere else (src/kernel/compiler.h).
MODEL_SRCS := src/mm/% src/kernel/ktorture.c
model_flags = $(if $(filter $(MODEL_SRCS),$<),-DMMFUZZ_MODEL)

$(BUILD)/%.o: %.c $(FLAGS_STAMP) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(model_flags) -Isrc -c $< -o $@

$(BUILD)/%.o: %.S $(FLAGS_STAMP) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(SANFLAGS) -g -gdwarf-4 -c $< -o $@

# In the fuzz builds only the model is instrumented for coverage: the
# checkers, the scheduler's bookkeeping and the world's reset run on every
# execution, their branches say nothing about the allocator, and their
# comparison hooks cost a third of an execution; the harnesses' own
# bookkeeping (stats, saved findings) would be unstable coverage for AFL++.
# The interleavings reach the
# engines through src/sched/ilv.c (the states: ilv_state.c), which writes the engine's map itself (and
# must not be compiled by afl-clang-fast, whose pass owns __afl_area_ptr).
NOINST_SRCS := $(wildcard src/check/*.c) src/sched/sched.c src/sched/run.c src/sched/deadlock.c src/sched/policy.c src/sched/fiber.c \
	src/world/world.c src/world/config.c src/mm/mm_init.c \
	src/prog/handle.c \
	src/sched/ilv.c src/sched/ilv_state.c
NOINST_OBJS = $(NOINST_SRCS:%.c=$(BUILD)/%.o) $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%.o) \
	$(BUILD)/fuzz/fuzz_text.o
ifeq ($(ENGINE),libfuzzer)
$(NOINST_OBJS): ALL_CFLAGS := $(filter-out -fsanitize=fuzzer-no-link,$(ALL_CFLAGS))
else ifeq ($(ENGINE),afl)
$(NOINST_OBJS): CC := clang-14
endif
# The checkers that walk the model's structures read memory the model
# owns, every quiescence: in the fuzz builds they run without ASan's checks
# (the plain ASan build runs them with, in make test).  The shadow keeps
# them: its read of a block's cookie is where a block freed behind the
# program's back shows as use-after-poison.
ifneq ($(ENGINE),)
ifneq ($(filter address%,$(SANITIZER)),)
NOASAN_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(filter-out src/check/shadow.c,$(wildcard src/check/*.c)))
$(NOASAN_OBJS): ALL_CFLAGS := $(filter-out -fsanitize=fuzzer-no-link,$(ALL_CFLAGS)) -fno-sanitize=address
endif
endif

$(LIB): $(LIB_OBJS)
	@rm -f $@
	$(Q)ar rcs $@ $^

# mmfuzz --version: the version, the commit it was built from (main.o is
# rebuilt when it changes), the compiler (its own __VERSION__)
MMFUZZ_VERSION := 0.1
GIT_COMMIT := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
GIT_STAMP := $(BUILD)/.git-commit
$(GIT_STAMP): FORCE
	@mkdir -p $(BUILD)
	@echo '$(GIT_COMMIT)' | cmp -s - $@ || echo '$(GIT_COMMIT)' > $@
$(BUILD)/src/cli/main.o: $(GIT_STAMP)
$(BUILD)/src/cli/main.o: ALL_CFLAGS += -DMMFUZZ_VERSION='"$(MMFUZZ_VERSION)"' \
	-DMMFUZZ_COMMIT='"$(GIT_COMMIT)"'

$(MMFUZZ): $(CLI_OBJS) $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(CLI_OBJS) $(LINK_LIB) $(LDLIBS) -o $@

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) $< $(LINK_LIB) $(LDLIBS) -o $@

# ---- tests ----
# Each build runs the C unit tests (TAP) and the shell scenario tests under
# prove; MMFUZZ_BUILD tells the scripts which build they test.
# Two jobs (the machines have 2 cores); the tests that run make themselves
# (mmfuzz fuzz builds the corpus and fuzz binaries, fuzz/campaign, the
# mutant trees) run one after another so that no two makes share a build.
PROVE_JOBS ?= 2
PROVE_SEQ := tests/{fuzz,cli_bad,seeds_kept,ci_files,docs_examples,mutants,tlb_window}.t
test-one: $(MMFUZZ) $(TEST_BINS)
	@echo "== tests: $(BUILD) =="
	MMFUZZ_BUILD=$(BUILD) prove -f --timer -j$(PROVE_JOBS) --rules='seq=$(PROVE_SEQ)' \
		--rules='par=**' $(TEST_BINS) $(wildcard tests/*.t)

test-plain:
	$(MAKE) --no-print-directory test-one
test-asan:
	$(MAKE) --no-print-directory SANITIZER=address,undefined test-one
test-tsan:
	$(MAKE) --no-print-directory SANITIZER=thread test-one

test: deps
	$(MAKE) --no-print-directory test-plain
	$(MAKE) --no-print-directory test-asan
	$(MAKE) --no-print-directory test-tsan

# make test-long: the slow checks kept out of make test's time
# (tests/long/*.t, with the plain build); .ci/run runs it after make test
.PHONY: test-long
test-long: deps $(MMFUZZ)
	MMFUZZ_BUILD=$(BUILD) prove -f --timer $(wildcard tests/long/*.t)

.SECONDARY:

# ---- benchmarks ----
BENCH_BINS := $(BUILD)/bench/bench_core $(BUILD)/bench/bench_replay

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) $< $(LINK_LIB) $(LDLIBS) -o $@

# make bench prints the figures and writes them, with the commit, the machine
# and its load, to docs/measurements/bench.md (bench/mpage.sh).
bench: $(BUILD)/bench/bench_core
	@load=$$(cut -d' ' -f1-3 /proc/loadavg); out=$(BUILD)/bench.out; rm -f $$out.failed; \
	{ echo "== make bench: the scheduler's cost ($(BUILD), medians of 7 rounds) =="; \
	  $(BUILD)/bench/bench_core || touch $$out.failed; \
	  if command -v valgrind >/dev/null 2>&1; then \
	    d=$$(mktemp -d); \
	    valgrind --tool=callgrind --callgrind-out-file=$$d/det $(BUILD)/bench/bench_core det >/dev/null 2>$$d/det.log; \
	    valgrind --tool=callgrind --callgrind-out-file=$$d/seq $(BUILD)/bench/bench_core seq >/dev/null 2>$$d/seq.log; \
	    di=$$(sed -n 's/.*Collected : //p' $$d/det.log); si=$$(sed -n 's/.*Collected : //p' $$d/seq.log); \
	    echo "instructions (callgrind, model only): deterministic $$di, sequential $$si"; \
	    awk -v a=$$di -v b=$$si 'BEGIN { printf "deterministic/sequential (instructions): %.2f\n", a / b }'; \
	    rm -rf $$d; \
	  fi; } 2>&1 | tee $$out; \
	if [ -e $$out.failed ]; then rm -f $$out.failed; exit 1; fi; \
	bench/mpage.sh -n bench -c "make bench" -l "$$load" -f $$out

clean:
	rm -rf build build-asan build-tsan build-* findings-tmp

# ---- fuzz targets ----
# make ENGINE=libfuzzer|afl [SANITIZER=...] fuzz-bins: $(BUILD)/fuzz/fuzz_<target> for
# every program target in FUZZ_TARGETS (defined at the top: the descriptors'
# fuzz_target of that name) and fuzz_text, the parser.
FUZZ_BINS := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%) $(BUILD)/fuzz/fuzz_text
.PHONY: fuzz-bins corpus
fuzz-bins: $(FUZZ_BINS)

$(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%.o): $(BUILD)/fuzz/fuzz_%.o: fuzz/fuzz_prog.c $(FLAGS_STAMP) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -DMMFUZZ_TARGET_NAME='"$*"' -Isrc -c $< -o $@
$(BUILD)/fuzz/%: $(BUILD)/fuzz/%.o $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) $< $(LINK_LIB) $(LIB_FUZZING_ENGINE) $(LDLIBS) -o $@

# The seed corpora: readable text in corpus/<target>/ (corpus/pagealloc/ for
# the page allocator), binary twins built here, one directory per target.
# The all and mm targets take every seed; the text target the readable programs,
# copied: no engine ever gets a directory of the source tree.
SEED_DIRS := $(filter-out corpus/regress,$(patsubst %/,%,$(wildcard corpus/*/)))
SEEDS := $(wildcard $(SEED_DIRS:%=%/*.mmf))
# corpus/DIR/NAME.mmf -> TARGET/DIR-NAME: one flat directory per target
seed_name = $(subst /,-,$(patsubst corpus/%.mmf,%,$(1)))
target_seeds = $(if $(filter all mm,$(1)),$(SEEDS),$(wildcard corpus/$(1)/*.mmf))
# A seed naming what the tree no longer has (a yield site a code change
# removed, an operation, a key) is kept with that dropped (encode
# --keep-going), and the line that says so is kept in corpus/dropped/NAME.txt
# for mmfuzz fuzz to repeat at every campaign; mmfuzz run still refuses it.
define seed_rules
$(BUILD)/corpus/$(1)/$(call seed_name,$(2)).bin: $(2) $(MMFUZZ)
	@mkdir -p $$(dir $$@) $(BUILD)/corpus/dropped
	$(Q)$(MMFUZZ) encode --keep-going --dropped $(BUILD)/corpus/dropped/$(call seed_name,$(2)).txt $$< -o $$@
CORPUS_BINS += $(BUILD)/corpus/$(1)/$(call seed_name,$(2)).bin
endef
CORPUS_BINS :=
$(foreach t,$(FUZZ_TARGETS),$(foreach f,$(call target_seeds,$(t)),$(eval $(call seed_rules,$(t),$(f)))))
define text_seed_rule
$(BUILD)/corpus/text/$(call seed_name,$(1)).mmf: $(1)
	@mkdir -p $$(dir $$@)
	$(Q)cp $$< $$@
CORPUS_BINS += $(BUILD)/corpus/text/$(call seed_name,$(1)).mmf
endef
$(foreach f,$(SEEDS),$(eval $(call text_seed_rule,$(f))))
corpus: $(CORPUS_BINS)

# make fuzz-dict: fuzz/mm.dict from the operation descriptors
.PHONY: fuzz-dict
fuzz-dict: $(BUILD)/tests/test_dict
	$(BUILD)/tests/test_dict --write fuzz/mm.dict

# make fuzz: the default campaign (target all, libFuzzer + ASan/UBSan, 60 s)
# on the shipped corpus; findings go to findings/.
.PHONY: fuzz
fuzz: $(MMFUZZ)
	$(MMFUZZ) fuzz --time $(or $(FUZZ_TIME),60) --out findings

# make bench-bugs [BENCH_RUNS=3] [BENCH_CAP=300] [BENCH_ENGINES="..."]
# [BENCH_BUGS="..."] [BENCH_TARGET=T]: time to first detection of each bug switch, per engine;
# writes $(BUILD)/bench-bugs.csv, prints the medians and the slowest switch, and
# writes docs/measurements/bench-bugs.md (bench/bench_bugs.sh).
.PHONY: bench-bugs
bench-bugs: $(MMFUZZ)
	@MMFUZZ=$(abspath $(MMFUZZ)) bench/bench_bugs.sh -r $(or $(BENCH_RUNS),3) \
		-c $(or $(BENCH_CAP),300) -o $(BUILD)/bench-bugs.csv \
		$(if $(BENCH_ENGINES),-e "$(BENCH_ENGINES)") $(if $(BENCH_BUGS),-b "$(BENCH_BUGS)") \
		$(if $(BENCH_TARGET),-t "$(BENCH_TARGET)")

# make bench-search [SEARCH_RUNS=3] [SEARCH_CAP=600] [SEARCH_BUGS="..."|none]
# [SEARCH_MUTANTS=REGEX|none] [SEARCH_ARGS="-S|-N ..."]: time to first detection of every
# bug switch and non-equivalent catalogue mutant with the seeds aimed at it
# removed, and from no seeds; writes docs/measurements/bench-search.md
# (bench/bench_search.sh).  Hours at the defaults.
.PHONY: bench-search
bench-search: $(MMFUZZ)
	@MMFUZZ=$(abspath $(MMFUZZ)) bench/bench_search.sh -r $(or $(SEARCH_RUNS),3) \
		-c $(or $(SEARCH_CAP),600) $(if $(SEARCH_BUGS),-b "$(SEARCH_BUGS)") \
		$(if $(SEARCH_MUTANTS),-m '$(SEARCH_MUTANTS)') $(SEARCH_ARGS)

# make bench-exec [EXEC_SECS=30] [EXEC_ROUNDS=3] [EXEC_ENGINES="libfuzzer afl"]
# [EXEC_TARGETS="..."] [EXEC_GROW=RUNS] [EXEC_REV=COMMIT]: executions per second
# of every program target beside its engine's floor (the same binary with
# MMFUZZ_FLOOR=1: decode, run nothing) in the same run, target/floor, and the
# share of an execution in the model, fibers, checkers, harness and engine
# (perf); EXEC_REV adds that commit's targets.  Writes
# docs/measurements/bench-exec.md (bench/bench_exec.sh).
.PHONY: bench-exec
bench-exec: deps
	@bench/bench_exec.sh -t $(or $(EXEC_SECS),30) -r $(or $(EXEC_ROUNDS),3) \
		$(if $(EXEC_ENGINES),-e "$(EXEC_ENGINES)") $(if $(EXEC_TARGETS),-g "$(EXEC_TARGETS)") \
		$(if $(EXEC_GROW),-n $(EXEC_GROW)) $(if $(EXEC_REV),-o $(EXEC_REV))

# make bench-icount [ICOUNT_REV=ffa4832] [ICOUNT_TARGETS="..."]: instructions
# per execution (callgrind over bench_replay: no engine, every checker on) of
# each program target, this tree against ICOUNT_REV on that commit's seeds:
# a comparison the machine's load does not move.  Writes
# docs/measurements/bench-icount.md (bench/bench_icount.sh).
.PHONY: bench-icount
bench-icount:
	@bench/bench_icount.sh -o $(or $(ICOUNT_REV),ffa4832) \
		$(if $(ICOUNT_TARGETS),-g "$(ICOUNT_TARGETS)")

# ---- stress ----
# The will-it-scale style runner and its workloads (stress/), linked into
# the mmfuzz binary.  bench-stress: pcp_alloc1 at 2 tasks over 1 task (the
# linear line is 2.00) and the cost of one order-0 alloc+free pair; brk1 at
# one task (issue 13's target: at least 1 M ops/s in the plain build).
STRESS_SRCS := $(wildcard stress/*.c)
STRESS_OBJS := $(STRESS_SRCS:%.c=$(BUILD)/%.o)
CLI_OBJS += $(STRESS_OBJS)
$(MMFUZZ): $(STRESS_OBJS)
# C tests of the runner (tests/test_stress*.c) link its objects too
STRESS_TEST_BINS := $(filter $(BUILD)/tests/test_stress%,$(TEST_BINS))
$(STRESS_TEST_BINS): $(STRESS_OBJS)
$(STRESS_TEST_BINS): LDFLAGS += $(STRESS_OBJS)
# liburcu (urcu-memb) behind the model's RCU on real threads (stress/rcu_urcu.c)
URCU_CFLAGS := $(shell pkg-config --cflags liburcu-memb 2>/dev/null)
URCU_LIBS := $(shell pkg-config --libs liburcu-memb 2>/dev/null || echo -lurcu-memb -lurcu-common)
$(BUILD)/stress/rcu_urcu.o: ALL_CFLAGS += $(URCU_CFLAGS)
$(MMFUZZ) $(STRESS_TEST_BINS): LDLIBS += $(URCU_LIBS)

.PHONY: bench-stress bench-lines
# bench-lines: the cache lines the tasks of a stress run trade, counted by
# tools/linesim.c from the model's TSan instrumentation (LINESIM_ARGS: the
# stress arguments, default pcp_alloc1 -t 2 -s 6).
bench-lines: deps
	@tools/linesim.sh $(LINESIM_ARGS)

# make bench-stress prints the figures and writes them, with the commit, the
# machine and its load, to docs/measurements/bench-stress.md (bench/mpage.sh).
bench-stress: $(MMFUZZ)
	@load=$$(cut -d' ' -f1-3 /proc/loadavg); out=$(BUILD)/bench-stress.out; rm -f $$out.failed; \
	{ echo "== bench-stress: $(BUILD), pcp_alloc1, 1 and 2 tasks, 5 s each after warmup =="; \
	  $(MMFUZZ) stress --scaling pcp_alloc1 --mode thread --max-tasks 2 -s 5 \
		-o $(BUILD)/bench-stress.csv >/dev/null || touch $$out.failed; \
	  awk -F, -v nproc=$$(nproc) 'NR == 3 { one = $$4; idle = $$5 } NR == 4 { two = $$4 } END { \
		if (!one || !two) { print "bench-stress: no result"; exit 1 } \
		printf "pcp_alloc1 threads: 1 task %d ops/s, 2 tasks %d ops/s\n", one, two; \
		printf "pcp_alloc1 2-task/1-task: %.2f (linear 2.00, target >= 1.8)\n", two / one; \
		printf "order-0 alloc+free pair: %.1f ns (1 task)\n", 1e9 / one; \
		if (idle < 100 * (1 - 1 / nproc) - 10) \
			printf "note: %.0f%% idle during the 1-task run, not ~%.0f%%: another load shared the CPUs\n", \
				idle, 100 * (1 - 1 / nproc) }' \
		$(BUILD)/bench-stress.csv || touch $$out.failed; \
	  echo "== bench-stress: $(BUILD), brk1, 1 task, process mode, 5 s after warmup =="; \
	  $(MMFUZZ) stress brk1 -t 1 --mode process -s 5 > $(BUILD)/bench-stress-brk1.out || touch $$out.failed; \
	  awk -F: '$$1 == "average" { ops = $$2 } END { \
		if (!ops) { print "bench-stress: brk1: no result"; exit 1 } \
		printf "brk1 processes: 1 task %d ops/s (target >= 1000000)\n", ops; \
		printf "brk + access, one op: %.1f ns\n", 1e9 / ops }' $(BUILD)/bench-stress-brk1.out || touch $$out.failed; \
	  echo "== bench-stress: $(BUILD), the SLUB workloads beside the order-0 pair, 5 s each after warmup =="; \
	  for w in "slub_alloc1 -t 1" "slub_xfree1 -t 2" "slub_rcu1 -t 1"; do \
	    $(MMFUZZ) stress $$w -s 5 > $(BUILD)/bench-stress-slub.out || touch $$out.failed; \
	    awk -F: -v w="$$w" 'NR == FNR { if (FNR == 3) { split($$0, f, ","); pair = f[4] } next } \
		$$1 == "average" { ops = $$2 } $$1 == "stress.ops_per_task_cpu_s" { cpu = $$2 } \
		$$1 == "model.slub.slab_pages_per_kop" { pg = $$2 } END { \
		if (!ops || !pair) { print "bench-stress: " w ": no result"; exit 1 } \
		printf "%s: %d ops/s, one op %.1f ns (%.2f times the order-0 pair), %.1f ns of task CPU; slab pages a thousand ops:%s\n", \
			w, ops, 1e9 / ops, pair / ops, cpu ? 1e9 / cpu : 0, pg }' \
		$(BUILD)/bench-stress.csv $(BUILD)/bench-stress-slub.out || touch $$out.failed; \
	  done; \
	} 2>&1 | tee $$out; \
	if [ -e $$out.failed ]; then rm -f $$out.failed; exit 1; fi; \
	bench/mpage.sh -n bench-stress -c "make bench-stress" -l "$$load" -f $$out
# bench-seed002: seed 002's table (docs/seed002.md): deferred_init1 with
# each deferred_page_init_max_threads variant, medians of 9 runs, and the
# simulated 8- and 80-CPU nodes; writes docs/measurements/bench-seed002.md.
.PHONY: bench-seed002
bench-seed002: $(MMFUZZ)
	bench/seed002.sh -b $(BUILD)

# make bench-seed004 [SEED004_RUNS=5] [SEED004_RATES="0 10 100 1000"]: seed 004's
# figures (slub_xfree1, long partial lists, a slabinfo reader at those rates,
# each variant; medians of the runs) to docs/measurements/bench-seed004.md
.PHONY: bench-seed004
bench-seed004: $(MMFUZZ)
	@load=$$(cut -d' ' -f1-3 /proc/loadavg); out=$(BUILD)/bench-seed004.out; rm -f $$out.failed; \
	{ bench/seed004.sh -r $(or $(SEED004_RUNS),5) -z "$(or $(SEED004_RATES),0 10 100 1000)" \
		$(MMFUZZ) || touch $$out.failed; } 2>&1 | tee $$out; \
	if [ -e $$out.failed ]; then rm -f $$out.failed; exit 1; fi; \
	bench/mpage.sh -n bench-seed004 -c "make bench-seed004" -l "$$load" -f $$out
# ---- end of stress ----

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(TEST_BINS:=.d) $(FUZZ_BINS:=.d) $(BENCH_BINS:=.d)

# ---- mutation score ----
# make mutants [MUTANTS_TIME=120] [MUTANTS=REGEX]: every single-point mutant
# of src/mm from the catalogue (bench/mutants/*.cat, one file per layer) against the default
# campaign, MUTANTS_TIME seconds each; the table and the score
# (bench/mutants.sh, report in $(BUILD)/mutants/report).  Hours on two cores:
# ci/mutants runs it, make test does not.
.PHONY: mutants
mutants: $(MMFUZZ)
	@bench/mutants.sh -t $(or $(MUTANTS_TIME),120) $(if $(MUTANTS),-m '$(MUTANTS)') \
		-o $(BUILD)/mutants -p docs/measurements/mutants.md
