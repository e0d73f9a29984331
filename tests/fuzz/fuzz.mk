# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Build fragment: libFuzzer harnesses of the C code that parses untrusted
# bytes, their seed corpora, and the fuzzing targets.

# clang with libFuzzer (Debian: clang-14 and libclang-rt-14-dev, installed
# by scripts/setup.sh); without it the harnesses are skipped
FUZZ_CC     ?= $(shell command -v clang-14 2>/dev/null || command -v clang 2>/dev/null)
FUZZ_FLAGS  := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
               -fno-omit-frame-pointer
FUZZ_NAMES  := fuzz_frame fuzz_switch fuzz_drv fuzz_parse
FUZZ_BINS   := $(addprefix $(BUILD)/fuzz/,$(FUZZ_NAMES))
FUZZ_DEPS   := tests/fuzz/fuzz_input.h tests/fuzz/fuzz.mk
# seconds and runs of each harness in `make test` and, per harness, in `make fuzz`
FUZZ_SMOKE_SECS ?= 5
FUZZ_SMOKE_RUNS ?= 200000
FUZZ_SECS       ?= 300
# the network-port fuzz of `make fuzz`: frames per seed, and the seeds
FUZZ_RX_FRAMES  ?= 200000
FUZZ_RX_SEEDS   ?= 1 2 3 4

.PHONY: fuzz-build fuzz-smoke fuzz fuzz-corpus

$(BUILD)/fuzz/fuzz_frame: tests/fuzz/fuzz_frame.c include/tg/tg_frame.h $(FUZZ_DEPS)
$(BUILD)/fuzz/fuzz_switch: tests/fuzz/fuzz_switch.c sim/tg_switch.c $(FUZZ_DEPS)
$(BUILD)/fuzz/fuzz_drv: tests/fuzz/fuzz_drv.c driver/tg_alloc.c driver/tg_drv_queue.c $(FUZZ_DEPS)
# the whole library but its in-process simulator glue
$(BUILD)/fuzz/fuzz_parse: tests/fuzz/fuzz_parse.c $(filter-out libtg/tg_open_sim.c,$(LIBTG_SRCS)) $(FUZZ_DEPS)

# each harness is one clang invocation over its C sources (headers filtered out)
$(FUZZ_BINS):
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) -MF $@.d -MT $@ $(CSTD) $(WARN) -Wno-unused-command-line-argument \
		$(FUZZ_FLAGS) -o $@ $(filter %.c,$^) $(LIBTG_LDLIBS)

fuzz-build: $(FUZZ_BINS)

# the seed corpora are generated (tests/fuzz/corpus/NAME), never copied in
fuzz-corpus:
	$(PYTHON) scripts/gen_fuzz_corpus.py

# a short bounded run of every harness over its seed corpus (part of `make test`)
fuzz-smoke: $(FUZZ_BINS)
	$(PYTHON) scripts/gen_fuzz_corpus.py --check
	BUILD=$(BUILD) scripts/run_fuzzers.sh $(FUZZ_SMOKE_SECS) $(FUZZ_SMOKE_RUNS) $(FUZZ_NAMES)

# the long soak: the network-port fuzz over several seeds, then every harness
fuzz: $(BUILD)/tests/test_fuzz_rx $(FUZZ_BINS)
	for s in $(FUZZ_RX_SEEDS); do \
		TG_TEST_SEED=$$s TG_FUZZ_FRAMES=$(FUZZ_RX_FRAMES) $(BUILD)/tests/test_fuzz_rx || exit 1; \
	done
	BUILD=$(BUILD) scripts/run_fuzzers.sh $(FUZZ_SECS) -1 $(FUZZ_NAMES)

-include $(wildcard $(BUILD)/fuzz/*.d)
