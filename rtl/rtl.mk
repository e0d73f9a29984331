# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# RTL checks: every file through Verilator lint (-Wall), Icarus (-g2012)
# (warnings are errors) and Yosys (read_verilog -sv, synth_ecp5), each module
# as its own top; and the check that no input of tg_nic reaches an output
# combinationally (check-ports).

RTL_MODS := $(basename $(notdir $(RTL_SRCS)))
# the slowest syntheses first, so that make -j ends them together
RTL_SYNTH_FIRST := tg_nic tg_link_tx tg_host_if tg_rx_engine
RTL_SYNTH_MODS  := $(RTL_SYNTH_FIRST) $(filter-out $(RTL_SYNTH_FIRST),$(RTL_MODS))

.PHONY: lint-verilator lint-iverilog synth-check check-ports
lint: lint-verilator lint-iverilog

lint-verilator:
	@for m in $(RTL_MODS); do \
		$(VERILATOR) --lint-only -Wall -Irtl --top-module $$m $(RTL_SRCS) || exit 1; \
	done; echo "verilator -Wall: $(words $(RTL_MODS)) modules clean"

lint-iverilog:
	@mkdir -p $(BUILD)
	@for m in $(RTL_MODS); do \
		$(IVERILOG) -g2012 -Wall -Wno-sensitivity-entire-array -Irtl -s $$m \
			-o $(BUILD)/iverilog-$$m.vvp $(RTL_SRCS) > $(BUILD)/iverilog-$$m.log 2>&1; rc=$$?; \
		cat $(BUILD)/iverilog-$$m.log; \
		[ $$rc -eq 0 ] && ! grep -qi warning $(BUILD)/iverilog-$$m.log || exit 1; \
	done; echo "iverilog -g2012: $(words $(RTL_MODS)) modules compile"

# Synthesis of each module for ECP5, the Colorlight board's family; writes
# a resource report per module (one target each, so that make -j runs them
# side by side). synth_ecp5's script runs up to its final checks, which
# follow without its autoname pass: renaming the netlist's wires changes
# nothing that is checked.
synth_report = @for m in $(1); do \
		printf '%-16s %s\n' $$m "$$(grep -E 'Number of cells' $(BUILD)/synth/$$m.stat | tail -1)"; \
	done
synth-check: check-ports $(RTL_SYNTH_MODS:%=$(BUILD)/synth/%.stat)
	$(call synth_report,$(RTL_SYNTH_MODS))

# No path of tg_nic runs combinationally from an input to an output
# (docs/interfaces.md, "Timing at the ports"), so that a cycle-based
# simulator needs the core's logic settled once per clock. With the
# memories mapped to flip-flops and multiplexers (an asynchronous read is
# logic), every input but the clock is followed through logic up to the
# first flip-flop: no output may be reached.
FF_CELLS := \$$dff,\$$dffe,\$$adff,\$$adffe,\$$sdff,\$$sdffe,\$$sdffce,\$$aldff,\$$aldffe,\$$dffsr,\$$dffsre
check-ports: $(BUILD)/synth/ports.txt
	@if [ -s $< ]; then echo "check-ports: outputs of tg_nic reached combinationally from an input:"; \
		sed 's/^/  /' $<; exit 1; fi; echo "check-ports: no path from an input of tg_nic to an output"
$(BUILD)/synth/ports.txt: $(RTL_SRCS) $(RTL_INCS) rtl/rtl.mk
	@mkdir -p $(@D)
	@$(JOBTIME) synth ports $(YOSYS) -q -l $(BUILD)/synth/ports.log \
		-p "read_verilog -sv -Irtl $(RTL_SRCS); hierarchy -top tg_nic; proc; flatten; memory; opt_clean; \
		    tee -q -o $@.tmp select -list i:* i:clk %d %co*:-$(FF_CELLS) o:* %i" \
		> /dev/null 2> $(BUILD)/synth/ports.err || { cat $(BUILD)/synth/ports.err; exit 1; }
	@mv $@.tmp $@

$(BUILD)/synth/%.stat: $(RTL_SRCS) $(RTL_INCS)
	@mkdir -p $(@D)
	@$(JOBTIME) synth $* $(YOSYS) -q -l $(BUILD)/synth/$*.log \
		-p "read_verilog -sv -Irtl $(RTL_SRCS); synth_ecp5 -top $* -run :check; hierarchy -check; \
		    check -noinit; tee -o $@.tmp stat" \
		2> $(BUILD)/synth/$*.err || { cat $(BUILD)/synth/$*.err; exit 1; }
	@mv $@.tmp $@
