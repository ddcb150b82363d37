# agentready — see README.md. Every target that needs a browser first makes
# sure Debian's Chromium is there (installing it with apt-get when it is not).

GO        ?= go
GINKGO    := $(GO) tool ginkgo
# One Ginkgo process per core, at most 4 (each has its own Chromium, or its
# own tabs in an attached one): every spec starts its own reference app. On
# 2 cores, 148 specs took 55 s on two processes against 72 s on one
# (docs/decisions/2026-12-05-a-process-per-core.md). Against a user's app
# (AGENTREADY_BASE_URL) one process: that app's state is shared, and a
# scenario must not see another's writes in its state reads. PROCS=n wins.
# (The suite refuses more than one process against a user's app.)
CORES     := $(shell env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
ifndef PROCS
ifneq ($(AGENTREADY_BASE_URL),)
PROCS     := 1
else
PROCS     := $(shell n=$(CORES); [ "$$n" -gt 4 ] 2>/dev/null && n=4; [ "$$n" -ge 1 ] 2>/dev/null || n=1; echo $$n)
endif
endif
ifeq ($(shell echo '$(PROCS)' | grep -Ex '[1-9][0-9]*'),)
$(error PROCS=$(PROCS) is not a number of processes, e.g. PROCS=2)
endif
REPORTS   ?= reports
EVIDENCE  ?= evidence
export AGENTREADY_EVIDENCE ?= $(abspath $(EVIDENCE))
ifndef RUN_ID
RUN_ID    := $(shell date -u +%Y%m%dT%H%M%SZ)
endif
export AGENTREADY_RUN_ID := $(RUN_ID)
VERIFY    := $(GO) run ./cmd/agentready verify

# SHARD=k/N: run only shard k of N (specs and scenarios chosen by a stable
# hash of their IDs), into the run folder <RUN_ID>.k-of-N with the reports
# e2e.k-of-N.json and .junit.xml (copied into the run folder too, for
# `agentready merge`). Give every shard the same RUN_ID.
SHARD ?= $(AGENTREADY_SHARD)
ifneq ($(SHARD),)
ifeq ($(shell echo '$(SHARD)' | grep -Ex '[1-9][0-9]*/[1-9][0-9]*'),)
$(error SHARD=$(SHARD) is not k/N, e.g. SHARD=1/2)
endif
SHARD_TAG := .$(subst /,-of-,$(SHARD))
export AGENTREADY_SHARD := $(SHARD)
SHARD_FILTER := !other-shard
endif
RUN_DIR   := $(AGENTREADY_EVIDENCE)/$(RUN_ID)$(SHARD_TAG)
REPORT    := e2e$(SHARD_TAG)

GINKGO_FLAGS := --procs=$(PROCS) --fail-on-empty --timeout=10m --poll-progress-after=60s \
	--output-dir=$(REPORTS) --json-report=$(REPORT).json --junit-report=$(REPORT).junit.xml

# Against a user's own app (AGENTREADY_BASE_URL), only the specs made from
# scenario files run: the suite's own specs are about its embedded app.
ifneq ($(AGENTREADY_BASE_URL),)
ONLY_FILES := scenario-file
endif
space := $(subst ,, )
E2E_TERMS := $(strip $(ONLY_FILES) $(SHARD_FILTER))
E2E_FILTER := $(if $(E2E_TERMS),--label-filter='$(subst $(space), && ,$(E2E_TERMS))')
SCENARIO_FILTER = --label-filter='$(if $(E2E_TERMS),($(ID))$(foreach t,$(E2E_TERMS), && $(t)),$(ID))'

# E2E_SUMMARY: the scenarios' table and the closing line; an INCONCLUSIVE
# scenario becomes a JUnit <error> with its codes (ci/summarize).
E2E_SUMMARY = $(GO) run ./ci/summarize --scenarios --junit $(REPORTS)/$(REPORT).junit.xml

# after-run: verify what was written, name the index, print the table and the
# summary line, whatever the specs did; fail when the specs or verify failed.
# A run of specs alone (make scenario ID=smoke-calls) writes no bundle, which
# summarize --bundles says; it fails a run whose report holds scenarios' rows
# and whose folder holds no bundle.
# COVERAGE_GATE: a whole run of our own app (no AGENTREADY_BASE_URL, no
# SHARD) is held to the known gaps of its coverage of the agent surface:
# coverage lost fails it, a gap covered must leave the list (issue 44).
COVERAGE_GAPS := e2e/coverage-gaps.txt
COVERAGE_GATE := $(if $(AGENTREADY_BASE_URL)$(SHARD),,--coverage-gaps $(COVERAGE_GAPS))

define after-run
status=$$?; \
if ls $(RUN_DIR)/*/manifest.json >/dev/null 2>&1; then $(VERIFY) $(RUN_DIR) || status=1; fi; \
echo "evidence: $(RUN_DIR)/index.html"; \
$(E2E_SUMMARY) --bundles $(RUN_DIR) --label $(1) $(2) $(REPORTS)/$(REPORT).json || status=1; \
$(if $(SHARD),if [ -d $(RUN_DIR) ]; then cp $(REPORTS)/$(REPORT).json $(RUN_DIR)/e2e.json && cp $(REPORTS)/$(REPORT).junit.xml $(RUN_DIR)/e2e.junit.xml || status=1; fi;) \
exit $$status
endef

.PHONY: all deps chromium test unit e2e coverage-gaps e2e-attached mutants bench bench-scale flake flake-unit known-answers scenario serve verify vet fmt clean grid-test grid-bench

all: test

## deps: Go modules and Chromium (Debian's package; never a downloaded browser)
deps: chromium
	$(GO) mod download

chromium:
	@bash ci/ensure-chromium.sh

## vet: go vet, gofmt, staticcheck and actionlint on the CI templates (the versions go.mod's tool lines pin)
vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || { echo "gofmt would change:"; gofmt -l .; exit 1; }
	$(GO) tool staticcheck ./...
	$(GO) tool actionlint ci/github/*.yml

## unit: the packages' own tests, with the race detector (the browser package's start Chromium)
unit: deps
	@mkdir -p $(REPORTS)
	$(GO) test -race -count=1 -json $$($(GO) list ./... | grep -v -e '/e2e$$' -e '/internal/runs/mutants$$') > $(REPORTS)/unit.json || { $(GO) run ./ci/summarize --failures $(REPORTS)/unit.json; exit 1; }
	@$(GO) run ./ci/summarize --label unit $(REPORTS)/unit.json

## test: what CI runs: vet, unit tests, the browser specs, verify every bundle they wrote, make e2e against
## an app of our own without observation endpoints (ci/user-mode.sh), then the mutant gate
test: deps vet unit
	@$(GINKGO) $(GINKGO_FLAGS) ./e2e; status=$$?; $(E2E_SUMMARY) --label e2e $(COVERAGE_GATE) $(REPORTS)/e2e.json || status=1; exit $$status
	$(VERIFY) $(AGENTREADY_EVIDENCE)/$(RUN_ID)
	bash ci/user-mode.sh
	bash ci/known-answers.sh
	$(MAKE) --no-print-directory mutants
	@$(GO) run ./ci/summarize --label all $(REPORTS)/unit.json $(REPORTS)/e2e.json $(REPORTS)/mutants.json

## mutants: every variant killed by its own code, every evidence mutation flips, baseline agents pass nothing
mutants: deps
	@mkdir -p $(REPORTS)
	AGENTREADY_REPORTS=$(abspath $(REPORTS)) $(GO) test -count=1 -json ./internal/runs/mutants > $(REPORTS)/mutants.json || { $(GO) run ./ci/summarize --failures $(REPORTS)/mutants.json; cat $(REPORTS)/mutants.txt $(REPORTS)/evidence-mutations.txt 2>/dev/null; exit 1; }
	@cat $(REPORTS)/mutants.txt $(REPORTS)/baselines.txt
	@tail -1 $(REPORTS)/evidence-mutations.txt
	@$(GO) run ./ci/summarize --label mutants $(REPORTS)/mutants.json

## coverage-gaps: rewrite e2e/coverage-gaps.txt from the last make e2e (reports/e2e.json)
coverage-gaps:
	$(GO) run ./ci/summarize --coverage-gaps $(COVERAGE_GAPS) --write-gaps $(REPORTS)/e2e.json

## e2e: the main job: every spec and scenario against the embedded reference app (or only the
## scenario files against AGENTREADY_BASE_URL), with evidence, verify, the index and a summary;
## SHARD=k/N runs shard k of N (agentready merge joins the shards' run folders)
e2e: deps
	@mkdir -p $(REPORTS)
	@$(GINKGO) $(GINKGO_FLAGS) $(E2E_FILTER) ./e2e; $(call after-run,e2e,$(COVERAGE_GATE))

## e2e-attached: make e2e against a Chromium started by hand with exactly the README's attach command
## (ci/e2e-attached.sh reads it from README.md), attached by AGENTREADY_BROWSER_URL
e2e-attached: deps
	@bash ci/e2e-attached.sh

## grid-test: a Selenium Grid on loopback (ci/grid.sh), CONF-01 and the server rules through it, every
## bundle verified, interrupts that delete their sessions, and a grid stop that leaves no process
grid-test: deps
	@bash ci/grid-test.sh

## grid-bench N=5: a grid's browser against a local one (start, end, one scenario) as ratios in one run,
## and the cost of merging shards; reports/grid-bench.json
grid-bench: deps
	@bash ci/grid.sh start
	@AGENTREADY_GRID_URL=http://127.0.0.1:$${GRID_PORT:-4444} $(GO) run ./bench/grid -n $(or $(N),5) -out $(REPORTS)/grid-bench.json; \
	status=$$?; bash ci/grid.sh stop || status=1; exit $$status

## verify BUNDLE=path: check bundles (or a run folder) offline
verify:
	$(VERIFY) $(BUNDLE)

## known-answers: seed 003's known-answer cases from a fresh clone of HEAD in another folder, into an empty output folder; prints a table, verifies every bundle
known-answers:
	@bash ci/known-answers.sh

## scenario ID=AMB-01: one scenario (or any label expression) alone
scenario: deps
	@test -n "$(ID)" || { echo "usage: make scenario ID=AMB-01 (or a label expression)"; exit 2; }
	@mkdir -p $(REPORTS)
	@$(GINKGO) $(GINKGO_FLAGS) --procs=1 $(SCENARIO_FILTER) ./e2e; $(call after-run,scenario)

## bench: the CONF-01 attempt 3 flow four ways (bare chromedp, the suite, Playwright bare and with the suite's checks, held
## to check alike on the reference app's defects first) and the whole suite's wall time; reports/bench.json
bench: deps
	@command -v node >/dev/null || { echo "bench: node is needed for the Playwright comparison (apt-get install -y nodejs npm)"; exit 1; }
	cd bench/playwright && npm ci --no-audit --no-fund --loglevel=error
	$(GO) run ./bench -n $(or $(N),20) -out $(REPORTS)/bench.json

## bench-scale ROUNDS=5: how judge, seal, report, write, verify, the run's reporters and reading a catalog
## grow with tools, requests, calls, output size and scenarios per run; a table and reports/bench-scale.json
bench-scale: deps
	$(GO) run ./bench/scale -rounds $(or $(ROUNDS),5) -out $(REPORTS)/bench-scale.json

## flake-unit N=5 HOGS=2: rerun the unit tests (-race) N times beside HOGS CPU hogs and report every failure
flake-unit: deps
	REPORTS=$(REPORTS) HOGS=$(or $(HOGS),0) bash ci/flake-unit.sh $(or $(N),5)

## flake N=20: rerun the whole suite N times and report every failure (0 is required)
flake: deps
	PROCS=$(PROCS) REPORTS=$(REPORTS) bash ci/flake.sh $(or $(N),20)

## serve: the reference app on http://127.0.0.1:8080/events
serve:
	$(GO) run ./cmd/agentready serve $(ARGS)

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf $(REPORTS) $(EVIDENCE)
